/** Global options of git that take a value in the next argument. */
export const VALUED_GLOBALS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--attr-source',
  '--exec-path',
  '--super-prefix',
]);

/** Where the subcommand is in git's argument vector (after the global options), or -1. */
export function subcommandIndex(args: readonly string[]): number {
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) {
    if (args[i] === '--') return -1;
    i += VALUED_GLOBALS.has(args[i]) ? 2 : 1;
  }
  return i < args.length ? i : -1;
}
