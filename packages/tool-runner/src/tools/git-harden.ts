/**
 * A repository is untrusted input: its `.git/config` and `.gitattributes` can name programs that
 * everyday read-only git commands run (an external diff, textconv and clean/smudge filters, the
 * fsmonitor, the pager, hooks, signature programs, archive compressors, transports reached by
 * lazy fetch). The keys are listed, with what reaches them, in policy/workspace-programs.ts. Every git command the model asks for runs
 * with those switched off on its own command line and environment; what was switched off is
 * reported with the result.
 */
import { GIT_READ_SUBCOMMANDS } from '../policy/git';
import { subcommandIndex, VALUED_GLOBALS } from '../policy/git-subcommand-index';
import { unwrapCommand } from '../policy/programs/unwrap';
import { GIT_PROGRAM_KEYS } from '../policy/workspace-programs';
import { execModule } from '../lazy-modules';
import { gitConfigStamp } from './git-config-stamp';

/** Subcommands that take diff options: an external diff and textconv are switched off with flags. */
const DIFF_FAMILY = new Set([
  'diff',
  'log',
  'show',
  'whatchanged',
  'diff-tree',
  'diff-files',
  'diff-index',
  'range-diff',
  'format-patch',
  'reflog',
]);
/** Subcommands that take --no-textconv only. */
const TEXTCONV_ONLY = new Set(['blame', 'annotate', 'grep']);

/** The command-scope overrides of the workspace-programs table (policy/workspace-programs.ts) for git, of one scope. */
function tableOverrides(scope: 'all' | 'local' | 'unsigned'): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const row of GIT_PROGRAM_KEYS) {
    for (const off of row.off) if (off.kind === 'git-config' && off.for === scope && !off.key.includes('<')) out.push([off.key, off.value]);
  }
  return out;
}

/** Subcommands that are not reads but have read-only forms judged L0 (a listing, a `--stdout`, a `show`). */
const LOCAL_TOO = new Set([
  'format-patch',
  'stash',
  'notes',
  'branch',
  'tag',
  'reflog',
  'worktree',
  'symbolic-ref',
  'config',
  'apply',
  'interpret-trailers',
]);

/**
 * Subcommands that need no transport: the reads (git.ts), the ones with L0 forms, `archive`
 * without `--remote`. They get the 'local' overrides: no transport protocol and no lazy fetch
 * (a partial clone fetches missing objects through whatever the repository names), no pager of
 * their own, the archive compressors back to gzip. Transports and the writes that may need a
 * lazy fetch (all asked first) keep the user's settings.
 */
function needsNoTransport(name: string, args: readonly string[]): boolean {
  if (name === 'archive') return !args.some((a) => a.startsWith('--remote'));
  return GIT_READ_SUBCOMMANDS.has(name) || LOCAL_TOO.has(name);
}

/** Subcommands that may sign (explicitly or by the user's commit.gpgSign / tag.gpgSign): they keep the user's gpg programs. */
const SIGNING = new Set(['commit', 'merge', 'rebase', 'am', 'cherry-pick', 'revert', 'commit-tree', 'push', 'pull', 'stash']);

/** Whether this subcommand may sign: the set above, and `tag` unless it only lists. */
function maySign(name: string, args: readonly string[]): boolean {
  if (name === 'tag') return !(args.length === 0 || args.some((a) => a === '-l' || a === '--list' || /^-n\d*$/.test(a)));
  return SIGNING.has(name);
}

export interface GitHardening {
  args: string[];
  /** GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n. */
  env: Record<string, string>;
  /** The same overrides as key/value pairs (for `-c key=value` when git runs under a wrapper that may clear the environment). */
  config: Array<[string, string]>;
  /** What was switched off, for the result: `--no-ext-diff`, `filter.lfs.*`, `core.hooksPath=/dev/null`, … */
  notes: string[];
}

/**
 * Names of the filter drivers any config scope of the repository git will use defines (reading
 * config runs nothing). `globals` are the step's own global options (`-C inner`, `--git-dir=…`):
 * the drivers are read with them, so a nested repository's are the ones switched off. `wrap`
 * puts the git that reads them in the step's sandbox, like the step. Asynchronous (through
 * exec): the event loop is not held while git runs.
 */
export async function filterDrivers(
  cwd: string,
  env: NodeJS.ProcessEnv,
  wrap?: (program: string, args: string[]) => { program: string; args: string[]; fds?: Buffer[] } | undefined,
  globals: readonly string[] = [],
): Promise<string[]> {
  // Kept while every config file git reads is unchanged (git-config-stamp.ts): one read per
  // repository and configuration, not one per git step. With global options (another folder or
  // repository) it is read every time.
  const stamp = globals.length ? undefined : gitConfigStamp(cwd, env);
  const kept = stamp === undefined ? undefined : knownDrivers.get(stamp);
  if (kept) return [...kept];
  const drivers = await readFilterDrivers(cwd, env, wrap, globals);
  if (stamp !== undefined) {
    if (knownDrivers.size >= 64) knownDrivers.clear();
    knownDrivers.set(stamp, drivers);
  }
  return [...drivers];
}

/** Filter drivers read, by the stamp of the configuration they were read from. */
const knownDrivers = new Map<string, string[]>();

async function readFilterDrivers(
  cwd: string,
  env: NodeJS.ProcessEnv,
  wrap: ((program: string, args: string[]) => { program: string; args: string[]; fds?: Buffer[] } | undefined) | undefined,
  globals: readonly string[],
): Promise<string[]> {
  const read = [...globals, 'config', '--get-regexp', '^filter\\..*\\.(clean|smudge|process|required)$'];
  const cmd: { program: string; args: string[]; fds?: Buffer[] } = wrap?.('git', read) ?? { program: 'git', args: read };
  const { exec } = execModule();
  const r = await exec({
    program: cmd.program,
    args: cmd.args,
    ...(cmd.fds ? { fds: cmd.fds } : {}),
    cwd,
    env,
    timeoutMs: 5000,
    maxOutputBytes: 1 << 20,
  });
  if (r.exitCode !== 0 || !r.stdoutTail) return [];
  const names = new Set<string>();
  for (const line of r.stdoutTail.split('\n')) {
    const m = /^filter\.(.+)\.(clean|smudge|process|required)\s/.exec(line);
    if (m) names.add(m[1]);
  }
  return [...names];
}

/**
 * The hardened argument vector and environment of `git args` run in `cwd`. `drivers` are the
 * repository's filter drivers (filterDrivers), passed in so the function itself stays pure.
 */
export function hardenGit(args: readonly string[], drivers: readonly string[]): GitHardening {
  const out = [...args];
  const notes: string[] = [];
  const sub = subcommandIndex(out);
  const name = sub >= 0 ? out[sub] : undefined;
  // Right after the subcommand: git refuses an option after a path (`git diff f.txt --no-ext-diff`:
  // "must come before non-option arguments"). A `--ext-diff` or `--textconv` of the step's own,
  // later on the line, turns them back on; the policy judges those as running the repository's
  // programs (options/tables-git.ts), so they run only as asked.
  const stashShow = name === 'stash' && out[sub + 1] === 'show';
  const insertAt = stashShow ? sub + 2 : sub + 1;
  if (name && (DIFF_FAMILY.has(name) || stashShow)) {
    out.splice(insertAt, 0, '--no-ext-diff', '--no-textconv');
    notes.push('--no-ext-diff', '--no-textconv');
  } else if (name && TEXTCONV_ONLY.has(name)) {
    out.splice(insertAt, 0, '--no-textconv');
    notes.push('--no-textconv');
  }
  const config: Array<[string, string]> = tableOverrides('all');
  const extraEnv: Record<string, string> = {};
  const rest = name ? out.slice(sub + 1) : [];
  if (name && needsNoTransport(name, rest)) {
    config.push(...tableOverrides('local'), [`pager.${name}`, 'false']);
    extraEnv.GIT_NO_LAZY_FETCH = '1';
    notes.push('protocol.allow=never', 'GIT_NO_LAZY_FETCH=1');
  }
  if (!name || !maySign(name, rest)) {
    config.push(...tableOverrides('unsigned'));
    notes.push('gpg.*.program');
  }
  for (const d of drivers) {
    for (const key of ['clean', 'smudge', 'process']) config.push([`filter.${d}.${key}`, '']);
    config.push([`filter.${d}.required`, 'false']);
    notes.push(`filter.${d}.*`);
  }
  notes.push('core.hooksPath=/dev/null', 'core.fsmonitor=false', 'log.showSignature=false');
  const env: Record<string, string> = { ...extraEnv, GIT_CONFIG_COUNT: String(config.length) };
  config.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return { args: out, env, config, notes };
}

/**
 * The global options of a git argument vector that change which repository it uses (`-C`,
 * `--git-dir`, `--work-tree`, `--namespace`), for reading that repository's configuration.
 */
export function repositoryGlobals(args: readonly string[]): string[] {
  const sub = subcommandIndex(args);
  const head = sub < 0 ? [...args] : args.slice(0, sub);
  const out: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const a = head[i];
    if (['-C', '--git-dir', '--work-tree', '--namespace'].includes(a)) out.push(a, head[++i] ?? '');
    else if (/^--(git-dir|work-tree|namespace)=/.test(a)) out.push(a);
    else if (VALUED_GLOBALS.has(a)) i++;
  }
  return out;
}

/**
 * Where git starts in a wrapped command line (`timeout 5 git log`, `env -i nice git diff`), or
 * -1: git run by a wrapper is hardened like git run directly.
 */
export function wrappedGitIndex(program: string, args: readonly string[]): number {
  return wrappedGit(program, args).index;
}

/** {@link wrappedGitIndex}, with the folders `env -C` moves into on the way. */
export function wrappedGit(program: string, args: readonly string[]): { index: number; chdir: string[] } {
  const u = unwrapCommand(program, args);
  return u.index >= 0 && isGit(args[u.index]) ? u : { index: -1, chdir: [] };
}

/** Whether a program name is git (a bare name or a path ending in /git). */
export function isGit(program: string): boolean {
  return program === 'git' || program.endsWith('/git');
}
