import fs = require('fs');
import path = require('path');
import { folderEntries } from './folders';
import { parseFrontMatter } from './front-matter';
import { loadSkillBody } from './skills';

/**
 * Custom slash commands: Markdown files in `~/.slothtool/commands/`, Claude Code's
 * `~/.claude/commands/`, and the project's `.claude/commands/` and `.slothtool/commands/` (a file
 * `review.md` is `/review`; `git/pr.md` is `/git:pr`). The body is a prompt template:
 * `$ARGUMENTS` is everything typed after the command, `$1` … `$9` its words; `` !`cmd` `` and
 * `@file` are filled in before it is sent (extensions/command-run.ts). Front matter (optional):
 * `description`, `argument-hint`, `profile` (an llm-base profile for that turn), `mode` (`low` |
 * `high`), Claude Code's `model` and `allowed-tools`. A project command with the same name as a
 * user one wins (it is more specific); built-in commands win, but for the ones that are only a
 * prompt (`/init`, interactive/commands.ts OVERRIDABLE). Skills are commands too (`/pdf …`: the
 * skill's body goes with the message), unless a command has that name.
 */
export interface CustomCommand {
  name: string;
  description: string;
  argumentHint?: string;
  profile?: string;
  mode?: 'low' | 'high';
  /** Claude Code's `model` (`haiku`, `sonnet`, `opus`, a model id, or here a profile name). */
  model?: string;
  /** Claude Code's `allowed-tools`, as written (command-allow.ts reads them). */
  allowedTools?: string[];
  template: string;
  file: string;
  scope: 'user' | 'project';
  /** The folder it came from, for `/help` (`~/.claude/commands`, `.slothtool/commands`, `skill`). */
  origin: string;
  /** A skill called as a command: its name is the skill's. */
  skill?: boolean;
}

/** A folder of commands, with its scope and how `/help` names it. */
export interface CommandRoot {
  dir: string;
  scope: 'user' | 'project';
  origin?: string;
}

export interface CommandProblem {
  file: string;
  error: string;
}

const NAME = /^[a-z0-9][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)*$/;
const MAX_BYTES = 256 * 1024;

function collect(dir: string, prefix: string[], out: Array<{ file: string; name: string }>, depth = 0): void {
  if (depth > 4) return;
  for (const e of folderEntries(dir)) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) collect(p, [...prefix, e.name.toLowerCase()], out, depth + 1);
    else if (e.isFile() && e.name.toLowerCase().endsWith('.md'))
      out.push({ file: p, name: [...prefix, e.name.slice(0, -3).toLowerCase()].join(':') });
  }
}

/**
 * Every custom command; `reserved` are the built-in names (those files are reported, not loaded).
 * `skills` become commands of their own name where no command has it.
 */
export function discoverCommands(
  roots: readonly CommandRoot[],
  reserved: ReadonlySet<string>,
  skills: ReadonlyArray<{ name: string; description: string; file: string; scope: 'user' | 'project' }> = [],
): { commands: CustomCommand[]; problems: CommandProblem[] } {
  const byName = new Map<string, CustomCommand>();
  const problems: CommandProblem[] = [];
  for (const root of roots) {
    const files: Array<{ file: string; name: string }> = [];
    collect(root.dir, [], files);
    for (const { file, name } of files) {
      if (!NAME.test(name)) {
        problems.push({ file, error: `"/${name}" is not a usable command name (letters, digits, "-" and "_")` });
        continue;
      }
      if (reserved.has(name)) {
        problems.push({ file, error: `"/${name}" is a built-in command; rename the file` });
        continue;
      }
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st || st.size > MAX_BYTES) {
        problems.push({ file, error: `larger than ${MAX_BYTES / 1024} KB` });
        continue;
      }
      const doc = parseFrontMatter(fs.readFileSync(file, 'utf8'));
      if (doc.error) problems.push({ file, error: doc.error });
      const d = doc.data;
      const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
      const template = doc.body.trim();
      const firstLine =
        template
          .split('\n')
          .find((l) => l.trim())
          ?.replace(/^#+\s*/, '')
          .trim() ?? '';
      const mode = d.mode === 'low' || d.mode === 'high' ? d.mode : undefined;
      const tools = d['allowed-tools'];
      const allowedTools = Array.isArray(tools)
        ? tools.filter((x): x is string => typeof x === 'string')
        : typeof tools === 'string'
          ? (tools.match(/[^\s,()]+(?:\([^)]*\))?/g) ?? [])
          : [];
      byName.set(name, {
        name,
        description: str(d.description) ?? firstLine.slice(0, 80),
        ...(str(d['argument-hint']) ? { argumentHint: str(d['argument-hint']) } : {}),
        ...(str(d.profile) ? { profile: str(d.profile) } : {}),
        ...(mode ? { mode } : {}),
        ...(str(d.model) ? { model: str(d.model) } : {}),
        ...(allowedTools.length ? { allowedTools } : {}),
        template,
        file,
        scope: root.scope,
        origin: root.origin ?? root.dir,
      });
    }
  }
  for (const skill of skills) {
    if (byName.has(skill.name) || reserved.has(skill.name)) continue;
    byName.set(skill.name, {
      name: skill.name,
      description: skill.description.slice(0, 120),
      template: '',
      file: skill.file,
      scope: skill.scope,
      origin: 'skill',
      skill: true,
    });
  }
  return { commands: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}

/** Words of an argument string: whitespace-separated, "double" or 'single' quotes group. */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** Characters of a skill's body a `/skill` message carries at most (as skill.load gives at once). */
export const SKILL_BODY_MAX_CHARS = 24_000;

/**
 * `/<skill> input`: the skill's body in the message itself (no round trip through skill.load, which
 * a weak model may never make), with the folder its files are in and the input after it. A body
 * past SKILL_BODY_MAX_CHARS is cut at a line, with where skill.load reads on.
 */
export function skillMessage(command: Pick<CustomCommand, 'name' | 'file'>, input: string): string {
  const dir = path.dirname(command.file);
  const loaded = loadSkillBody({ name: command.name, description: '', dir, file: command.file, scope: 'user' });
  // A skill whose SKILL.md is gone or empty since the session started: the model loads what there is.
  if (!loaded.body)
    return `Use the skill "${command.name}": load it first with {"tool":"skill.load","name":"${command.name}"}, then follow it.${input ? `\n\n${input}` : ''}`;
  let body = loaded.body;
  let note = '';
  if (body.length > SKILL_BODY_MAX_CHARS) {
    const lines = body.slice(0, SKILL_BODY_MAX_CHARS).split('\n').slice(0, -1);
    body = lines.join('\n');
    const next = loaded.firstLine + lines.length;
    note = `\n[the skill goes on: read it with {"tool":"skill.load","name":"${command.name}","offset":${next}}]`;
  }
  const head = `Use the skill "${command.name}" (its files are in ${dir}; run its scripts with exec, read its other files with skill.load "file"):`;
  return `${head}\n\n<skill name="${command.name}">\n${body}${note}\n</skill>${input ? `\n\nInput: ${input}` : ''}`;
}

/** The prompt a command sends: `$ARGUMENTS` and `$1`…`$9` filled in; without them the arguments are appended. */
export function expandCommand(command: CustomCommand, args: string): string {
  const words = splitArguments(args);
  const trimmed = args.trim();
  if (command.skill) return skillMessage(command, trimmed);
  let used = false;
  const text = command.template.replace(/\$ARGUMENTS|\$([1-9])/g, (m, n?: string) => {
    used = true;
    return n ? (words[Number(n) - 1] ?? '') : trimmed;
  });
  return used || !trimmed ? text : `${text}\n\n${trimmed}`;
}
