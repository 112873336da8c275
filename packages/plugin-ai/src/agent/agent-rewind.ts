import path = require('path');
import { at, type AgentCore } from './agent-core';
import { commitPending, record } from './agent-session';
import type { ToolResult, UndoResult } from './runner-types';

/**
 * `/rewind`: every user message starts a checkpoint (the conversation as it was before it, and
 * the file-journal position). Going back restores the conversation, the files changed since
 * (fs.edit / fs.write through the journal), or both; what cannot be put back (the effects of
 * approved commands) is listed plainly.
 */
export interface RewindOptions {
  /** Restore the conversation to before that message. */
  conversation: boolean;
  /** Restore the files changed since (fs.edit / fs.write). */
  files: boolean;
}

export interface RewindResult {
  turn: number;
  /** Messages (user turns) dropped from the conversation. */
  droppedTurns: number;
  files?: UndoResult;
  /** Approved steps whose effects stay (commands, patches, plugins): "git commit -m x", … */
  notRestored: string[];
}

/**
 * Note a step that ran: an approved step other than the file tools (whose changes the journal
 * holds) may have changed things a rewind cannot restore.
 */
export function noteEffect(core: AgentCore, label: string, result: ToolResult): void {
  if (result.status === 'blocked' || result.status === 'declined' || result.decision.by !== 'user') return;
  if (core.runner?.changes?.().some((c) => c.stepId === result.id)) return;
  for (const c of core.checkpoints) c.effects.push(label);
}

/** Go back to before user message `turn`. Null when there is no such message or a turn is running. */
export function rewind(core: AgentCore, turn: number, options: RewindOptions): RewindResult | null {
  if (core.turn) return null;
  const index = core.checkpoints.findIndex((c) => c.turn === turn);
  if (index < 0) return null;
  const target = core.checkpoints[index];
  const result: RewindResult = { turn, droppedTurns: 0, notRestored: [...new Set(target.effects)] };
  if (options.files && core.runner?.undo) {
    result.files = core.runner.undo(target.journalMark);
    // Later turns' undo marks point past what was just restored.
    while (core.undoMarks.length && core.undoMarks[core.undoMarks.length - 1] >= target.journalMark) core.undoMarks.pop();
  }
  if (options.conversation) {
    result.droppedTurns = core.checkpoints.length - index;
    core.context.restore(target.context);
    core.checkpoints.splice(index);
    record(core, { t: 'rewind', at: at(core), turn });
  }
  const rel = (p: string): string => {
    const r = path.relative(core.options.cwd, p);
    return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
  };
  // The model must know what changed under it: files put back while it keeps the conversation,
  // or effects of dropped turns that are still there.
  if (!options.conversation || result.notRestored.length) {
    commitPending(core, [
      {
        kind: 'event',
        text: JSON.stringify({
          _event: 'rewind',
          to_message: turn,
          ...(result.files
            ? { restored: result.files.restored.map((r) => rel(r.path)), skipped: result.files.skipped.map((s) => rel(s.path)) }
            : {}),
          ...(result.notRestored.length ? { still_in_effect: result.notRestored } : {}),
        }),
      },
    ]);
  }
  return result;
}

/**
 * `/undo`: the last turn that changed files, put back through the runner's journal; the model
 * learns what was restored and skipped from a user-role `undo` event with the next call. Null when
 * a turn runs or nothing is left to undo.
 */
export function undoLastChanges(core: AgentCore): UndoResult | null {
  const runner = core.runner;
  if (core.turn || !runner?.undo) return null;
  const mark = core.undoMarks.pop();
  if (mark === undefined) return null;
  const result = runner.undo(mark);
  const cwd = core.options.cwd;
  const rel = (p: string): string => {
    const r = path.relative(cwd, p);
    return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
  };
  const event = JSON.stringify({
    _event: 'undo',
    restored: result.restored.map((r) => ({ path: rel(r.path), action: r.action })),
    skipped: result.skipped.map((s) => ({ path: rel(s.path), reason: s.reason })),
  });
  commitPending(core, [{ kind: 'event', text: event }]);
  return result;
}
