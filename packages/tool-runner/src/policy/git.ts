import { expandLong, findLong, operands } from './args';
import { finding, type Finding, type JudgeCtx } from './finding';
import { isOutsideWorkspace, secretFindings } from './paths';
import { judgeGitOptions } from './options';
import { SUBCOMMANDS, type GitVerdicts } from './git-subcommands';
import { SAFE_CONFIG_KEY } from './git-config-keys';
import { judgeGitNet } from './git-net';

/** Subcommands that only read (their options are judged by their tables). */
export const GIT_READ_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'cat-file',
  'rev-list',
  'describe',
  'shortlog',
  'blame',
  'annotate',
  'grep',
  'count-objects',
  'fsck',
  'merge-base',
  'name-rev',
  'show-ref',
  'for-each-ref',
  'var',
  'whatchanged',
  'diff-tree',
  'diff-files',
  'diff-index',
  'check-ignore',
  'check-attr',
  'check-ref-format',
  'range-diff',
  'verify-commit',
  'verify-tag',
  'verify-pack',
  'cherry',
  'show-branch',
  'help',
  'version',
  'get-tar-commit-id',
  'column',
  'stripspace',
  'patch-id',
  'fast-export',
  'check-mailmap',
  'interpret-trailers',
  'merge-tree',
  'show-index',
  'unpack-file',
]);

const WRITE = new Set([
  'add',
  'commit',
  'checkout',
  'switch',
  'stash',
  'merge',
  'cherry-pick',
  'revert',
  'rm',
  'mv',
  'restore',
  'reset',
  'init',
  'am',
  'apply',
  'notes',
  'tag',
  'branch',
  'worktree',
  'submodule',
  'remote',
  'config',
  'gc',
  'repack',
  'pack-refs',
  'update-index',
  'update-ref',
  'hash-object',
  'write-tree',
  'commit-tree',
  'mktree',
  'mktag',
  'read-tree',
  'symbolic-ref',
  'replace',
  'bisect',
  'lfs',
  'maintenance',
  'sparse-checkout',
  'format-patch',
  'archive',
  'rerere',
  'prune-packed',
  'fast-import',
  'bundle',
  'clean',
  'rebase',
  'reflog',
  'fetch',
  'pull',
  'push',
  'clone',
  'ls-remote',
  'unpack-objects',
  'index-pack',
  'multi-pack-index',
  'commit-graph',
  'merge-file',
  'checkout-index',
  'request-pull',
]);

/** Subcommands that run other programs, rewrite history wholesale or serve/print secrets. */
const BLOCK = new Set([
  'filter-branch',
  'filter-repo',
  'difftool',
  'mergetool',
  'daemon',
  'instaweb',
  'shell',
  'send-email',
  'upload-pack',
  'receive-pack',
  'upload-archive',
  'http-backend',
  'web--browse',
  'prune',
  'gui',
  'citool',
  'p4',
  'svn',
  'cvsimport',
  'cvsserver',
  'archimport',
  'imap-send',
  'replay',
  'credential',
  'credential-store',
  'credential-cache',
  'credential-osxkeychain',
  'credential-manager',
  'credential-libsecret',
  'submodule--helper',
]);

const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--paginate',
  '-p',
  '--no-replace-objects',
  '--bare',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-lazy-fetch',
  '--no-advice',
  '--html-path',
  '--man-path',
  '--info-path',
]);

const HOOK_SUBS = new Set([
  'commit',
  'merge',
  'checkout',
  'switch',
  'push',
  'pull',
  'rebase',
  'am',
  'cherry-pick',
  'revert',
  'gc',
  'worktree',
  'clone',
]);

const NETWORK_SUBS: Record<string, Array<'network' | 'write'>> = {
  fetch: ['network'],
  'request-pull': ['network'],
  'ls-remote': ['network'],
  pull: ['network', 'write'],
  clone: ['network', 'write'],
  push: ['network', 'write'],
};

/** Judge `git <args>`: global options first, then the subcommand and its options. */
export function judgeGit(args: readonly string[], ctx?: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '-c' || (a.startsWith('-c') && !a.startsWith('--'))) {
      const kv = a === '-c' ? (args[++i] ?? '') : a.slice(2);
      const key = kv.split('=')[0];
      if (!SAFE_CONFIG_KEY.test(key)) out.push(finding('git.config', 'L2', { a: `-c ${kv}` }));
    } else if (a === '--config-env' || a.startsWith('--config-env=')) {
      out.push(finding('git.config', 'L2', { a }));
      if (a === '--config-env') i++;
    } else if (a.startsWith('--exec-path=')) {
      out.push(finding('git.exec_option', 'L2', { a }));
    } else if (a === '--exec-path') {
      // prints the path only
    } else if (a === '--git-dir' || a === '--work-tree' || a === '--namespace') {
      out.push(finding('git.other_repo', 'L1', { a: `${a} ${args[i + 1] ?? ''}` }));
      i++;
    } else if (a.startsWith('--git-dir=') || a.startsWith('--work-tree=')) {
      out.push(finding('git.other_repo', 'L1', { a }));
    } else if (a.startsWith('--namespace=') || a.startsWith('--attr-source=')) {
      // read-only view options
    } else if (a === '-C') {
      const dir = args[++i] ?? '';
      out.push(...secretFindings([dir], ctx));
      if (ctx && isOutsideWorkspace(dir, ctx)) out.push(finding('git.other_repo', 'L1', { a: `-C ${dir}` }));
    } else if (a === '--attr-source' || a === '--list-cmds') {
      i++;
    } else if (a.startsWith('--list-cmds=') || GLOBAL_FLAGS.has(a)) {
      // harmless
    } else if (a === '--help' && args.slice(i + 1).some((x) => !x.startsWith('-'))) {
      // `git --help log` is `git help log`: the manual page viewer.
      return [...out, finding('git.help_viewer', 'L1', { a: args.join(' ') })];
    } else if (a === '--version' || a === '-v' || a === '--help' || a === '-h') {
      return [...out, finding('git.read', 'L0', { s: a })];
    } else if (a.startsWith('-')) {
      out.push(finding('arg.unparsed', 'L2', { p: 'git', a }));
    } else {
      break;
    }
  }
  if (i >= args.length) return [...out, finding('git.read', 'L0', { s: '' })];
  const sub = args[i];
  const rest = args.slice(i + 1);
  // `git <sub> --help` runs `git help <sub>`: the viewer the repository config may name.
  const dd = rest.indexOf('--');
  if ((dd < 0 ? rest : rest.slice(0, dd)).includes('--help') && sub !== 'help')
    return [...out, finding('git.help_viewer', 'L1', { a: `git ${sub} --help` })];
  const found = [...out, ...judgeSubcommand(sub, rest, ctx)];
  // A read sub-command's own options, from its table (git's prefix and `--no-` rules).
  return [
    ...found,
    ...judgeGitOptions(
      sub,
      rest,
      ctx,
      found.every((f) => f.level === 'L0'),
    ),
  ];
}

function rewrite(sub: string, a: string): Finding {
  return finding('git.rewrite', 'L2', { s: sub, a });
}

/** Long options the checks below look for exactly; abbreviations are expanded to them first. */
const CHECKED_LONG = [
  '--output',
  '--ext-diff',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--template',
  '--config',
  '--separate-git-dir',
  '--open-files-in-pager',
  '--force',
  '--force-with-lease',
  '--force-if-includes',
  '--mirror',
  '--delete',
  '--prune',
  '--hard',
  '--amend',
  '--discard-changes',
  '--force-create',
  '--worktree',
  '--staged',
  '--dry-run',
  '--remote',
  '--pathspec-from-file',
  '--overwrite-ignore',
  '--ours',
  '--theirs',
  '--patch',
  '--stdin',
  '--edit',
  '--unset',
  '--unset-all',
  '--add',
  '--replace-all',
  '--rename-section',
  '--remove-section',
  '--in-place',
  '--lost-found',
  '--stdout',
  '--list',
  '--apply',
  '--move',
  '--copy',
  '--set-upstream-to',
  '--unset-upstream',
  '--edit-description',
  '--track',
  '--no-track',
  '--create-reflog',
  '--annotate',
  '--sign',
  '--message',
  '--file',
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--abort',
  '--quit',
  '--continue',
  '--skip',
  '--show-current-patch',
];

function judgeSubcommand(sub: string, rawRest: readonly string[], ctx: JudgeCtx | undefined): Finding[] {
  const out: Finding[] = [];
  // Network sub-commands: their own tables, read as parse-options reads them (git-net.ts); the rest: the long options below by prefix.
  const net = judgeGitNet(sub, rawRest, ctx);
  if (net) out.push(...net.findings);
  const rest = net ? net.rest : expandLong(rawRest, CHECKED_LONG);
  if (BLOCK.has(sub)) {
    if (sub.startsWith('credential')) return [finding('git.credentials', 'L2', { s: sub })];
    return [rewrite(sub, '')];
  }
  if (!GIT_READ_SUBCOMMANDS.has(sub) && !WRITE.has(sub)) {
    return [finding('git.unknown', 'L2', { s: sub }, { allowable: true })];
  }

  // Options that make any subcommand run a program or write a file.
  // (archive's `--output` is its archive file, judged by where it writes: its table, git-net.ts.)
  const outOpt = sub === 'archive' ? undefined : findLong(rest, ['--output']);
  if (outOpt) out.push(finding('git.exec_option', 'L2', { a: outOpt }));
  const ext = findLong(rest, ['--ext-diff']);
  if (ext) out.push(finding('git.exec_option', 'L2', { a: ext }));
  if (!net) {
    const packOpt = findLong(rest, ['--upload-pack', '--receive-pack', '--exec', '--template', '--config', '--separate-git-dir']);
    if (packOpt) out.push(finding('git.exec_option', 'L2', { a: packOpt }));
  }
  if (sub === 'grep') {
    const o = findLong(rest, ['--open-files-in-pager']) ?? rest.find((a) => a === '-O' || a.startsWith('-O'));
    if (o) out.push(finding('git.exec_option', 'L2', { a: o }));
  }
  const url = rest.find((a) => /^(ext|fd)::/i.test(a));
  if (url) out.push(finding('git.exec_option', 'L2', { a: url }));

  // Subcommands that run the repository's hooks (husky's core.hooksPath is project code) are
  // never lowered by allowWrite/allowNetwork.
  const hooks = HOOK_SUBS.has(sub);
  const v: GitVerdicts = {
    sub,
    ops: operands(rest),
    first: rest[0],
    read: () => finding('git.read', 'L0', { s: sub }),
    write: () => finding('git.write', 'L1', { s: sub }, hooks ? {} : { cat: ['write'] }),
    net: () => finding('git.network', 'L1', { s: sub }, hooks ? {} : { cat: NETWORK_SUBS[sub] ?? ['network', 'write'] }),
    rewrite: (a) => rewrite(sub, a),
  };
  const rule = Object.prototype.hasOwnProperty.call(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
  const said = rule ? rule(rest, v) : GIT_READ_SUBCOMMANDS.has(sub) ? v.read() : v.write();
  return Array.isArray(said) ? [...out, ...said] : [...out, said];
}
