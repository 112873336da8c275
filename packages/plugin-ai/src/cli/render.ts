import { t, type Lang, type MessageKey } from '../i18n';
import type { AgentEvent } from '../agent/events';
import { describeStep } from '../agent/step-label';
import type { NotRun, ToolResult } from '../agent/runner-types';

/** How a step the agent did not run is worded, by why (never by matching its English reason). */
export const NOT_RUN: Record<NotRun, MessageKey> = {
  steering: 'notRunSteering',
  after_stop: 'notRunAfterStop',
  aborted: 'notRunAborted',
  step_limit: 'notRunStepLimit',
};

/** One-line, human text of a progress event (for stderr in one-shot mode, or the minimal
 * interactive loop). Undefined for events that print nothing. Pure. */
export function renderProgress(event: AgentEvent, lang: Lang): string | undefined {
  switch (event.type) {
    case 'step':
      return `[${event.verdict.level}] ${event.label ?? describeStep(event.step)}`;
    case 'tool_result':
      return `  → ${resultLine(event.result, lang)}`;
    case 'repair':
      return t(lang, 'repairing', { error: event.error });
    case 'log':
      return event.message;
    case 'compaction':
      return t(lang, 'compacted', { method: event.method, before: event.before, after: event.after });
    case 'reply':
      return event.reply.type === 'cmd' && event.reply.message ? event.reply.message : undefined;
    default:
      return undefined;
  }
}

/** What the sandbox stopped or which limit the run hit, in the user's language; '' when neither. */
export function sandboxNote(result: ToolResult, lang: Lang, before: string): string {
  if (result.sandbox?.limit && result.sandbox.note) return `${before}${result.sandbox.note}`;
  const denied = result.sandbox?.denied;
  if (!denied) return '';
  // The runner's note says why running it again was not offered, when it was not.
  const note = result.sandbox?.note ? ` — ${result.sandbox.note}` : '';
  return `${before}${t(lang, denied === 'write' ? 'sandboxStoppedWrite' : 'sandboxStoppedNetwork', { line: result.sandbox?.line ?? '' })}${note}`;
}

function resultLine(result: ToolResult, lang: Lang): string {
  // A hook's block is not the runner's judgement: its rules said the step could run.
  if (result.blockedBy === 'hook') return [t(lang, 'stepBlockedByHook'), result.hookReason].filter(Boolean).join(' — ');
  if (result.status === 'blocked' || result.status === 'declined') {
    const word = t(lang, result.status === 'blocked' ? 'stepBlocked' : 'stepDeclined');
    const rules = result.decision.rules.map((r) => `${r.id}: ${r.reason}${r.hint ? ` (${r.hint})` : ''}`).join('; ');
    const reason = result.notRun ? t(lang, NOT_RUN[result.notRun]) : result.reason;
    return [word, reason, rules].filter(Boolean).join(' — ');
  }
  if (result.status) {
    const key = result.status === 'applied' ? 'stepApplied' : result.status === 'unchanged' ? 'stepUnchanged' : 'stepError';
    const error = result.error as { message?: unknown } | undefined;
    const detail = result.status === 'error' && typeof error?.message === 'string' ? error.message : result.summary;
    return `${t(lang, key)}${detail ? ` — ${detail}` : ''}`;
  }
  // fs.read, http.get, proc.*: the runner's one-line summary (`calc.js: 1–40 / 40`, `proc_1 exited 0`).
  if (typeof result.summary === 'string') return result.summary;
  const ms = typeof result.durationMs === 'number' ? ` (${result.durationMs} ms)` : '';
  const signal = result.signal ? ` ${result.signal}` : '';
  return `${t(lang, 'stepExit', { code: String(result.exitCode) })}${signal}${ms}${sandboxNote(result, lang, ' — ')}`;
}
