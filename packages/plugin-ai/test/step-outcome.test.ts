import { compactToolResult } from '../src/context/fit';
import { formatResult } from '../src/interactive/format';
import { createTheme } from '../src/interactive/theme';
import { renderProgress } from '../src/cli/render';
import type { ToolResult } from '../src/agent/runner-types';
import { stepOutcome, type StepOutcome } from '../src/agent/step-outcome';

// What happened to a step is one word, the same in the window, the session file and the audit.
const decision = {
  level: 'L0' as const,
  rules: [{ id: 'exec.readonly', level: 'L0' as const, reason: 'read-only program' }],
  by: 'policy' as const,
};
const base = { _event: 'tool_result' as const, id: 'cmd_001', tool: 'exec', program: 'touch', args: ['a'], decision };

test.each<[string, Record<string, unknown>, StepOutcome]>([
  ['exit 0', { exitCode: 0 }, 'ran'],
  ['exit 1 still ran', { exitCode: 1 }, 'ran'],
  ['a patch that did not apply', { status: 'error', error: { message: 'x' } }, 'failed'],
  ['the person said no', { status: 'declined', reason: 'declined by the user' }, 'declined'],
  ['skipped after a stop', { status: 'declined', notRun: 'after_stop' }, 'not_run'],
  ['a PreToolUse hook stopped it', { status: 'blocked', blockedBy: 'hook', hookReason: 'no' }, 'blocked_by_hook'],
  ['the runner refused it (L2)', { status: 'blocked', decision: { ...decision, level: 'L2' } }, 'refused'],
  [
    'the sandbox stopped a write',
    { exitCode: 1, sandbox: { kind: 'bwrap', level: 'L0', network: false, denied: 'write', line: 'touch: Read-only file system' } },
    'sandbox_stopped',
  ],
])('%s (%j) → %s, in the compact record too', (_name, fields, outcome) => {
  const result = { ...base, ...fields } as unknown as ToolResult;
  expect(stepOutcome(result)).toBe(outcome);
  expect(JSON.parse(compactToolResult(result))).toMatchObject({ id: 'cmd_001', step: 'touch a', outcome });
});

test.each([
  ['en', 'blocked by a PreToolUse hook (not run) — no new files'],
  ['zh', '被 PreToolUse 钩子拦截(未执行) — no new files'],
] as const)('a hook-blocked step is shown as the hook blocking it, not as the L0 policy refusing it (%s)', (lang, text) => {
  const result = {
    ...base,
    status: 'blocked',
    blockedBy: 'hook',
    hookReason: 'no new files',
    reason: 'blocked by a PreToolUse hook: no new files',
  } as ToolResult;
  const screen = formatResult(result, '', createTheme(false), lang, 'ai.json');
  expect(screen).toEqual([`  ⎿ ${text}`]);
  expect(renderProgress({ type: 'tool_result', result }, lang)).toBe(`  → ${text}`);
});
