import { redactValue } from './redact';
import { assessStep, classifyFindings, render, type ClassifyOptions } from './policy/classify';
import { finding, maxLevel, type Finding } from './policy/finding';
import type { ToolRegistry } from './registry';
import type { AnyToolDefinition, JudgeEnv, Touches } from './registry/types';
import type { ResolvedPath } from './workspace';
import type { Decision, Lang, Policy, RunMode, Step } from './types';
import { decideByRules, exactRuleFor, isRuleProblem, parseRule, type PermissionRule, type RuleProblem } from './permission-rules';

/** L1 rules a session allowance never silences: they are about this exact step, not its kind. */
export const NEVER_BY_SESSION = new Set([
  'secret.read', 'git.other_repo', 'wrapper.env_print', 'plugin.interactive',
  'fs.outside_write', 'fs.symlink_escape', 'fs.unread_overwrite', 'fs.stale_overwrite',
]);

/** The verdict on one (valid) step as the runner sees it. */
export interface Judgement {
  decision: Decision;
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
  lang: Lang;
  /** The base context of every judgement (cwd, home, SlothTool home). */
  base: ClassifyOptions;
  env: JudgeEnv;
  allowances: ReadonlySet<string>;
  /** The policy's permission rules, parsed. */
  rules: PermissionRule[];
  /** How much runs without a question (plan: only L0; auto-edit: workspace edits; yolo: every L1). */
  mode: RunMode;
}

/**
 * The mode's say, after the rules: `plan` refuses every step that is not read-only (the model is
 * told it plans), `auto-edit` lets fs.edit / fs.write inside the workspace through, `yolo` every L1
 * (the runner enters it only inside an OS sandbox). Never an L2 step, never a step that must ask
 * each time (an interactive plugin, a write outside the workspace, an unread overwrite).
 */
function applyMode(found: Finding[], mode: RunMode, tool: string, askEachTime: boolean): void {
  const level = maxLevel(found.map((f) => f.level));
  if (mode === 'plan') {
    if (level !== 'L0') found.push(finding('mode.plan', 'L2'));
    return;
  }
  if (level !== 'L1' || askEachTime) return;
  const byMode = mode === 'yolo' ? 'mode.yolo' : mode === 'auto-edit' && (tool === 'fs.edit' || tool === 'fs.write') ? 'mode.auto_edit' : undefined;
  if (!byMode) return;
  for (let i = 0; i < found.length; i++) if (found[i].level === 'L1') found[i] = { ...found[i], level: 'L0' };
  found.push(finding(byMode, 'L0'));
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

/** Judge a step that passed validation: its tool's assess with live facts, `requires`, the policy, the session's allowances. */
export function judgeValid(step: Step, setup: JudgeSetup): Judgement {
  const def = setup.registry.get(step.tool ?? 'exec')!;
  const ctx: ClassifyOptions = { ...setup.base, ...(def.judgeContext?.(step, setup.env) ?? {}) };
  const assessed = assessStep(step, setup.policy, ctx, setup.registry);
  const found: Finding[] = assessed.findings;
  const touches = assessed.touches ?? { read: [], write: [], network: [], exec: [] };
  const alwaysConfirm = def.alwaysConfirm?.(step, setup.env) ?? false;
  const key = def.approvalKey(step);
  const subject = def.permission.subject(step, { ...ctx, policy: setup.policy });
  const rule = setup.rules.length ? decideByRules(setup.rules, def.name, subject) : undefined;
  const sessionable = !found.some((f) => f.level === 'L1' && NEVER_BY_SESSION.has(f.id));
  if (rule?.effect === 'deny') found.push(finding('permission.deny', 'L2', { r: rule.text, f: rule.source }));
  else if (rule?.effect === 'ask') found.push(finding('permission.ask', 'L1', { r: rule.text, f: rule.source }));
  else if (rule?.effect === 'allow' && sessionable && maxLevel(found.map((f) => f.level)) === 'L1') {
    // An allow rule says yes ahead of time to what it names: L1 becomes L0, L2 stays refused.
    for (let i = 0; i < found.length; i++) if (found[i].level === 'L1') found[i] = { ...found[i], level: 'L0' };
    found.push(finding('permission.allow', 'L0', { r: rule.text, f: rule.source }));
  }
  const forced = rule?.effect === 'ask';
  applyMode(found, setup.mode, def.name, forced || alwaysConfirm || !sessionable);
  const level = maxLevel(found.map((f) => f.level));
  // Only an L1 step whose findings are about its kind (not this exact step) can be allowed by a rule.
  const exact = level === 'L1' && sessionable && !forced && !alwaysConfirm ? exactRuleFor(def.name, subject) : undefined;
  const common = { alwaysConfirm: alwaysConfirm || forced, def, key, touches, ...(ctx.fsTarget ? { fsTarget: ctx.fsTarget } : {}), ...(exact ? { rule: exact } : {}) };
  if (level === 'L1' && !alwaysConfirm && !forced && sessionable && setup.allowances.has(key)) {
    const lowered = found.map((f) => (f.level === 'L1' ? { ...f, level: 'L0' as const } : f));
    return { decision: redactValue(render([...lowered, finding('session.allowed', 'L0', { k: key })], setup.lang)), bySession: true, ...common };
  }
  // Reasons quote arguments; they reach the model, so they are redacted like output.
  return { decision: redactValue(render(found, setup.lang)), bySession: false, ...common };
}

/** The decision on a step that failed validation (blocked, saying what was expected). */
export function invalidDecision(step: unknown, setup: Pick<JudgeSetup, 'registry' | 'policy' | 'lang'>): Decision {
  return render(classifyFindings(step as Step, setup.policy, { lang: setup.lang }, setup.registry), setup.lang);
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
