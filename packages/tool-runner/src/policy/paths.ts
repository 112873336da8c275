import path = require('path');
import { finding, type Finding, type JudgeCtx } from './finding';
import { homeSecretStore, SECRET_HINT, SECRET_NAMES, STORE_SEGMENT_RE } from './secret-stores';
import { runsLaterClass, type RunsLaterCtx } from './runs-later';

/** Folders whose programs are the real thing: `/usr/bin/git` is git, `./git` is not. */
export const SYSTEM_BIN_DIRS = new Set([
  '/bin',
  '/usr/bin',
  '/usr/local/bin',
  '/sbin',
  '/usr/sbin',
  '/usr/local/sbin',
  '/opt/homebrew/bin',
  '/snap/bin',
]);

const SYSTEM_PREFIXES = [
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/boot',
  '/dev',
  '/proc',
  '/sys',
  '/System',
  '/Library',
  '/private/etc',
  '/var/lib',
  '/var/db',
  '/opt/homebrew',
  '/Applications',
];
const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero']);

function norm(p: string): string {
  return p.includes('\\') ? p.replace(/\\/g, '/') : p;
}

/** Folders known to be spelled as path.posix.normalize leaves them (absolute, not `/`, no trailing slash); a string fact, kept across judgements. */
const CLEAN_DIRS = new Map<string, boolean>();

/** Whether `dir` is absolute and normalised: `dir + '/' + word` is then what path.posix.join gives for a word without `/` or a leading `.`. */
function cleanDir(dir: string): boolean {
  let clean = CLEAN_DIRS.get(dir);
  if (clean === undefined) {
    clean = dir.length > 1 && dir.startsWith('/') && !dir.endsWith('/') && path.posix.normalize(dir) === dir;
    if (CLEAN_DIRS.size >= 64) CLEAN_DIRS.clear();
    CLEAN_DIRS.set(dir, clean);
  }
  return clean;
}

/** A word that is one plain file name: not empty, no `/` or `\\`, not starting with `.`, `~` or `$`. */
function plainName(p: string): boolean {
  if (p === '') return false;
  const c = p.charCodeAt(0);
  return c !== 46 /* . */ && c !== 126 /* ~ */ && c !== 36 /* $ */ && !p.includes('/') && !p.includes('\\');
}

/** A relative path resolved against the step's own cwd, when it has one. */
function resolveRun(p: string, ctx: JudgeCtx): string {
  if (!ctx.runCwd || p.startsWith('/') || p.startsWith('~') || /^[A-Za-z]:/.test(p)) return p;
  return path.posix.join(norm(ctx.runCwd), p);
}

/** /dev/null and the standard streams: reading or writing them touches nothing. */
export function isHarmlessDevice(p: string): boolean {
  return HARMLESS_DEVICES.has(p) || p === '/dev/stdin' || p === '/dev/urandom' || p === '/dev/random';
}

/** Whether `p` names a system location (or `/`, or the home folder itself). */
export function isSystemPath(p: string, ctx: JudgeCtx): boolean {
  const n = path.posix.normalize(resolveRun(norm(p), ctx));
  if (HARMLESS_DEVICES.has(n)) return false;
  if (n === '/' || n === '~' || n === '~/' || /^[A-Za-z]:\/?$/.test(n) || /^[A-Za-z]:\/Windows\b/i.test(n)) return true;
  if (ctx.home && (n === ctx.home || n === ctx.home + '/')) return true;
  return SYSTEM_PREFIXES.some((s) => n === s || n.startsWith(s + '/'));
}

/** Whether `p` points outside the workspace (`ctx.cwd`). Unknown workspace: absolute paths are outside. */
export function isOutsideWorkspace(p: string, ctx: JudgeCtx): boolean {
  const n = resolveRun(norm(p), ctx);
  if (n.startsWith('~') || /^[A-Za-z]:/.test(n)) return true;
  if (n.startsWith('/')) {
    if (!ctx.cwd) return true;
    const cwd = norm(ctx.cwd);
    // Already normalised and below the workspace (the common case: a word normalisePathArg resolved): inside.
    if (
      n.length > cwd.length + 1 &&
      n.startsWith(cwd) &&
      n.charCodeAt(cwd.length) === 47 &&
      !n.includes('/.') &&
      !n.includes('//') &&
      cleanDir(cwd)
    )
      return false;
    const rel = path.posix.relative(cwd, path.posix.normalize(n));
    // `...` (go's package pattern) or a file named `..x` is inside; only `..` itself or `../` leaves.
    return rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel);
  }
  const rel = path.posix.normalize(n);
  return rel === '..' || rel.startsWith('../');
}

/** The home-relative part of a path below the home (`~/x`, `$HOME/x`, `/home/u/x`, a relative word resolved where the step runs), or undefined. */
function homeRelative(c: string, ctx: SecretCtx | undefined): string | undefined {
  const first = c.charCodeAt(0);
  if (first === 126 /* ~ */ || first === 36 /* $ */) {
    const m = /^(?:~|\$HOME|\$\{HOME\})\/(.+)$/.exec(c);
    if (m) return m[1];
  }
  if (!ctx?.home) return undefined;
  const home = cleanHome(ctx.home);
  let abs: string | undefined;
  if (c.startsWith('/')) abs = path.posix.normalize(c);
  else if (ctx.cwd !== undefined || ctx.runCwd !== undefined) abs = normalisePathArg(c, { ...ctx, policy: {}, depth: 0 });
  if (abs === undefined || !abs.startsWith(home + '/')) return undefined;
  return abs.slice(home.length + 1);
}

/** A home folder with `/` separators and no trailing slash (a string fact, kept for the last one asked). */
let lastHome: { raw: string; clean: string } | undefined;
function cleanHome(raw: string): string {
  if (lastHome?.raw !== raw) lastHome = { raw, clean: norm(raw).replace(/\/+$/, '') };
  return lastHome.clean;
}

/** What {@link secretFindings} knows of where a step runs: the home (for the home's stores), and the folders a relative word is read from. */
export interface SecretCtx {
  home?: string;
  cwd?: string;
  runCwd?: string;
}

/** A path with a segment some store starts with (every one starts with `.` but Library, snap, AppData): the table's regex only then. */
function mayBeStore(p: string): boolean {
  return (
    (p.charCodeAt(0) === 46 || p.includes('/.') || p.includes('Library') || p.includes('snap') || p.includes('AppData')) &&
    STORE_SEGMENT_RE.test(p)
  );
}

/** The finding of one candidate spelling of a path: by name, or as a store of the home's table (the stricter wins). */
function secretOf(c: string, raw: string, ctx: SecretCtx | undefined): Finding | undefined {
  const n = norm(c);
  const hit = SECRET_HINT.test(n) ? SECRET_NAMES.find((p) => p.re.test(n)) : undefined;
  // Only a path naming a store's first folder (or read from such a folder) can lie in one: the rest skip the lookup.
  const rel = mayBeStore(n) || (ctx?.runCwd !== undefined && mayBeStore(ctx.runCwd)) ? homeRelative(n, ctx) : undefined;
  const store = rel === undefined ? undefined : homeSecretStore(rel);
  if (hit && !(store && store.level === 'L2' && hit.level === 'L1')) {
    if (hit.class) return finding('secret.store', hit.level, { a: raw, c: hit.class }, { msg: `secret.store.${hit.class}` });
    return finding(hit.id ?? (hit.level === 'L2' ? 'secret.private_key' : 'secret.read'), hit.level, { a: raw });
  }
  if (!store) return undefined;
  return store.level === 'L2'
    ? finding('secret.store', 'L2', { a: raw, c: store.class }, { msg: `secret.store.${store.class}` })
    : finding('secret.read', 'L1', { a: raw });
}

/**
 * Rules for arguments that name secret stores (private keys, credentials, .env files, keyrings,
 * password stores, browser profiles): by name wherever they lie, and (with `ctx.home`) every
 * store of the home's table (secret-stores.ts), however the path is spelled.
 */
export function secretFindings(args: readonly string[], ctx?: SecretCtx): Finding[] {
  const out: Finding[] = [];
  for (const raw of args) {
    // Check the whole argument and what follows `=`, `@` or `:` (`--file=x`, `-d @x`, `HEAD:.env`).
    const candidates = /[=@:<]/.test(raw) ? new Set([raw, ...raw.split(/[=@:<]/).slice(1)]) : [raw];
    for (const c of candidates) {
      if (c === '') continue;
      const f = secretOf(c, raw, ctx);
      if (f) {
        out.push(f);
        break;
      }
    }
  }
  return out;
}

/**
 * A path argument as the program will see it: `~`, `$HOME` and `${HOME}` expanded, relative
 * paths resolved against where the step runs, `.`, `..` and `//` removed. Undefined for an
 * argument that is not a path (an option, a pattern without `/`).
 */
export function normalisePathArg(raw: string, ctx: JudgeCtx): string | undefined {
  const base = norm(ctx.runCwd ?? ctx.cwd ?? '/');
  // One plain file name below a normalised folder (most words of a command): joined without path.posix.
  if (plainName(raw) && cleanDir(base)) return `${base}/${raw}`;
  let p = norm(raw);
  if (ctx.home && (p.startsWith('~') || p.startsWith('$'))) p = p.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, norm(ctx.home));
  if (p.startsWith('~')) return undefined; // another user's home: judged by the secret rules by name
  if (!p.startsWith('/') && !p.includes('/') && !p.startsWith('.')) return path.posix.join(base, p);
  return path.posix.normalize(p.startsWith('/') ? p : path.posix.join(base, p)).replace(/\/+$/, '') || '/';
}

/** `a` is `b` or lies beneath it. */
function within(a: string, b: string): boolean {
  return a === b || a.startsWith(b.endsWith('/') ? b : `${b}/`);
}

/**
 * The assistant's own configuration and keys: a path inside `<SlothTool home>/plugin-configs`,
 * or a folder holding it (a recursive search of `~/.slothtool` reads the keys), is L2 for every
 * command; any write inside the SlothTool home is L2 (policy and keys are the user's to edit, with
 * `slothtool llm-base config` or by hand, never through the model).
 */
export function slothtoolHomeFindings(paths: readonly string[], ctx: JudgeCtx, writes: boolean): Finding[] {
  if (!paths.length) return [];
  const dirs = slothtoolDirs(ctx);
  if (!dirs) return [];
  const { home, configs } = dirs;
  for (const p of paths) {
    if (within(p, configs) || (within(configs, p) && p !== '/')) return [finding('secret.slothtool', 'L2', { a: p })];
    if (writes && within(p, home)) return [finding('write.slothtool', 'L2', { a: p })];
  }
  return [];
}

/** The SlothTool home of a judgement and its plugin-configs folder, normalised (kept for the last home asked: a string fact). */
let lastDirs: { slothtoolHome?: string; home?: string; dirs?: { home: string; configs: string } } | undefined;
function slothtoolDirs(ctx: JudgeCtx): { home: string; configs: string } | undefined {
  if (lastDirs && lastDirs.slothtoolHome === ctx.slothtoolHome && lastDirs.home === ctx.home) return lastDirs.dirs;
  const raw = ctx.slothtoolHome ?? (ctx.home ? path.posix.join(norm(ctx.home), '.slothtool') : undefined);
  const dirs = raw ? { home: norm(raw), configs: path.posix.join(norm(raw), 'plugin-configs') } : undefined;
  lastDirs = { slothtoolHome: ctx.slothtoolHome, home: ctx.home, dirs };
  return dirs;
}

/** Raw disks and partitions. */
export const BLOCK_DEVICE_RE = /^\/dev\/(sd|hd|vd|xvd|nvme|disk|rdisk|mmcblk|md|dm-|mapper\/|loop|sr)/;

/** An argument and what follows each `=` or `@` in it (`--out=x` → `--out=x`, `x`); split only when it has one. */
function valueParts(raw: string): string[] {
  return raw.includes('=') || raw.includes('@') ? [raw, ...raw.split(/[=@]/).slice(1)] : [raw];
}

/**
 * Paths (absolute or as written) whose contents decide what runs later (runs-later.ts): one L2
 * finding, saying which kind, for the first that is one. `ctx` gives the home and the step's PATH.
 */
export function runsLaterFindings(paths: readonly string[], ctx: RunsLaterCtx, raw?: string): Finding[] {
  for (const p of paths) {
    const q = norm(p);
    const n = q.length > 1 && q.endsWith('/') ? q.replace(/(.)\/+$/, '$1') : q;
    const cls = runsLaterClass(n, ctx);
    if (cls) return [finding('write.persistence', 'L2', { a: raw ?? p }, { msg: `write.persistence.${cls}` })];
  }
  return [];
}

/**
 * Rules for a writing command whose arguments name start-up files, hooks, tool configs, lookup
 * folders or raw disks. `names`: only what is known by name wherever it lies (for programs whose
 * own rules judge the paths they write, so that a source in a lookup folder is not taken for one);
 * `code`: project code and installers, whose words are not all written (a folder that merely holds
 * SlothTool's keys is no target; one inside the SlothTool home is, by name).
 */
export function writeTargetFindings(args: readonly string[], ctx?: JudgeCtx, scope: 'all' | 'names' | 'code' = 'all'): Finding[] {
  const out: Finding[] = [];
  if (ctx && scope !== 'code') {
    const targets = args
      .flatMap(valueParts)
      .map((a) => normalisePathArg(a, ctx))
      .filter((p): p is string => p !== undefined);
    out.push(...slothtoolHomeFindings(targets, ctx, true));
  }
  for (const raw of args) {
    const parts = valueParts(raw);
    // Names match wherever they lie (the word as written and where the step runs is enough); the home's lookup folders need `~` expanded.
    const candidates = new Set(
      ctx ? [...parts, ...parts.map((c) => (scope === 'names' ? undefined : normalisePathArg(c, ctx)) ?? resolveRun(norm(c), ctx))] : parts,
    );
    const later = runsLaterFindings([...candidates], ctx && scope !== 'names' ? ctx : {}, raw);
    if (later.length) {
      out.push(...later);
      continue;
    }
    for (const c of candidates) {
      if (BLOCK_DEVICE_RE.test(norm(c).replace(/\/+$/, ''))) {
        out.push(finding('system.change', 'L2', { p: raw }));
        break;
      }
    }
  }
  return out;
}

/** ASCII/C1 control characters (other than tab and newline) and line/paragraph separators. */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
export const CONTROL_RE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/;
