/**
 * Judge the target, not the spelling: a workspace may ship links (`build/out -> ~`,
 * `hooks -> .git/hooks`). The runner resolves every word of a step that may name a path
 * (registry/path-links.ts) and `assess` judges the command again with each such word replaced
 * by where it really leads.
 */
import path = require('path');
import { finding, type Finding } from './finding';
import { isHarmlessDevice } from './paths';

/** Live facts about links: what the words of one step really name. */
export interface PathLinks {
  /** Real path of the workspace. */
  workspace: string;
  /** The step's folder as spelled (absolute) and where it really is, when a link is on the way. */
  cwd?: { abs: string; real: string };
  /** Words (or the value after `=` / `@` of one) that lead through a link: as written → real target. */
  words: Record<string, { abs: string; real: string }>;
  /** Set when the step had more path words than are resolved (this many were): the rest were not checked. */
  unchecked?: number;
  /** A search that follows links (`rg -L`, `grep -R`, `find -L`): a link below its roots that leaves the workspace, or `unknown` when the trees were too large to look through. */
  inTree?: { link: string; real: string } | 'unknown';
}

/** The parts of an argument that may name a path: the whole word, the value after `--opt=`, `@file`. */
export function pathParts(arg: string): string[] {
  const out: string[] = [];
  if (!arg.startsWith('-')) out.push(arg.startsWith('@') ? arg.slice(1) : arg);
  // A short option with its value attached (`-fbuild/out/x`, `-o/tmp/x`): a value with a slash may be a path.
  else if (!arg.startsWith('--') && arg.length > 2 && arg.includes('/') && !arg.includes('=')) out.push(arg.slice(2));
  const eq = arg.indexOf('=');
  if (eq > 0 && (arg.startsWith('--') || /^[A-Za-z_][A-Za-z0-9_]*$/.test(arg.slice(0, eq)))) out.push(arg.slice(eq + 1));
  return out.filter((p) => p !== '' && p !== '-' && !p.includes('://') && !p.startsWith('~') && !p.startsWith('$'));
}

/** `child` is `root` or lies below it. */
function inside(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Where a socket path sits inside a word, and how to write another path in its place. */
export interface SocketPart {
  part: string;
  start: number;
  end: number;
  /** The part is written encoded (`http+unix://%2Frun%2Fx.sock`, a proxy URL's path): how to write a path there. */
  encode?: (p: string) => string;
}

/** A path inside a larger word: at its start or after `=`, `:`, `,`, `@` (`-v src:dst`, `type=bind,src=x`, `unix:///x`, `UNIX-CONNECT:/x`), up to `,` or `:`. */
const INNER_PATH = /(?<=^|[=:,@])(?:\/|~\/|\$HOME\/|\$\{HOME\}\/|\.\.?\/)[^,:\s]*/g;
/** socat's Unix socket addresses name a path relative to the folder too (`UNIX-CONNECT:app.sock`). */
const SOCAT_UNIX = /(?<=^|!!)unix(?:-[a-z]+)?:([^,!/~.$][^,!]*)/gi;
/** A Unix socket in a URL's host (HTTPie's unixsocket plugin) or a proxy's path (`socks5h://localhost/x.sock`). */
const URL_SOCKET = /(?:^[a-z]+\+unix:\/\/([^/?#]+)|(?<=(?:^|\/\/|@)localhost)(\/[^?#\s]+))/gi;

/**
 * The parts of a word that may name a Unix socket (or a folder holding one) inside a larger
 * spelling, beyond {@link pathParts}: a bind mount's source, a `unix://` URL, a socat address,
 * an encoded socket in a URL. Read the same way where the runner looks them up
 * (registry/socket-links.ts) and where {@link linkedArgs} writes their targets in.
 */
export function socketParts(arg: string): SocketPart[] {
  const out: SocketPart[] = [];
  for (const m of arg.matchAll(INNER_PATH)) out.push({ part: m[0], start: m.index, end: m.index + m[0].length });
  for (const m of arg.matchAll(SOCAT_UNIX)) {
    const start = m.index + m[0].length - m[1].length;
    out.push({ part: m[1], start, end: start + m[1].length });
  }
  for (const m of arg.matchAll(URL_SOCKET)) {
    const raw = m[1] ?? m[2];
    const start = m.index + m[0].length - raw.length;
    let part = raw;
    try {
      part = decodeURIComponent(raw);
    } catch {
      // written as it is when it does not decode
    }
    out.push({ part, start, end: start + raw.length, encode: m[1] !== undefined ? encodeURIComponent : encodeURI });
  }
  return out.filter((p) => p.part !== '' && p.part !== '/');
}

const ownWord = (links: PathLinks, part: string) =>
  Object.prototype.hasOwnProperty.call(links.words, part) ? links.words[part] : undefined;

/** A word with every socket part that leads elsewhere written as its target (right to left, no two overlapping). */
function linkedSocketParts(a: string, links: PathLinks): string | undefined {
  const hits = socketParts(a)
    .filter((p) => ownWord(links, p.part))
    .sort((x, y) => y.start - x.start);
  if (!hits.length) return undefined;
  let out = a;
  let limit = Infinity;
  for (const h of hits) {
    if (h.end > limit) continue;
    const real = ownWord(links, h.part)!.real;
    out = out.slice(0, h.start) + (h.encode ? h.encode(real) : real) + out.slice(h.end);
    limit = h.start;
  }
  return out;
}

/** The arguments with every word that leads through a link replaced by its real target; undefined when none does. */
export function linkedArgs(args: readonly string[], links: PathLinks): string[] | undefined {
  let changed = false;
  const out = args.map((a) => {
    for (const part of pathParts(a)) {
      const hit = ownWord(links, part);
      if (!hit) continue;
      changed = true;
      return a === part ? hit.real : a.slice(0, a.length - part.length) + hit.real;
    }
    const inner = linkedSocketParts(a, links);
    if (inner === undefined) return a;
    changed = true;
    return inner;
  });
  return changed ? out : undefined;
}

/**
 * A word spelled inside the workspace that leads outside it through a link: asked each time
 * (the finding id is fs.symlink_escape, which a session allowance never silences).
 */
export function linkEscapeFindings(links: PathLinks): Finding[] {
  const out: Finding[] = [];
  for (const [word, { abs, real }] of Object.entries(links.words)) {
    if (isHarmlessDevice(real) || !inside(abs, links.workspace) || inside(real, links.workspace)) continue;
    out.push(finding('fs.symlink_escape', 'L1', { f: word, r: real }, { msg: 'path.link_escape' }));
  }
  return out;
}

/** Readers that recurse and follow the links they meet there, by their option that does so. */
const FOLLOWERS: Record<string, { follow: (a: string) => boolean; patternFirst: boolean }> = {
  grep: { follow: (a) => a === '-R' || a === '--dereference-recursive' || (/^-[A-Za-z]+$/.test(a) && a.includes('R')), patternFirst: true },
  rg: { follow: (a) => a === '-L' || a === '--follow' || (/^-[A-Za-z]+$/.test(a) && a.includes('L')), patternFirst: true },
  ag: { follow: (a) => a === '-f' || a === '--follow', patternFirst: true },
  find: { follow: (a) => a === '-L' || a === '-follow', patternFirst: false },
  fd: { follow: (a) => a === '-L' || a === '--follow' || (/^-[A-Za-z]+$/.test(a) && a.includes('L')), patternFirst: true },
  tree: { follow: (a) => a === '-l', patternFirst: false },
  du: { follow: (a) => a === '-L' || a === '--dereference', patternFirst: false },
};
for (const [alias, of] of [
  ['egrep', 'grep'],
  ['fgrep', 'grep'],
  ['fdfind', 'fd'],
] as const)
  FOLLOWERS[alias] = FOLLOWERS[of];

/**
 * The folders a search that follows links will walk (`rg -L TODO src` → ['src'], `find -L .` →
 * ['.']), or undefined when the command does not follow links it meets below its operands.
 * Operands are taken roughly (a pattern's option values may be counted as roots too: that only
 * looks through more).
 */
export function followedRoots(program: string, args: readonly string[]): string[] | undefined {
  const spec = FOLLOWERS[program.slice(program.lastIndexOf('/') + 1)];
  if (!spec || !args.some(spec.follow)) return undefined;
  if (program.endsWith('find')) {
    // find [-H] [-L] [-P] [-D opts] [-Olevel] [starting-point...] [expression]
    let i = 0;
    while (i < args.length && /^-([HLP]|O\d*|D)$/.test(args[i])) i += args[i] === '-D' ? 2 : 1;
    const roots: string[] = [];
    for (; i < args.length && !args[i].startsWith('-') && args[i] !== '(' && args[i] !== '!'; i++) roots.push(args[i]);
    return roots.length ? roots : ['.'];
  }
  const ops = args.filter((a) => !a.startsWith('-'));
  const roots = spec.patternFirst ? ops.slice(1) : ops;
  return roots.length ? roots : ['.'];
}

/** A link below a followed search's roots that leaves the workspace, or trees too large to look through: asked. */
export function inTreeFindings(links: PathLinks): Finding[] {
  const t = links.inTree;
  if (!t) return [];
  if (t === 'unknown') return [finding('fs.symlink_escape', 'L1', {}, { msg: 'path.link_tree_unknown' })];
  return [finding('fs.symlink_escape', 'L1', { f: t.link, r: t.real }, { msg: 'path.link_in_tree' })];
}

/** A step with more path words than the runner resolves: where the rest lead is unknown, so it is asked. */
export function uncheckedFindings(links: PathLinks): Finding[] {
  return links.unchecked ? [finding('path.links_unchecked', 'L1', { n: String(links.unchecked) })] : [];
}

/** The step's folder leads outside the workspace through a link. */
export function cwdEscapeFindings(program: string, links: PathLinks): Finding[] {
  const c = links.cwd;
  if (!c || !inside(c.abs, links.workspace) || inside(c.real, links.workspace)) return [];
  return [finding('cwd.outside', 'L1', { p: program, d: c.real })];
}
