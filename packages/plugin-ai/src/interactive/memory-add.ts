/**
 * `# text` in `ai -i`: one line added to a memory file, the project's `AGENTS.md` (at the git
 * root, else the working folder) or the user's `~/.slothtool/AGENTS.md`, written atomically. The
 * file is judged by where it leads: a project AGENTS.md that is a link out of the workspace is
 * not written through.
 */
import fs = require('fs');
import path = require('path');
import { writeFileAtomicSync } from '@holic512/shared/lib/atomic-write';

export type MemoryTarget = { scope: 'project' | 'user'; file: string };

/** Where a memory line can go: the project's AGENTS.md, then the user's. */
export function memoryTargets(projectRoot: string, slothtoolHome: string): MemoryTarget[] {
  return [
    { scope: 'project', file: path.join(projectRoot, 'AGENTS.md') },
    { scope: 'user', file: path.join(slothtoolHome, 'AGENTS.md') },
  ];
}

/** The file's text with `- text` added as its last line (a blank line before it when the file
 * ends with something that is not a list item). Pure. */
export function withMemoryLine(before: string, text: string): string {
  const line = `- ${text.replace(/\s*\n\s*/g, ' ').trim()}\n`;
  if (!before.trim()) return line;
  const body = before.endsWith('\n') ? before : `${before}\n`;
  const last = body.trimEnd().split('\n').pop() ?? '';
  return /^\s*[-*] /.test(last) ? body + line : `${body}\n${line}`;
}

/** Why a target cannot be written, or undefined. */
export type MemoryWriteError = { code: 'outside'; real: string } | { code: 'not_file' } | { code: 'fs'; message: string };

/**
 * Add the line: read the file (absent: empty), write the whole of it again atomically. A project
 * file must stay inside `root` once links are followed; the user's file is private (0600) when new.
 */
export function appendMemoryLine(target: MemoryTarget, text: string, root: string): { file: string } | { error: MemoryWriteError } {
  try {
    const dir = path.dirname(target.file);
    if (target.scope === 'user') fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(target.file, { throwIfNoEntry: false });
    const real = st ? fs.realpathSync(target.file) : path.join(fs.realpathSync(dir), path.basename(target.file));
    if (target.scope === 'project') {
      const rel = path.relative(fs.realpathSync(root), real);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return { error: { code: 'outside', real } };
    }
    const realSt = fs.statSync(real, { throwIfNoEntry: false });
    if (realSt && !realSt.isFile()) return { error: { code: 'not_file' } };
    const before = realSt ? fs.readFileSync(real, 'utf8') : '';
    writeFileAtomicSync(real, withMemoryLine(before, text), target.scope === 'user' ? { mode: 0o600 } : {});
    return { file: real };
  } catch (err) {
    return { error: { code: 'fs', message: (err as Error).message.split('\n')[0] } };
  }
}

/** What the model is told when memory changed mid-session (the system prompt stays as it was). Pure. */
export function memoryAddedEvent(file: string, scope: 'project' | 'user', text: string): string {
  return JSON.stringify({
    _event: 'memory_added',
    scope,
    file,
    text,
    note: 'The user added this to their memory file; follow it from now on, as if it were in your instructions.',
  });
}
