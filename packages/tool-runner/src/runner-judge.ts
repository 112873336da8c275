import { redactValue } from './redact';
import type { ClassifyOptions } from './policy/classify';
import { assess } from './policy/assess';
import { decide, type Verdict } from './policy/decide';
import type { Finding } from './policy/finding';
import type { ToolRegistry } from './registry';
import type { AnyToolDefinition, JudgeEnv, Touches } from './registry/types';
import type { ResolvedPath } from './workspace';
import type { Lang, Policy, RunMode, Step } from './types';
import { isRuleProblem, parseRule, type PermissionRule, type RuleProblem } from './permission-rules';

/** The verdict on one (valid) step as the runner sees it: no language; each edge that shows it renders it (render-verdict.ts). */
export interface Judgement {
  /** The decision, without language, its findings' params already redacted: what the runner acts on, returns and records. */
  verdict: Verdict;
  /** The step was lowered to L0 by an 'allow for this session' answer. */
  bySession: boolean;
  /** Ask even when the session allows the key (interactive plugins). */
  alwaysConfirm: boolean;
  /** The definition of the step's tool. */
  def: AnyToolDefinition;
  /** What 'allow for this session' would allow. */
  key: string;
  touches: Touches;
  /** fs.edit / fs.write: the target as resolved when judged. */
  fsTarget?: ResolvedPath;
  /** The exact permission rule that would allow this step from now on, when it can be said and may be given. */
  rule?: string;
}

/** What judging needs from the runner: fixed for its life, except the allowances. */
export interface JudgeSetup {
  registry: ToolRegistry;
  policy: Policy;
  /** The language of the runner's own edges (its tool_result, `judge()`, the question it asks); never read while judging. */
  lang: Lang;
  /** The base context of every judgement (cwd, home, SlothTool home). */
  base: ClassifyOptions;
  env: JudgeEnv;
  allowances: ReadonlySet<string>;
  /** The policy's permission rules, parsed. */
  rules: PermissionRule[];
  /** How much runs without a question (plan: only L0; auto-edit: workspace edits; yolo: every L1). */
  mode: RunMode;
  /** What the question of a sandboxed L1 step says of a weakened or missing OS sandbox (sandbox/notes.ts). */
  sandboxFindings?: () => readonly Finding[];
}

/** Parse the policy's permission rules for a registry; malformed ones are returned apart (never silently dropped). */
export function permissionRules(policy: Policy, registry: ToolRegistry): { rules: PermissionRule[]; problems: RuleProblem[] } {
  const rules: PermissionRule[] = [];
  const problems: RuleProblem[] = [];
  const argKind = (tool: string) => registry.get(tool)?.permission.arg ?? 'words';
  const sets = [{ ...policy.permissions, source: policy.permissions?.source ?? 'ai.json' }, ...(policy.extraPermissions ?? [])];
  for (const set of sets) {
    for (const effect of ['deny', 'ask', 'allow'] as const) {
      for (const text of set[effect] ?? []) {
        const r = parseRule(text, effect, set.source, argKind);
        if (isRuleProblem(r)) problems.push(r);
        else rules.push(r);
      }
    }
  }
  return { rules, problems };
}

/**
 * The verdict with every finding's params (the step's words a reason quotes) through the
 * redaction gate: whichever edge renders it, in whatever language, words only redacted
 * arguments. The edges redact what they render once more (renderVerdict).
 */
function redactedParams(verdict: Verdict): Verdict {
  return { ...verdict, findings: verdict.findings.map((f) => (f.params ? { ...f, params: redactValue(f.params) } : f)) };
}

/**
 * Judge a step that passed validation, in one direction: the live facts (the tool's
 * judgeContext), {@link assess} (its rules and `requires`), {@link decide} (the policy's
 * settings, the permission rules, the mode, the session's allowances). Nothing is rendered
 * here: the verdict has no language; the edge that shows it renders it (renderVerdict).
 */
export function judgeValid(step: Step, setup: JudgeSetup): Judgement {
  const def = setup.registry.get(step.tool ?? 'exec')!;
  // Object.assign, not spreads that add keys (a slow copy on every judgement).
  const ctx: ClassifyOptions = Object.assign({}, setup.base, def.judgeContext?.(step, setup.env));
  const facts = Object.assign({}, ctx, { policy: setup.policy });
  const key = def.approvalKey(step);
  const assessed = assess(step, facts, setup.registry);
  const verdict = decide(assessed.findings, {
    policy: setup.policy,
    rules: setup.rules,
    mode: setup.mode,
    allowances: setup.allowances,
    tool: def.name,
    key,
    subject: def.permission.subject(step, facts),
    alwaysConfirm: def.alwaysConfirm?.(step, setup.env) ?? false,
  });
  // An L1 step that runs in the OS sandbox: its question says when that sandbox is weakened or missing.
  const notes = def.sandboxed && verdict.level === 'L1' ? (setup.sandboxFindings?.() ?? []) : [];
  return {
    verdict: redactedParams(notes.length ? { ...verdict, findings: [...verdict.findings, ...notes] } : verdict),
    bySession: verdict.bySession,
    alwaysConfirm: verdict.alwaysConfirm,
    def,
    key,
    touches: assessed.touches,
    ...(ctx.fsTarget ? { fsTarget: ctx.fsTarget } : {}),
    ...(verdict.rule ? { rule: verdict.rule } : {}),
  };
}

/** The verdict on a step that failed validation (blocked, saying what was expected), its params redacted like every verdict the runner gives. */
export function invalidVerdict(step: unknown, setup: Pick<JudgeSetup, 'registry' | 'policy'>): Verdict {
  return redactedParams(decide(assess(step, { policy: setup.policy }, setup.registry).findings, { policy: setup.policy }));
}

/**
 * The judgement `judge()` made of a step, for `run()` of that same step object (plugin-ai judges
 * a step to show it, then runs it): kept only until the event loop turns. Whatever could change
 * a judgement in between (an answer, a mode, a rule, a hook's process, a file written elsewhere)
 * comes with a turn of the loop or a call that drops it (`setMode`); `take` forgets it, so an
 * answer given while the step runs (an allowance, a rule) never meets a kept judgement.
 */
export function judgementMemo(): {
  keep(raw: unknown, step: Step, judged: Judgement): void;
  take(raw: unknown): { step: Step; judged: Judgement } | undefined;
  drop(): void;
} {
  let recent: { raw: unknown; step: Step; judged: Judgement } | undefined;
  let dropScheduled = false;
  return {
    keep(raw, step, judged) {
      recent = { raw, step, judged };
      if (dropScheduled) return;
      dropScheduled = true;
      setImmediate(() => {
        dropScheduled = false;
        recent = undefined;
      });
    },
    take(raw) {
      const r = recent?.raw === raw ? recent : undefined;
      recent = undefined;
      return r;
    },
    drop() {
      recent = undefined;
    },
  };
}
