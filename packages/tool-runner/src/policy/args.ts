/** Letters of a short-option cluster (`-rf` → `rf`), or null for operands and long options. */
export function shortCluster(arg: string): string | null {
  if (arg.length < 2 || arg[0] !== '-' || arg[1] === '-') return null;
  return arg.slice(1);
}

/** The first argument that is one of the long options `names` (`--x` or `--x=value`). */
export function findLong(args: readonly string[], names: readonly string[]): string | undefined {
  return args.find((a) => names.some((n) => a === n || a.startsWith(n + '=')));
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

const VERSION_ARGS = new Set(['--version', '--help', '-h', '-V', '-help', '-version']);

/** `prog --version`, `prog --help` and the like. */
export function isInfoOnly(args: readonly string[], extra: readonly string[] = []): boolean {
  return args.length === 1 && (VERSION_ARGS.has(args[0]) || extra.includes(args[0]));
}
