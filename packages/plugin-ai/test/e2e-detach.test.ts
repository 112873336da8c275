import { useE2eFixture } from './e2e-fixture';
import { runAi } from './run-bin';

// A background process started with `detach: true` outlives `ai` (it was asked about, L1); one
// started without it ends with the session — in the OS sandbox as outside it.

const fx = useE2eFixture();
const pids: number[] = [];
/** The test's own detached processes end with the test, before the fixture removes its home. */
function killStarted(): void {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(require('fs').readFileSync(`/proc/${pid}/stat`, 'utf8') as string);
  } catch {
    return true;
  }
}

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
  try {
    const r = await runAi(['-p', 'start a server', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    const results = r.events.filter((e) => e.type === 'tool_result').map((e) => e.result);
    expect(results).toHaveLength(2);
    const [detached, plain] = results;
    pids.push(detached.pid, plain.pid);
    expect(detached).toMatchObject({ state: 'running', decision: { level: 'L1', rules: expect.arrayContaining([expect.objectContaining({ id: 'proc.detach' })]) } });
    expect(detached.logFile).toContain('/ai/detached/');
    expect(plain.logFile).toBeUndefined();
    expect(await until(() => !alive(plain.pid))).toBe(true);
    expect(alive(detached.pid)).toBe(true);
  } finally {
    killStarted();
  }
});
