/**
 * A step of a reply as a typed state machine (gemini-cli's scheduler does the same for a tool
 * call): each step is an object whose `status` says where it is, carrying its own id, the step,
 * the runner's verdict, who answered its question and, once it ended, its result. The
 * transitions are pure functions from one object to the next; the turn (agent-turn.ts) is a
 * function over these objects, and nothing about a step lives on the agent's shared state.
 *
 *     validating ──► awaiting_approval ──► running ──► done | declined | blocked | failed
 *         │                 ▲    │            │
 *         ├─────────────────┼────┼──► running │   (a step that needs no question)
 *         └──► blocked      └────┘            └──► not_run (step limit, steering, abort, after a stop)
 *             (a PreToolUse hook)  (an edited step is asked about again)
 */
import type { AgentConfirmAnswer, Pending } from './agent-core';
import type { ConfirmRequest, NotRun, ToolResult, Verdict } from './runner-types';
import type { Step } from '../context/protocol';

/** Who answered a step's question: a person, a flag (`--approve-l1`), a PreToolUse hook, a custom command's `allowed-tools`. */
export type ApprovedBy = 'user' | 'flag' | 'hook' | 'command';

/** The answer a step's question got, and who gave it. */
export interface Approval {
  by: ApprovedBy;
  answer: AgentConfirmAnswer['action'];
}

/** What a PreToolUse hook said of a step that goes on: answer its question yes, or ask even where it would run by itself. */
export type HookSays = 'allow' | 'ask';

interface StepFields {
  /** `cmd_001`, … counted over the session. */
  readonly id: string;
  readonly step: Step;
  /** The runner's judgement, without language. */
  readonly verdict: Verdict;
  /** A hook answered `continue: false` (its stopReason): the turn ends after this step. */
  readonly hookStop?: string;
}

export type ValidatingStep = StepFields & { readonly status: 'validating'; readonly hook?: HookSays };
export type AwaitingStep = StepFields & {
  readonly status: 'awaiting_approval';
  readonly hook?: HookSays;
  readonly request: ConfirmRequest;
  /** Set once answered no (or with an edit): the runner's result ends the step, or asks again. */
  readonly approval?: Approval;
};
export type RunningStep = StepFields & { readonly status: 'running'; readonly hook?: HookSays; readonly approval?: Approval };

interface EndFields extends StepFields {
  readonly result: ToolResult;
  readonly approval?: Approval;
  /** What a PostToolUse hook added for the model with the result. */
  readonly hookContext?: Pending;
}
/** It ran (whatever its exit code; the sandbox may have stopped part of it). */
export type DoneStep = EndFields & { readonly status: 'done' };
/** The person (or nobody, without one) said no. */
export type DeclinedStep = EndFields & { readonly status: 'declined' };
/** The runner refused it, or a PreToolUse hook stopped it (`result.blockedBy`). */
export type BlockedStep = EndFields & { readonly status: 'blocked' };
/** Its tool could not do it (a patch that did not apply, an MCP tool's error). */
export type FailedStep = EndFields & { readonly status: 'failed' };
/** The agent did not run it, and why. */
export type NotRunStep = EndFields & { readonly status: 'not_run'; readonly why: NotRun };

export type EndedStep = DoneStep | DeclinedStep | BlockedStep | FailedStep | NotRunStep;
export type TurnStep = ValidatingStep | AwaitingStep | RunningStep | EndedStep;
export type LiveStep = ValidatingStep | AwaitingStep | RunningStep;

export function validating(id: string, step: Step, verdict: Verdict): ValidatingStep {
  return { status: 'validating', id, step, verdict };
}

/** What the PreToolUse hooks said of a step that goes on. */
export function hooked(s: ValidatingStep, hook: HookSays | undefined, hookStop: string | undefined): ValidatingStep {
  return { ...s, ...(hook ? { hook } : {}), ...(hookStop !== undefined ? { hookStop } : {}) };
}

/** Whether the runner will ask about the step (its verdict says so, or a hook asked for a question). */
export function mayAsk(s: ValidatingStep): boolean {
  return s.verdict.level !== 'L0' || s.verdict.alwaysConfirm || s.hook === 'ask';
}

/** Handed to the runner: running, unless its question comes first. */
export function handedOver(s: ValidatingStep): ValidatingStep | RunningStep {
  return mayAsk(s) ? s : { ...s, status: 'running' };
}

/** The runner asks about the step. */
export function awaiting(s: LiveStep, request: ConfirmRequest): AwaitingStep {
  const { approval: _previous, ...rest } = s as LiveStep & { approval?: Approval };
  return { ...rest, status: 'awaiting_approval', request };
}

/** Whether an answer lets the step run. */
export function approves(answer: AgentConfirmAnswer): boolean {
  return answer.action !== 'decline' && answer.action !== 'edit';
}

/** The question was answered: a yes runs the step; a no (or an edit) waits for the runner's result. */
export function answered(s: AwaitingStep, answer: AgentConfirmAnswer): AwaitingStep | RunningStep {
  const approval: Approval = { by: answer.approvedBy ?? 'user', answer: answer.action };
  return approves(answer) ? { ...s, status: 'running', approval } : { ...s, approval };
}

/** The step as the runner's result ends it. */
export function ended(s: LiveStep, result: ToolResult): EndedStep {
  const approval = 'approval' in s ? s.approval : undefined;
  const base = {
    id: s.id,
    step: s.step,
    verdict: s.verdict,
    result,
    ...(approval ? { approval } : {}),
    ...(s.hookStop !== undefined ? { hookStop: s.hookStop } : {}),
  };
  if (result.notRun) return { ...base, status: 'not_run', why: result.notRun };
  if (result.status === 'blocked') return { ...base, status: 'blocked' };
  if (result.status === 'declined') return { ...base, status: 'declined' };
  if (result.status === 'error') return { ...base, status: 'failed' };
  return { ...base, status: 'done' };
}

/** What the PostToolUse hooks said after the step. */
export function afterHooks(s: EndedStep, context: Pending | undefined, hookStop: string | undefined): EndedStep {
  const stop = hookStop ?? s.hookStop;
  return { ...s, ...(context ? { hookContext: context } : {}), ...(stop !== undefined ? { hookStop: stop } : {}) };
}

/** Why the rest of a reply's steps are not run, once one stopped. */
export interface Stop {
  why: NotRun;
  reason: string;
}

/**
 * Why the next step of a reply is not run, from the steps of the reply that ended before it (in
 * the order they ended): the first that stopped the plan (blocked by a hook, declined or blocked,
 * or a hook that ended the turn), a step not run for steering before it, or a steering note
 * waiting. Undefined: the step runs.
 */
export function stopBefore(endedSoFar: readonly EndedStep[], steering: boolean): Stop | undefined {
  for (const s of endedSoFar) {
    if (s.status === 'not_run') return { why: s.why === 'steering' ? 'steering' : 'after_stop', reason: String(s.result.reason ?? '') };
    if (s.status === 'blocked' && s.result.blockedBy === 'hook')
      return { why: 'after_stop', reason: `not run: ${s.id} was blocked by a hook` };
    if (s.status === 'blocked' || s.status === 'declined')
      return { why: 'after_stop', reason: `not run: ${s.id} before it was ${s.status}` };
    if (s.hookStop !== undefined) return { why: 'after_stop', reason: `not run: a hook ended the turn after ${s.id}` };
  }
  return steering ? { why: 'steering', reason: 'skipped: the user sent a steering message; replan with it' } : undefined;
}
