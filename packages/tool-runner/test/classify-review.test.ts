import { classify, redact } from '../src';
import { runExec } from '../src/tools/exec-tool';
import type { ExecResult } from '../src/exec';
import { verdictRows, type VerdictGroup } from './verdict-table';

// Review findings on the classifier: credentials printed by npm are secret reads; reading a
// crontab is not a system change.

const judge = (line: string) => {
  const [program, ...args] = line.split(' ');
  const d = classify({ tool: 'exec', program, args }, {}, { cwd: '/work/proj', home: '/home/u', lang: 'en' });
  return [d.level, d.rules.map((r) => r.id)];
};

// Command lines by the verdict they must get: the level, and the rule among the reasons.
const verdicts: VerdictGroup[] = [
  [
    'L1',
    'secret.read',
    [
      'npm config get //registry.npmjs.org/:_authToken',
      'npm config get _auth',
      'npm config get //npm.example.com/:_password',
      'npm c get email _authToken',
      'npm get //registry.npmjs.org/:_authToken',
      'npm config get',
      'npm config list -l',
      'npm config ls --long',
      'npm config list --json',
      'crontab -u bob -l',
    ],
  ],
  ['L0', 'read.only', ['npm config get registry', 'npm config list', 'crontab -l']],
  ['L2', 'system.change', ['crontab -e', 'crontab -r', 'crontab jobs.txt', 'crontab -', 'crontab -l -r']],
];

test.each(verdictRows(verdicts))('%s → %s', (line, level, rule) => {
  expect(judge(line)).toEqual([level, expect.arrayContaining([rule])]);
});

test('redact masks npm tokens, alone and in npmrc lines', () => {
  const token = 'npm_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
  expect(redact(token)).not.toContain(token.slice(8));
  expect(redact(`//registry.npmjs.org/:_authToken=${token}`)).not.toContain(token.slice(8));
  expect(redact(`//registry.npmjs.org/:_authToken = "00000000-1111-2222-3333-444444444444"`)).not.toContain('3333');
});

test('the bare value printed by npm config get <credential> never reaches the model', async () => {
  const r: ExecResult = {
    exitCode: 0,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: 1,
    stdoutTail: '00000000-1111-2222-3333-444444444444\n',
    stderrTail: '',
    truncated: false,
    stdoutBytes: 37,
    stderrBytes: 0,
  };
  const ctx = {
    id: 'cmd_001',
    cwd: '/w',
    env: {},
    lang: 'en',
    deps: { exec: async () => ({ ...r }) },
    registry: { plugins: {} },
    timeoutMs: 1000,
    maxOutputBytes: 1000,
    decision: { level: 'L1', by: 'user', rules: [] },
    allowedRoots: [],
  };
  const out = await runExec({ tool: 'exec', program: 'npm', args: ['config', 'get', '//registry.npmjs.org/:_authToken'] }, ctx as never);
  expect(JSON.stringify(out)).not.toContain('3333');
  // (The gate now knows that value and masks it anywhere: another one shows what a plain get keeps.)
  const plainCtx = { ...ctx, deps: { exec: async () => ({ ...r, stdoutTail: '00000000-5555-6666-7777-888888888888\n' }) } };
  const plain = await runExec({ tool: 'exec', program: 'npm', args: ['config', 'get', 'registry'] }, plainCtx as never);
  expect((plain as { stdoutTail: string }).stdoutTail).toContain('7777');
});
