import { redact } from '@holic512/shared';
import { withChildSignal } from './abort';
import { beforeTurn, postToolUse, preToolUse, stopHooks, syncTools } from './agent-extensions';
import { audit, getRunner, noteSandbox } from './agent-approvals';
import { at, emit, zeroUsage, type AgentCore, type Pending } from './agent-core';
import { ask, compactNow } from './agent-model';
import { commit, flushWrites, log, record } from './agent-session';
import type { Outcome, TurnResult } from './events';
import type { SendOptions } from './agent-core';
import type { RunMode } from './runner-types';
import { t } from '../i18n';
import { builtinStepRegistry, type Reply, type Step } from '../context/protocol';
import { describeStep } from './step-label';
import { notePlan } from './plan-state';
import { afterReplySteps } from './checks-run';
import { mapLimited } from './agent-children';
import { lazy } from '@holic512/shared/lib/lazy';

/** What a step changed, for /rewind: loaded with the first step (a turn that only talks runs none). */
const rewindModule = lazy(() => require('./agent-rewind') as typeof import('./agent-rewind'));
import type { NotRun, StepRunner, ToolResult } from './runner-types';
import { renderVerdict } from './render-verdict';

/** One turn: ask, run the steps the reply asks for, feed back their results, until the model
 * answers, fails, the step limit is hit or the user aborts. */
export async function runTurn(core: AgentCore, first: Pending[], input: string, external?: AbortSignal, command?: Pick<SendOptions, 'prepare' | 'allow'>): Promise<TurnResult> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (external?.aborted) controller.abort();
  external?.addEventListener('abort', onAbort, { once: true });
  core.running = controller;
  core.steering = [];
  core.turnMark = undefined;
  const signal = controller.signal;
  const turnUsage = zeroUsage();
  // A mode other than default is said at the start of each turn (after the cached prefix).
  let pending: Pending[] = core.runMode === 'default' ? first : [...first, { kind: 'event', text: JSON.stringify(modeEvent(core.runMode)) }];
  let rounds = 0;
  let last: { reply?: Reply; raw?: boolean } = {};
  const lang = core.options.lang;
  emit(core, { type: 'turn_start', input, sessionId: core.id });

  const finish = (outcome: Outcome, message: string, error?: { code: string; message: string }): TurnResult => endTurn(core, { outcome, message, error, last, rounds, usage: turnUsage });

  try {
    await syncTools(core, signal, true);
    if (command?.allow?.length) core.turnAllow = commandAllowances(command.allow);
    if (command?.prepare) {
      input = await prepareCommand(core, command.prepare, signal);
      pending = pending.map((p) => (p.kind === 'user' ? { ...p, text: input } : p));
    }
    const before = await beforeTurn(core, input, signal);
    if (before.blocked !== undefined) {
      const message = t(lang, 'promptBlockedByHook', { reason: before.blocked || '-' });
      return finish('error', message, { code: 'HOOK_BLOCKED', message });
    }
    if (before.extra.length) pending = [...pending, ...before.extra];
    let stopContinues = 0;
    for (;;) {
      if (signal.aborted) {
        commit(core, [...pending, interruptedEvent('step')]);
        return finish('aborted', t(lang, 'aborted'));
      }
      for (const note of core.steering.splice(0)) pending.push({ kind: 'user', text: note });
      await syncTools(core, signal, false);
      if (core.context.needsCompaction()) await compactNow(core, false, signal);
      const asked = await ask(core, pending, signal, turnUsage);
      if (!asked.ok) return finish(...callFailed(core, pending, asked));
      const reply = asked.reply;
      last = { reply, raw: asked.raw };
      commit(core, pending);
      core.context.addAssistant(reply);
      record(core, { t: 'assistant', at: at(core), content: core.context.window[core.context.window.length - 1].content });
      emit(core, { type: 'reply', reply, raw: asked.raw, repaired: asked.repaired });

      if (reply.type === 'chat' && core.steering.length && !signal.aborted) {
        // The user steered while this reply was being written: the model answers the note too.
        pending = [];
        continue;
      }
      if (reply.type === 'chat' && !asked.raw && !signal.aborted) {
        const back = await stopHooks(core, stopContinues, signal);
        if (back) {
          stopContinues++;
          pending = [back];
          continue;
        }
      }
      if (reply.type === 'chat') {
        const text = asked.raw ? `${t(lang, 'rawReply')} ${reply.message}` : reply.message;
        return finish('answered', text);
      }
      if (reply.type === 'error') {
        return finish('model_error', t(lang, 'modelError', { message: reply.message }));
      }
      if (rounds >= core.maxAutoSteps) {
        // The steps of this reply never ran: the window and the session say so, so neither the
        // model (after `continue`) nor a resumed session takes them for done.
        commit(core, notRun(core, reply, 'step_limit', 'not run: step limit'));
        emit(core, { type: 'step_limit', steps: rounds });
        return finish('step_limit', t(lang, 'stepLimit', { n: rounds }));
      }
      rounds++;
      const mark = core.deps.checks?.list.length ? getRunner(core).mark?.() : undefined;
      // Checks after edits run once the reply's steps ran; their digests join the edits' results.
      const results = await afterReplySteps(core, await runSteps(core, reply, signal), mark, (step) => runOne(core, step, signal), signal);
      pending = [...results.map((result) => ({ kind: 'tool' as const, result })), ...core.hookContext.splice(0)];
      if (core.hookStop !== undefined) {
        // A hook answered `continue: false`: the results are kept, the model is not asked again.
        const message = t(lang, 'turnStoppedByHook', { reason: core.hookStop || '-' });
        commit(core, pending);
        return finish('error', message, { code: 'HOOK_STOPPED', message });
      }
    }
  } finally {
    external?.removeEventListener('abort', onAbort);
    core.running = undefined;
    core.turnAllow = undefined;
    core.hookStop = undefined;
    core.hookContext.length = 0;
    rememberChanges(core);
  }
}

/** The end of a turn: its lines written, then the result reported (as `error` and `final` events) and returned. */
function endTurn(
  core: AgentCore,
  end: { outcome: Outcome; message: string; error?: { code: string; message: string }; last: { reply?: Reply; raw?: boolean }; rounds: number; usage: TurnResult['usage'] },
): TurnResult {
  // The turn's session and audit lines are on disk before anyone hears it ended.
  flushWrites(core);
  const { outcome, message, error, last } = end;
  const suggestions = outcome === 'answered' && last.reply?.type === 'chat' ? (last.reply.data?.suggestions ?? []).filter((s) => s.trim() !== '').slice(0, 9) : [];
  const result: TurnResult = {
    outcome,
    reply: last.reply,
    raw: last.raw,
    message,
    ...(suggestions.length ? { suggestions } : {}),
    steps: end.rounds,
    usage: end.usage,
    error,
    sessionId: core.id,
  };
  if (error) emit(core, { type: 'error', ...error });
  emit(core, { type: 'final', ...result });
  return result;
}

/** How a turn whose model call failed ends: its pending lines kept, and aborted or an error. */
function callFailed(core: AgentCore, pending: Pending[], failure: { code: string; message: string }): [Outcome, string, { code: string; message: string }?] {
  const lang = core.options.lang;
  if (failure.code === 'ABORTED') {
    commit(core, [...pending, interruptedEvent('model_call')]);
    return ['aborted', t(lang, 'aborted')];
  }
  commit(core, pending);
  const message = failure.code === 'NO_PROFILE' ? t(lang, 'llmErrorNoProfile', { message: failure.message }) : t(lang, 'llmError', { code: failure.code, message: failure.message });
  return ['error', message, { code: failure.code, message: failure.message }];
}

function nextStepId(core: AgentCore): string {
  core.stepCounter++;
  return `cmd_${String(core.stepCounter).padStart(3, '0')}`;
}

/** Judge and run each step of a cmd reply. After a blocked or declined step the rest are
 * not run and are reported as declined, so the model can choose another way. Consecutive steps
 * of a tool that may run concurrently (agent.run: its definition's `concurrency`) and that need
 * no question run together, at most that many at once; results keep the reply's order. */
async function runSteps(core: AgentCore, reply: Extract<Reply, { type: 'cmd' }>, signal: AbortSignal): Promise<ToolResult[]> {
  const runner = getRunner(core);
  noteSandbox(core);
  if (core.turnMark === undefined) core.turnMark = runner.mark?.();
  const registry = runner.tools ?? builtinStepRegistry();
  const state: StepState = {};
  const steps = reply.data.commands.map((raw) => {
    const takesCwd = registry.get(raw.tool ?? 'exec')?.takesCwd === true;
    const own = (raw as { cwd?: string | null }).cwd;
    return takesCwd && (own === undefined || own === null) && reply.data.cwd ? ({ ...raw, cwd: reply.data.cwd } as Step) : raw;
  });
  const results: ToolResult[] = [];
  for (let i = 0; i < steps.length; ) {
    const limit = concurrencyOf(registry.get(steps[i].tool ?? 'exec'));
    let end = i + 1;
    while (limit > 1 && end < steps.length && steps[end].tool === steps[i].tool) end++;
    if (end - i > 1) {
      const group = steps.slice(i, end).map((step) => ({ step, verdict: runner.verdict(step) }));
      if (group.every((g) => g.verdict.level === 'L0')) {
        results.push(...(await mapLimited(group, limit, (g) => runStep(core, runner, g.step, signal, state))));
        i = end;
        continue;
      }
    }
    results.push(await runStep(core, runner, steps[i], signal, state));
    i++;
  }
  return results;
}

/** How many steps of this tool may run at once (1 unless its definition says more). */
function concurrencyOf(def: unknown): number {
  const n = (def as { concurrency?: unknown } | undefined)?.concurrency;
  return typeof n === 'number' && Number.isInteger(n) && n > 1 ? n : 1;
}

/** What the steps of one reply share: why the rest are not run, once one stopped. */
interface StepState {
  stopped?: { why: NotRun; reason: string };
}

/** Judge, ask the hooks, run and report one step. */
async function runStep(core: AgentCore, runner: StepRunner, step: Step, signal: AbortSignal, state: StepState): Promise<ToolResult> {
  const id = nextStepId(core);
  // The verdict has no language: each edge that shows the step renders it in its own (agent/render-verdict.ts).
  const verdict = runner.verdict(step);
  // The label shows arguments (an MCP call's too): through the redaction gate, like the question.
  emit(core, { type: 'step', id, step, verdict, label: redact(describeStep(step, runner.tools)) });
  // A steering note skips the rest of the plan: the model replans with the note.
  if (!state.stopped && core.steering.length) state.stopped = { why: 'steering', reason: 'skipped: the user sent a steering message; replan with it' };
  let result: ToolResult;
  const hook = state.stopped || signal.aborted ? undefined : await preToolUse(core, id, step, verdict, signal);
  if (state.stopped || signal.aborted) {
    const why: NotRun = signal.aborted ? 'aborted' : state.stopped!.why;
    result = {
      _event: 'tool_result',
      id,
      tool: step.tool,
      status: 'declined',
      reason: signal.aborted ? 'aborted by the user' : state.stopped!.reason,
      notRun: why,
      // The model's observation: worded in the session's language.
      decision: { ...renderVerdict(verdict, core.options.lang), by: 'policy' },
    };
  } else if (hook && hook !== 'ask' && hook !== 'allow') {
    result = hook;
    state.stopped = { why: 'after_stop', reason: `not run: ${id} was blocked by a hook` };
  } else {
    core.currentStepId = id;
    if (hook === 'allow') core.hookAllowed = id;
    try {
      result = await withChildSignal(signal, (own) =>
        // A PreToolUse hook's "ask": the user is asked even where the step would run by itself.
        runner.run(hook === 'ask' ? ({ ...step, requires: { ...(step as { requires?: object }).requires, confirm: true } } as Step) : step, {
          id,
          signal: own,
          onOutput: (chunk, stream, skipped) => emit(core, { type: 'output', id, chunk, stream, ...(skipped ? { skipped } : {}) }),
        }),
      );
    } finally {
      if (core.currentStepId === id) core.currentStepId = undefined;
      if (core.hookAllowed === id) core.hookAllowed = undefined;
    }
    if (result.status === 'blocked' || result.status === 'declined') {
      state.stopped = { why: 'after_stop', reason: `not run: ${id} before it was ${result.status}` };
    }
  }
  const context = await postToolUse(core, id, step, result, signal);
  if (context) core.hookContext.push(context);
  if (core.hookStop !== undefined && !state.stopped) state.stopped = { why: 'after_stop', reason: `not run: a hook ended the turn after ${id}` };
  emit(core, { type: 'tool_result', result });
  notePlan(core, result);
  audit(core, id, step, result);
  rewindModule().noteEffect(core, describeStep(step), result);
  return result;
}

/** One step outside a reply (a command's `!`cmd``, a check after edits), judged and run like any other. */
async function runOne(core: AgentCore, step: Step, signal: AbortSignal): Promise<ToolResult> {
  const [result] = await runSteps(core, { type: 'cmd', message: '', data: { cwd: null, commands: [step] } } as Extract<Reply, { type: 'cmd' }>, signal);
  return result;
}

/** A custom command's `!`cmd`` and `@file` run (judged like any step) before its prompt is sent: the prompt. */
function prepareCommand(core: AgentCore, prepare: NonNullable<SendOptions['prepare']>, signal: AbortSignal): Promise<string> {
  return prepare((step) => runOne(core, step, signal));
}

/** A custom command's allowances (our rule syntax or Claude Code's) for its turn. */
function commandAllowances(allow: readonly string[]): AgentCore['turnAllow'] {
  const { readAllowedTools } = require('../extensions/command-allow') as typeof import('../extensions/command-allow');
  return readAllowedTools(allow, 'allowed-tools').rules;
}

/** Results for the steps of a reply that were not run, each with its own id and why. */
function notRun(core: AgentCore, reply: Extract<Reply, { type: 'cmd' }>, why: NotRun, reason: string): Pending[] {
  const runner = getRunner(core);
  return reply.data.commands.map((step) => ({
    kind: 'tool' as const,
    result: { _event: 'tool_result', id: nextStepId(core), tool: step.tool, status: 'declined', reason, notRun: why, decision: { ...renderVerdict(runner.verdict(step), core.options.lang), by: 'policy' } },
  }));
}

/** Keep the turn's journal position for `/undo` when the turn changed files. */
function rememberChanges(core: AgentCore): void {
  const mark = core.turnMark;
  core.turnMark = undefined;
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
