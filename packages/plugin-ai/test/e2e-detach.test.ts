import { processAlive, useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// A background process started with `detach: true` outlives `ai` (it was asked about, L1); one
// started without it ends with the session — in the OS sandbox as outside it.

const fx = useAiFixture();
const pids: number[] = [];
beforeEach(() =>
  // Before the home is removed (it waits for its processes).
  fx.onCleanup(() => {
    for (const pid of pids.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }),
);

async function until(ok: () => boolean, tries = 300): Promise<boolean> {
  for (let i = 0; i < tries && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  return ok();
}

test.each(['auto', 'off'])('sandbox %s: the detached process is alive after ai -p ends, the plain one is not', async (sandbox) => {
  await fx.temp.writeJson('plugin-configs/ai.json', { sandbox });
  fx.server.enqueue(
    {
      json: {
        type: 'cmd',
        message: 'start both',
        data: {
          cwd: null,
          commands: [
            { tool: 'proc.start', program: 'sleep', args: ['300'], detach: true },
            { tool: 'proc.start', program: 'sleep', args: ['301'] },
          ],
        },
      },
    },
    { json: { type: 'chat', message: 'started' } },
  );
  const r = await runAi(['-p', 'start a server', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const results = r.events.filter((e) => e.type === 'tool_result').map((e) => e.result);
  expect(results).toHaveLength(2);
  const [detached, plain] = results;
  pids.push(detached.pid, plain.pid);
  expect(detached).toMatchObject({
    state: 'running',
    decision: { level: 'L1', rules: expect.arrayContaining([expect.objectContaining({ id: 'proc.detach' })]) },
  });
  expect(detached.logFile).toContain('/ai/detached/');
  expect(plain.logFile).toBeUndefined();
  expect(await until(() => !processAlive(plain.pid))).toBe(true);
  expect(processAlive(detached.pid)).toBe(true);
});
