import { message } from '../i18n';
import type { FsReadStep } from '../tool-steps';
import {
  decodeText,
  FS_DEFAULT_LIMIT,
  FS_MAX_CONTENT_CHARS,
  FS_MAX_FILE_BYTES,
  FS_MAX_LINE_CHARS,
  isBinary,
  numbered,
  redactLines,
} from './fs-common';
import { toolError, type SessionToolContext, type ToolErrorResult } from './session';
import { heldText } from './file-access';
import type { ResultDecision } from './types';

/** fs.read result: numbered, redacted lines and where to read on. */
export interface FsReadResult {
  _event: 'tool_result';
  id: string;
  tool: 'fs.read';
  path: string;
  /** Numbered lines (`     1\t...`), secrets redacted. */
  content: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  /** More lines follow (or lines were cut); `note` says how to read on. */
  truncated: boolean;
  /** The offset to read on from, when truncated. */
  nextOffset?: number;
  note?: string;
  /** One line for the user's screen: `lines 1–2000 of 2450`. */
  summary: string;
  decision: ResultDecision;
}

/**
 * Read a text file. Binary files and files over 10 MiB are refused with a note; lines
 * over 2000 characters are cut; at most 2000 lines (and 200 000 characters) per read.
 */
export async function runFsRead(step: FsReadStep, ctx: SessionToolContext): Promise<FsReadResult | ToolErrorResult> {
  const { session, lang } = ctx;
  const f = step.path;
  // The target as it was judged, not resolved again: a link swapped in since cannot redirect the read.
  const target = ctx.judged ?? session.resolve(step.path);
  const fail = (code: string, msgId: string, params: Record<string, string | number> = {}): ToolErrorResult =>
    toolError(ctx, 'fs.read', code, message(msgId, lang, { f, ...params }).reason, { path: f });
  if (!target.exists) return fail('NOT_FOUND', 'fs.err.not_found');
  if (target.kind === 'dir') return fail('IS_DIRECTORY', 'fs.err.is_dir');
  if (target.kind !== 'file') return fail('NOT_A_FILE', 'fs.err.not_file');
  const st = session.fs.stat(target.real);
  if (!st) return fail('NOT_FOUND', 'fs.err.not_found');
  if (st.size > FS_MAX_FILE_BYTES) return fail('TOO_LARGE', 'fs.err.too_large', { n: st.size, max: FS_MAX_FILE_BYTES });
  let buf: Buffer;
  try {
    buf = session.fs.readFile(target.real);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'ERROR';
    if (code === 'MOVED' || code === 'ELOOP') return fail('MOVED', 'fs.err.moved_read');
    return toolError(ctx, 'fs.read', code, (err as Error).message, { path: f });
  }
  if (isBinary(buf)) return fail('BINARY', 'fs.err.binary', { n: buf.length });
  session.reads.mark(target.real, st);
  // What the caller holds of the file (an editor's unsaved buffer) is what the model reads.
  const held = await heldText(session.fileAccess, target.real);

  const lines = redactLines(held ?? decodeText(buf));
  const total = lines.length;
  const offset = Math.max(1, Math.floor(step.offset ?? 1));
  const limit = Math.max(1, Math.min(FS_DEFAULT_LIMIT, Math.floor(step.limit ?? FS_DEFAULT_LIMIT)));
  const out: string[] = [];
  let chars = 0;
  let cut = 0;
  let end = offset - 1;
  for (let n = offset; n <= total && n < offset + limit; n++) {
    let line = lines[n - 1];
    if (line.length > FS_MAX_LINE_CHARS) {
      line = line.slice(0, FS_MAX_LINE_CHARS) + ' …';
      cut++;
    }
    const text = numbered(n, line);
    if (out.length && chars + text.length + 1 > FS_MAX_CONTENT_CHARS) break;
    out.push(text);
    chars += text.length + 1;
    end = n;
  }
  const notes: string[] = [];
  const more = end < total;
  if (offset > total && total > 0) notes.push(message('fs.note.past_end', lang, { total }).reason);
  if (more) notes.push(message('fs.note.truncated', lang, { from: offset, to: end, total, next: end + 1 }).reason);
  if (cut) notes.push(message('fs.note.cut_lines', lang, { n: cut, max: FS_MAX_LINE_CHARS }).reason);
  return {
    _event: 'tool_result',
    id: ctx.id,
    tool: 'fs.read',
    path: f,
    content: out.join('\n'),
    startLine: out.length ? offset : 0,
    endLine: out.length ? end : 0,
    totalLines: total,
    truncated: more || cut > 0,
    ...(more ? { nextOffset: end + 1 } : {}),
    ...(notes.length ? { note: notes.join('; ') } : {}),
    summary: out.length ? `${f}: ${offset}–${end} / ${total}` : `${f}: 0 / ${total}`,
    decision: ctx.decision,
  };
}
