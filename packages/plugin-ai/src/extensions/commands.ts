import * as fs from 'fs';
import * as path from 'path';
import { parseFrontMatter } from './front-matter';

/**
 * Custom slash commands: Markdown files in `~/.slothtool/commands/` and the project's
 * `.slothtool/commands/` (a file `review.md` is `/review`; `git/pr.md` is `/git:pr`). The body is
 * a prompt template: `$ARGUMENTS` is everything typed after the command, `$1` … `$9` its words.
 * Front matter (optional): `description`, `argument-hint`, `profile` (an llm-base profile for
 * that turn), `mode` (`low` | `high`). A project command with the same name as a user one wins
 * (it is more specific); built-in commands always win.
 */
export interface CustomCommand {
  name: string;
  description: string;
  argumentHint?: string;
  profile?: string;
  mode?: 'low' | 'high';
  template: string;
  file: string;
  scope: 'user' | 'project';
}

export interface CommandProblem {
  file: string;
  error: string;
}

const NAME = /^[a-z0-9][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)*$/;
const MAX_BYTES = 256 * 1024;

function collect(dir: string, prefix: string[], out: Array<{ file: string; name: string }>, depth = 0): void {
  if (depth > 4) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) collect(p, [...prefix, e.name.toLowerCase()], out, depth + 1);
    else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) out.push({ file: p, name: [...prefix, e.name.slice(0, -3).toLowerCase()].join(':') });
  }
}

/** Every custom command; `reserved` are the built-in names (those files are reported, not loaded). */
export function discoverCommands(
  roots: ReadonlyArray<{ dir: string; scope: 'user' | 'project' }>,
  reserved: ReadonlySet<string>,
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
      const firstLine = template.split('\n').find((l) => l.trim())?.replace(/^#+\s*/, '').trim() ?? '';
      const mode = d.mode === 'low' || d.mode === 'high' ? d.mode : undefined;
      byName.set(name, {
        name,
        description: str(d.description) ?? firstLine.slice(0, 80),
        ...(str(d['argument-hint']) ? { argumentHint: str(d['argument-hint']) } : {}),
        ...(str(d.profile) ? { profile: str(d.profile) } : {}),
        ...(mode ? { mode } : {}),
        template,
        file,
        scope: root.scope,
      });
    }
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

/** The prompt a command sends: `$ARGUMENTS` and `$1`…`$9` filled in; without them the arguments are appended. */
export function expandCommand(command: CustomCommand, args: string): string {
  const words = splitArguments(args);
  const trimmed = args.trim();
  let used = false;
  const text = command.template.replace(/\$ARGUMENTS|\$([1-9])/g, (m, n?: string) => {
    used = true;
    return n ? words[Number(n) - 1] ?? '' : trimmed;
  });
  return used || !trimmed ? text : `${text}\n\n${trimmed}`;
}
