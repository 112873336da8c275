/**
 * The steps of one reply, each a state machine (step.ts): judged, shown to the hooks, handed to
 * the runner (which asks where needed, through the confirm bridge of agent-approvals), ended by
 * its result, reported and audited. The turn keeps the steps still in the runner (`Turn.live`),
 * so a question reaches the step it is about; everything else about a step is its own object.
 */
import { redact } from '@holic512/shared';
import { withChildSignal } from './abort';
import { postToolUse, preToolUse } from './agent-extensions';
import { audit, getRunner, noteSandbox } from './agent-approvals';
import { emit, zeroUsage, type AgentCore, type Turn } from './agent-core';
import { mapLimited } from './agent-children';
import { renderVerdict } from './render-verdict';
import { describeStep } from './step-label';
import { notePlan } from './plan-state';
import { afterHooks, ended, handedOver, hooked, stopBefore, validating, type EndedStep, type LiveStep, type Stop } from './step';
import type { StepRunner, ToolResult } from './runner-types';
import { builtinStepRegistry, type Reply, type Step } from '../context/protocol';
import { noteEffect } from './agent-rewind';

type CmdReply = Extract<Reply, { type: 'cmd' }>;

/** The next step id of the session: `cmd_001`, `cmd_002`, … */
export function nextStepId(core: AgentCore): string {
  core.stepCounter++;
  return `cmd_${String(core.stepCounter).padStart(3, '0')}`;
}

/** The reply's steps, each with the reply's `cwd` where its tool takes one and it names none. */
function withCwd(reply: CmdReply, registry: ReturnType<typeof builtinStepRegistry>): Step[] {
  return reply.data.commands.map((raw) => {
    const takesCwd = registry.get(raw.tool ?? 'exec')?.takesCwd === true;
    const own = (raw as { cwd?: string | null }).cwd;
    return takesCwd && (own === undefined || own === null) && reply.data.cwd ? ({ ...raw, cwd: reply.data.cwd } as Step) : raw;
  });
}

/**
 * Judge and run each step of a cmd reply, in order, to its end. After a blocked or declined step
 * the rest are not run (stopBefore), so the model can choose another way. Consecutive steps of a
 * tool that may run concurrently (agent.run: its definition's `concurrency`) and that need no
 * question run together, at most that many at once; the steps keep the reply's order.
 */
export async function runSteps(core: AgentCore, turn: Turn, reply: CmdReply): Promise<EndedStep[]> {
  const runner = getRunner(core);
  noteSandbox(core);
  if (turn.mark === undefined) turn.mark = runner.mark?.();
  const registry = runner.tools ?? builtinStepRegistry();
  const steps = withCwd(reply, registry);
  const endedSoFar: EndedStep[] = [];
  const out: EndedStep[] = [];
  for (let i = 0; i < steps.length;) {
    const limit = concurrencyOf(registry.get(steps[i].tool ?? 'exec'));
    let end = i + 1;
    while (limit > 1 && end < steps.length && steps[end].tool === steps[i].tool) end++;
    const group = end - i > 1 ? steps.slice(i, end) : [];
    if (group.length && group.every((step) => runner.verdict(step).level === 'L0')) {
      out.push(...(await mapLimited(group, limit, (step) => runStep(core, turn, runner, step, endedSoFar))));
      i = end;
      continue;
    }
    out.push(await runStep(core, turn, runner, steps[i], endedSoFar));
    i++;
  }
  return out;
}

/** How many steps of this tool may run at once (1 unless its definition says more). */
function concurrencyOf(def: unknown): number {
  const n = (def as { concurrency?: unknown } | undefined)?.concurrency;
  return typeof n === 'number' && Number.isInteger(n) && n > 1 ? n : 1;
}

/** Judge, ask the hooks, run and report one step; `endedSoFar` (the reply's steps that ended) gets it too. */
async function runStep(core: AgentCore, turn: Turn, runner: StepRunner, step: Step, endedSoFar: EndedStep[]): Promise<EndedStep> {
  const signal = turn.controller.signal;
  // The verdict has no language: each edge that shows the step renders it in its own (agent/render-verdict.ts).
  const start = validating(nextStepId(core), step, runner.verdict(step));
  // The label shows arguments (an MCP call's too): through the redaction gate, like the question.
  emit(core, { type: 'step', id: start.id, step, verdict: start.verdict, label: redact(describeStep(step, runner.tools)) });
  // A steering note skips the rest of the plan: the model replans with the note.
  const stop = stopBefore(endedSoFar, turn.steering.length > 0);
  const pre = stop || signal.aborted ? undefined : await preToolUse(core, start.id, step, start.verdict, signal);
  if (pre?.stop !== undefined) turn.hookStop = pre.stop;
  // A PreToolUse hook's additionalContext reaches the model with the step results.
  if (pre?.context) turn.hookContext.push(pre.context);
  let done: EndedStep;
  if (stop || signal.aborted)
    done = ended(start, notRunResult(core, start, signal.aborted ? { why: 'aborted', reason: 'aborted by the user' } : stop!));
  else if (pre?.blocked) done = ended(start, pre.blocked);
  else done = await handToRunner(core, turn, runner, hooked(start, pre?.says, pre?.stop));
  const post = await postToolUse(core, done.id, step, done.result, signal);
  if (post.stop !== undefined) turn.hookStop = post.stop;
  done = afterHooks(done, post.context, turn.hookStop);
  if (done.hookContext) turn.hookContext.push(done.hookContext);
  endedSoFar.push(done);
  emit(core, { type: 'tool_result', result: done.result });
  notePlan(core, done.result);
  audit(core, done);
  noteEffect(core, describeStep(step), done.result);
  return done;
}

/** The runner judges, asks (the bridge hands the question to this step through `turn.live`) and runs it. */
async function handToRunner(core: AgentCore, turn: Turn, runner: StepRunner, start: ReturnType<typeof hooked>): Promise<EndedStep> {
  turn.live.set(start.id, handedOver(start));
  try {
    // A PreToolUse hook's "ask": the user is asked even where the step would run by itself.
    const step =
      start.hook === 'ask'
        ? ({ ...start.step, requires: { ...(start.step as { requires?: object }).requires, confirm: true } } as Step)
        : start.step;
    const result = await withChildSignal(turn.controller.signal, (own) =>
      runner.run(step, {
        id: start.id,
        signal: own,
        onOutput: (chunk, stream, skipped) => emit(core, { type: 'output', id: start.id, chunk, stream, ...(skipped ? { skipped } : {}) }),
      }),
    );
    return ended(turn.live.get(start.id) ?? start, result);
  } finally {
    turn.live.delete(start.id);
  }
}

/** The result of a step the agent did not run: the model's observation, worded in the session's language. */
function notRunResult(core: AgentCore, s: LiveStep, stop: Stop): ToolResult {
  return {
    _event: 'tool_result',
    id: s.id,
    tool: s.step.tool,
    status: 'declined',
    reason: stop.reason,
    notRun: stop.why,
    decision: { ...renderVerdict(s.verdict, core.options.lang), by: 'policy' },
  };
}

/** The steps of a reply that were never judged nor run (the step limit): each ended with its own id and why. */
export function notRunSteps(core: AgentCore, reply: CmdReply, stop: Stop): EndedStep[] {
  const runner = getRunner(core);
  return reply.data.commands.map((step) => {
    const s = validating(nextStepId(core), step, runner.verdict(step));
    return ended(s, notRunResult(core, s, stop));
  });
}

/** One step outside a reply (a command's `!`cmd``, a check after edits), judged and run like any other: its result. */
export async function runOne(core: AgentCore, turn: Turn, step: Step): Promise<ToolResult> {
  const [done] = await runSteps(core, turn, { type: 'cmd', message: '', data: { cwd: null, commands: [step] } } as CmdReply);
  return done.result;
}

/** A custom command's `!`cmd`` and `@file` run (judged like any step) before its prompt is sent: the prompt. */
export function prepareCommand(
  core: AgentCore,
  turn: Turn,
  prepare: (run: (step: Step) => Promise<ToolResult>) => Promise<string>,
): Promise<string> {
  return prepare((step) => runOne(core, turn, step));
}

/**
 * A step the person typed (`!cmd`), run outside a turn through the same path as the model's steps,
 * under a turn of its own that `signal` can abort. Null while a turn runs.
 */
export async function runUserStep(core: AgentCore, step: Step, signal?: AbortSignal): Promise<ToolResult | null> {
  if (core.turn) return null;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const turn: Turn = { controller, usage: zeroUsage(), steering: [], live: new Map(), hookContext: [] };
  core.turn = turn;
  try {
    const [done] = await runSteps(core, turn, { type: 'cmd', message: '', data: { cwd: null, commands: [step] } } as CmdReply);
    core.notes.push(...turn.hookContext.splice(0));
    return done.result;
  } finally {
    core.turn = undefined;
    signal?.removeEventListener('abort', onAbort);
  }
}
