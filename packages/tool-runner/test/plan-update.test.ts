import type { PlanItem } from '../src';
import {
  claudeToolFields,
  createToolRunner,
  getTool,
  MAX_PLAN_ITEMS,
  MAX_PLAN_STEP_CHARS,
  planText,
  stepFromClaude,
  tools,
  validateStep,
  verdictOf,
} from '../src';

// plan.update (issue #46): the model's visible plan. L0, no side effect, the whole plan in its
// result; capped; Claude Code's TodoWrite both ways, so hooks and rules see TodoWrite.

const items: PlanItem[] = [
  { step: 'Read the config loader', status: 'done' },
  { step: 'Change the default port', status: 'in_progress' },
  { step: 'Run the tests', status: 'pending' },
];

test('a plan is L0 and runs without a question, in plan mode too; its result carries the whole plan', async () => {
  expect(verdictOf({ tool: 'plan.update', items }).level).toBe('L0');
  const asked: unknown[] = [];
  const runner = createToolRunner({ cwd: process.cwd(), lang: 'en', confirm: async (r) => (asked.push(r), { action: 'decline' }) });
  runner.setMode('plan');
  const r = await runner.run({ tool: 'plan.update', items } as never);
  expect(r).toMatchObject({ tool: 'plan.update', plan: items, summary: '1/3 done: Change the default port', decision: { level: 'L0' } });
  expect(asked).toEqual([]);
  expect(await runner.run({ tool: 'plan.update', items: [] } as never)).toMatchObject({ plan: [], summary: 'plan cleared' });
  runner.dispose();
  expect(getTool('plan.update')!.pinned).toBe(true);
  expect(getTool('plan.update')!.digest({ tool: 'plan.update', items } as never)).toBe('plan 1/3 done: Change the default port');
});

test.each<[string, unknown, RegExp]>([
  ['too many steps', Array.from({ length: MAX_PLAN_ITEMS + 1 }, (_, i) => ({ step: `s${i}`, status: 'pending' })), /at most 30 steps/],
  ['a step too long', [{ step: 'x'.repeat(MAX_PLAN_STEP_CHARS + 1), status: 'pending' }], /at most 200 characters/],
  ['an empty step', [{ step: '  ', status: 'pending' }], /step must not be empty/],
  ['an unknown status', [{ step: 'a', status: 'completed' }], /items\.0\.status/],
  ['no items', undefined, /items/],
])('the schema refuses %s', (_name, list, why) => {
  expect(validateStep({ tool: 'plan.update', ...(list === undefined ? {} : { items: list }) })).toMatch(why);
});

test("Claude Code's TodoWrite: a hook reads its todos; its input becomes our plan", () => {
  expect(claudeToolFields(getTool('plan.update'), { tool: 'plan.update', items }, { cwd: '/w' })).toEqual({
    tool_name: 'TodoWrite',
    tool_input: {
      todos: [
        { content: 'Read the config loader', status: 'completed', activeForm: 'Read the config loader' },
        { content: 'Change the default port', status: 'in_progress', activeForm: 'Change the default port' },
        { content: 'Run the tests', status: 'pending', activeForm: 'Run the tests' },
      ],
    },
  });
  const todos = [
    { content: 'a', status: 'completed', activeForm: 'Doing a' },
    { content: 'b', status: 'pending', activeForm: 'Doing b' },
  ];
  expect(stepFromClaude('TodoWrite', { todos }, tools)).toEqual({
    step: {
      tool: 'plan.update',
      items: [
        { step: 'a', status: 'done' },
        { step: 'b', status: 'pending' },
      ],
    },
  });
  expect(stepFromClaude('TodoWrite', { todos: [{ content: 'a', status: 'finished' }] }, tools)).toEqual({
    error: 'todos[0].status must be pending, in_progress or completed',
  });
  expect(stepFromClaude('TodoWrite', { todos: 'a' }, tools)).toEqual({ error: expect.stringContaining('todos must be a list') });
});

test('planText marks each step', () => {
  expect(planText(items as never)).toBe('[x] Read the config loader\n[>] Change the default port\n[ ] Run the tests');
});
