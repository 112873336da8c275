import { useAiFixture } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { runAi } from './run-bin';

// Permission rules in ai.json reach the runner: an allow rule stops the question (and lasts:
// every run reads it), a deny rule refuses what the rules would have asked about.
const fx = useAiFixture();
const cmd = (program: string, args: string[]) => ({
  json: { type: 'cmd', message: 'do it', data: { cwd: null, commands: [{ program, args }] } },
});

test('allow: an L1 step runs without a question in ai -p (no --approve-l1), run after run; deny refuses', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', {
    permissions: { allow: ['exec(touch created.txt)'], deny: ['exec(touch denied.txt)'] },
  });
  for (const round of [1, 2]) {
    await fs.rm(path.join(fx.cwd, 'created.txt'), { force: true });
    fx.server.enqueue(cmd('touch', ['created.txt']), { json: { type: 'chat', message: `done ${round}` } });
    const r = await runAi(['-p', 'make it', '--json'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    const step = r.events.find((e) => e.type === 'step');
    expect(step).toMatchObject({
      decision: { level: 'L0', rules: expect.arrayContaining([expect.objectContaining({ id: 'permission.allow' })]) },
    });
    await expect(fs.access(path.join(fx.cwd, 'created.txt'))).resolves.toBeUndefined();
  }
  fx.server.enqueue(cmd('touch', ['denied.txt']), { json: { type: 'chat', message: 'refused' } });
  const r = await runAi(['-p', 'make the other', '--approve-l1', '--json'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { status: 'blocked', decision: { level: 'L2' } } });
  await expect(fs.access(path.join(fx.cwd, 'denied.txt'))).rejects.toThrow();
});

test('a malformed rule is said once and not applied', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { permissions: { allow: ['exec('] } });
  fx.server.enqueue(cmd('ls', []), { json: { type: 'chat', message: 'ok' } });
  const r = await runAi(['-p', 'list'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.stderr).toContain('Ignoring the permission rule "exec("');
});
