import { beforeTurn, stopHooks, syncTools } from './agent-extensions';
import { at, emit, zeroUsage, type AgentCore, type Pending, type SendOptions, type Turn } from './agent-core';
import { foldNow } from './agent-fold';
import { ask, toMessages, type Asked } from './agent-model';
import { commit, commitPending, flushWrites } from './agent-session';
import { notRunSteps, prepareCommand, runOne, runSteps } from './agent-steps';
import { afterReplySteps } from './checks-run';
import { getRunner } from './agent-approvals';
import type { TurnOutcome, TurnResult } from './events';
import type { RunMode } from './runner-types';
import { t } from '../i18n';
import type { Reply } from '../context/protocol';
import { assistantMessage, type ContextMessage } from '../context/messages';

/** How far a turn got: its last validated reply, its step rounds, how often Stop hooks sent it back. */
interface Progress {
  last: { reply?: Reply; raw?: boolean };
  rounds: number;
  stopContinues: number;
}

/** How a turn ends. */
type Ending = { outcome: TurnOutcome; message: string; error?: { code: string; message: string } };

/** One turn: ask, run the steps the reply asks for, feed back their results, until the model
 * answers, fails, the step limit is hit or the user aborts. */
export async function runTurn(
  core: AgentCore,
  first: Pending[],
  input: string,
  external?: AbortSignal,
  command?: Pick<SendOptions, 'prepare' | 'allow'>,
): Promise<TurnResult> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (external?.aborted) controller.abort();
  external?.addEventListener('abort', onAbort, { once: true });
  const turn: Turn = {
    controller,
    usage: zeroUsage(),
    steering: [],
    live: new Map(),
    hookContext: [],
    ...(command?.allow?.length ? { allow: commandAllowances(command.allow) } : {}),
  };
  core.turn = turn;
  const progress: Progress = { last: {}, rounds: 0, stopContinues: 0 };
  emit(core, { type: 'turn_start', input, sessionId: core.id });
  try {
    const start = await startTurn(core, turn, first, input, command?.prepare);
    const ending = 'ending' in start ? start.ending : await converse(core, turn, start.pending, progress);
    return endTurn(core, ending, progress, turn.usage);
  } finally {
    external?.removeEventListener('abort', onAbort);
    core.turn = undefined;
    rememberChanges(core, turn);
  }
}

/** Before the first call: the tools that joined, a custom command's work, the prompt hooks. */
async function startTurn(
  core: AgentCore,
  turn: Turn,
  first: Pending[],
  input: string,
  prepare: SendOptions['prepare'],
): Promise<{ pending: Pending[] } | { ending: Ending }> {
  const signal = turn.controller.signal;
  // The run mode is said when it differs from what the model was last told (once, not each turn).
  const told = core.context.mode === core.runMode ? [] : [{ kind: 'event' as const, text: JSON.stringify(modeEvent(core.runMode)) }];
  // What changed outside the conversation (instructions, tools that joined) comes before the message that follows it.
  const changed = [...core.notes.splice(0), ...(await syncTools(core, signal, true))];
  let pending: Pending[] = [...changed, ...first, ...told];
  if (prepare) {
    input = await prepareCommand(core, turn, prepare);
    pending = pending.map((p) => (p.kind === 'user' ? { ...p, text: input } : p));
  }
  const before = await beforeTurn(core, input, signal);
  if (before.blocked !== undefined) {
    const message = t(core.options.lang, 'promptBlockedByHook', { reason: before.blocked || '-' });
    return { ending: { outcome: 'error', message, error: { code: 'HOOK_BLOCKED', message } } };
  }
  return { pending: before.extra.length ? [...pending, ...before.extra] : pending };
}

/** The turn's model calls, each with what came since the last one, until it ends. */
async function converse(core: AgentCore, turn: Turn, pending: Pending[], progress: Progress): Promise<Ending> {
  const signal = turn.controller.signal;
  for (;;) {
    if (signal.aborted) {
      commitPending(core, [...pending, interruptedEvent('step')]);
      return { outcome: 'aborted', message: t(core.options.lang, 'aborted') };
    }
    for (const note of turn.steering.splice(0)) pending.push({ kind: 'user', text: note });
    pending.push(...core.notes.splice(0));
    pending.push(...(await syncTools(core, signal, false)));
    // The new input, made into messages once: this request and every later one carry these bytes.
    const current = toMessages(core, pending);
    await foldNow(core, current, false, signal);
    const asked = await ask(core, current, signal, turn.usage);
    if (!asked.ok) return callFailed(core, current, asked);
    progress.last = { reply: asked.reply, raw: asked.raw };
    commit(core, [...current, assistantMessage(asked.reply, asked.text, core.options.config.context.inputMaxTokens, asked.calls)]);
    emit(core, { type: 'reply', reply: asked.reply, raw: asked.raw, repaired: asked.repaired });
    const next = await afterReply(core, turn, asked, progress);
    if ('ending' in next) return next.ending;
    pending = next.pending;
  }
}

/** What a validated reply leads to: the turn's end, or what goes with the next call. */
async function afterReply(
  core: AgentCore,
  turn: Turn,
  asked: Extract<Asked, { ok: true }>,
  progress: Progress,
): Promise<{ pending: Pending[] } | { ending: Ending }> {
  const { reply, raw } = asked;
  const signal = turn.controller.signal;
  const lang = core.options.lang;
  // The user steered while this reply was being written: the model answers the note too.
  if (reply.type === 'chat' && turn.steering.length && !signal.aborted) return { pending: [] };
  if (reply.type === 'chat' && !raw && !signal.aborted) {
    const back = await stopHooks(core, progress.stopContinues, signal);
    if (back) {
      progress.stopContinues++;
      return { pending: [back] };
    }
  }
  if (reply.type === 'chat')
    return { ending: { outcome: 'answered', message: raw ? `${t(lang, 'rawReply')} ${reply.message}` : reply.message } };
  if (reply.type === 'error') return { ending: { outcome: 'model_error', message: t(lang, 'modelError', { message: reply.message }) } };
  if (progress.rounds >= core.maxAutoSteps) {
    // The steps of this reply never ran: the window and the session say so, so neither the
    // model (after `continue`) nor a resumed session takes them for done.
    const steps = notRunSteps(core, reply, { why: 'step_limit', reason: 'not run: step limit' });
    commitPending(
      core,
      steps.map((s) => ({ kind: 'tool' as const, result: s.result })),
    );
    emit(core, { type: 'step_limit', steps: progress.rounds });
    return { ending: { outcome: 'step_limit', message: t(lang, 'stepLimit', { n: progress.rounds }) } };
  }
  progress.rounds++;
  const mark = core.deps.checks?.list.length ? getRunner(core).mark?.() : undefined;
  const steps = await runSteps(core, turn, reply);
  // Checks after edits run once the reply's steps ran; their digests join the edits' results.
  const results = await afterReplySteps(
    core,
    steps.map((s) => s.result),
    mark,
    (step) => runOne(core, turn, step),
    turn.controller.signal,
  );
  const pending: Pending[] = [...results.map((result) => ({ kind: 'tool' as const, result })), ...turn.hookContext.splice(0)];
  if (turn.hookStop === undefined) return { pending };
  // A hook answered `continue: false`: the results are kept, the model is not asked again.
  const message = t(lang, 'turnStoppedByHook', { reason: turn.hookStop || '-' });
  commitPending(core, pending);
  return { ending: { outcome: 'error', message, error: { code: 'HOOK_STOPPED', message } } };
}

/** The end of a turn: its lines written, then the result reported (as `error` and `final` events) and returned. */
function endTurn(core: AgentCore, ending: Ending, progress: Progress, usage: TurnResult['usage']): TurnResult {
  // The turn's session and audit lines are on disk before anyone hears it ended.
  flushWrites(core);
  const { outcome, message, error } = ending;
  const last = progress.last;
  const suggestions =
    outcome === 'answered' && last.reply?.type === 'chat'
      ? (last.reply.data?.suggestions ?? []).filter((s) => s.trim() !== '').slice(0, 9)
      : [];
  const result: TurnResult = {
    outcome,
    reply: last.reply,
    raw: last.raw,
    message,
    ...(suggestions.length ? { suggestions } : {}),
    steps: progress.rounds,
    usage,
    error,
    sessionId: core.id,
  };
  if (error) emit(core, { type: 'error', ...error });
  emit(core, { type: 'final', ...result });
  return result;
}

/** How a turn whose model call failed ends: its new input kept, and aborted or an error. */
function callFailed(core: AgentCore, current: ContextMessage[], failure: { code: string; message: string }): Ending {
  const lang = core.options.lang;
  if (failure.code === 'ABORTED') {
    commit(core, [...current, ...toMessages(core, [interruptedEvent('model_call')])]);
    return { outcome: 'aborted', message: t(lang, 'aborted') };
  }
  commit(core, current);
  const message =
    failure.code === 'NO_PROFILE'
      ? t(lang, 'llmErrorNoProfile', { message: failure.message })
      : t(lang, 'llmError', { code: failure.code, message: failure.message });
  return { outcome: 'error', message, error: { code: failure.code, message: failure.message } };
}

/** A custom command's allowances (our rule syntax or Claude Code's) for its turn. */
function commandAllowances(allow: readonly string[]): Turn['allow'] {
  const { readAllowedTools } = require('../extensions/command-allow') as typeof import('../extensions/command-allow');
  return readAllowedTools(allow, 'allowed-tools').rules;
}

/** Keep the turn's journal position for `/undo` when the turn changed files. */
function rememberChanges(core: AgentCore, turn: Turn): void {
  const mark = turn.mark;
  if (mark !== undefined && core.runner?.changes?.(mark).length) core.undoMarks.push(mark);
}

/** What the model is told when the user stopped the turn with Ctrl-C: what was produced so
 * far is kept (the tool results before it, with `aborted` on a killed command). */
function interruptedEvent(during: 'step' | 'model_call'): Pending {
  return { kind: 'event', text: JSON.stringify({ _event: 'interrupted', by: 'user', during }) };
}

/** What the model is told about a mode at the start of a turn. */
export function modeEvent(mode: RunMode): { _event: 'mode'; mode: RunMode; note: string } {
  const NOTES: Record<RunMode, string> = {
    plan: 'Plan mode: only read-only steps run; writes, commands that change something and network steps are refused. Gather what you need, then answer with a numbered plan; it runs once the user switches to default mode.',
    default: 'Default mode.',
    'auto-edit': 'Auto-edit mode: fs.edit and fs.write inside the workspace run without asking the user; other steps are judged as usual.',
    yolo: 'Yolo mode: L1 steps run without asking the user, inside the OS sandbox; L2 steps are still refused.',
  };
  return { _event: 'mode', mode, note: NOTES[mode] };
}
