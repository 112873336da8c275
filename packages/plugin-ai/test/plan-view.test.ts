import type { PlanItem } from '@holic512/tool-runner';
import { latestPlan, planOfResult } from '../src/agent/plan-state';
import { buildFrame } from '../src/interactive/live-frame';
import { planLines, planRows } from '../src/interactive/plan-line';
import { createTheme } from '../src/interactive/theme';
import { stringWidth } from '../src/interactive/width';

// The plan above the prompt of `ai -i` (issue #46): compact, cut to the width, zh and en; and how
// the agent finds a plan in a result or in what a session stored.

const theme = createTheme(false);
const plan = (n: number, current: number): PlanItem[] =>
  Array.from({ length: n }, (_, i) => ({
    step: `step ${i + 1}`,
    status: i < current ? 'done' : i === current ? 'in_progress' : 'pending',
  }));

test('each step on its line with its mark, under a head with the count', () => {
  expect(planLines(plan(3, 1), { columns: 80, rows: 24 }, theme, 'en')).toEqual(['Plan 1/3', '  ✓ step 1', '  ▸ step 2', '  ○ step 3']);
  expect(planLines(plan(3, 1), { columns: 80, rows: 24 }, theme, 'zh')[0]).toBe('计划 1/3');
  expect(planLines(undefined, { columns: 80, rows: 24 }, theme, 'en')).toEqual([]);
  expect(planLines([], { columns: 80, rows: 24 }, theme, 'en')).toEqual([]);
});

test('a finished plan is one line', () => {
  expect(planLines(plan(4, 4), { columns: 80, rows: 24 }, theme, 'en')).toEqual(['✓ Plan 4/4']);
});

test('a long plan shows a window around the step in progress and how many more', () => {
  expect(planRows(24)).toBe(6);
  const lines = planLines(plan(20, 10), { columns: 80, rows: 24 }, theme, 'en');
  expect(lines).toEqual(['Plan 10/20', '  ✓ step 10', '  ▸ step 11', '  ○ step 12', '  ○ step 13', '  ○ step 14', '  … +15 more']);
  expect(planLines(plan(20, 19), { columns: 80, rows: 24 }, theme, 'zh').at(-1)).toBe('  … 另有 15 项');
  expect(planLines(plan(20, 0), { columns: 80, rows: 24 }, theme, 'en')[1]).toBe('  ▸ step 1');
});

test('every line fits the width, CJK included', () => {
  const wide: PlanItem[] = [{ step: '把默认端口改成 8080 并更新所有引用它的配置文件和文档，然后运行测试', status: 'in_progress' }];
  for (const columns of [20, 33, 40]) {
    for (const line of planLines(wide, { columns, rows: 24 }, theme, 'zh')) expect(stringWidth(line)).toBeLessThanOrEqual(columns - 1);
  }
});

test('the frame puts the plan right above the rule over the prompt', () => {
  const view = {
    columns: 60,
    rows: 24,
    preview: '',
    queue: [],
    editor: { text: '', cursor: 0 },
    hints: [],
    status: 'status',
    plan: ['Plan 0/2', '  ▸ a', '  ○ b'],
  };
  const lines = buildFrame(view, theme, 'en').lines;
  expect(lines.indexOf('Plan 0/2')).toBeLessThan(lines.findIndex((l) => l.startsWith('─')));
  expect(lines.findIndex((l) => l.startsWith('─'))).toBe(lines.indexOf('  ○ b') + 1);
});

test('a result carries a plan only when it is one (checked by its schema); a stored session gives its latest', () => {
  const items = plan(2, 0);
  expect(planOfResult({ tool: 'plan.update', plan: items })).toEqual(items);
  expect(planOfResult({ tool: 'x', plan: [{ step: 'a', status: 'finished' }] })).toBeUndefined();
  expect(planOfResult({ tool: 'plan.update', status: 'blocked', plan: items })).toBeUndefined();
  expect(planOfResult({ tool: 'fs.read', content: 'plan' })).toBeUndefined();
  const first = JSON.stringify({ _event: 'tool_result', tool: 'plan.update', plan: plan(2, 0) });
  const pinned = JSON.stringify({ _event: 'pinned', tool: 'plan.update', result: { _event: 'tool_result', plan: plan(2, 1) } });
  expect(latestPlan([first, '{"plan": "no"}', 'not json "plan"'])).toEqual(plan(2, 0));
  expect(latestPlan([first, pinned])).toEqual(plan(2, 1));
  expect(latestPlan(['{}'])).toBeUndefined();
});
