/**
 * What a read-only command reads: its path operands (past a first operand that is a pattern or a
 * program), judged against the assistant's own configs and the workspace.
 */
import { operands } from './args';
import { finding, type Finding, type JudgeCtx } from './finding';
import { subcommandIndex } from './git-subcommand-index';
import { isHarmlessDevice, isOutsideWorkspace, normalisePathArg, slothtoolHomeFindings } from './paths';

/** Readers that also list or inspect without reading file contents (no secret-store rule). */
// prettier-ignore
export const LISTERS = new Set([
  'jq', 'ls', 'dir', 'vdir', 'stat', 'du', 'tree', 'find', 'fd', 'realpath', 'readlink', 'basename', 'dirname', 'echo', 'printf', 'which',
  'whereis', 'file', 'test', '[',
]);

/** git sub-commands whose operands are names matched against ignore and attribute rules: nothing of the files is read. */
const GIT_NAMES_ONLY = new Set(['check-ignore', 'check-attr']);

export function gitNamesOnly(name: string, args: readonly string[]): boolean {
  if (name !== 'git') return false;
  const at = subcommandIndex(args);
  return at >= 0 && GIT_NAMES_ONLY.has(args[at]);
}

/**
 * Readers whose first operand is a pattern or a program, not a file (unless an option gives
 * it), with their options that take a value: those values are not files either.
 */
const PATTERN_FIRST: Record<string, { given: string[]; valued: string[] }> = {
  grep: {
    given: ['-e', '-f', '--regexp', '--file'],
    valued: ['-e', '-f', '-m', '-A', '-B', '-C', '--regexp', '--file', '--max-count', '--context', '--include', '--exclude', '--label'],
  },
  rg: {
    given: ['-e', '-f', '--regexp', '--file'],
    valued: ['-e', '-f', '-g', '-t', '-T', '-m', '-A', '-B', '-C', '--regexp', '--file', '--glob', '--type', '--max-count', '--context'],
  },
  sed: { given: ['-e', '-f', '--expression', '--file'], valued: ['-e', '-f', '-l', '--expression', '--file', '--line-length'] },
  awk: { given: ['-f', '--file'], valued: ['-F', '-v', '-f', '--field-separator', '--assign', '--file'] },
  jq: { given: ['-f', '--from-file'], valued: ['--arg', '--argjson', '--slurpfile', '--rawfile', '--indent', '-f', '--from-file', '-L'] },
};
for (const [alias, of] of [
  ['egrep', 'grep'],
  ['fgrep', 'grep'],
  ['zgrep', 'grep'],
  ['ag', 'rg'],
  ['ack', 'rg'],
  ['look', 'grep'],
  ['gsed', 'sed'],
  ['gawk', 'awk'],
  ['mawk', 'awk'],
  ['nawk', 'awk'],
] as const)
  PATTERN_FIRST[alias] = PATTERN_FIRST[of];

/**
 * A command its rules call read-only: what it reads, after the paths are normalised. Inside or
 * above the assistant's own configs is L2; outside the workspace L1 (a lister such as ls or stat
 * only names files and stays as judged).
 */
export function readPathFindings(name: string, args: readonly string[], ctx: JudgeCtx): Finding[] {
  // Listers only name files (ls, stat, du, find without -exec): the configs' names are no secret.
  if (LISTERS.has(name) && name !== 'jq') return [];
  const spec = PATTERN_FIRST[name];
  let ops = spec ? operands(args, spec.valued) : args.filter((a) => !a.startsWith('-') || a === '-');
  if (spec && !args.some((a) => spec.given.includes(a) || spec.given.some((g) => g.startsWith('--') && a.startsWith(`${g}=`))))
    ops = ops.slice(1);
  const values = args.filter((a) => a.startsWith('--') && a.includes('=')).map((a) => a.slice(a.indexOf('=') + 1));
  const paths: string[] = [];
  for (const a of [...ops, ...values]) {
    const p = a !== '-' && a !== '' ? normalisePathArg(a, ctx) : undefined;
    if (p !== undefined) paths.push(p);
  }
  const own = slothtoolHomeFindings(paths, ctx, false);
  if (own.length || !ctx.cwd) return own;
  const inWorkspace = ctx.runCwd === undefined ? ctx : { ...ctx, runCwd: undefined };
  const outside = paths.find((p) => !isHarmlessDevice(p) && isOutsideWorkspace(p, inWorkspace));
  return outside ? [finding('read.outside', 'L1', { p: name, a: outside })] : [];
}
