/** What each git sub-command with its own rules does with its arguments (the rest are READ or WRITE as listed in git.ts). */
import { findLong, operands, shortCluster } from './args';
import { finding, type Finding } from './finding';

/** The verdicts a sub-command's rule picks from, and what it looks at. */
export interface GitVerdicts {
  sub: string;
  /** Operands of the sub-command; `first` is its first argument. */
  ops: string[];
  first: string;
  read(): Finding;
  write(): Finding;
  net(): Finding;
  rewrite(a: string): Finding;
}

type Rule = (rest: readonly string[], v: GitVerdicts) => Finding | Finding[];

/** Throws away uncommitted (or stashed) work: refused, with the way to keep it. */
const discard = (sub: string, a: string): Finding => finding('git.discard', 'L2', { s: sub, a });

/**
 * A pathspec that names the whole tree (or everything below the folder the step runs in):
 * `.`, `./`, `:/`, `:(top)`, `*`, `..`, magic prefixes included.
 */
export function isWholeTree(spec: string): boolean {
  let s = spec;
  const magic = /^:\(([^)]*)\)/.exec(s);
  if (magic) s = s.slice(magic[0].length);
  else if (s.startsWith(':/')) s = s.slice(2);
  else if (s.startsWith(':') && !/^:[!^]/.test(s)) s = s.slice(1);
  const n =
    s === ''
      ? '.'
      : s
          .replace(/\/+$/, '')
          .split('/')
          .filter((c) => c !== '' && c !== '.')
          .join('/');
  return n === '' || n === '.' || n === '*' || /^\.\.(\/\.\.)*$/.test(n);
}

/** `git help <topic>` and `git <sub> --help` open a manual page through the viewer the repository config may name. */
export const HELP_LISTS = new Set([
  '-a',
  '--all',
  '-g',
  '--guides',
  '-c',
  '--config',
  '--user-interfaces',
  '--developer-interfaces',
  '--no-external-commands',
  '--no-aliases',
  '--verbose',
  '--config-for-completion',
  '--config-sections-for-completion',
]);

/** Archive formats git knows without configuration (`tgz` and `tar.gz` run a command the config may replace: forced back by git-harden). */
const ARCHIVE_FORMATS = new Set(['tar', 'zip', 'tgz', 'tar.gz']);

export const SUBCOMMANDS: Record<string, Rule> = {
  branch: (rest, v) => {
    const force = rest.find(
      (a) => a === '-D' || a === '-f' || a === '--force' || a === '-M' || a === '-C' || (shortCluster(a) ?? '').match(/[DMCf]/),
    );
    if (force) return v.rewrite(force);
    const changes = rest.find(
      (a) =>
        [
          '-d',
          '--delete',
          '-m',
          '--move',
          '-c',
          '--copy',
          '-u',
          '--unset-upstream',
          '--edit-description',
          '--track',
          '--no-track',
          '--create-reflog',
        ].includes(a) ||
        a.startsWith('--set-upstream-to') ||
        a.startsWith('--track='),
    );
    const listing = rest.some((a) => a === '-l' || a === '--list' || (shortCluster(a) ?? '').includes('l'));
    const valued = ['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format', '--color', '--column'];
    const positional = operands(rest, valued);
    if (changes || (positional.length > 0 && !listing)) return v.write();
    return v.read();
  },
  tag: (rest, v) => {
    const force = rest.find((a) => a === '-f' || a === '--force');
    if (force) return v.rewrite(force);
    const tagValued = [
      '--contains',
      '--no-contains',
      '--points-at',
      '--merged',
      '--no-merged',
      '--sort',
      '--format',
      '--color',
      '--column',
    ];
    const listing =
      operands(rest, tagValued).length === 0 ||
      rest.some((a) => a === '-l' || a === '--list' || a.startsWith('-n') || tagValued.includes(a));
    const creates = rest.some(
      (a) =>
        ['-a', '-s', '-m', '-F', '-u', '-d', '--delete', '--annotate', '--sign'].includes(a) ||
        a.startsWith('--message') ||
        a.startsWith('--file'),
    );
    return listing && !creates ? v.read() : v.write();
  },
  stash: (rest, v) => {
    if (v.first === 'list' || v.first === 'show') return v.read();
    if (v.first === 'drop' || v.first === 'clear') return discard(v.sub, v.first);
    return v.write();
  },
  remote: (rest, v) => {
    if (v.ops.length === 0 || v.first === 'get-url') return v.read();
    if (v.first === 'show' || v.first === 'update' || v.first === 'prune') return v.net();
    return v.write();
  },
  config: (rest) => judgeConfig(rest),
  reset: (rest, v) => {
    const hard = rest.find((a) => a === '--hard');
    return hard ? discard(v.sub, hard) : v.write();
  },
  clean: (rest, v) => {
    const dry = rest.some((a) => a === '--dry-run' || (shortCluster(a) ?? '').includes('n'));
    return dry ? v.read() : discard(v.sub, rest.join(' '));
  },
  checkout: (rest, v) => {
    // Paths (after `--`, a whole-tree pathspec, or a tree-ish and paths) are overwritten from the index or the tree.
    const dd = rest.indexOf('--');
    const ops = operands(dd >= 0 ? rest.slice(0, dd) : rest, ['-b', '-B', '--orphan', '--conflict', '--pathspec-from-file']);
    const lost =
      rest.find((a) => a === '-f' || a === '--force' || ((shortCluster(a) ?? '').includes('f') && !a.startsWith('-b'))) ??
      (dd >= 0 ? rest.slice(dd).join(' ') : undefined) ??
      ops.find(isWholeTree) ??
      (ops.length > 1 ? ops.join(' ') : undefined);
    if (lost) return discard(v.sub, lost);
    const bad = rest.find(
      (a) =>
        ['-B', '--ours', '--theirs', '-p', '--patch', '--overwrite-ignore', '--pathspec-from-file'].includes(a) ||
        (shortCluster(a) ?? '').match(/[Bp]/) ||
        a.startsWith('--pathspec-from-file='),
    );
    return bad ? v.rewrite(bad) : v.write();
  },
  switch: (rest, v) => {
    const lost = rest.find((a) => ['-f', '--force', '--discard-changes'].includes(a));
    if (lost) return discard(v.sub, lost);
    const bad = rest.find((a) => ['-C', '--force-create'].includes(a));
    return bad ? v.rewrite(bad) : v.write();
  },
  restore: (rest, v) => {
    const staged = rest.some((a) => a === '--staged' || a === '-S');
    const worktree = rest.some((a) => a === '--worktree' || a === '-W');
    return staged && !worktree ? v.write() : discard(v.sub, rest.join(' '));
  },
  help: (rest, v) => {
    const topic = operands(rest)[0];
    const viewer = rest.find((a) => ['-m', '--man', '-w', '--web', '-i', '--info'].includes(a));
    if (!topic && !viewer) return v.read();
    if (!viewer && rest.some((a) => HELP_LISTS.has(a))) return v.read();
    return finding('git.help_viewer', 'L1', { a: `git help ${rest.join(' ')}`.trim() });
  },
  'cat-file': (rest, v) => {
    const conv = findLong(rest, ['--textconv', '--filters']);
    return conv ? finding('git.textconv', 'L1', { a: `git cat-file ${conv}` }) : v.read();
  },
  rm: (rest, v) => {
    const force = rest.find((a) => a === '-f' || a === '--force' || /^-[a-zA-Z]*f/.test(a));
    return force ? v.rewrite(force) : v.write();
  },
  commit: (rest, v) => {
    const amend = rest.find((a) => a === '--amend');
    return amend ? v.rewrite(amend) : v.write();
  },
  push: (rest, v) => {
    const bad = rest.find(
      (a) =>
        ['-f', '--force', '--mirror', '--delete', '-d', '--prune', '--force-if-includes'].includes(a) ||
        a.startsWith('--force-with-lease') ||
        (shortCluster(a) ?? '').match(/[fd]/),
    );
    if (bad) return v.rewrite(bad);
    const ref = v.ops.slice(1).find((r) => r.startsWith('+') || r.startsWith(':'));
    if (ref) return v.rewrite(ref);
    return v.net();
  },
  fetch: (_rest, v) => v.net(),
  pull: (_rest, v) => v.net(),
  clone: (_rest, v) => v.net(),
  'ls-remote': (_rest, v) => v.net(),
  // It runs ls-remote on the URL (through the repository's transport settings).
  'request-pull': (_rest, v) => v.net(),
  rebase: (rest, v) => {
    if (rest.length === 1 && ['--abort', '--quit', '--continue', '--skip', '--show-current-patch'].includes(v.first)) return v.write();
    return v.rewrite(rest.join(' '));
  },
  reflog: (rest, v) => {
    if (v.first === 'expire' || v.first === 'delete' || v.first === 'drop') return v.rewrite(v.first);
    if (v.first === 'write') return v.write();
    return v.read();
  },
  'update-ref': (rest, v) => {
    const del = rest.find((a) => a === '-d' || a === '--stdin');
    return del ? v.rewrite(del) : v.write();
  },
  'symbolic-ref': (rest, v) => {
    const del = rest.find((a) => a === '-d' || a === '--delete');
    if (del) return v.rewrite(del);
    return operands(rest, ['-m']).length >= 2 ? v.write() : v.read();
  },
  bisect: (rest, v) => {
    if (v.first === 'run') return finding('arg.exec', 'L2', { p: 'git bisect', a: 'run' });
    if (['log', 'visualize', 'view', 'terms'].includes(v.first)) return v.read();
    return v.write();
  },
  submodule: (rest, v) => {
    if (v.first === 'foreach') return finding('arg.exec', 'L2', { p: 'git submodule', a: 'foreach' });
    if (v.ops.length === 0 || v.first === 'status' || v.first === 'summary') return v.read();
    const force = v.first === 'deinit' ? rest.find((a) => a === '-f' || a === '--force') : undefined;
    if (force) return discard(`${v.sub} deinit`, force);
    return v.net();
  },
  worktree: (rest, v) => {
    if (v.first === 'list' || (v.sub === 'notes' && (v.first === 'show' || rest.length === 0))) return v.read();
    const force = v.sub === 'worktree' && v.first === 'remove' ? rest.find((a) => a === '-f' || a === '--force') : undefined;
    if (force) return discard(`${v.sub} remove`, force);
    return v.write();
  },
  // Both overwrite files of the working tree from the index or a tree.
  'read-tree': (rest, v) =>
    rest.includes('--reset') && rest.some((a) => a === '-u' || (shortCluster(a) ?? '').includes('u'))
      ? discard(v.sub, '--reset -u')
      : v.write(),
  'checkout-index': (rest, v) => {
    const force = rest.find((a) => a === '-f' || a === '--force' || /^-[a-z]*f/.test(a));
    return force ? discard(v.sub, force) : v.write();
  },
  notes: (rest, v) => SUBCOMMANDS.worktree(rest, v),
  archive: (rest, v) => {
    // `-o/--output <file>` writes that file: a write, where it lands judged by archive's option table (git-net.ts).
    if (rest.some((a) => a.startsWith('-o') || (a.startsWith('--o') && '--output'.startsWith(a.split('=')[0])))) return v.write();
    if (findLong(rest, ['--remote'])) return finding('git.network', 'L1', { s: v.sub }, { cat: ['network'] });
    const f = rest.findIndex((a) => a === '--format' || a.startsWith('--format='));
    const format = f < 0 ? undefined : rest[f].includes('=') ? rest[f].slice(rest[f].indexOf('=') + 1) : rest[f + 1];
    if (format !== undefined && !ARCHIVE_FORMATS.has(format))
      return finding('git.archive_command', 'L1', { a: `git archive --format=${format}`, f: format });
    return v.read();
  },
  'format-patch': (rest, v) => (rest.includes('--stdout') ? v.read() : v.write()),
  apply: (rest, v) => {
    const check = rest.some((a) => ['--check', '--stat', '--numstat', '--summary'].includes(a)) && !rest.includes('--apply');
    return check ? v.read() : v.write();
  },
  'interpret-trailers': (rest, v) => (rest.includes('--in-place') ? v.write() : v.read()),
  fsck: (rest, v) => (rest.includes('--lost-found') ? v.write() : v.read()),
  // `--prune=now` drops every unreachable object at once (a dropped stash, a reset commit): `git prune`.
  gc: (rest, v) => {
    const prune = rest.find((a) => /^--prune=(now|all)$/.test(a));
    return prune ? v.rewrite(prune) : v.write();
  },
};

/** Keys that name programs git will run, hooks, or where git reads more config. */
const EXEC_CONFIG_KEY =
  /^(core\.|alias\.|credential\.|filter\.|diff\.|merge\.|sequence\.|gpg\.|ssh\.|url\.|http\.|include|pager\.|sendemail\.|web\.|browser\.|man\.|difftool\.|mergetool\.|submodule\.|hook\.|safe\.|protocol\.|uploadpack\.|receive\.|remote\.[^.]+\.(uploadpack|receivepack|vcs|proxy)$|fsmonitor)/i;

function judgeConfig(rest: readonly string[]): Finding[] {
  const first = rest[0];
  if (first === 'get' || first === 'list') return [finding('git.read', 'L0', { s: `config ${first}` })];
  const readFlags = ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', '--get-color', '--get-colorbool'];
  const writeFlags = ['--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit'];
  const writeSubs = ['set', 'unset', 'rename-section', 'remove-section', 'edit'];
  const valued = ['-f', '--file', '--blob', '--type', '--default', '--comment', '--value'];
  const ops = operands(rest, valued);
  const isWrite = rest.some((a) => writeFlags.includes(a)) || writeSubs.includes(first ?? '');
  if (!isWrite && (rest.some((a) => readFlags.includes(a)) || ops.length <= 1)) {
    return [finding('git.read', 'L0', { s: 'config' })];
  }
  const keyOps = writeSubs.includes(first ?? '') ? ops.slice(1) : ops;
  const key = keyOps[0] ?? '';
  if (EXEC_CONFIG_KEY.test(key)) return [finding('git.config', 'L2', { a: `git config ${key}` })];
  if (rest.some((a) => a === '-e' || a === '--edit' || a === 'edit')) return [finding('interactive', 'L2', { p: 'git config --edit' })];
  return [finding('git.write', 'L1', { s: 'config' }, { cat: ['write'] })];
}
