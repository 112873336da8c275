import { at, emit, writeFailure, type AgentConfirmAnswer, type AgentConfirmFn, type AgentCore } from './agent-core';
import type { Step } from '../context/protocol';
import type { ConfirmAnswer, ConfirmRequest, StepRunner } from './runner-types';
import { answered, awaiting, type EndedStep, type HookSays } from './step';
import { log, queueWrite } from './agent-session';
import { t } from '../i18n';
import { sessionLine, type AuditEntry } from '../sessions/sessions';
import { appendPrivate } from '@holic512/shared/lib/private-files';
import { stepSummary } from './step-label';
import { stepOutcome } from './step-outcome';
import { checkApproved } from './checks-run';
import { turnAllows } from '../extensions/command-allow';
import { createHash } from 'crypto';

const declineAll: AgentConfirmFn = async () => ({ action: 'decline', reason: 'no confirm callback' });

/** The confirm callback the step runner gets: asks deps.confirm (declines without one) and
 * reports both sides as events. The step asked about (the running turn's, by the request's id)
 * moves to awaiting_approval and, with the answer, on (step.ts): its object carries the answer to
 * its audit line. The question carries the step's summary from the agent's own registry (where
 * MCP tools are), so it shows what will happen, not only a tool's name. */
export async function confirmBridge(core: AgentCore, asked: ConfirmRequest): Promise<ConfirmAnswer> {
  const turn = core.turn;
  const live = turn?.live.get(asked.id);
  const waiting = live ? awaiting(live, asked) : undefined;
  // Answered ahead of time: no question is shown; the audit line says who answered.
  const early = preApproved(core, live?.hook, asked);
  if (early) {
    if (waiting) turn!.live.set(asked.id, answered(waiting, early));
    return early;
  }
  if (waiting) turn!.live.set(asked.id, waiting);
  const request: ConfirmRequest = asked.summary ? asked : { ...asked, summary: stepSummary(asked.step, toolsOf(core)) };
  emit(core, { type: 'confirm', request });
  const answer = await askWithTimeout(core, request);
  const now = turn?.live.get(asked.id);
  if (now?.status === 'awaiting_approval') turn!.live.set(asked.id, answered(now, answer));
  emit(core, { type: 'confirm_answer', id: request.id, answer });
  return answer;
}

/**
 * A question answered ahead of time: by a PreToolUse hook's `allow` for that step, or by the
 * turn's own allowances (a custom command's `allowed-tools`) when they name the step's exact rule.
 * Never when a permission rule asks about the step (that question is the user's to answer); L2
 * steps never reach a question at all.
 */
function preApproved(core: AgentCore, hook: HookSays | undefined, request: ConfirmRequest): AgentConfirmAnswer | undefined {
  if (request.verdict.findings.some((f) => f.id === 'permission.ask')) return undefined;
  if (hook === 'allow') return { action: 'run', approvedBy: 'hook' };
  // A check after edits the user let run earlier this session: asked once (agent/checks-run.ts).
  if (checkApproved(core)) return { action: 'run', approvedBy: 'user' };
  const allow = core.turn?.allow;
  if (allow?.length && request.rule) {
    if (turnAllows(allow, request.rule)) return { action: 'run', approvedBy: 'command' };
  }
  return undefined;
}

/**
 * The question, withdrawn after `confirmTimeoutSec` (ai.json; off by default): the step is then
 * declined and the model told why, so an unattended session does not wait forever.
 */
async function askWithTimeout(core: AgentCore, request: ConfirmRequest): Promise<AgentConfirmAnswer> {
  const confirm = core.deps.confirm ?? declineAll;
  const seconds = core.options.config.confirmTimeoutSec;
  if (!seconds) return confirm(request);
  const withdraw = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<AgentConfirmAnswer>((resolve) => {
    timer = setTimeout(() => {
      withdraw.abort();
      resolve({ action: 'decline', reason: t(core.options.lang, 'confirmTimedOut', { s: seconds }) });
    }, seconds * 1000);
  });
  try {
    return await Promise.race([confirm(request, { signal: withdraw.signal }), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** One audit line for a judged step: who approved it (its own answer) and how it ended. */
export function audit(core: AgentCore, s: EndedStep): void {
  const file = core.deps.auditFile;
  if (!file) return;
  const { id, step, result, approval } = s;
  let approvedBy: AuditEntry['approvedBy'] = 'none';
  if (result.status !== 'blocked' && result.status !== 'declined') {
    if (approval && approval.answer !== 'decline') approvedBy = approval.by;
    else approvedBy = result.decision.by === 'user' ? 'user' : 'policy';
  }
  // What happened, as the window and the session say it (step-outcome.ts), with the exit code of a step that ran.
  const happened = stepOutcome(result);
  const exit = result.exitCode !== undefined ? `exit ${String(result.exitCode)}` : 'ran';
  const outcome =
    happened === 'blocked_by_hook' ? happened : happened === 'sandbox_stopped' ? `${exit} (${happened})` : (result.status ?? exit);
  if (core.unwritable.has(file)) return;
  const entry: AuditEntry = {
    at: at(core),
    sessionId: core.id,
    id,
    step: auditStep(step),
    level: result.decision.level,
    rules: result.decision.rules.map((r) => r.id),
    reasons: result.decision.rules.map((r) => r.reason),
    approvedBy,
    answer: approval?.answer,
    outcome,
  };
  // Queued with the session's lines (agent-session queueWrite). A full disk must not stop the
  // steps the user approved: said once, then left alone.
  queueWrite(core, {
    file,
    line: () => sessionLine(entry),
    append: (text) => appendPrivate(file, text),
    failed: (err) =>
      emit(core, {
        type: 'log',
        code: 'audit_not_saved',
        message: t(core.options.lang, 'auditNotSaved', { reason: writeFailure(err), file }),
      }),
  });
}

/** Fields that carry file contents: the audit log records their size and hash, never the text. */
const CONTENT_FIELDS = ['content', 'old_string', 'new_string'];

/** Content fields of an object as `{chars, sha256}`; the other fields as they are. */
function hashContents(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const key of CONTENT_FIELDS) {
    const v = out[key];
    if (typeof v === 'string') out[key] = { chars: v.length, sha256: createHash('sha256').update(v).digest('hex') };
  }
  return out;
}

/** What ran, for the audit log: contents as `{chars, sha256}`, a multi-edit's each (sessionLine passes the rest through the redaction gate). */
function auditStep(step: Step): Step {
  const out = hashContents(step as unknown as Record<string, unknown>);
  if (Array.isArray(out.edits))
    out.edits = out.edits.map((e: unknown) => (e && typeof e === 'object' ? hashContents(e as Record<string, unknown>) : e));
  return out as unknown as Step;
}

/** The step runner, built on first use with the agent's confirm bridge. */
export function getRunner(core: AgentCore): StepRunner {
  if (!core.runner) {
    core.runner = core.deps.createRunner((request) => confirmBridge(core, request));
    if (core.runMode !== 'default') core.runner.setMode?.(core.runMode);
    for (const p of core.runner.ruleProblems ?? [])
      log(core, 'permission_rule_ignored', t(core.options.lang, 'permissionRuleIgnored', { rule: p.text, file: p.source, error: p.error }));
  }
  return core.runner;
}

/** The tools replies are parsed against: the agent's own registry, else the runner's. */
export function toolsOf(core: AgentCore): StepRunner['tools'] {
  return core.deps.tools ?? getRunner(core).tools;
}

/** A missing or weakened OS sandbox is said once, before the first step runs (never silently);
 * a turn that only talks never probes for it. */
export function noteSandbox(core: AgentCore): void {
  if (core.sandboxNoted) return;
  core.sandboxNoted = true;
  const status = getRunner(core).sandboxStatus?.();
  const lang = core.options.lang;
  if (status && status.kind === 'none' && status.mode !== 'off')
    log(core, 'sandbox_unavailable', t(lang, 'sandboxUnavailable', { reason: status.reason ?? '?' }));
  else if (status?.degraded?.length) {
    const key = {
      capabilities: 'sandboxDegradedCapabilities',
      no_new_privs: 'sandboxDegradedNoNewPrivs',
      seccomp: 'sandboxDegradedSeccomp',
    } as const;
    const what = status.degraded.map((d) => t(lang, key[d.what], { why: d.why })).join(lang === 'zh' ? '；' : '; ');
    log(core, 'sandbox_degraded', t(lang, 'sandboxDegraded', { what }));
  }
}
