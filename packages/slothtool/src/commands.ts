/** The host's own commands; any other first word names a plugin (an alias). */
export const BUILTIN_COMMANDS = ['install', 'uninstall', 'update', 'list', 'run', 'config'] as const;

/**
 * Whether `argv` runs a plugin by its alias (`slothtool ai -p hi`): the bin then loads only the
 * few modules that path needs from lib/; its own commands, help and version load the bundle.
 */
export function runsAlias(argv: string[]): boolean {
  const first = argv[0];
  return first !== undefined && !first.startsWith('-') && !(BUILTIN_COMMANDS as readonly string[]).includes(first);
}
