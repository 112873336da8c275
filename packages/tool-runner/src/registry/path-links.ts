/** Live facts for judging the target, not the spelling (policy/links.ts): what a step's words really name. */
import fs = require('fs');
import path = require('path');
import { pathParts, type PathLinks } from '../policy/links';
import { isInside, judgementPathFs, resolveBelow, type PathFs, type ResolvedPath } from '../workspace';

/** Where installed programs and libraries live: links there (a venv's python) are not a way out to anything private. */
const INSTALLED = [
  '/usr/bin/',
  '/usr/lib/',
  '/usr/lib64/',
  '/usr/local/bin/',
  '/usr/local/lib/',
  '/usr/share/',
  '/bin/',
  '/sbin/',
  '/lib/',
  '/lib64/',
  '/opt/homebrew/',
  '/nix/store/',
  '/System/Library/',
];

/** Entries a followed search's trees are looked through at most; larger trees are asked about. */
const MAX_TREE_ENTRIES = 50000;

/**
 * The first link below `roots` (folders, resolved below the step's real folder) whose target
 * leaves the workspace, or 'unknown' past {@link MAX_TREE_ENTRIES}. A link into the workspace
 * is walked where it leads, as the search will (each real folder once). `pfs`: the judgement's
 * (workspace.ts judgementPathFs).
 */
export function escapingLinkInTrees(
  roots: readonly string[],
  cwdReal: string,
  workspace: string,
  pfs: PathFs = judgementPathFs(),
): PathLinks['inTree'] {
  const stack = roots.map((r) => resolveBelow(cwdReal, r, pfs).real);
  const visited = new Set<string>();
  let seen = 0;
  while (stack.length) {
    const dir = stack.pop()!;
    if (visited.has(dir)) continue;
    visited.add(dir);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > MAX_TREE_ENTRIES) return 'unknown';
      const full = path.join(dir, e.name);
      if (e.isDirectory()) stack.push(full);
      else if (e.isSymbolicLink()) {
        const r = resolveBelow('/', full, pfs);
        // A virtual environment's python -> /usr/bin/python3: installed programs, nothing private.
        if (INSTALLED.some((d) => r.real.startsWith(d))) continue;
        if (!isInside(r.real, workspace)) return { link: path.relative(workspace, full) || full, real: r.real };
        // A link to elsewhere in the workspace is walked too: the search follows it there.
        if (r.exists) stack.push(r.real);
      }
    }
  }
  return undefined;
}

/** Words looked at per step at most (each costs a few lstat calls); a step with more is asked. */
const MAX_WORDS = 512;

/**
 * Resolve every word of a step that may name a path through links, below the step's folder
 * (`cwd`: as resolved by the session, spelled and real). Only words whose real target differs
 * from their spelling are kept. `pfs`: the judgement's (workspace.ts judgementPathFs: words that
 * share folders look at them once).
 */
export function gatherLinks(words: readonly string[], cwd: ResolvedPath, workspace: string, pfs: PathFs = judgementPathFs()): PathLinks {
  const links: PathLinks = { workspace, words: Object.create(null) };
  if (cwd.real !== cwd.abs) links.cwd = { abs: cwd.abs, real: cwd.real };
  let seen = 0;
  for (const w of words) {
    for (const part of pathParts(w)) {
      if (++seen > MAX_WORDS) {
        links.unchecked = MAX_WORDS;
        return links;
      }
      if (Object.prototype.hasOwnProperty.call(links.words, part) || /[\0\n]/.test(part)) continue;
      // What the rules assume: the word read from the folder as spelled, links not followed.
      const spelled = path.resolve(cwd.abs, part);
      // /dev/stdout, /dev/fd/1, …: the kernel's own links, judged by their names.
      if (spelled.startsWith('/dev/')) continue;
      const r = resolveBelow(cwd.real, part, pfs);
      if (r.real !== spelled) links.words[part] = { abs: spelled, real: r.real };
    }
  }
  return links;
}
