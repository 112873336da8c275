import { at, emit, writeFailure, type AgentCore, type Pending } from './agent-core';
import { t } from './i18n';
import type { SessionRecord } from './sessions';

/**
 * Append one record to the session file, writing its meta record first. A write that fails (a
 * full disk, a folder made read-only) never stops the conversation: it is said once, and the
 * session goes on in memory; what was saved before stays a valid session.
 */
export function record(core: AgentCore, entry: SessionRecord): void {
  const store = core.deps.store;
  if (!store) return;
  const file = store.fileOf(core.id);
  if (core.unwritable.has(file)) return;
  try {
    append(core, entry);
  } catch (err) {
    core.unwritable.add(file);
    emit(core, { type: 'log', code: 'session_not_saved', message: t(core.options.lang, 'sessionNotSaved', { reason: writeFailure(err), file }) });
  }
}

function append(core: AgentCore, entry: SessionRecord): void {
  const store = core.deps.store!;
  if (!core.started) {
    store.append(core.id, {
      t: 'meta',
      v: 1,
      id: core.id,
      cwd: core.options.cwd,
      createdAt: at(core),
      mode: core.mode,
      profile: core.profile,
    });
    core.started = true;
    store.markLast(core.options.cwd, core.id);
  }
  store.append(core.id, entry);
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

/** Before a user message goes into the window: a checkpoint `/rewind` can return to (live and on replay alike). */
function checkpoint(core: AgentCore, text: string, when: string): void {
  const journalMark = core.runner?.mark?.() ?? 0;
  core.checkpoints.push({ turn: core.checkpoints.length + 1, at: when, title: title(text), context: core.context.snapshot(), journalMark, effects: [] });
}

/** Move the current input into the window (and the session file). */
export function commit(core: AgentCore, pending: Pending[]): void {
  const context = core.context;
  for (const p of pending) {
    if (p.kind === 'user') {
      checkpoint(core, p.text, at(core));
      context.addUser(p.text);
      record(core, { t: 'user', at: at(core), content: context.window[context.window.length - 1].content });
    } else if (p.kind === 'event') {
      context.addEvent(p.text);
      record(core, { t: 'event', at: at(core), content: p.text });
    } else {
      const stored = context.addToolResult(p.result);
      record(core, { t: 'tool', at: at(core), content: stored.content, digest: stored.digest });
    }
  }
}

/** Load a stored session into the window and continue it (appending to the same file). */
export function resumeSession(core: AgentCore, id: string): { skipped: number } {
  const store = core.deps.store;
  if (!store) throw new Error('no session store');
  const { records, skipped } = store.read(id);
  core.context.clear();
  core.checkpoints.splice(0);
  for (const r of records) replay(core, r);
  core.id = id;
  core.started = records.some((r) => r.t === 'meta');
  store.markLast(core.options.cwd, id);
  return { skipped };
}

function replay(core: AgentCore, r: SessionRecord): void {
  switch (r.t) {
    case 'meta':
      if (r.mode && core.options.mode === undefined) core.mode = r.mode;
      if (r.profile !== undefined && core.options.profile === undefined) core.profile = r.profile;
      return;
    case 'user':
      checkpoint(core, r.content, r.at);
      return core.context.restoreMessage({ role: 'user', kind: 'user', content: r.content });
    case 'event':
      return core.context.restoreMessage({ role: 'user', kind: 'event', content: r.content });
    case 'assistant':
      return core.context.restoreMessage({ role: 'assistant', kind: 'assistant', content: r.content });
    case 'tool': {
      // Step ids continue where the session left off, so they stay unique in its files.
      const m = /"id":"cmd_(\d+)"/.exec(r.content);
      if (m) core.stepCounter = Math.max(core.stepCounter, Number(m[1]));
      core.context.restoreMessage({ role: 'user', kind: 'tool', content: r.content });
      return core.context.restoreDigest(r.digest);
    }
    case 'summary':
      return core.context.applySummary(r.summary, r.folded);
    case 'rewind': {
      const index = core.checkpoints.findIndex((c) => c.turn === r.turn);
      if (index < 0) return;
      core.context.restore(core.checkpoints[index].context);
      core.checkpoints.splice(index);
      return;
    }
    default:
      return;
  }
}
