/**
 * Judge the target, not the spelling: a workspace may ship links (`build/out -> ~`,
 * `hooks -> .git/hooks`). The runner resolves every word of a step that may name a path
 * (registry/path-links.ts) and `assess` judges the command again with each such word replaced
 * by where it really leads.
 */
import * as path from 'path';
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

/** The arguments with every word that leads through a link replaced by its real target; undefined when none does. */
export function linkedArgs(args: readonly string[], links: PathLinks): string[] | undefined {
  let changed = false;
  const out = args.map((a) => {
    for (const part of pathParts(a)) {
      const hit = Object.prototype.hasOwnProperty.call(links.words, part) ? links.words[part] : undefined;
      if (!hit) continue;
      changed = true;
      return a === part ? hit.real : a.slice(0, a.length - part.length) + hit.real;
    }
    return a;
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
