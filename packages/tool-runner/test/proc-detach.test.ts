import { processAlive } from '@holic512/testkit';
import { promises as fsp } from 'fs';
import * as path from 'path';
import { createToolRunner, sessionKey } from '../src';
import { runProcKill, runProcStart, runProcStatus } from '../src/tools/proc-steps';
import type { ToolSession } from '../src/tools/session';
import { tempWorld, testCtx, testSession } from './tools-session';

// proc.start with detach: asked (L1) with the reason, its output goes to a private log file in
// <SlothTool home>/ai/detached/, it is not ended when the session is disposed (a plain one is),
// proc.status reads what is new in the log, proc.kill still ends it, and /ps lists it.

let world: Awaited<ReturnType<typeof tempWorld>>;
let session: ToolSession;
const started: number[] = [];
beforeEach(async () => {
  world = await tempWorld();
  session = testSession(world.ws, world.home);
});
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  session.procs.dispose();
  await world.cleanup();
});

// Polls until the condition holds; a busy machine may take long to start node, so the bound is
// the test's own timeout (generous), not a count of tries.
async function until<T>(get: () => Promise<T> | T, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const TICKER = `let i = 0; setInterval(() => console.log('tick ' + i++), 20);`;

test('judged L1 with its reason; a plain proc.start is not', () => {
  const runner = createToolRunner({
    confirm: () => ({ action: 'decline' }),
    cwd: world.ws,
    env: { HOME: world.home, SLOTHTOOL_HOME: path.join(world.home, '.slothtool') },
    sandbox: 'off',
    lang: 'en',
  });
  const detached = runner.judge({ tool: 'proc.start', program: 'sleep', args: ['100'], detach: true } as never);
  expect(detached.level).toBe('L1');
  expect(detached.rules.map((r) => r.id)).toContain('proc.detach');
  expect(detached.rules.find((r) => r.id === 'proc.detach')?.reason).toMatch(/keeps running after the session ends/);
  const plain = runner.judge({ tool: 'proc.start', program: 'sleep', args: ['100'] } as never);
  expect(plain.rules.map((r) => r.id)).toContain('proc.background');
  expect(plain.rules.map((r) => r.id)).not.toContain('proc.detach');
  // Approving one does not approve the other for the session.
  expect(sessionKey({ tool: 'proc.start', program: 'sleep', args: ['100'], detach: true } as never)).not.toBe(
    sessionKey({ tool: 'proc.start', program: 'sleep', args: ['100'] } as never),
  );
});

test('a detached process outlives dispose(), writes to a private log that proc.status reads, and proc.kill ends it', async () => {
  const ctx = testCtx(session);
  const d = (await runProcStart({ tool: 'proc.start', program: process.execPath, args: ['-e', TICKER], detach: true }, ctx)) as Record<
    string,
    any
  >;
  const p = (await runProcStart({ tool: 'proc.start', program: process.execPath, args: ['-e', TICKER] }, ctx)) as Record<string, any>;
  started.push(d.pid, p.pid);
  expect(d.logFile).toMatch(new RegExp(`^${session.slothtoolHome.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/ai/detached/.+\\.log$`));
  expect((await fsp.stat(d.logFile)).mode & 0o777).toBe(0o600);
  expect((await fsp.stat(path.dirname(d.logFile))).mode & 0o777).toBe(0o700);

  // Each status brings only what is new: put together, the ticks come once each, in order.
  let seen = '';
  await until(
    async () => {
      seen += ((await runProcStatus({ tool: 'proc.status', proc_id: d.proc_id }, ctx)) as Record<string, any>).stdoutTail;
      return seen;
    },
    (text) => /tick 3\n/.test(text),
  );
  expect(seen).toMatch(/^tick 0\ntick 1\ntick 2\ntick 3\n/);

  expect(session.procs.list().map((x) => [x.proc_id, x.logFile !== undefined])).toEqual([
    [d.proc_id, true],
    [p.proc_id, false],
  ]);

  session.procs.dispose();
  await until(
    () => processAlive(p.pid),
    (a) => !a,
  );
  expect(processAlive(d.pid)).toBe(true);
  const sizeAfter = (await fsp.stat(d.logFile)).size;
  await until(
    () => fsp.stat(d.logFile).then((s) => s.size),
    (n) => n > sizeAfter,
  );

  const killed = (await runProcKill({ tool: 'proc.kill', proc_id: d.proc_id }, ctx)) as Record<string, any>;
  expect(killed).toMatchObject({ state: 'exited', killed: true });
  expect(killed.lastOutput).toMatch(/tick \d+/);
  expect(processAlive(d.pid)).toBe(false);
}, 180_000);
