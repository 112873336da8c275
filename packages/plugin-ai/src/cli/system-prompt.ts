/**
 * `--system-prompt-file FILE` and `--append-system-prompt TEXT` (for `-p`, `-i` and `--acp`).
 *
 * Our system prompt is the protocol and its rules (the reply shapes, the tools, the risk levels:
 * what the runner parses and judges, so a session cannot work without them), a block of facts
 * (the folder, the OS, the installed plugins, the answer language), the skills' index, and last
 * the project's instructions (AGENTS.md or CLAUDE.md). The file replaces that last part — the
 * instructions — and nothing before it; appended text comes after everything. Both are part of
 * the fixed system prompt of the session (a model's prompt cache keeps them).
 */
import fs = require('fs');
import path = require('path');
import { aiError } from '../errors';

/** The largest system prompt file read (a prompt, not a document to upload). */
export const PROMPT_FILE_MAX_BYTES = 256 * 1024;

/** What the user gave for the system prompt, read and checked. */
export interface UserPrompt {
  /** The file's text, in place of the project's instructions. */
  file?: { path: string; text: string };
  /** Text after the system prompt. */
  append?: string;
}

/** Read `--system-prompt-file` (relative to `cwd`): a missing, unreadable, empty or too large file is an error naming it. */
export function readUserPrompt(options: { systemPromptFile?: string; appendSystemPrompt?: string }, cwd: string): UserPrompt {
  const out: UserPrompt = {};
  if (options.systemPromptFile !== undefined) {
    const file = path.resolve(cwd, options.systemPromptFile);
    let buf: Buffer;
    try {
      const st = fs.statSync(file);
      if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'NOT_A_FILE' });
      if (st.size > PROMPT_FILE_MAX_BYTES)
        throw aiError('USAGE', 'promptFileTooLarge', { file, kb: Math.ceil(st.size / 1024), max: PROMPT_FILE_MAX_BYTES / 1024 });
      buf = fs.readFileSync(file);
    } catch (err) {
      if ((err as { name?: string }).name === 'AiError') throw err;
      throw aiError('USAGE', 'promptFileUnreadable', { file, detail: (err as Error).message.split('\n')[0] });
    }
    const text = buf
      .toString('utf8')
      .replace(/^\ufeff/, '')
      .trim();
    if (!text) throw aiError('USAGE', 'promptFileEmpty', { file });
    out.file = { path: file, text };
  }
  if (options.appendSystemPrompt !== undefined && options.appendSystemPrompt.trim()) out.append = options.appendSystemPrompt.trim();
  return out;
}

/** The system prompt built without the project's instructions when a file replaces them, then the user's parts. */
export function withUserPrompt(prompt: string, user: UserPrompt): string {
  const parts = [prompt];
  if (user.file) parts.push(`Instructions (${path.basename(user.file.path)}):\n${user.file.text}`);
  if (user.append) parts.push(user.append);
  return parts.join('\n\n');
}
