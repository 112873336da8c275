import { message } from './i18n';
import type { ConfirmAnswer, ConfirmRequest, RunOptions } from './runner-types';
import { invalidVerdict, judgeValid, type JudgeSetup, type Judgement } from './runner-judge';
import { renderVerdict } from './render-verdict';
import { finding } from './policy/finding';
import type { ResultDecision, StepSandbox, StoppedToolResult, ToolContext, ToolResult } from './tools/types';
import type { SandboxReport } from './sandbox/report';
import type { Decision, Lang, Step } from './types';
import type { Verdict } from './policy/decide';
import { redactValue } from './redact';
import { sandboxRetryModule } from './lazy-modules';

/** How many times the user may edit a step before it counts as declined. */
const MAX_EDITS = 5;

/** What running a step needs from its runner. */
export interface RunSetup {
  judge: JudgeSetup;
  /** Ask the user (normalised: never throws, always an answer). */
  ask(request: ConfirmRequest, signal?: AbortSignal): Promise<ConfirmAnswer>;
  /** Remember an 'allow for this session' answer. */
  allow(key: string): void;
  /** Apply an allow rule the user gave in answer to a question, from now on. */
  addRule(text: string): void;
  /** The tool context of one run (everything but the decision and the asking). */
  context(id: string, options: RunOptions, judged: Judgement): Omit<ToolContext, 'decision' | 'ask'>;
  /** The OS sandbox of a step at this level: a sandbox, none (unsandboxed), or a refusal (sandbox "required" but missing). */
  sandbox(judged: Judgement, level: 'L0' | 'L1'): StepSandbox | undefined | { refused: string };
  /** No person answers `ask` (ToolRunnerOptions.unattended): nothing is offered again after a denial. */
  unattended?: boolean;
  /** The judgement `judge()` just made of this very step object, if it still holds (runner-judge.ts judgementMemo). */
  recent?(step: unknown): { step: Step; judged: Judgement } | undefined;
}

export function stopped(
  id: string,
  tool: string,
  status: 'blocked' | 'declined',
  decision: ResultDecision,
  reason?: string,
): StoppedToolResult {
  return { _event: 'tool_result', id, tool, status, ...(reason ? { reason } : {}), decision };
}

/** Normalise whatever a confirm callback answered; a failure or nonsense is a decline. */
export async function normaliseAnswer(
  confirm: (r: ConfirmRequest) => ConfirmAnswer | Promise<ConfirmAnswer>,
  request: ConfirmRequest,
  signal?: AbortSignal,
): Promise<ConfirmAnswer> {
  let answer: unknown;
  try {
    answer = await confirm(request);
  } catch (err) {
    return { action: 'decline', reason: `confirm failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (signal?.aborted) return { action: 'decline', reason: 'aborted' };
  const a = answer as { action?: unknown; step?: unknown; reason?: unknown } | null;
  if (!a || typeof a !== 'object') return { action: 'decline', reason: 'no answer' };
  if (a.action === 'run' || a.action === 'allow-session') return { action: a.action };
  if (a.action === 'allow-rule' && request.rule) return { action: 'allow-rule' };
  if (a.action === 'edit' && a.step && typeof a.step === 'object') return { action: 'edit', step: a.step as Step };
  return { action: 'decline', ...(typeof a.reason === 'string' ? { reason: a.reason } : {}) };
}

/** What one pass over a step gives: its result, or the step the user edited (asked again). */
type Pass = { done: ToolResult } | { edited: Step; tool: string; decision: ResultDecision };

/** Whether an answer lets the step run. */
function approves(answer: ConfirmAnswer): boolean {
  return answer.action === 'run' || answer.action === 'allow-session' || answer.action === 'allow-rule';
}

/** A valid step and its judgement (judged now, or the one `verdict()` just made of it), or its refusal. */
function judgedStep(id: string, step: Step, setup: RunSetup): { step: Step; judged: Judgement } | { done: ToolResult } {
  const recent = setup.recent?.(step);
  if (recent) return recent;
  const checked = setup.judge.registry.validate(step);
  if (checked.ok) return { step: checked.step, judged: judgeValid(checked.step, setup.judge) };
  const decision = renderVerdict(invalidVerdict(step, setup.judge), setup.judge.lang);
  return {
    done: stopped(
      id,
      String((step as { tool?: unknown })?.tool ?? 'exec'),
      'blocked',
      { ...decision, by: 'policy' },
      decision.rules[0]?.reason,
    ),
  };
}

/** One question about a judged step (with the tool's preview when it asks inside its run): the
 * answer, after remembering what it allows from now on. */
async function askAbout(
  id: string,
  s: Step,
  judged: Judgement,
  decision: Decision,
  setup: RunSetup,
  signal: AbortSignal | undefined,
  preview?: string,
): Promise<ConfirmAnswer> {
  const { def, verdict } = judged;
  // The question shows what will happen: the tool's own summary of this step (its arguments; for MCP the server and its hints).
  const summary = def.summary?.(s);
  const answer = await setup.ask(
    {
      id,
      step: s,
      verdict,
      decision,
      ...(preview !== undefined ? { preview } : {}),
      sessionKey: judged.key,
      ...(judged.rule ? { rule: judged.rule } : {}),
      ...(summary ? { summary } : {}),
    },
    signal,
  );
  if (answer.action === 'allow-session' && verdict.level === 'L1') setup.allow(judged.key);
  if (answer.action === 'allow-rule' && judged.rule) setup.addRule(judged.rule);
  return answer;
}

/** A no the user gave (declined, or an edited step to judge again); undefined for a yes. */
function refusal(id: string, tool: string, answer: ConfirmAnswer, decision: ResultDecision, lang: Lang): Pass | undefined {
  if (answer.action === 'edit') return { edited: answer.step, tool, decision };
  if (answer.action === 'decline')
    return { done: stopped(id, tool, 'declined', decision, answer.reason || message('declined.user', lang).reason) };
  return undefined;
}

/**
 * Run a tool that asks inside its run (to show a preview first): its question is asked through
 * `ask`, and the answer comes back beside the result (the last one, if the tool asked twice).
 */
async function executeAsking(
  def: Judgement['def'],
  s: Step,
  ctx: ToolContext,
  ask: (preview?: string) => Promise<ConfirmAnswer>,
): Promise<{ result: ToolResult; answer?: ConfirmAnswer }> {
  const asked: Array<Promise<ConfirmAnswer>> = [];
  const result = await def.execute(s, {
    ...ctx,
    ask: (preview) => {
      const answer = ask(preview);
      asked.push(answer);
      return answer.then(approves);
    },
  });
  return { result, ...(asked.length ? { answer: await asked[asked.length - 1] } : {}) };
}

/** One pass: judge, refuse L2, ask for L1 (before running, or inside the tool with its preview), execute. */
async function runOnce(id: string, step: Step, options: RunOptions, setup: RunSetup): Promise<Pass> {
  const lang = setup.judge.lang;
  const valid = judgedStep(id, step, setup);
  if ('done' in valid) return valid;
  const { step: s, judged } = valid;
  // The runner acts on the verdict. The judgement rendered nothing: here, at the runner's own
  // edges (the tool_result the model reads, the question it asks), it is worded once, in the
  // runner's language; the question also carries the verdict, for a caller showing it in another.
  const { def, verdict } = judged;
  const decision = renderVerdict(verdict, lang);
  if (verdict.level === 'L2') {
    const reason = decision.rules
      .filter((r) => r.level === 'L2')
      .map((r) => r.reason)
      .join('; ');
    return { done: stopped(id, def.name, 'blocked', { ...decision, by: 'policy' }, reason || undefined) };
  }
  if (options.signal?.aborted) return { done: stopped(id, def.name, 'declined', { ...decision, by: 'policy' }, 'aborted') };
  const mustAsk = verdict.level === 'L1' || judged.alwaysConfirm;
  const userDecision: ResultDecision = { ...decision, by: 'user' };
  const inside = mustAsk && def.confirmsInside === true;
  if (mustAsk && !inside) {
    const answer = await askAbout(id, s, judged, decision, setup, options.signal);
    if (!approves(answer))
      return refusal(id, def.name, answer, userDecision, lang) ?? { done: stopped(id, def.name, 'declined', userDecision) };
  }
  const sandbox = def.sandboxed ? setup.sandbox(judged, mustAsk || judged.bySession ? 'L1' : 'L0') : undefined;
  if (sandbox && 'refused' in sandbox)
    return {
      done: stopped(
        id,
        def.name,
        'blocked',
        {
          level: 'L2',
          by: 'policy',
          rules: [{ id: 'sandbox.required', level: 'L2', ...message('sandbox.required', lang, { why: sandbox.refused }) }],
        },
        sandbox.refused,
      ),
    };
  const ctx: ToolContext = {
    ...setup.context(id, options, judged),
    decision: inside ? { ...decision, by: 'policy' } : mustAsk || judged.bySession ? userDecision : { ...decision, by: 'policy' },
    ...(sandbox ? { sandbox } : {}),
  };
  const { result, answer } = inside
    ? await executeAsking(def, s, ctx, (preview) => askAbout(id, s, judged, decision, setup, options.signal, preview))
    : { result: await def.execute(s, ctx), answer: undefined };
  if (sandbox) return { done: await retryAfterDenial(id, s, result, ctx, setup, judged) };
  if (!answer) return { done: result };
  return refusal(id, def.name, answer, userDecision, lang) ?? { done: { ...result, decision: userDecision } };
}

/**
 * A sandboxed read-only step that failed because the sandbox stopped a write inside the
 * workspace: the user is asked, as a new L1 question naming the path and the line, whether to run
 * it again in the approved-step sandbox (the workspace writable, the rest as for any approved
 * step). Never for a path outside the workspace or a protected one, a connection, a line that
 * names no path, or when no person answers (sandbox/retry.ts); the result then says why.
 */
async function retryAfterDenial(
  id: string,
  step: Step,
  result: ToolResult,
  ctx: ToolContext,
  setup: RunSetup,
  judged: Judgement,
): Promise<ToolResult> {
  const box = (result as { sandbox?: SandboxReport }).sandbox;
  if (!box?.denied || !ctx.sandbox || ctx.signal?.aborted) return result;
  const { lang } = setup.judge;
  const session = setup.judge.env.session;
  const person = !setup.unattended && setup.judge.mode !== 'yolo';
  const { retryRefusal } = sandboxRetryModule();
  const refusal = retryRefusal(
    { kind: box.denied, ...(box.path ? { path: box.path } : {}) },
    ctx.sandbox.level,
    { workspace: session.workspace, home: session.home, slothtoolHome: session.slothtoolHome, real: (p) => session.resolve(p).real },
    person,
  );
  const params = { path: box.path ?? '', line: box.line ?? '' };
  // A step kept off the host's loopback that could not connect: most likely to a service on this machine.
  const why = refusal === 'network' && box.isolatedNetwork ? 'sandbox.no_retry.loopback' : `sandbox.no_retry.${refusal}`;
  if (refusal) return { ...result, sandbox: { ...box, note: message(why, lang, params).reason } } as ToolResult;
  const writable = setup.sandbox(judged, 'L1');
  if (!writable || 'refused' in writable) return result;
  const asked: Verdict = {
    level: 'L1',
    findings: [finding('sandbox.denied', 'L1', redactValue(params))],
    bySession: false,
    alwaysConfirm: true,
    adjustments: [],
  };
  const decision = renderVerdict(asked, lang);
  const answer = await setup.ask({ id, step, verdict: asked, decision, sessionKey: `sandbox.retry ${id}` }, ctx.signal);
  if (answer.action !== 'run' && answer.action !== 'allow-session' && answer.action !== 'allow-rule') return result;
  const def = setup.judge.registry.get(step.tool ?? 'exec')!;
  const again = await def.execute(step, { ...ctx, sandbox: writable, decision: { ...decision, by: 'user' } });
  return { ...again, sandboxRetry: { after: box.denied, ...(box.path ? { path: box.path } : {}), level: 'L1' } } as ToolResult;
}

/** Judge, ask where needed (the user may edit the step, up to five times), execute. */
export async function runStep(id: string, step: Step, options: RunOptions, setup: RunSetup): Promise<ToolResult> {
  let current = step;
  for (let edits = 0; ; edits++) {
    const pass = await runOnce(id, current, options, setup);
    if ('done' in pass) return pass.done;
    if (edits + 1 >= MAX_EDITS) return stopped(id, pass.tool, 'declined', pass.decision, 'too many edits');
    current = pass.edited;
  }
}
