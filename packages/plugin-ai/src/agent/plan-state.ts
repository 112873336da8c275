/**
 * The model's latest plan (issue #46): a step result that carries a plan (`plan`: the items, as
 * tool-runner's plan.update gives them) becomes the agent's plan, reported as a `plan` event (what
 * `ai -i` shows above the prompt and `ai -p --json` sends). A resumed session finds its latest plan
 * again in what it stored. No tool name is looked at: a result says it holds a plan by its `plan`,
 * checked with the plan's one schema.
 */
import type { PlanItem } from '@holic512/tool-runner';
import { emit, type AgentCore } from './agent-core';
import type { ToolResult } from './runner-types';

type PlanSchema = { safeParse(v: unknown): { success: true; data: PlanItem[] } | { success: false } };
const schema = (): PlanSchema => (require('@holic512/tool-runner') as { planItemsSchema(): PlanSchema }).planItemsSchema();

/** The plan a result carries, checked; undefined when it carries none (or a malformed one). */
export function planOfResult(result: Pick<ToolResult, 'status'> & Record<string, unknown>): PlanItem[] | undefined {
  if (!Array.isArray(result.plan) || result.status === 'error' || result.status === 'blocked' || result.status === 'declined')
    return undefined;
  const parsed = schema().safeParse(result.plan);
  return parsed.success ? parsed.data : undefined;
}

/** After a step: a result that carries a plan makes it the agent's plan, and says so (`plan` event). */
export function notePlan(core: AgentCore, result: ToolResult): void {
  const items = planOfResult(result as Pick<ToolResult, 'status'> & Record<string, unknown>);
  if (!items) return;
  core.plan = items;
  emit(core, { type: 'plan', items });
}

/** A stored text (a tool result, or a result stated again after a fold) as the plan it holds. */
function planInText(text: string): PlanItem[] | undefined {
  if (!text.includes('"plan"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // a result cut to its budget: not a plan to trust
  }
  const v = (value ?? {}) as Record<string, unknown>;
  const result = (v.result && typeof v.result === 'object' ? v.result : v) as Pick<ToolResult, 'status'> & Record<string, unknown>;
  return planOfResult(result);
}

/** The latest plan among stored texts, oldest first (a session's records as they were written). */
export function latestPlan(texts: Iterable<string>): PlanItem[] | undefined {
  let found: PlanItem[] | undefined;
  for (const text of texts) found = planInText(text) ?? found;
  return found;
}

/** After a session was resumed: its latest plan again, from what its file holds (undefined when it made none). */
export function restorePlan(core: AgentCore): void {
  const records = core.deps.store?.read(core.id).records ?? [];
  const texts = function* (): Generator<string> {
    for (const r of records as Array<Record<string, unknown>>) {
      for (const key of ['content', 'digest']) if (typeof r[key] === 'string') yield r[key] as string;
    }
  };
  core.plan = latestPlan(texts());
}
