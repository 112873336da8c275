/**
 * plan.update: the model's visible plan of a multi-step task (Claude Code's TodoWrite, Codex's
 * update_plan). No side effect (L0): the result carries the whole plan, which `ai -i` shows above
 * the prompt, `ai -p --json` sends as a `plan` event, and an agent folding its context keeps
 * (`pinned`: the latest result outlives every fold and a resumed session).
 */
import { z } from 'zod';
import { finding } from '../policy/finding';
import { toolInput, touches } from './common';
import { defineTool } from './define-tool';
import { lazy } from '../lazy';
import type { PlanItem, PlanUpdateStep } from '../tool-steps';

/** At most this many steps in a plan, each at most this long: a plan is a short list, not a document. */
export const MAX_PLAN_ITEMS = 30;
export const MAX_PLAN_STEP_CHARS = 200;

/** The plan's items (the one schema of a plan: the tool's input, and what reads one back from a result). */
export const planItemsSchema = lazy(() =>
  z
    .array(
      z.object({
        step: z
          .string()
          .refine((s) => s.trim() !== '', { message: 'step must not be empty' })
          .refine((s) => s.length <= MAX_PLAN_STEP_CHARS, { message: `step must be at most ${MAX_PLAN_STEP_CHARS} characters` }),
        status: z.enum(['pending', 'in_progress', 'done']),
      }),
    )
    .max(MAX_PLAN_ITEMS, { message: `a plan has at most ${MAX_PLAN_ITEMS} steps` }),
);

const input = () => toolInput({ items: planItemsSchema() });

const MARK: Record<PlanItem['status'], string> = { done: '[x]', in_progress: '[>]', pending: '[ ]' };

/** The plan in one line per step, `[x] done`, `[>] in progress`, `[ ] pending` (what a summary and a hook show). */
export function planText(items: readonly PlanItem[]): string {
  return items.map((i) => `${MARK[i.status]} ${i.step}`).join('\n');
}

/** `2/5 done`, and the step in progress. */
function progress(items: readonly PlanItem[]): string {
  const done = items.filter((i) => i.status === 'done').length;
  const now = items.find((i) => i.status === 'in_progress');
  return `${done}/${items.length} done${now ? `: ${now.step}` : ''}`;
}

/** Claude Code's TodoWrite statuses, and ours. */
const FROM_CLAUDE: Record<string, PlanItem['status']> = { pending: 'pending', in_progress: 'in_progress', completed: 'done' };

export const planUpdateTool = defineTool<PlanUpdateStep>({
  name: 'plan.update',
  description: {
    en: 'Set the plan of a multi-step task (the whole list each time, in order; one step in_progress at a time): the user sees it, and it stays in your context. Update it as steps finish.',
    zh: '设置多步骤任务的计划(每次给出完整列表，按顺序；同一时间只有一步为 in_progress):用户能看到它，它也会一直留在你的上下文中。每完成一步就更新。',
  },
  input,
  example: {
    items: [
      { step: 'Find where the port is read', status: 'done' },
      { step: 'Change it and run the tests', status: 'in_progress' },
    ],
  },
  kind: 'think',
  pinned: true,
  permission: { arg: 'words', subject: () => ({ kind: 'none' }) },
  assess: (s) => ({ findings: [finding('plan.update', 'L0', { n: String(s.items.length) })], touches: touches() }),
  approvalKey: () => 'plan.update',
  digest: (s) => (s.items.length ? `plan ${progress(s.items)}` : 'plan cleared'),
  summary: (s) => ({ title: 'plan.update', fields: [{ name: 'items', value: planText(s.items), text: true }] }),
  execute: async (s, ctx) => ({
    _event: 'tool_result',
    id: ctx.id,
    tool: 'plan.update' as const,
    plan: s.items,
    summary: s.items.length ? progress(s.items) : 'plan cleared',
    decision: ctx.decision,
  }),
  claude: {
    names: ['TodoWrite'],
    input: (s) => ({
      todos: s.items.map((i) => ({ content: i.step, status: i.status === 'done' ? 'completed' : i.status, activeForm: i.step })),
    }),
    fromInput: (c) => {
      if (!Array.isArray(c.todos)) return { error: 'todos must be a list of {content, status, activeForm}' };
      const items: PlanItem[] = [];
      for (const [i, raw] of c.todos.entries()) {
        const t = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
        const status = typeof t.status === 'string' ? FROM_CLAUDE[t.status] : undefined;
        if (typeof t.content !== 'string') return { error: `todos[${i}].content must be a string` };
        if (!status) return { error: `todos[${i}].status must be pending, in_progress or completed` };
        items.push({ step: t.content, status });
      }
      return { items };
    },
    response: (s) => ({
      newTodos: s.items.map((i) => ({ content: i.step, status: i.status === 'done' ? 'completed' : i.status, activeForm: i.step })),
    }),
  },
});
