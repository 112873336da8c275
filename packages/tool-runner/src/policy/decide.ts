import { decideByRules, exactRuleFor, type PermissionRule, type PermissionSubject } from '../permission-rules';
import type { Level, Policy, RunMode } from '../types';
import { finding, type Finding } from './finding';

/** L1 rules a session allowance (or an allow rule, or a mode) never silences: they are about this exact step, not its kind. */
export const NEVER_BY_SESSION = new Set([
  'secret.read',
  'git.other_repo',
  'wrapper.env_print',
  'plugin.interactive',
  'fs.outside_write',
  'fs.symlink_escape',
  'fs.unread_overwrite',
  'fs.stale_overwrite',
  // What a command sends and where it writes outside the workspace: about this exact step (effects.ts).
  'upload.file',
  'upload.env',
  'write.outside',
  // Which local service a command talks to (engine-sockets.ts): about this exact socket.
  'socket.local',
]);

/** What decides a step beyond its findings. Every field is optional: {@link classify} passes only the policy. */
export interface DecideOptions {
  /** The policy, normalised: allowNetwork / allowWrite lower L1 findings of their category. */
  policy?: Policy;
  /** The policy's permission rules, parsed (deny > ask > allow). */
  rules?: readonly PermissionRule[];
  /** How much runs without a question; default `default`. */
  mode?: RunMode;
  /** Approval keys the user allowed for this session. */
  allowances?: ReadonlySet<string>;
  /** The step's tool (for rules and modes). */
  tool?: string;
  /** The step's approval key (what an allowance names). */
  key?: string;
  /** The step's input as permission rules read it. */
  subject?: PermissionSubject;
  /** The tool asks each time whatever the session allowed (interactive plugins). */
  alwaysConfirm?: boolean;
}

/** What changed the level the findings alone would give. */
export interface Adjustment {
  by: 'policy' | 'rule' | 'mode' | 'session';
  /** The finding that says so (`policy.lowered`, `permission.deny`, `mode.plan`, `session.allowed`, …). */
  id: string;
  to: Level;
}

/** Stage 2 of a judgement: the decision, with no language. {@link render} words it. */
export interface Verdict {
  level: Level;
  /** Every finding, with the levels they have after the settings, rules, mode and allowances, and the findings those added. */
  findings: Finding[];
  /** An 'allow for this session' answer lowered it to L0. */
  bySession: boolean;
  /** Ask even when the session allows the key (an interactive plugin, an ask rule). */
  alwaysConfirm: boolean;
  /** The exact permission rule that would allow this step from now on, when it can be said and may be given. */
  rule?: string;
  /** What raised or lowered it, in order: a policy setting, a permission rule, the mode, an allowance. */
  adjustments: Adjustment[];
}

/** The strictest level of some findings (L0 for none), without an array of their levels. */
function strictest(found: readonly Finding[]): Level {
  let level: Level = 'L0';
  for (const f of found) {
    if (f.level === 'L2') return 'L2';
    if (f.level === 'L1') level = 'L1';
  }
  return level;
}

const lowerL1 = (found: Finding[]): Finding[] => found.map((f) => (f.level === 'L1' ? { ...f, level: 'L0' as const } : f));

/** Lower L1 findings whose every category the policy allows; add a finding saying so. */
function applyPolicy(found: Finding[], policy: Policy, adjustments: Adjustment[]): Finding[] {
  if (!policy.allowNetwork && !policy.allowWrite) return found;
  const out: Finding[] = [];
  for (const f of found) {
    const cats = f.cat ?? [];
    const allowed = f.level === 'L1' && cats.length > 0 && cats.every((c) => (c === 'network' ? policy.allowNetwork : policy.allowWrite));
    if (!allowed) {
      out.push(f);
      continue;
    }
    out.push({ ...f, level: 'L0' });
    const setting = cats.map((c) => (c === 'network' ? 'allowNetwork' : 'allowWrite')).join(' + ');
    out.push(finding('policy.lowered', 'L0', { setting }));
    adjustments.push({ by: 'policy', id: 'policy.lowered', to: 'L0' });
  }
  return out;
}

/** A permission rule's say: deny adds an L2, ask an L1, allow lowers L1 to L0 (never an L2, never a finding about this exact step). */
function applyRule(found: Finding[], rule: PermissionRule | undefined, sessionable: boolean, adjustments: Adjustment[]): Finding[] {
  if (!rule) return found;
  const params = { r: rule.text, f: rule.source };
  if (rule.effect === 'deny') {
    adjustments.push({ by: 'rule', id: 'permission.deny', to: 'L2' });
    return [...found, finding('permission.deny', 'L2', params)];
  }
  if (rule.effect === 'ask') {
    adjustments.push({ by: 'rule', id: 'permission.ask', to: 'L1' });
    return [...found, finding('permission.ask', 'L1', params)];
  }
  if (!sessionable || strictest(found) !== 'L1') return found;
  adjustments.push({ by: 'rule', id: 'permission.allow', to: 'L0' });
  return [...lowerL1(found), finding('permission.allow', 'L0', params)];
}

/**
 * The mode's say, after the rules: `plan` refuses every step that is not read-only (the model is
 * told it plans), `auto-edit` lets fs.edit / fs.write inside the workspace through, `yolo` every L1
 * (the runner enters it only inside an OS sandbox). Never an L2 step, never a step that must ask
 * each time (an interactive plugin, a write outside the workspace, an unread overwrite).
 */
function applyMode(found: Finding[], mode: RunMode, tool: string | undefined, askEachTime: boolean, adjustments: Adjustment[]): Finding[] {
  const level = strictest(found);
  if (mode === 'plan') {
    if (level === 'L0') return found;
    adjustments.push({ by: 'mode', id: 'mode.plan', to: 'L2' });
    return [...found, finding('mode.plan', 'L2')];
  }
  if (level !== 'L1' || askEachTime) return found;
  const byMode =
    mode === 'yolo' ? 'mode.yolo' : mode === 'auto-edit' && (tool === 'fs.edit' || tool === 'fs.write') ? 'mode.auto_edit' : undefined;
  if (!byMode) return found;
  adjustments.push({ by: 'mode', id: byMode, to: 'L0' });
  return [...lowerL1(found), finding(byMode, 'L0')];
}

/**
 * Decide a step from its findings: pure, no language. In order: the policy's settings lower L1
 * findings of their category, a permission rule (deny > ask > allow), the mode, and last the
 * session's allowances. The strictest finding decides the level.
 */
export function decide(findings: readonly Finding[], options: DecideOptions = {}): Verdict {
  const adjustments: Adjustment[] = [];
  let found = applyPolicy([...findings], options.policy ?? {}, adjustments);
  const rule =
    options.rules?.length && options.tool !== undefined && options.subject
      ? decideByRules(options.rules, options.tool, options.subject)
      : undefined;
  const sessionable = !found.some((f) => f.level === 'L1' && NEVER_BY_SESSION.has(f.id));
  found = applyRule(found, rule, sessionable, adjustments);
  const forced = rule?.effect === 'ask';
  const alwaysConfirm = options.alwaysConfirm === true;
  found = applyMode(found, options.mode ?? 'default', options.tool, forced || alwaysConfirm || !sessionable, adjustments);
  const level = strictest(found);
  const askable = level === 'L1' && sessionable && !forced && !alwaysConfirm;
  // Only an L1 step whose findings are about its kind (not this exact step) can be allowed by a rule.
  const exact = askable && options.tool !== undefined && options.subject ? exactRuleFor(options.tool, options.subject) : undefined;
  let verdict: Verdict;
  if (askable && options.key !== undefined && options.allowances?.has(options.key)) {
    adjustments.push({ by: 'session', id: 'session.allowed', to: 'L0' });
    verdict = {
      level: 'L0',
      findings: [...lowerL1(found), finding('session.allowed', 'L0', { k: options.key })],
      bySession: true,
      adjustments,
      alwaysConfirm: alwaysConfirm || forced,
    };
  } else verdict = { level, findings: found, bySession: false, adjustments, alwaysConfirm: alwaysConfirm || forced };
  // Assigned, not spread in: a spread that adds keys is a slow copy on every judgement.
  if (exact) verdict.rule = exact;
  return verdict;
}
