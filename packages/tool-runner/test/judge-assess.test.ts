import { assess, type AssessFacts } from '../src/policy/assess';
import { createToolRegistry } from '../src/registry';
import { finding } from '../src/policy/finding';
import type { Step } from '../src/types';
import type { ToolResult } from '../src';

// assess(step, facts) → {findings, touches}: the tool's rules and what `requires` asks, before
// any setting, rule, mode or allowance. Each row: the step, the policy, then `level id` of each
// finding and the programs it runs.

const facts = (policy: AssessFacts['policy'] = {}): AssessFacts => ({ cwd: '/work/proj', home: '/home/u', policy });

type Row = [string, unknown, AssessFacts['policy'], string[], string[]];

const ROWS: Row[] = [
  ['a read-only command', { tool: 'exec', program: 'ls', args: ['-la'] }, {}, ['L0 read.only'], ['ls']],
  [
    'a command that writes: the finding, not yet lowered by allowWrite',
    { tool: 'exec', program: 'touch', args: ['a'] },
    { allowWrite: true },
    ['L1 write.file'],
    ['touch'],
  ],
  [
    'requires.network raises',
    { tool: 'exec', program: 'ls', args: [], requires: { network: true } },
    {},
    ['L0 read.only', 'L1 requires.network'],
    ['ls'],
  ],
  [
    'requires.network is already allowed by the policy',
    { tool: 'exec', program: 'ls', args: [], requires: { network: true } },
    { allowNetwork: true },
    ['L0 read.only'],
    ['ls'],
  ],
  [
    'requires.elevated: L2, L1 with allowSudo',
    { tool: 'exec', program: 'ls', args: [], requires: { elevated: true } },
    { allowSudo: true },
    ['L0 read.only', 'L1 requires.elevated'],
    ['ls'],
  ],
  ['an invalid step: one L2 saying what was wrong', { tool: 'exec', program: 3 }, {}, ['L2 step.invalid'], []],
  ['an unknown tool', { tool: 'nope' }, {}, ['L2 step.invalid'], []],
];

test.each(ROWS)('%s', (_name, step, policy, ids, exec) => {
  const a = assess(step, facts(policy));
  expect(a.findings.map((f) => `${f.level} ${f.id}`)).toEqual(ids);
  expect(a.touches.exec).toEqual(exec);
});

test("a tool's assess gets the facts without a language", () => {
  const seen: unknown[] = [];
  const registry = createToolRegistry([
    {
      name: 'probe.look',
      description: { zh: '看', en: 'look' },
      input: require('zod').z.object({}),
      example: {},
      permission: { arg: 'name', subject: () => ({ kind: 'none' }) },
      assess: (_input: unknown, ctx: unknown) => (
        seen.push(ctx),
        { findings: [finding('probe.seen', 'L1')], touches: { read: [], write: [], network: [], exec: [] } }
      ),
      approvalKey: () => 'probe.look',
      digest: () => 'look',
      execute: async () =>
        ({
          _event: 'tool_result',
          id: 'x',
          tool: 'probe.look',
          status: 'blocked',
          decision: { level: 'L1', by: 'policy', rules: [] },
        }) as ToolResult,
    },
  ]);
  const a = assess({ tool: 'probe.look' } as unknown as Step, { ...facts({ allowWrite: true }), lang: 'en' } as AssessFacts, registry);
  expect(a.findings).toEqual([finding('probe.seen', 'L1')]);
  expect(seen).toEqual([{ cwd: '/work/proj', home: '/home/u', policy: { allowWrite: true } }]);
});
