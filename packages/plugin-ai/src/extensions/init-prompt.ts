/**
 * `/init`: one request that asks the model to survey the repository with its read tools and write
 * a concise AGENTS.md, merging what an existing CLAUDE.md says. The write is an fs.write step like
 * any other: the person sees its diff and answers its question. A custom command named `init`
 * replaces this one (interactive/commands.ts OVERRIDABLE).
 */
import fs = require('fs');
import path = require('path');

/** The message `/init` sends for the repository at `root` (started in `cwd`); `extra`: what the person typed after `/init`. */
export function initPrompt(root: string, extra = '', cwd = root): string {
  const target = (path.relative(cwd, path.join(root, 'AGENTS.md')) || 'AGENTS.md').split(path.sep).join('/');
  const has = (name: string) => fs.statSync(path.join(root, name), { throwIfNoEntry: false })?.isFile() === true;
  const lines = [
    `Survey this repository (${root}) and write a concise AGENTS.md at its root: the instructions a coding assistant needs to work here.`,
    '',
    'How: look with fs.glob (the layout: package manifests, build and CI files, docs), fs.grep (scripts, conventions) and fs.read (README, manifests, a few central sources). Do not guess: include only what you saw.',
    'Write, in short sections of bullet points: what the project is; how to build, test, lint and run it (the exact commands, a single test too); the layout (where things live); conventions that are not obvious (style, naming, error handling, commits); pitfalls.',
    'Keep it under about 60 lines; leave out what any developer knows and what the README already says at length.',
  ];
  if (has('AGENTS.md'))
    lines.push('AGENTS.md exists: read it first and improve it — keep what is still right, fix what is wrong, add what is missing.');
  if (has('CLAUDE.md'))
    lines.push('CLAUDE.md exists: read it and merge its points into AGENTS.md (both files are read as memory; leave CLAUDE.md as it is).');
  lines.push(
    `Then write the whole file with one fs.write step (path ${JSON.stringify(target)}): the user sees the diff and decides. Answer with a short summary of what you wrote.`,
  );
  if (extra.trim()) lines.push('', `The user adds: ${extra.trim()}`);
  return lines.join('\n');
}
