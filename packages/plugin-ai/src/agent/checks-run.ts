/**
 * Checks after edits, run where a reply's steps end (issue #46): the files the reply changed (the
 * runner's journal, by step id — no tool is named here) call for the checks whose glob matches
 * them; each runs once, as a step like any other (judged, sandboxed, hooked, audited: L0 when its
 * program is read-only by the rules, else asked — once per session: a yes lets it run for the rest
 * of the session, a no leaves it off), and its digest joins the result of its last matching edit.
 * The loop calls {@link afterReplySteps} at one point, after the reply's steps ran.
 */
import { emit, type AgentCore } from './agent-core';
import type { AgentEvent } from './events';
import type { Step } from '../context/protocol';
import type { ToolResult } from './runner-types';
import { checkDigest, checkLine, checksFor, type Check, type CheckDigest } from '../extensions/checks';

/** The checks of a session, the folder their globs and commands start from, and the user's answers (shared with its sub-agents). */
export interface SessionChecks {
  list: readonly Check[];
  workspace: string;
  answers: CheckAnswers;
}

/** What a session remembers of each check's question: yes (it runs from now on), no (it stays off). */
export type CheckAnswers = Map<string, 'yes' | 'no'>;

/** The head of a step's output kept for its digest (its first errors): at most this much. */
const HEAD_BYTES = 32 * 1024;

/** A check as a step: Claude Code's `Bash` of its command line, taken by the tool that declares that name, run in the workspace. */
function checkStep(check: Check, workspace: string): Step | undefined {
  const { claudeStep } = require('../extensions/command-run') as typeof import('../extensions/command-run');
  const made = claudeStep('Bash', { command: checkLine(check) });
  return 'error' in made ? undefined : ({ ...made.step, cwd: workspace } as Step);
}

/** Whether the user said yes to this check's question earlier this session (the question is then answered for them). */
export function checkApproved(core: AgentCore): boolean {
  return core.runningCheck !== undefined && core.deps.checks?.answers.get(core.runningCheck) === 'yes';
}

/**
 * After a reply's steps: run the checks its changes call for, each once, and return the results
 * with each check's digest in the `checks` of its last matching edit's result. `mark`: the
 * runner's journal position before the reply's steps; `run`: how the loop runs one step.
 */
export async function afterReplySteps(
  core: AgentCore,
  results: ToolResult[],
  mark: number | undefined,
  run: (step: Step) => Promise<ToolResult>,
  signal: AbortSignal,
): Promise<ToolResult[]> {
  const checks = core.deps.checks;
  if (!checks?.list.length || mark === undefined || signal.aborted) return results;
  const changes = core.runner?.changes?.(mark) ?? [];
  const due = checksFor(changes, checks.list, checks.workspace).filter((d) => results.some((r) => r.id === d.stepId));
  if (!due.length) return results;
  const answers = checks.answers;
  const digests = new Map<string, CheckDigest[]>();
  for (const { check, stepId } of due) {
    if (signal.aborted) break;
    const digest = await runCheck(core, check, checks.workspace, answers, run);
    digests.set(stepId, [...(digests.get(stepId) ?? []), digest]);
  }
  for (const [id, checks] of digests) emit(core, { type: 'checks', id, checks });
  return results.map((r) =>
    digests.has(r.id) ? { ...r, checks: [...((r.checks as CheckDigest[] | undefined) ?? []), ...digests.get(r.id)!] } : r,
  );
}

/** One check: skipped when the user said no earlier, else run as a step with the head of its output kept. */
async function runCheck(
  core: AgentCore,
  check: Check,
  workspace: string,
  answers: CheckAnswers,
  run: (step: Step) => Promise<ToolResult>,
): Promise<CheckDigest> {
  const key = checkLine(check);
  if (answers.get(key) === 'no') return { run: key, status: 'not_run', note: 'declined earlier this session; not asked again' };
  const step = checkStep(check, workspace);
  if (!step)
    return { run: key, status: 'error', note: 'its command cannot run without a shell: give the program and its arguments as a list' };
  let head = '';
  let ownId: string | undefined;
  const listen = (event: AgentEvent) => {
    if (event.type === 'step' && ownId === undefined) ownId = event.id;
    if (event.type === 'output' && event.id === ownId && Buffer.byteLength(head) < HEAD_BYTES) head += event.chunk;
  };
  core.listeners.add(listen);
  core.runningCheck = key;
  let result: ToolResult;
  try {
    result = await run(step);
  } finally {
    core.listeners.delete(listen);
    core.runningCheck = undefined;
  }
  // The user's first answer stands for the session: a no keeps it off, a yes lets it run unasked.
  if (result.status === 'declined' && !result.notRun) answers.set(key, 'no');
  else if (result.decision.by === 'user') answers.set(key, 'yes');
  return checkDigest(check, result, head || undefined);
}
