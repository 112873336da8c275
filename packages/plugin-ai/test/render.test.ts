import { renderProgress } from '../src/cli/render';
import type { ToolResult } from '../src/agent/runner-types';
import { verdict } from './helpers/fake-runner';

const decision = {
  level: 'L2' as const,
  by: 'policy' as const,
  rules: [{ id: 'escalation', level: 'L2' as const, reason: 'sudo', hint: 'allowSudo' }],
};
const ran: ToolResult = {
  _event: 'tool_result',
  id: 'cmd_001',
  tool: 'exec',
  program: 'ls',
  args: [],
  exitCode: 0,
  durationMs: 5,
  decision: { ...decision, level: 'L0' },
};

test.each<[string, 'zh' | 'en', string]>([
  ['en', 'en', '  → exit 0 (5 ms)'],
  ['zh', 'zh', '  → 退出码 0 (5 ms)'],
])('tool result line (%s)', (_n, lang, expected) => {
  expect(renderProgress({ type: 'tool_result', result: ran }, lang)).toBe(expected);
});

test('blocked lines carry the rule and the hint', () => {
  const line = renderProgress(
    { type: 'tool_result', result: { _event: 'tool_result', id: 'cmd_002', tool: 'exec', status: 'blocked', decision } },
    'en',
  );
  expect(line).toBe('  → blocked — escalation: sudo (allowSudo)');
});

test('step lines show the level and the command', () => {
  expect(
    renderProgress(
      { type: 'step', id: 'cmd_001', step: { tool: 'exec', program: 'git', args: ['status'] }, verdict: verdict('L2', ['escalation']) },
      'zh',
    ),
  ).toBe('[L2] git status');
  expect(renderProgress({ type: 'text', delta: 'x' }, 'en')).toBeUndefined();
});
