/**
 * Ctrl+G and `/edit`: the prompt's text in the person's editor (`$VISUAL`, else `$EDITOR`), with
 * the terminal handed over while it runs and taken back after. The editor command is split into
 * words without a shell (`code --wait` works; pipes and `$VAR` are not expanded). The text goes
 * through a private temporary file that is removed after.
 */
import fs = require('fs');
import os = require('os');
import path = require('path');
import type { spawn as Spawn } from 'child_process';
import { splitWords } from './question';
import { childProcess } from '../lazy-modules';

export type EditorOutcome =
  | { ok: true; text: string }
  | { ok: false; reason: 'none' }
  | { ok: false; reason: 'unsplittable'; command: string }
  | { ok: false; reason: 'failed'; command: string; detail: string };

/** The editor command the environment names, as words; undefined when none is set. */
export function editorCommand(
  env: NodeJS.ProcessEnv,
): { words: string[]; command: string } | { error: 'none' } | { error: 'unsplittable'; command: string } {
  const command = (env.VISUAL?.trim() || env.EDITOR?.trim()) ?? '';
  if (!command) return { error: 'none' };
  const words = splitWords(command);
  return words?.length ? { words, command } : { error: 'unsplittable', command };
}

export interface EditorDeps {
  /** Hand the terminal over (before) and take it back (after). */
  suspend(): void;
  resume(): void;
  spawn?: typeof Spawn;
}

/** Edit `text` in the person's editor; the edited text (one trailing newline dropped), or why not. */
export async function editExternally(text: string, env: NodeJS.ProcessEnv, deps: EditorDeps): Promise<EditorOutcome> {
  const editor = editorCommand(env);
  if ('error' in editor)
    return editor.error === 'none' ? { ok: false, reason: 'none' } : { ok: false, reason: 'unsplittable', command: editor.command };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-prompt-'));
  const file = path.join(dir, 'prompt.md');
  try {
    fs.writeFileSync(file, text, { mode: 0o600 });
    const spawn = deps.spawn ?? childProcess().spawn;
    deps.suspend();
    let ran: { code: number | null; error?: string };
    try {
      ran = await new Promise((resolve) => {
        const child = spawn(editor.words[0], [...editor.words.slice(1), file], { stdio: 'inherit', env });
        child.on('error', (err) => resolve({ code: null, error: err.message }));
        child.on('exit', (code, signal) => resolve({ code, ...(signal ? { error: `ended by ${signal}` } : {}) }));
      });
    } finally {
      deps.resume();
    }
    if (ran.error || ran.code !== 0)
      return { ok: false, reason: 'failed', command: editor.command, detail: ran.error ?? `exit ${String(ran.code)}` };
    return { ok: true, text: fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
