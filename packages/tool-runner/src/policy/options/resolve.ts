/**
 * A getopt_long-style option resolver over per-program option tables: what each argument of a
 * command is (an option, its value, an operand) the way the program itself will parse it.
 */

/** What an option makes a read-only program do beyond reading its operands. */
export type Effect = 'write' | 'exec' | 'network' | 'read-any' | 'system';

export interface OptionSpec {
  /** Every spelling: `-o`, `--output`. The first long one names it in reasons. */
  names: string[];
  /** Whether it takes a value: required (`-o f`, `-of`, `--output=f`, `--output f`) or optional (attached only). */
  value?: 'required' | 'optional';
  /** How many separate values a required value takes (`jq --arg NAME VALUE`: 2); default 1. */
  arity?: number;
  effect?: Effect;
  /** What the program's own rules make of its value (`:upload`, `:out`): written `:role` in {@link opts}. */
  role?: string;
}

export interface ProgramOptions {
  /** Long options written with one dash (`find -name`, `go list -json`); prefixes are not accepted then. */
  singleDashLong?: boolean;
  /** Whether long options may be abbreviated to a unique prefix (getopt_long, git); default true. */
  prefixes?: boolean;
  /** Every long option has a negated form that switches it off: `--no-x` (true) or another prefix (dig's `+nox`: 'no'). */
  negatable?: boolean | string;
  /** `-5` (a count) is an option (head, tail, grep context, git log). */
  numeric?: boolean;
  /** Options end at the first operand (POSIX order), not anywhere (GNU permutes). */
  posixOrder?: boolean;
  /** `+opt` arguments (dig) are options too. */
  plusOptions?: ProgramOptions;
  /**
   * Every option the table does not list was surveyed in the program's manual and only changes
   * what is read or how it is shown (large option sets: cloc, lsof, eza): not reported unknown.
   * The options with an effect are listed, so their prefixes and attached values still resolve.
   */
  open?: boolean;
  /** Arguments are not options at all (`echo -n`, `test -f x`, `expr`): nothing to resolve. */
  noOptions?: boolean;
  /**
   * git's parse-options (parse-options.c parse_long_opt) rather than getopt_long: `--no-x` negates
   * `--x`, an option named `--no-x` is also `--x` (its positive), abbreviations of both count
   * (`--no-up` is `--no-upload-pack`), `--n`/`--no`/`--no-` abbreviate every negation, and
   * `--end-of-options` ends the options like `--`.
   */
  style?: 'git';
  /**
   * Versions of the program differ in their option sets (git, curl before 8.6 took abbreviations
   * that 8.6 no longer does): an abbreviation that may be an option with an effect or a role is
   * read as that option even where this table finds it ambiguous.
   */
  riskyPrefixes?: boolean;
  opts: OptionSpec[];
}

/** An option as the program sees it. */
export interface Resolved {
  spec: OptionSpec;
  /** As written: `--out=x`, `-Ofile`. */
  given: string;
  value?: string;
  /** `--no-foo`: the option switched off. */
  negated?: boolean;
}

export interface Resolution {
  options: Resolved[];
  operands: string[];
  /** Options the table does not know. */
  unknown: string[];
  /** Abbreviations that match more than one long option (getopt refuses them; so do we). */
  ambiguous: Array<{ given: string; candidates: string[] }>;
}

/** A table compiled for lookups: short letters and long names to their spec. */
export interface Compiled {
  table: ProgramOptions;
  short: Map<string, OptionSpec>;
  long: Map<string, OptionSpec>;
  longNames: string[];
}

export function compile(table: ProgramOptions): Compiled {
  const short = new Map<string, OptionSpec>();
  const long = new Map<string, OptionSpec>();
  for (const spec of table.opts) {
    for (const n of spec.names) {
      if (n.startsWith('--')) long.set(n.slice(2), spec);
      else if (table.singleDashLong && n.length > 2) long.set(n.slice(1), spec);
      else short.set(n.slice(1), spec);
    }
  }
  return { table, short, long, longNames: [...long.keys()] };
}

/**
 * Parse a compact option list: `'-o --output =write'` style entries, one per option:
 * names, then `=` (required value) or `=?` (optional value), then an effect and a `:role`.
 */
export function opts(...entries: string[]): OptionSpec[] {
  return entries.map((e) => {
    const parts = e.trim().split(/\s+/);
    const spec: OptionSpec = { names: [] };
    for (const p of parts) {
      if (p === '=') spec.value = 'required';
      else if (p === '==') {
        spec.value = 'required';
        spec.arity = 2;
      } else if (p === '=?') spec.value = 'optional';
      else if (p === 'write' || p === 'exec' || p === 'network' || p === 'read-any' || p === 'system') spec.effect = p;
      else if (p.startsWith(':')) spec.role = p.slice(1);
      else spec.names.push(p);
    }
    return spec;
  });
}

export interface LongHit {
  spec?: OptionSpec;
  name?: string;
  negated?: boolean;
  candidates?: string[];
}

/** The option a long name (without `--` and `=value`) is in a table: exact, a unique abbreviation, a negation, or the candidates of an ambiguous one. */
export function lookupLong(c: Compiled, name: string): LongHit {
  if (c.table.style === 'git') return lookupGitLong(c, name);
  const exact = c.long.get(name);
  if (exact) return { spec: exact, name };
  const neg = c.table.negatable === true ? 'no-' : c.table.negatable || '';
  if (neg && name.startsWith(neg)) {
    const hit = lookupLong({ ...c, table: { ...c.table, negatable: false } }, name.slice(neg.length));
    if (hit.spec) return { ...hit, negated: true };
    if (hit.candidates) return { candidates: hit.candidates.map((n) => neg + n) };
  }
  if (c.table.prefixes === false || (c.table.singleDashLong && c.table.prefixes !== true)) return {};
  const matches = c.longNames.filter((n) => n.startsWith(name));
  if (matches.length === 0) return {};
  // Several spellings of one option (`--regexp`, `--regex`) are one match.
  const specs = new Set(matches.map((m) => c.long.get(m)));
  if (specs.size === 1) return { spec: c.long.get(matches[0]), name: matches[0] };
  return { candidates: matches };
}

/** git's reading of a long option (parse-options.c parse_long_opt): exact names first, then a unique abbreviation, negations of both. */
function lookupGitLong(c: Compiled, arg: string): LongHit {
  let start = arg;
  let unset = false;
  let noNo = false;
  if (start.startsWith('no-')) {
    start = start.slice(3);
    if (start.startsWith('no-')) {
      start = start.slice(3);
      noNo = true;
    } else unset = true;
  }
  // An exact name wins whatever else it abbreviates (the common case: looked up, not searched).
  const exact = noNo ? undefined : c.long.get(start);
  if (exact) return { spec: exact, name: start, negated: unset };
  const exactNo = c.long.get(`no-${start}`);
  if (exactNo) return { spec: exactNo, name: `no-${start}`, negated: !unset };
  const hits = new Map<OptionSpec, { name: string; negated: boolean }>();
  let ambiguous = false;
  const register = (spec: OptionSpec, name: string, negated: boolean) => {
    const had = hits.get(spec);
    if (hits.size > (had ? 1 : 0) || (had && had.negated !== negated)) ambiguous = true;
    hits.set(spec, { name: negated ? `no-${name.replace(/^no-/, '')}` : name.replace(/^no-/, ''), negated });
  };
  for (const [longName, spec] of c.long) {
    let name = longName;
    let optUnset = false;
    if (name.startsWith('no-')) {
      name = name.slice(3);
      optUnset = true;
    } else if (noNo) continue;
    if (start === name) return { spec, name: longName, negated: unset !== optUnset };
    if (name.startsWith(start)) register(spec, longName, unset !== optUnset);
    // "negated and abbreviated very much": `--n`, `--no`, `--no-` abbreviate every negation.
    if ('no-'.startsWith(arg)) register(spec, longName, !optUnset);
  }
  if (hits.size === 0) return {};
  if (!ambiguous && hits.size === 1) {
    const [[spec, hit]] = [...hits];
    return { spec, name: hit.name, negated: hit.negated };
  }
  return { candidates: [...hits.values()].map((h) => h.name) };
}

/** Resolve `args` against a program's table. */
export function resolveOptions(args: readonly string[], c: Compiled): Resolution {
  const out: Resolution = { options: [], operands: [], unknown: [], ambiguous: [] };
  const t = c.table;
  if (t.noOptions) {
    out.operands.push(...args);
    return out;
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--' || (a === '--end-of-options' && t.style === 'git')) {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (t.plusOptions && a.length > 1 && a[0] === '+') {
      const inner = resolveOptions(['-' + a.slice(1)], compiled(t.plusOptions));
      out.options.push(...inner.options.map((r) => ({ ...r, given: a })));
      out.unknown.push(...inner.unknown.map(() => a));
      out.ambiguous.push(...inner.ambiguous.map((x) => ({ ...x, given: a })));
      continue;
    }
    if (a.length < 2 || a[0] !== '-' || (t.numeric && /^-\d+$/.test(a))) {
      if (t.numeric && /^-\d+$/.test(a)) continue;
      out.operands.push(a);
      if (t.posixOrder) {
        out.operands.push(...args.slice(i + 1));
        break;
      }
      continue;
    }
    const isLong = a.startsWith('--') || (t.singleDashLong === true && a.length > 2);
    if (isLong) i = longOption(args, i, c, out);
    else i = shortCluster(args, i, c, out);
  }
  return out;
}

function longOption(args: readonly string[], i: number, c: Compiled, out: Resolution): number {
  const a = args[i];
  const body = a.startsWith('--') ? a.slice(2) : a.slice(1);
  const eq = body.indexOf('=');
  const name = eq >= 0 ? body.slice(0, eq) : body;
  const hit = lookupLong(c, name);
  if (hit.candidates) {
    out.ambiguous.push({ given: a, candidates: hit.candidates.map((n) => '--' + n) });
    return c.table.riskyPrefixes ? riskyCandidates(args, i, c, hit.candidates, eq >= 0 ? body.slice(eq + 1) : undefined, out) : i;
  }
  if (!hit.spec) {
    // `find -name`-style tables: a single-dash word may still be a short cluster.
    if (c.table.singleDashLong && !a.startsWith('--') && c.short.has(a[1])) return shortCluster(args, i, c, out);
    if (!c.table.open) out.unknown.push(a);
    return i;
  }
  const r: Resolved = hit.negated ? { spec: hit.spec, given: a, negated: true } : { spec: hit.spec, given: a };
  if (eq >= 0) r.value = body.slice(eq + 1);
  else if (hit.spec.value === 'required' && !hit.negated) {
    // `jq --rawfile NAME FILE`: the last of several values is the one with an effect.
    i += hit.spec.arity ?? 1;
    r.value = args[i];
  }
  out.options.push(r);
  return i;
}

/** An abbreviation this table finds ambiguous, read as each option with an effect or a role it may be (riskyPrefixes). */
function riskyCandidates(
  args: readonly string[],
  i: number,
  c: Compiled,
  names: readonly string[],
  attached: string | undefined,
  out: Resolution,
): number {
  const specs = [...new Set(names.map((n) => c.long.get(n.replace(/^no-/, '')) ?? c.long.get(n)))].filter(
    (s): s is OptionSpec => s !== undefined && (s.effect !== undefined || s.role !== undefined),
  );
  const negated = names.every((n) => n.startsWith('no-'));
  if (!specs.length || negated) return i;
  const takesValue = attached === undefined && specs.some((s) => s.value === 'required');
  const value = attached ?? (takesValue ? args[i + 1] : undefined);
  for (const spec of specs) out.options.push(value === undefined ? { spec, given: args[i] } : { spec, given: args[i], value });
  return takesValue ? i + 1 : i;
}

function shortCluster(args: readonly string[], i: number, c: Compiled, out: Resolution): number {
  const a = args[i];
  for (let j = 1; j < a.length; j++) {
    const letter = a[j];
    if (c.table.numeric && /\d/.test(letter)) continue;
    const spec = c.short.get(letter);
    if (!spec) {
      // An open table's unlisted letter is harmless; the rest of the cluster is still read (a
      // letter with an effect after it is found, at worst a value is mistaken for letters).
      if (!c.table.open) out.unknown.push(j === 1 && a.length === 2 ? a : `-${letter} (${a})`);
      continue;
    }
    const attached = a.slice(j + 1);
    if (spec.value && attached !== '') {
      out.options.push({ spec, given: a, value: attached });
      return i;
    }
    if (spec.value === 'required') {
      out.options.push({ spec, given: a, value: args[i + (spec.arity ?? 1)] });
      return i + (spec.arity ?? 1);
    }
    out.options.push({ spec, given: a });
  }
  return i;
}

const CACHE = new WeakMap<ProgramOptions, Compiled>();

/** The compiled form of a table, built once. */
export function compiled(t: ProgramOptions): Compiled {
  let c = CACHE.get(t);
  if (!c) {
    c = compile(t);
    CACHE.set(t, c);
  }
  return c;
}

/** The long name an option is known by (`--output`), else its first spelling. */
export function optionName(spec: OptionSpec): string {
  return spec.names.find((n) => n.startsWith('--')) ?? spec.names[spec.names.length - 1];
}
