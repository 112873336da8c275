import * as path from 'path';
import { finding, type Finding, type JudgeCtx } from './finding';

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
  '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/dev', '/proc', '/sys',
  '/System', '/Library', '/private/etc', '/var/lib', '/var/db', '/opt/homebrew', '/Applications',
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
    if (n.length > cwd.length + 1 && n.startsWith(cwd) && n.charCodeAt(cwd.length) === 47 && !n.includes('/.') && !n.includes('//') && cleanDir(cwd)) return false;
    const rel = path.posix.relative(cwd, path.posix.normalize(n));
    // `...` (go's package pattern) or a file named `..x` is inside; only `..` itself or `../` leaves.
    return rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel);
  }
  const rel = path.posix.normalize(n);
  return rel === '..' || rel.startsWith('../');
}

interface SecretPattern {
  re: RegExp;
  level: 'L1' | 'L2';
  /** Finding id; default secret.private_key (L2) or secret.read (L1). */
  id?: string;
}

const SECRET_PATTERNS: SecretPattern[] = [
  { re: /(^|\/)\.ssh(\/?$|\/(?!known_hosts$|config$|authorized_keys$|[^/]*\.pub$)[^/]+$)/, level: 'L2' },
  { re: /(^|\/)(id_rsa|id_dsa|id_ecdsa|id_ed25519|id_ecdsa_sk|id_ed25519_sk|identity)$/, level: 'L2' },
  { re: /\.(pem|key|p12|pfx|ppk|jks|keystore|kdbx)$/i, level: 'L2' },
  { re: /(^|\/)etc\/(shadow|gshadow|sudoers|master\.passwd)(-|$|\/)/, level: 'L2' },
  { re: /(^|\/)etc\/ssh\/ssh_host_[^/]*_key$/, level: 'L2' },
  { re: /(^|\/)\.gnupg(\/|$)/, level: 'L2' },
  { re: /(^|\/)\.aws(\/credentials)?\/?$/, level: 'L2' },
  { re: /(^|\/)(\.netrc|_netrc|\.git-credentials|\.vault-token|\.pgpass|\.my\.cnf)$/, level: 'L2' },
  { re: /(^|\/)\.env(\.(?!example$|sample$|template$|dist$|defaults$)[^/]+)?$/, level: 'L1' },
  // Per-user credential files: refused like keys. A project's own .npmrc / .yarnrc.yml (often only
  // a registry address) asks; the sandbox hides the home one at L0 either way.
  { re: /(^|\/)(\.pypirc|\.gem\/credentials|\.docker\/config\.json|\.kube\/config)$/, level: 'L2', id: 'secret.read' },
  { re: /(^|\/)\.config\/(gh\/hosts\.yml|gcloud(\/|$)|hub$)/, level: 'L2', id: 'secret.read' },
  { re: /(^|\/)(\.npmrc|\.yarnrc\.yml|\.aws\/config)$/, level: 'L1' },
  { re: /(^|\/)\.slothtool\/plugin-configs(\/|$)/, level: 'L2', id: 'secret.slothtool' },
  { re: /(^|\/)\.[a-z]*_history$/, level: 'L1' },
  { re: /(^|\/)proc\/[^/]+\/environ$/, level: 'L1' },
  { re: /(^|\/)(credentials|secrets?)\.(json|ya?ml|toml)$/i, level: 'L1' },
];

const SECRET_HINT = /ssh|id_|identity|\.(pem|key|p12|pfx|ppk|jks|keystore|kdbx)|shadow|sudoers|passwd|gnupg|aws|netrc|credential|vault|pgpass|my\.cnf|env|npmrc|pypirc|yarnrc|docker|kube|config|slothtool|history|secret/i;

/** Rules for arguments that name secret stores (private keys, credentials, .env files). */
export function secretFindings(args: readonly string[]): Finding[] {
  const out: Finding[] = [];
  for (const raw of args) {
    // Check the whole argument and what follows `=`, `@` or `:` (`--file=x`, `-d @x`, `HEAD:.env`).
    // Cheap pre-filter: every pattern needs one of these substrings.
    if (!SECRET_HINT.test(raw)) continue;
    const candidates = /[=@:]/.test(raw) ? new Set([raw, ...raw.split(/[=@:]/).slice(1)]) : [raw];
    for (const c of candidates) {
      const n = norm(c);
      const hit = SECRET_PATTERNS.find((p) => p.re.test(n));
      if (hit) {
        out.push(finding(hit.id ?? (hit.level === 'L2' ? 'secret.private_key' : 'secret.read'), hit.level, { a: raw }));
        break;
      }
    }
  }
  return out;
}

/** Files other programs run or load as configuration later: changing them can run code. */
const PERSISTENCE_RE =
  /(^|\/)(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.cshrc|\.tcshrc|\.kshrc|\.inputrc|\.xprofile|\.xinitrc|\.gitconfig|\.npmrc|\.yarnrc(\.yml)?|\.pypirc|\.curlrc|\.wgetrc|\.vimrc|\.exrc|\.ssh\/(authorized_keys2?|config|rc|environment)|\.git(\/|$)|\.config\/(fish|autostart|systemd|git|nvim)(\/|$)|Library\/LaunchAgents|Library\/LaunchDaemons|\.gnupg|\.slothtool(\/|$)|\.husky(\/|$))/;

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
const BLOCK_DEVICE_RE = /^\/dev\/(sd|hd|vd|xvd|nvme|disk|rdisk|mmcblk|md|dm-|mapper\/|loop|sr)/;

/** An argument and what follows each `=` or `@` in it (`--out=x` → `--out=x`, `x`); split only when it has one. */
function valueParts(raw: string): string[] {
  return raw.includes('=') || raw.includes('@') ? [raw, ...raw.split(/[=@]/).slice(1)] : [raw];
}

/** Rules for a writing command whose arguments name start-up files, hooks or raw disks. */
export function writeTargetFindings(args: readonly string[], ctx?: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  if (ctx) {
    const targets = args.flatMap(valueParts).map((a) => normalisePathArg(a, ctx)).filter((p): p is string => p !== undefined);
    out.push(...slothtoolHomeFindings(targets, ctx, true));
  }
  for (const raw of args) {
    const parts = valueParts(raw);
    const candidates = new Set(ctx ? [...parts, ...parts.map((c) => resolveRun(norm(c), ctx))] : parts);
    for (const c of candidates) {
      const n = norm(c).replace(/\/+$/, '');
      if (PERSISTENCE_RE.test(n)) {
        out.push(finding('write.persistence', 'L2', { a: raw }));
        break;
      }
      if (BLOCK_DEVICE_RE.test(n)) {
        out.push(finding('system.change', 'L2', { p: raw }));
        break;
      }
    }
  }
  return out;
}

/** ASCII/C1 control characters (other than tab and newline) and line/paragraph separators. */
export const CONTROL_RE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/;
