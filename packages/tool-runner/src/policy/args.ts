/** Letters of a short-option cluster (`-rf` → `rf`), or null for operands and long options. */
export function shortCluster(arg: string): string | null {
  if (arg.length < 2 || arg[0] !== '-' || arg[1] === '-') return null;
  return arg.slice(1);
}

/**
 * Whether `arg` is the long option `name`: `--name`, `--name=value`, or an abbreviation of at
 * least three letters (`--ext` for `--ext-diff`), which getopt_long, git and npm all accept.
 */
export function isLong(arg: string, name: string): boolean {
  if (!arg.startsWith('--')) return false;
  const eq = arg.indexOf('=');
  const given = eq >= 0 ? arg.slice(0, eq) : arg;
  return given === name || (given.length >= 5 && given.length < name.length && name.startsWith(given));
}

/** The first argument that is one of the long options `names` (see {@link isLong}). */
export function findLong(args: readonly string[], names: readonly string[]): string | undefined {
  // `--` ends the options: `sort -- --output` sorts a file of that name.
  for (const a of args) {
    if (a === '--') return undefined;
    if (names.some((n) => isLong(a, n))) return a;
  }
  return undefined;
}

/**
 * Expand abbreviated long options to the first of `names` they abbreviate (`--forc` →
 * `--force`), keeping `=value`, so exact checks afterwards see them.
 */
export function expandLong(args: readonly string[], names: readonly string[]): string[] {
  return args.map((a) => {
    if (!a.startsWith('--')) return a;
    const eq = a.indexOf('=');
    const full = longFor(eq >= 0 ? a.slice(0, eq) : a, names);
    if (!full) return a;
    return eq >= 0 ? full + a.slice(eq) : full;
  });
}

/** What each spelling of a long option (before any `=`) expands to in a list of names: a pure string fact, kept per list. */
const EXPANDED = new WeakMap<readonly string[], Map<string, string | null>>();

/** The first of `names` that `given` (`--forc`, no `=value`) spells or abbreviates, or undefined. */
function longFor(given: string, names: readonly string[]): string | undefined {
  let known = EXPANDED.get(names);
  if (!known) EXPANDED.set(names, (known = new Map()));
  let full = known.get(given);
  if (full === undefined) {
    full = names.find((n) => isLong(given, n)) ?? null;
    if (known.size >= 1024) known.clear();
    known.set(given, full);
  }
  return full ?? undefined;
}

/** The first short-option cluster containing any of `letters` (before a `--`). */
export function findShort(args: readonly string[], letters: string): string | undefined {
  for (const a of args) {
    if (a === '--') return undefined;
    const c = shortCluster(a);
    if (c && [...letters].some((l) => c.includes(l))) return a;
  }
  return undefined;
}

/** Arguments that do not start with `-` (after `--` everything is an operand). */
export function operands(args: readonly string[], withValue: readonly string[] = []): string[] {
  const out: string[] = [];
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (rest) out.push(a);
    else if (a === '--') rest = true;
    else if (withValue.includes(a)) i++;
    else if (!a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
}

/**
 * Where a wrapper's own options end and the command it runs starts (`npx -p x -- cmd`,
 * `env -C dir NAME=v cmd`, `sudo -u root cmd`). `--` ends the options: the command is the next
 * argument. `visit` says of any other argument what it is: a number, how many arguments after
 * it are its value (0: none); `'command'`, the command starts at it; `'stop'`, the walk ends
 * there and the caller judges that argument (`stop`, with `start` -1). `start` is args.length or
 * more when there is no command.
 */
export function commandStart(
  args: readonly string[],
  visit: (a: string, i: number) => number | 'command' | 'stop',
): { start: number; stop?: string } {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return { start: i + 1 };
    const what = visit(a, i);
    if (what === 'command') break;
    if (what === 'stop') return { start: -1, stop: a };
    i += what;
  }
  return { start: i };
}

const VERSION_ARGS = new Set(['--version', '--help', '-h', '-V', '-help', '-version']);

/** `prog --version`, `prog --help` and the like. */
export function isInfoOnly(args: readonly string[], extra: readonly string[] = []): boolean {
  return args.length === 1 && (VERSION_ARGS.has(args[0]) || extra.includes(args[0]));
}
