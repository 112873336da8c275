/** Live facts for judging the target, not the spelling (policy/links.ts): what a step's words really name. */
import * as path from 'path';
import type { PathLinks } from '../policy/links';
import { lazy } from '../lazy';
import type { ToolSession } from '../tools/session';

const modLinks = lazy(() => require('../policy/links') as typeof import('../policy/links'));

/** Words looked at per step at most (each costs a few lstat calls). */
const MAX_WORDS = 128;

/**
 * Resolve the step's folder and every word that may name a path, against that folder, through
 * links. Only words whose real target differs from their spelling are kept. `runCwd` is the step's own folder as written (relative to the runner's cwd); `.` when it names none.
 */
export function gatherLinks(words: readonly string[], runCwd: string, session: Pick<ToolSession, 'resolve' | 'workspace'>): PathLinks {
  const { pathParts } = modLinks();
  const cwd = session.resolve(runCwd);
  const links: PathLinks = { workspace: session.workspace, words: Object.create(null) };
  if (cwd.real !== cwd.abs) links.cwd = { abs: cwd.abs, real: cwd.real };
  let seen = 0;
  for (const w of words) {
    for (const part of pathParts(w)) {
      if (++seen > MAX_WORDS) return links;
      if (Object.prototype.hasOwnProperty.call(links.words, part) || /[\0\n]/.test(part)) continue;
      const r = session.resolve(path.isAbsolute(part) ? part : `${cwd.real}/${part}`);
      // What the rules assume: the word read from the folder as spelled, links not followed.
      const spelled = path.resolve(cwd.abs, part);
      if (r.real !== spelled) links.words[part] = { abs: path.resolve(cwd.abs, part), real: r.real };
    }
  }
  return links;
}
