import fs = require('fs');
import path = require('path');

/**
 * Where a path a model names really points. `abs` is the lexical answer (after `~` and `..`),
 * `real` follows symlinks: the realpath of the file, or of its nearest existing parent plus
 * the rest for a file that does not exist yet. Rules judge both.
 */
export interface ResolvedPath {
  /** As the model wrote it. */
  input: string;
  /** Absolute, `~` expanded, `..` resolved; symlinks not followed. */
  abs: string;
  /** Absolute with every symlink followed (nearest existing parent for a new file). */
  real: string;
  /** The path (after symlinks) exists. */
  exists: boolean;
  /** What it is when it exists. */
  kind?: 'file' | 'dir' | 'other';
}

/** The slice of `fs` path resolution needs; replaceable in tests. */
export interface PathFs {
  realpathSync(p: string): string;
  statSync(p: string): { isFile(): boolean; isDirectory(): boolean };
  /** With readlinkSync: links are followed one by one (dangling ones too, `..` after a link as the kernel does). */
  lstatSync?(p: string): { isSymbolicLink(): boolean } | undefined;
  readlinkSync?(p: string): string;
}

const nodePathFs: PathFs = {
  realpathSync: (p) => fs.realpathSync.native(p),
  statSync: (p) => fs.statSync(p),
  // No exception for a missing path: most words of a command name no file, and throwing costs.
  lstatSync: (p) => fs.lstatSync(p, { throwIfNoEntry: false }),
  readlinkSync: (p) => fs.readlinkSync(p, 'utf8'),
};

/**
 * A {@link PathFs} for one judgement: each lstat and readlink answer is kept for the rest of it
 * (the words of a step share their folders: `src/a.ts src/b.ts` looks at `src` once). Made anew
 * for every judgement, never kept across them: a link may change between two steps.
 */
export function judgementPathFs(): PathFs {
  const lstats = new Map<string, { isSymbolicLink(): boolean } | undefined>();
  const targets = new Map<string, string>();
  return {
    realpathSync: nodePathFs.realpathSync,
    statSync: nodePathFs.statSync,
    lstatSync(p) {
      if (lstats.has(p)) return lstats.get(p);
      const st = fs.lstatSync(p, { throwIfNoEntry: false });
      lstats.set(p, st);
      return st;
    },
    readlinkSync(p) {
      let target = targets.get(p);
      if (target === undefined) {
        target = fs.readlinkSync(p, 'utf8');
        targets.set(p, target);
      }
      return target;
    },
  };
}

/**
 * The real path of an existing path, by the C library's realpath (one call: it walks links and a
 * `..` after a link as the kernel does); undefined when the path does not exist or cannot be
 * read, where {@link physicalPath} walks it. Linux only: elsewhere realpath may also change the
 * spelling (macOS gives a case-insensitive volume's own case), which the walk keeps.
 */
function existingRealPath(raw: string): string | undefined {
  if (process.platform !== 'linux' || !fs.existsSync(raw)) return undefined;
  try {
    return fs.realpathSync.native(raw);
  } catch {
    return undefined;
  }
}

/** Places `~` may stand for. */
export interface HomeDirs {
  home?: string;
  /** Where `~/.slothtool` points (SLOTHTOOL_HOME). */
  slothtoolHome?: string;
}

/** `~`, `~/x` and `~/.slothtool/x` with the home put in, not yet normalised (`..` kept for {@link physicalPath}). */
function expandRaw(p: string, cwd: string, dirs: HomeDirs): string {
  if (dirs.slothtoolHome && (p === '~/.slothtool' || p.startsWith('~/.slothtool/')))
    return dirs.slothtoolHome + '/.' + p.slice('~/.slothtool'.length);
  if (dirs.home && (p === '~' || p.startsWith('~/'))) return dirs.home + '/.' + p.slice(1);
  return path.isAbsolute(p) ? p : path.resolve(cwd) + '/' + p;
}

/** `~`, `~/x` and `~/.slothtool/x` made absolute; other paths resolved against `cwd`. */
export function expandPath(p: string, cwd: string, dirs: HomeDirs = {}): string {
  return path.resolve(expandRaw(p, cwd, dirs));
}

/** Links followed at most (the kernel's limit is 40). */
const MAX_LINKS = 40;

/**
 * Where an absolute path leads, component by component as the kernel walks it: a link is
 * replaced by its target (a relative target against the link's folder), `..` goes up from where
 * the walk really is (so `out/..` is the parent of out's target), a dangling link still leads to
 * its target. The first missing component ends the walk; the rest is appended.
 */
function physicalPath(raw: string, pfs: Required<PathFs>, start = '/'): { real: string; exists: boolean } {
  let todo = raw.split('/').filter((c) => c !== '');
  let cur = start;
  let links = 0;
  while (todo.length) {
    const c = todo.shift()!;
    if (c === '.') continue;
    if (c === '..') {
      cur = path.dirname(cur);
      continue;
    }
    const next = path.join(cur, c);
    let isLink: boolean | undefined;
    try {
      isLink = pfs.lstatSync(next)?.isSymbolicLink();
    } catch {
      isLink = undefined;
    }
    if (isLink === undefined) return { real: path.resolve(next, ...todo), exists: false };
    if (!isLink) {
      cur = next;
      continue;
    }
    if (++links > MAX_LINKS) return { real: path.resolve(next, ...todo), exists: false };
    let target: string;
    try {
      target = pfs.readlinkSync(next);
    } catch {
      return { real: path.resolve(next, ...todo), exists: false };
    }
    if (target.startsWith('/')) cur = '/';
    todo = [...target.split('/').filter((t) => t !== ''), ...todo];
  }
  return { real: cur, exists: true };
}

/** What an existing path is; 'other' when stat fails after it was found (a race, a link cycle). */
function kindOf(real: string, pfs: PathFs): ResolvedPath['kind'] {
  try {
    const st = pfs.statSync(real);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'other';
  }
}

/**
 * Resolve a path the way the file system will see it. Never throws: a path whose parents
 * cannot be read resolves lexically.
 */
export function resolvePath(p: string, cwd: string, dirs: HomeDirs = {}, pfs: PathFs = nodePathFs): ResolvedPath {
  const raw = expandRaw(p, cwd, dirs);
  const abs = path.resolve(raw);
  if (pfs.lstatSync && pfs.readlinkSync && path.sep === '/') {
    // Most paths asked about exist (a step's folder, a file read or edited): one realpath call, not an lstat per component.
    const known = pfs === nodePathFs ? existingRealPath(raw) : undefined;
    if (known !== undefined) return { input: p, abs, real: known, exists: true, kind: kindOf(known, pfs) };
    const { real, exists } = physicalPath(raw, pfs as Required<PathFs>);
    if (!exists) return { input: p, abs, real, exists: false };
    return { input: p, abs, real, exists: true, kind: kindOf(real, pfs) };
  }
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = pfs.realpathSync(existing);
      const full = rest.length ? path.join(real, ...rest.reverse()) : real;
      if (rest.length) return { input: p, abs, real: full, exists: false };
      return { input: p, abs, real, exists: true, kind: kindOf(real, pfs) };
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return { input: p, abs, real: abs, exists: false };
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * {@link resolvePath} of a relative path below a folder already known to be real (the step's
 * resolved folder): only the path's own components are walked. Absolute paths are walked whole.
 * Where it leads is all it says (no `kind`).
 */
export function resolveBelow(realDir: string, p: string, pfs: PathFs = nodePathFs): ResolvedPath {
  if (path.isAbsolute(p) || !pfs.lstatSync || !pfs.readlinkSync || path.sep !== '/')
    return resolvePath(path.isAbsolute(p) ? p : `${realDir}/${p}`, realDir, {}, pfs);
  const abs = path.resolve(realDir, p);
  const { real, exists } = physicalPath(p, pfs as Required<PathFs>, realDir);
  return { input: p, abs, real, exists };
}

/** Whether `child` is `root` or lies below it (both absolute, already normalised). */
export function isInside(child: string, root: string): boolean {
  if (child === root) return true;
  const rel = path.relative(root, child);
  return rel !== '' && !rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel);
}

/**
 * The workspace of a session: the root of the git repository that holds `cwd` (the nearest
 * folder with a `.git` entry), or `cwd` itself. Returned as a real path.
 */
export function findWorkspace(
  cwd: string,
  pfs: PathFs & { existsSync(p: string): boolean } = { ...nodePathFs, existsSync: fs.existsSync },
): string {
  let dir: string;
  try {
    dir = pfs.realpathSync(cwd);
  } catch {
    return path.resolve(cwd);
  }
  for (let d = dir; ;) {
    if (pfs.existsSync(path.join(d, '.git'))) return d;
    const parent = path.dirname(d);
    if (parent === d) return dir;
    d = parent;
  }
}

/** The real path of a folder (itself when it cannot be resolved). */
export function realDir(dir: string, pfs: PathFs = nodePathFs): string {
  try {
    return pfs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}
