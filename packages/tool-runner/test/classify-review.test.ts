import { classify, redact } from '../src';
import { runExec } from '../src/tools/exec-tool';
import type { ExecResult } from '../src/exec';

// Review findings on the classifier: credentials printed by npm are secret reads; reading a
// crontab is not a system change.

const judge = (line: string) => {
  const [program, ...args] = line.split(' ');
  const d = classify({ tool: 'exec', program, args }, {}, { cwd: '/work/proj', home: '/home/u', lang: 'en' });
  return [d.level, d.rules.map((r) => r.id)];
};

test.each([
  ['npm config get //registry.npmjs.org/:_authToken', 'L1', 'secret.read'],
  ['npm config get _auth', 'L1', 'secret.read'],
  ['npm config get //npm.example.com/:_password', 'L1', 'secret.read'],
  ['npm c get email _authToken', 'L1', 'secret.read'],
  ['npm get //registry.npmjs.org/:_authToken', 'L1', 'secret.read'],
  ['npm config get', 'L1', 'secret.read'],
  ['npm config list -l', 'L1', 'secret.read'],
  ['npm config ls --long', 'L1', 'secret.read'],
  ['npm config list --json', 'L1', 'secret.read'],
  ['npm config get registry', 'L0', 'read.only'],
  ['npm config list', 'L0', 'read.only'],
  ['crontab -l', 'L0', 'read.only'],
  ['crontab -u bob -l', 'L1', 'secret.read'],
  ['crontab -e', 'L2', 'system.change'],
  ['crontab -r', 'L2', 'system.change'],
  ['crontab jobs.txt', 'L2', 'system.change'],
  ['crontab -', 'L2', 'system.change'],
  ['crontab -l -r', 'L2', 'system.change'],
])('%s → %s', (line, level, rule) => {
  expect(judge(line)).toEqual([level, expect.arrayContaining([rule])]);
});

test('redact masks npm tokens, alone and in npmrc lines', () => {
  const token = 'npm_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
  expect(redact(token)).not.toContain(token.slice(8));
  expect(redact(`//registry.npmjs.org/:_authToken=${token}`)).not.toContain(token.slice(8));
  expect(redact(`//registry.npmjs.org/:_authToken = "00000000-1111-2222-3333-444444444444"`)).not.toContain('3333');
});

test('the bare value printed by npm config get <credential> never reaches the model', async () => {
  const r: ExecResult = { exitCode: 0, signal: null, timedOut: false, aborted: false, durationMs: 1, stdoutTail: '00000000-1111-2222-3333-444444444444\n', stderrTail: '', truncated: false, stdoutBytes: 37, stderrBytes: 0 };
  const ctx = { id: 'cmd_001', cwd: '/w', env: {}, lang: 'en', deps: { exec: async () => ({ ...r }) }, registry: { plugins: {} }, timeoutMs: 1000, maxOutputBytes: 1000, decision: { level: 'L1', by: 'user', rules: [] }, allowedRoots: [] };
  const out = await runExec({ tool: 'exec', program: 'npm', args: ['config', 'get', '//registry.npmjs.org/:_authToken'] }, ctx as never);
  expect(JSON.stringify(out)).not.toContain('3333');
  // (The gate now knows that value and masks it anywhere: another one shows what a plain get keeps.)
  const plainCtx = { ...ctx, deps: { exec: async () => ({ ...r, stdoutTail: '00000000-5555-6666-7777-888888888888\n' }) } };
  const plain = await runExec({ tool: 'exec', program: 'npm', args: ['config', 'get', 'registry'] }, plainCtx as never);
  expect((plain as { stdoutTail: string }).stdoutTail).toContain('7777');
});
