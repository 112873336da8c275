import { at, emit, writeFailure, type AgentCore, type Pending } from './agent-core';
import { t } from '../i18n';
import { sessionLine, type SessionRecord } from '../sessions/sessions';
import type { ContextMessage } from '../context/messages';
import { toMessages } from './agent-model';

/** A session or audit line waiting to be written, to the file it was meant for when queued. */
export type PendingWrite = {
  file: string;
  /** Said when the write fails (once per file: later lines to it are dropped). */
  failed: (err: unknown) => void;
} & (
  | {
      /** The line, made when it is written (it passes the redaction gate then). */
      line: () => string;
      /** How lines reach the file: the lines of one file queued together go out in one write. */
      append: (text: string) => void;
    }
  | { write: () => void }
);

/** Agents with lines waiting, for the flush at exit. */
const waiting = new Set<AgentCore>();
let exitHooked = false;

/**
 * Session and audit lines are written off a step's critical path: queued in order, then written
 * when the event loop is next idle (while the command runs, or while the model answers), at the
 * end of a turn, before a session is read, and when the process exits. Each line still goes out
 * in one write, and a write that fails is said once for its file. While a model request is
 * being sent (holdWrites) the idle-time write waits until it is out: the lines of a step's
 * result and audit were otherwise written between the step's end and its request (bench
 * "Runner overhead per L0 step").
 */
export function queueWrite(core: AgentCore, pending: PendingWrite): void {
  core.pendingWrites.push(pending);
  if (waiting.has(core)) return;
  waiting.add(core);
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', flushAllWrites);
  }
  if (!core.writesHeld) setImmediate(() => idleFlush(core));
}

/** The idle-time write: not while a request is being sent (its release writes instead). */
function idleFlush(core: AgentCore): void {
  if (!core.writesHeld) flushWrites(core);
}

/**
 * Hold the idle-time write of queued lines while a model request goes out; the returned release
 * (called once it is sent, or when the call ended) lets them be written at the next idle moment.
 * Flushes at the end of a turn, before a session is read and at exit still write at once.
 */
export function holdWrites(core: AgentCore): () => void {
  core.writesHeld = true;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    core.writesHeld = false;
    if (waiting.has(core)) setImmediate(() => idleFlush(core));
  };
}

/** Write what every agent of this process has queued (before a session file is read). */
export function flushAllWrites(): void {
  for (const c of [...waiting]) flushWrites(c);
}

/**
 * Write what is queued now, each file's lines in order and together (one append per file: a
 * step's session records and its audit line are a few lines each time).
 */
export function flushWrites(core: AgentCore): void {
  waiting.delete(core);
  const batches = new Map<string, { text: string; append: (text: string) => void; failed: (err: unknown) => void }>();
  const attempt = (file: string, failed: (err: unknown) => void, write: () => void): void => {
    if (core.unwritable.has(file)) return;
    try {
      write();
    } catch (err) {
      core.unwritable.add(file);
      failed(err);
    }
  };
  const flush = (file: string): void => {
    const b = batches.get(file);
    if (!b) return;
    batches.delete(file);
    attempt(file, b.failed, () => b.append(b.text));
  };
  for (const w of core.pendingWrites.splice(0)) {
    if (core.unwritable.has(w.file)) continue;
    if ('write' in w) {
      flush(w.file);
      attempt(w.file, w.failed, w.write);
      continue;
    }
    const batch = batches.get(w.file);
    if (batch) batch.text += w.line();
    else batches.set(w.file, { text: w.line(), append: w.append, failed: w.failed });
  }
  for (const file of [...batches.keys()]) flush(file);
}

/**
 * Append one record to the session file (queued, see {@link queueWrite}), its meta record
 * first. A write that fails (a full disk, a folder made read-only) never stops the
 * conversation: it is said once, and the session goes on in memory; what was saved before
 * stays a valid session. Records are not changed after they are recorded.
 */
export function record(core: AgentCore, entry: SessionRecord): void {
  const store = core.deps.store;
  if (!store) return;
  const id = core.id;
  const file = store.fileOf(id);
  if (core.unwritable.has(file)) return;
  const failed = (err: unknown) =>
    emit(core, {
      type: 'log',
      code: 'session_not_saved',
      message: t(core.options.lang, 'sessionNotSaved', { reason: writeFailure(err), file }),
    });
  if (!core.started) {
    core.started = true;
    const meta: SessionRecord = { t: 'meta', v: 2, id, cwd: core.options.cwd, createdAt: at(core), mode: core.mode, profile: core.profile };
    const cwd = core.options.cwd;
    queueWrite(core, {
      file,
      write: () => {
        store.append(id, meta);
        store.markLast(cwd, id);
      },
      failed,
    });
  }
  queueWrite(core, { file, line: () => sessionLine(entry), append: (text) => store.appendText(id, text), failed });
}

/** A log event, also kept in the session file. */
export function log(core: AgentCore, code: string, message: string): void {
  emit(core, { type: 'log', code, message });
  record(core, { t: 'log', at: at(core), code, message });
}

function title(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** Before a user message goes into the conversation: a checkpoint `/rewind` can return to (live and on replay alike). */
export function checkpoint(core: AgentCore, text: string, when: string): void {
  const journalMark = core.runner?.mark?.() ?? 0;
  core.checkpoints.push({
    turn: core.checkpoints.length + 1,
    at: when,
    title: title(text),
    context: core.context.snapshot(),
    journalMark,
    effects: [],
  });
}

/** The session record of a message as it was sent. */
function recordOf(core: AgentCore, m: ContextMessage): SessionRecord | undefined {
  const when = at(core);
  const short = m.short !== undefined ? { short: m.short } : {};
  switch (m.kind) {
    case 'user': {
      // The session keeps what was attached, never the bytes: a resumed session has the text only.
      const images = m.images?.map((i) => ({ name: i.name, mime: i.mime, bytes: i.bytes, sha256: i.sha256 }));
      return { t: 'user', at: when, content: m.content, ...(images?.length ? { images } : {}), ...short };
    }
    case 'assistant':
      return {
        t: 'assistant',
        at: when,
        content: m.content,
        ...(m.calls?.length ? { calls: m.calls } : {}),
        ...(m.alt !== undefined ? { alt: m.alt } : {}),
        ...short,
      };
    case 'tool':
      return {
        t: 'tool',
        at: when,
        content: m.content,
        ...short,
        ...(m.tool ? { tool: m.tool } : {}),
        ...(m.callId ? { call_id: m.callId } : {}),
      };
    case 'event':
      return { t: 'event', at: when, content: m.content, ...(m.toolsKey !== undefined ? { toolsKey: m.toolsKey } : {}) };
    default:
      return undefined; // a fold's head is recorded with its fold
  }
}

/** Append messages to the conversation (and the session file), as they were sent. */
export function commit(core: AgentCore, messages: readonly ContextMessage[]): void {
  for (const m of messages) {
    if (m.kind === 'user') checkpoint(core, m.content, at(core));
    if (m.kind === 'event') core.context.mode = modeOf(m.content) ?? core.context.mode;
    core.context.append([m]);
    const r = recordOf(core, m);
    if (r) record(core, r);
  }
}

/** The run mode an event told the model, if it is a mode event (`{"_event":"mode"}`). */
export function modeOf(content: string): string | undefined {
  if (!content.startsWith('{"_event":"mode"')) return undefined;
  try {
    const mode = (JSON.parse(content) as { mode?: unknown }).mode;
    return typeof mode === 'string' ? mode : undefined;
  } catch {
    return undefined;
  }
}

/** Append input that was not made into messages yet (an event outside a turn, a turn's last results). */
export function commitPending(core: AgentCore, pending: Pending[]): void {
  commit(core, toMessages(core, pending));
}
