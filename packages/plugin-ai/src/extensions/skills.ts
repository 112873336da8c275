import fs = require('fs');
import path = require('path');
import { frontMatterIndex, parseFrontMatter } from './front-matter';
import { isHomeClaude } from './claude-settings';
import { isOwnHome } from './trust';
import { folderEntries } from './folders';

/**
 * Agent Skills: folders holding a `SKILL.md` whose front matter has `name` and `description`.
 * The prompt carries only the index (name + description); `skill.load` brings one body in.
 */
export interface Skill {
  name: string;
  description: string;
  /** The folder of the skill (files it names are relative to it). */
  dir: string;
  file: string;
  /** `user` (~/.slothtool/skills) or `project` (the workspace's folders). */
  scope: 'user' | 'project';
}

/** A SKILL.md that could not be used, with why. */
export interface SkillProblem {
  file: string;
  error: string;
}

/**
 * Where skills are looked for: the user's folders (ours, then Claude Code's `~/.claude/skills`),
 * then the project's, including the folders other assistants use. `userHome`: the user's home.
 */
export function skillRoots(slothtoolHome: string, workspace: string, userHome?: string): Array<{ dir: string; scope: 'user' | 'project' }> {
  const ownClaude = userHome !== undefined && isHomeClaude(userHome, workspace);
  return [
    { dir: path.join(slothtoolHome, 'skills'), scope: 'user' as const },
    ...(userHome !== undefined ? [{ dir: path.join(userHome, '.claude', 'skills'), scope: 'user' as const }] : []),
    // In the home folder `.slothtool/skills` is the user's folder above, not a project's.
    ...(isOwnHome(workspace, slothtoolHome) ? [] : [{ dir: path.join(workspace, '.slothtool', 'skills'), scope: 'project' as const }]),
    ...(ownClaude ? [] : [{ dir: path.join(workspace, '.claude', 'skills'), scope: 'project' as const }]),
    { dir: path.join(workspace, '.agents', 'skills'), scope: 'project' as const },
  ];
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_SKILL_BYTES = 512 * 1024;
const MAX_DESCRIPTION = 1024;

function readSmall(file: string): string | undefined {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st || !st.isFile() || st.size > MAX_SKILL_BYTES) return undefined;
  return fs.readFileSync(file, 'utf8');
}

/**
 * Every skill under the roots. A name seen twice keeps the first (the user's wins over a
 * project's). Never throws: unreadable or malformed skills come back as problems.
 */
export function discoverSkills(roots: ReadonlyArray<{ dir: string; scope: 'user' | 'project' }>): {
  skills: Skill[];
  problems: SkillProblem[];
} {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    for (const entry of folderEntries(root.dir)) {
      if (!entry.isDirectory()) continue;
      const dir = path.join(root.dir, entry.name);
      const file = path.join(dir, 'SKILL.md');
      let text: string | undefined;
      try {
        text = readSmall(file);
      } catch (err) {
        problems.push({ file, error: err instanceof Error ? err.message : String(err) });
        continue;
      }
      if (text === undefined) continue;
      const doc = parseFrontMatter(text);
      const name = typeof doc.data.name === 'string' ? doc.data.name.trim() : '';
      const description = typeof doc.data.description === 'string' ? doc.data.description.replace(/\s+/g, ' ').trim() : '';
      if (doc.error) problems.push({ file, error: doc.error });
      else if (!NAME.test(name))
        problems.push({ file, error: 'front matter "name" must be lower-case letters, digits and "-" (at most 64)' });
      else if (!description) problems.push({ file, error: 'front matter "description" is missing' });
      else if (!seen.has(name)) {
        seen.add(name);
        skills.push({ name, description: description.slice(0, MAX_DESCRIPTION), dir, file, scope: root.scope });
      }
    }
  }
  return { skills, problems };
}

/** The index the system prompt carries: one line per skill. */
export function skillIndex(skills: readonly Skill[]): string {
  return frontMatterIndex(
    'Skills (load one with {"tool":"skill.load","name":"<name>"} when the task matches; its files are read with fs.read, its scripts run with exec):',
    skills,
  );
}

/** A skill's body (the Markdown after the front matter) with the folder its files are in, and
 * the line of SKILL.md the body starts at (for reading the rest with fs.read's `offset`). */
export function loadSkillBody(skill: Skill): { name: string; dir: string; body: string; firstLine: number } {
  const text = readSmall(skill.file) ?? '';
  const body = parseFrontMatter(text).body;
  const lead = body.length - body.trimStart().length;
  const firstLine = text.slice(0, text.length - body.length + lead).split('\n').length;
  return { name: skill.name, dir: skill.dir, body: body.trim(), firstLine };
}
