import path = require('path');
import { message } from '../i18n';
import { isBroadWorkspace } from '../policy/fs-rules';
import type { FsEditOne, FsEditStep, FsWriteStep } from '../tool-steps';
import { isInside, type ResolvedPath } from '../workspace';
import { decodeText, diffCounts, FS_MAX_FILE_BYTES, isBinary, newFilePreview, redactDiff, snippetAround, unifiedDiff } from './fs-common';
import { toolError, type SessionToolContext, type ToolErrorResult } from './session';
import { heldText } from './file-access';
import type { ResultDecision } from './types';

/** fs.edit / fs.write result. */
export interface FsChangeResult {
  _event: 'tool_result';
  id: string;
  tool: 'fs.edit' | 'fs.write';
  path: string;
  status: 'applied' | 'unchanged';
  /** fs.write: the file did not exist before. */
  created?: boolean;
  /** fs.edit: how many occurrences were replaced. */
  replacements?: number;
  /** fs.edit with `edits`: how many replacements it made (each may replace several places). */
  edits?: number;
  added: number;
  removed: number;
  /** A few numbered, redacted lines around the first change. */
  snippet: string;
  /** /undo can restore it (written inside the workspace). */
  undoable: boolean;
  /** One line for the user's screen: `src/a.ts +1 −1`. */
  summary: string;
  decision: ResultDecision;
}

/** A declined confirmation inside the handler; the runner reports it as declined. */
export interface FsDeclined {
  _event: 'tool_result';
  id: string;
  tool: string;
  status: 'declined';
  decision: ResultDecision;
}

/** What an fs.edit or fs.write step gives: the change, an error, or the user's no. */
type FsStepResult = FsChangeResult | ToolErrorResult | FsDeclined;

/** Non-overlapping occurrences of `needle` in `hay`. */
export function countOccurrences(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Replace without `$` patterns: the first occurrence, or all. */
function replaceExact(text: string, oldS: string, newS: string, all: boolean): string {
  if (all) return text.split(oldS).join(newS);
  const i = text.indexOf(oldS);
  return text.slice(0, i) + newS + text.slice(i + oldS.length);
}

/** 1-based line of the first difference between two texts. */
function firstChangedLine(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  let line = 1;
  for (let k = 0; k < i; k++) if (b.charCodeAt(k) === 10) line++;
  return line;
}

interface Target {
  target: ResolvedPath;
  before: string | null;
  /** The existing file is binary: it is replaced whole and cannot be undone. */
  binary?: boolean;
}

/** Resolve again and make sure the file is the one that was judged and can be changed as text. */
function openTarget(step: { path: string }, tool: 'fs.edit' | 'fs.write', ctx: SessionToolContext): Target | ToolErrorResult {
  const { session, lang } = ctx;
  const f = step.path;
  const target = session.resolve(step.path);
  const err = (code: string, id: string, params: Record<string, string | number> = {}): ToolErrorResult =>
    toolError(ctx, tool, code, message(id, lang, { f, ...params }).reason, { path: f });
  if (ctx.judged && ctx.judged.real !== target.real) return err('MOVED', 'fs.err.moved', { r: target.real });
  if (!target.exists) {
    if (tool === 'fs.edit') return err('NOT_FOUND', 'fs.err.not_found');
    return { target, before: null };
  }
  if (target.kind === 'dir') return err('IS_DIRECTORY', 'fs.err.is_dir');
  if (target.kind !== 'file') return err('NOT_A_FILE', 'fs.err.not_file');
  const st = session.fs.stat(target.real);
  if (st && st.size > FS_MAX_FILE_BYTES) return err('TOO_LARGE', 'fs.err.too_large', { n: st.size, max: FS_MAX_FILE_BYTES });
  let buf: Buffer;
  try {
    buf = session.fs.readFile(target.real);
  } catch (e) {
    return toolError(ctx, tool, (e as NodeJS.ErrnoException).code ?? 'ERROR', (e as Error).message, { path: f });
  }
  if (tool === 'fs.edit' && isBinary(buf)) return err('BINARY', 'fs.err.binary', { n: buf.length });
  const binary = isBinary(buf);
  return { target, before: binary ? buf.toString('latin1') : decodeText(buf), ...(binary ? { binary } : {}) };
}

/** The text the caller holds of a text file that was opened (an editor's unsaved buffer) in place of the disk's. */
async function withHeldText(opened: Target | ToolErrorResult, ctx: SessionToolContext): Promise<Target | ToolErrorResult> {
  if ('_event' in opened || opened.before === null || opened.binary) return opened;
  const held = await heldText(ctx.session.fileAccess, opened.target.real);
  return held === undefined ? opened : { ...opened, before: held };
}

/** Ask (with the diff as preview) where needed, check nothing changed meanwhile, write atomically, record for /undo. */
async function commit(
  tool: 'fs.edit' | 'fs.write',
  f: string,
  { target, before, binary }: Target,
  after: string,
  ctx: SessionToolContext,
  { fallback, ...extra }: { replacements?: number; edits?: number; fallback?: string },
): Promise<FsStepResult> {
  const { session, lang } = ctx;
  const diff = before === null || binary ? newFilePreview(f, after) : unifiedDiff(f, before, after, fallback);
  if (ctx.ask) {
    const go = await ctx.ask(redactDiff(diff));
    if (!go) return { _event: 'tool_result', id: ctx.id, tool, status: 'declined', decision: { ...ctx.decision, by: 'user' } };
  } else {
    // Let through without a question (auto-edit mode, a rule, an allowance): the diff is still shown.
    ctx.onOutput?.(redactDiff(diff) + '\n', 'stdout');
  }
  // What the user saw must be what gets replaced: refuse when the file changed while asking.
  const again = session.resolve(f);
  if (again.real !== target.real)
    return toolError(ctx, tool, 'MOVED', message('fs.err.moved', lang, { f, r: again.real }).reason, { path: f });
  let now: string | null = null;
  if (again.exists) {
    try {
      const buf = session.fs.readFile(again.real);
      now = isBinary(buf) ? buf.toString('latin1') : decodeText(buf);
    } catch (e) {
      return toolError(ctx, tool, (e as NodeJS.ErrnoException).code ?? 'ERROR', (e as Error).message, { path: f });
    }
    if (!binary) now = (await heldText(session.fileAccess, again.real)) ?? now;
  }
  if (now !== before) return toolError(ctx, tool, 'CHANGED', message('fs.err.changed', lang, { f }).reason, { path: f });
  try {
    if (before === null) session.fs.mkdirp(path.dirname(target.real));
    // Through the caller when it has the file (an editor saves its buffer), else atomically here.
    if (session.fileAccess?.write) await session.fileAccess.write(target.real, after);
    else session.fs.writeFileAtomic(target.real, after);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'ERROR';
    // A folder on the way swapped for a link after the judgement: nothing was written.
    if (code === 'MOVED') return toolError(ctx, tool, 'MOVED', message('fs.err.moved', lang, { f, r: target.real }).reason, { path: f });
    return toolError(ctx, tool, code, (e as Error).message, { path: f });
  }
  const undoable = !binary && !isBroadWorkspace(session.workspace, session.home) && isInside(target.real, session.workspace);
  if (undoable) session.journal.record({ stepId: ctx.id, tool, path: target.real, before, after });
  const st = session.fs.stat(target.real);
  if (st) session.reads.mark(target.real, st);
  const { added, removed } = diffCounts(diff);
  return {
    _event: 'tool_result',
    id: ctx.id,
    tool,
    path: f,
    status: 'applied',
    ...(tool === 'fs.write' ? { created: before === null } : {}),
    ...extra,
    added,
    removed,
    snippet: snippetAround(after, before === null ? 1 : firstChangedLine(before, after)),
    undoable,
    summary: `${f} +${added} −${removed}`,
    decision: ctx.decision,
  };
}

/** Why one replacement cannot be made: a message id of tools.json, its parameters, an error code. */
interface EditProblem {
  code: string;
  id: string;
  params?: Record<string, string | number>;
  occurrences?: number;
}

/** What is wrong with a replacement before any file is read: an empty or unchanged old_string. */
function pointless(edit: FsEditOne): EditProblem | undefined {
  if (edit.old_string === '') return { code: 'EMPTY_OLD_STRING', id: 'fs.err.empty_old' };
  if (edit.old_string === edit.new_string) return { code: 'NO_CHANGE', id: 'fs.err.same' };
  return undefined;
}

/** One replacement applied to `text`: the text after it and how many places it replaced, or why not. */
export function applyEdit(text: string, edit: FsEditOne): { text: string; count: number; oldS: string; newS: string } | EditProblem {
  const problem = pointless(edit);
  if (problem) return problem;
  let oldS = edit.old_string;
  let newS = edit.new_string;
  let count = countOccurrences(text, oldS);
  // A model writes "\n"; a Windows file has "\r\n": match it the file's way.
  if (count === 0 && text.includes('\r\n') && oldS.includes('\n') && !oldS.includes('\r')) {
    const crlf = (x: string): string => x.replace(/\r?\n/g, '\r\n');
    const c = countOccurrences(text, crlf(oldS));
    if (c > 0) {
      oldS = crlf(oldS);
      newS = crlf(newS);
      count = c;
    }
  }
  if (count === 0) return { code: 'NOT_FOUND_IN_FILE', id: oldS.includes('[redacted') ? 'fs.err.redacted_old' : 'fs.err.old_not_found' };
  if (count > 1 && edit.replace_all !== true)
    return { code: 'AMBIGUOUS', id: 'fs.err.ambiguous', params: { n: count }, occurrences: count };
  return { text: replaceExact(text, oldS, newS, edit.replace_all === true), count: edit.replace_all === true ? count : 1, oldS, newS };
}

/** The first words of an old_string, on one line, for naming which edit failed. */
function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

/**
 * fs.edit: exact string replacement — one, or several in order (`edits`), each on the text the
 * previous one left — all or nothing, with one diff shown before one question. A replacement that
 * cannot be made names itself (`edits[i]` and the start of its old_string) and nothing is written.
 */
export async function runFsEdit(step: FsEditStep, ctx: SessionToolContext): Promise<FsStepResult> {
  const { lang } = ctx;
  const f = step.path;
  const edits = step.edits ?? [{ old_string: step.old_string ?? '', new_string: step.new_string ?? '', replace_all: step.replace_all }];
  const multi = step.edits !== undefined;
  const fail = (p: EditProblem, i: number): ToolErrorResult => {
    const why = message(p.id, lang, { f, ...p.params }).reason;
    const text = multi ? message('fs.err.in_edit', lang, { i, n: edits.length, q: quote(edits[i].old_string), why }).reason : why;
    return toolError(ctx, 'fs.edit', p.code, text, {
      path: f,
      ...(multi ? { edit: i } : {}),
      ...(p.occurrences ? { occurrences: p.occurrences } : {}),
    });
  };
  // What can be told without the file first: an empty or unchanged replacement.
  for (const [i, e] of edits.entries()) {
    const p = pointless(e);
    if (p) return fail(p, i);
  }
  const opened = await withHeldText(openTarget(step, 'fs.edit', ctx), ctx);
  if ('_event' in opened) return opened;
  let after = opened.before ?? '';
  let replacements = 0;
  const shown: string[] = [];
  for (const [i, e] of edits.entries()) {
    const applied = applyEdit(after, e);
    if ('code' in applied) return fail(applied, i);
    after = applied.text;
    replacements += applied.count;
    // Shown instead of hunks when a diff of a huge file would take too long.
    shown.push(
      [...applied.oldS.split(/\r?\n/).map((l) => `-${l}`), ...applied.newS.split(/\r?\n/).map((l) => `+${l}`)].join('\n') +
        (applied.count > 1 ? `\n(× ${applied.count})` : ''),
    );
  }
  return commit('fs.edit', f, opened, after, ctx, { replacements, ...(multi ? { edits: edits.length } : {}), fallback: shown.join('\n') });
}

/** fs.write: create or overwrite, with the diff (or the new file's head) shown first. */
export async function runFsWrite(step: FsWriteStep, ctx: SessionToolContext): Promise<FsStepResult> {
  const opened = await withHeldText(openTarget(step, 'fs.write', ctx), ctx);
  if ('_event' in opened) return opened;
  if (opened.before === step.content) {
    return {
      _event: 'tool_result',
      id: ctx.id,
      tool: 'fs.write',
      path: step.path,
      status: 'unchanged',
      added: 0,
      removed: 0,
      snippet: '',
      undoable: false,
      summary: step.path,
      decision: ctx.decision,
    };
  }
  return commit('fs.write', step.path, opened, step.content, ctx, {});
}
