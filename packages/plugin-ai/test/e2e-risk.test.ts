import { useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// `ai risk` needs no model: the fixture's home without a profile, run in its workspace.
const fx = useAiFixture({ profile: false });
const risk = (...args: string[]) => runAi(['risk', ...args], { env: fx.env, cwd: fx.cwd });

test('ai risk --json prints the level and the rules', async () => {
  const r = await risk('--json', '--', 'sudo', 'ls');
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out).toMatchObject({ step: { tool: 'exec', program: 'sudo', args: ['ls'] }, level: 'L2' });
  expect(out.rules[0]).toMatchObject({ level: 'L2', reason: expect.any(String), hint: expect.stringContaining('allowSudo') });
});

test('ai risk in text, with the user policy applied', async () => {
  const r = await risk('--', 'cat', 'notes.txt');
  expect(r.stdout).toMatch(/^Level: L0\n/);
  await fx.temp.writeJson('plugin-configs/ai.json', { allowSudo: true });
  const sudo = await risk('--json', '--', 'sudo', 'ls');
  expect(JSON.parse(sudo.stdout).level).not.toBe('L2');
});

test('ai risk shows a command with a secret in it redacted, in JSON and in text', async () => {
  const key = 'sk-abcdefghijklmnopqrstuvwxyz0123456789';
  const json = await risk('--json', '--', 'cat', `${key}.txt`);
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout).rules.length).toBeGreaterThan(0);
  const text = await risk('--', 'cat', `${key}.txt`);
  expect(text.stdout).toMatch(/^Level: L\d\n/);
  for (const out of [json.stdout, text.stdout]) expect(out).not.toContain(key);
});

test('ai risk without a command is a usage error', async () => {
  const r = await risk();
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('ai risk [--json] -- <program>');
});
