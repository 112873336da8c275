import type { Policy, Requires } from '../types';
import { finding, type Finding } from './finding';
import { builtinRegistry, type ToolRegistry } from '../registry';
import type { Touches } from '../registry/types';
import type { ClassifyOptions } from './classify';

/** The registry to judge with: the caller's, or the built-in tools. */
export function registryOf(registry?: ToolRegistry): ToolRegistry {
  return registry ?? builtinRegistry();
}

/** What {@link assess} looks at: where the step runs (cwd, home, the live facts the runner gathered) and the policy, normalised. No language. */
export interface AssessFacts extends Omit<ClassifyOptions, 'lang'> {
  policy: Policy;
}

/** Stage 1 of a judgement: the rules that fired for one step and what it touches, before any setting, rule, mode or allowance. */
export interface StepAssessment {
  findings: Finding[];
  touches: Touches;
}

const NO_TOUCHES: Touches = { read: [], write: [], network: [], exec: [] };

/** `requires` from the model raises the level, never lowers it. */
function requiresFindings(req: Requires | undefined, policy: Policy): Finding[] {
  if (!req || typeof req !== 'object') return [];
  const out: Finding[] = [];
  if (req.elevated === true) out.push(finding('requires.elevated', policy.allowSudo ? 'L1' : 'L2'));
  if (req.confirm === true) out.push(finding('requires.confirm', 'L1'));
  if (req.write === true && !policy.allowWrite) out.push(finding('requires.write', 'L1'));
  if (req.network === true && !policy.allowNetwork) out.push(finding('requires.network', 'L1'));
  return out;
}

/** The facts as a tool sees them: no language. */
function withoutLang(facts: AssessFacts & { lang?: unknown }): AssessFacts {
  const { lang: _lang, ...ctx } = facts;
  return ctx;
}

/**
 * Assess a step: pure. A step that fails its tool's schema is one L2 finding saying what was
 * expected; a valid one gets its tool's `assess` (with the facts) plus what its `requires` asks.
 * Nothing here lowers a level or renders a reason: that is {@link decide}'s and {@link render}'s.
 */
export function assess(step: unknown, facts: AssessFacts, registry?: ToolRegistry): StepAssessment {
  const reg = registryOf(registry);
  const checked = reg.validate(step);
  if (!checked.ok) return { findings: [finding('step.invalid', 'L2', { e: checked.error })], touches: NO_TOUCHES };
  const valid = checked.step;
  const ctx = 'lang' in facts ? withoutLang(facts) : facts;
  const assessed = reg.get(valid.tool ?? 'exec')!.assess(valid, ctx);
  return { findings: [...assessed.findings, ...requiresFindings(valid.requires, facts.policy)], touches: assessed.touches };
}
