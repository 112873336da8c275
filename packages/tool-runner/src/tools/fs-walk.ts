import fs = require('fs');
import path = require('path');
import { isInside } from '../workspace';
import { ignore, type IgnoreMatcher } from '../lazy-modules';

/** The ignore files of one folder, with where they apply from. */
interface IgnoreLayer {
  /** The folder, relative to the walk's ignore base (`''` for the base itself), with `/`. */
  dir: string;
  matcher: IgnoreMatcher;
}

/** A file the walk found. */
export interface WalkedFile {
  /** Relative to the walked folder, with `/`. */
  rel: string;
  abs: string;
}

/** Why a walk stopped early. */
export type WalkStop = 'files' | 'time' | 'aborted';

export interface WalkOptions {
  /** Real path of the workspace: ignore files from it down to `root` apply. */
  workspace: string;
  /** Real path of the folder to walk. */
  root: string;
  /** Only folders whose path (relative to root) may hold a match are entered; default all. */
  enter?(relDir: string): boolean;
  /** Entries looked at, at most (files and folders); default 200 000. */
  maxEntries?: number;
  /** Stop when this returns true (a deadline, an abort). Checked between folders. */
  shouldStop?(): WalkStop | undefined;
}

/** Names whose rules a folder holds, in the order git and ripgrep read them (later wins). */
const IGNORE_FILES = ['.gitignore', '.ignore'];

/** The ignore rules of a folder; `present`: the names the folder holds, when already listed (no read is tried for a missing file). */
function readIgnore(dir: string, extra: string[] = [], present?: ReadonlySet<string>): IgnoreMatcher | undefined {
  const texts: string[] = [];
  for (const name of [...extra, ...IGNORE_FILES]) {
    if (present && !present.has(name)) continue;
    try {
      texts.push(fs.readFileSync(path.join(dir, name), 'utf8'));
    } catch {
      // no such file here: nothing to add
    }
  }
  if (!texts.length) return undefined;
  return ignore()().add(texts.join('\n'));
}

/** Whether `rel` (relative to the base, `/`-separated, `dir/` for folders) is ignored: the deepest layer with a verdict decides. */
function ignored(layers: readonly IgnoreLayer[], rel: string): boolean {
  for (let i = layers.length - 1; i >= 0; i--) {
    const { dir, matcher } = layers[i];
    if (dir && !rel.startsWith(`${dir}/`)) continue;
    const r = matcher.test(dir ? rel.slice(dir.length + 1) : rel);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

/**
 * Every regular file under `root`, depth first, names sorted: `.gitignore` and `.ignore` files
 * respected (nested ones too, and those of the folders from the workspace down to `root`, with
 * `.git/info/exclude`), `.git` folders skipped, symbolic links not followed (a link may lead out
 * of the workspace). Stops at `maxEntries` or when `shouldStop` says so, and says why.
 */
export function walkFiles(options: WalkOptions, onFile: (file: WalkedFile) => boolean | void): { stopped?: WalkStop } {
  const { root, workspace } = options;
  const maxEntries = options.maxEntries ?? 200_000;
  const base = isInside(root, workspace) ? workspace : root;
  const layers: IgnoreLayer[] = [];
  // The folders from the base down to root, whose ignore files apply to root too.
  const chain = path.relative(base, root).split(path.sep).filter(Boolean);
  for (let i = 0, dir = base; i <= chain.length; dir = path.join(dir, chain[i] ?? ''), i++) {
    const rel = chain.slice(0, i).join('/');
    const matcher = readIgnore(dir, i === 0 ? ['.git/info/exclude'] : []);
    if (matcher) layers.push({ dir: rel, matcher });
  }
  const rootRel = chain.join('/');
  let seen = 0;
  const visit = (dirAbs: string, relFromRoot: string): WalkStop | 'done' | undefined => {
    const stop = options.shouldStop?.();
    if (stop) return stop;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dirAbs, { withFileTypes: true });
    } catch {
      return undefined; // unreadable folder: nothing from it
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const baseRel = [rootRel, relFromRoot].filter(Boolean).join('/');
    const own =
      relFromRoot && entries.some((e) => IGNORE_FILES.includes(e.name))
        ? readIgnore(dirAbs, [], new Set(entries.map((e) => e.name)))
        : undefined;
    if (own) layers.push({ dir: baseRel, matcher: own });
    try {
      for (const e of entries) {
        if (++seen > maxEntries) return 'files';
        const rel = relFromRoot ? `${relFromRoot}/${e.name}` : e.name;
        const fromBase = baseRel ? `${baseRel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (e.name === '.git' || ignored(layers, `${fromBase}/`)) continue;
          if (options.enter && !options.enter(rel)) continue;
          const r = visit(path.join(dirAbs, e.name), rel);
          if (r) return r;
        } else if (e.isFile()) {
          if (ignored(layers, fromBase)) continue;
          if (onFile({ rel, abs: path.join(dirAbs, e.name) }) === false) return 'done';
        }
      }
      return undefined;
    } finally {
      if (own) layers.pop();
    }
  };
  const r = visit(root, '');
  return r && r !== 'done' ? { stopped: r } : {};
}
