import { processAlive, until, useAiFixture } from '@holic512/testkit';
import { spawn, type ChildProcess } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { readSession } from './helpers/session';
import { AI_BIN } from './run-bin';
import { startAi, type PtySession } from './pty/pty-session';

/**
 * `ai` told to stop (SIGTERM, SIGHUP, a closed terminal) while a background process the model
 * started runs: within two seconds `ai` is gone and so is the process group it started.
 */
/** ai's stop grace (SLOTHTOOL_AI_STOP_GRACE_MS) set beyond any test time-out. */
const NO_GRACE = String(10 * 60 * 1000);
const started: number[] = [];

/** A server that runs until it is killed. */
const SERVER_JS = "require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1');\n";

const fx = useAiFixture({ profile: { timeout: 60000 }, aiConfig: { allowedPrograms: ['node server.js'] } });
beforeEach(async () => {
  await fs.writeFile(path.join(fx.cwd, 'server.js'), SERVER_JS);
  // The model starts the server, then never answers again (the turn waits on it).
  fx.server.enqueue(
    {
      json: {
        type: 'cmd',
        message: 'start it',
        data: { cwd: null, commands: [{ tool: 'proc.start', program: 'node', args: ['server.js'] }] },
      },
    },
    { hang: true },
  );
  // Before the home is removed (it waits for its processes): only if the test failed.
  fx.onCleanup(() => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  });
});

/**
 * The server's group got SIGKILL from ai before it exited; on a busy machine its death can trail
 * ai's exit by a moment, so wait for it (a group that was never signalled would outlive the wait).
 */
const gone = (pid: number) => until(() => !processAlive(pid));

/** The pid of the background server, from the proc.start result the model was sent. */
async function serverPid(): Promise<number> {
  const requests = await fx.server.waitForRequests(2);
  const result = JSON.parse(requests[1].body.messages.at(-1).content);
  expect(result).toMatchObject({ tool: 'proc.start', state: 'running' });
  started.push(result.pid);
  expect(processAlive(result.pid)).toBe(true);
  return result.pid as number;
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

test.each([
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)(
  'ai -p on %s: exits by itself (not by the grace timer), the background process group is gone, the session is kept',
  async (signal, code) => {
    // The grace timer that would end ai regardless is set beyond the test's time-out: exiting at
    // all proves the clean path ran to its end (counted by the outcome, not timed).
    const child = spawn(process.execPath, [AI_BIN, '-p', 'start the server', '--approve-l1'], {
      env: { ...fx.temp.env, SLOTHTOOL_AI_STOP_GRACE_MS: NO_GRACE },
      cwd: fx.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = exitOf(child);
    const pid = await serverPid();
    child.kill(signal);
    expect(await exited).toEqual({ code, signal: null });
    await gone(pid);
    const records = await readSession(fx.temp);
    expect(records.map((r) => r.t)).toEqual(expect.arrayContaining(['user', 'assistant', 'tool']));
    expect(records.at(-1)).toMatchObject({
      t: 'event',
      content: JSON.stringify({ _event: 'interrupted', by: 'user', during: 'model_call' }),
    });
  },
);

test('ai -p: a second Ctrl+C stops ai even when the first one is still being handled', async () => {
  const child = spawn(process.execPath, [AI_BIN, '-p', 'start the server', '--approve-l1', '--json'], {
    env: fx.temp.env,
    cwd: fx.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = exitOf(child);
  const pid = await serverPid();
  child.kill('SIGINT');
  child.kill('SIGINT');
  const { code } = await exited;
  expect(code).toBe(130); // the aborted turn and the stop say the same
  await gone(pid);
});

test('closing the terminal of ai -i with a running dev server leaves no process behind', async () => {
  let s: PtySession | undefined;
  try {
    s = startAi(['-i'], { env: { ...fx.temp.env, SLOTHTOOL_AI_STOP_GRACE_MS: NO_GRACE }, cwd: fx.cwd });
    await s.waitFor('› ');
    await s.submit('start the server', 'y/a/n/'); // the keys line shows once the question takes keys
    s.write('y');
    const pid = await serverPid();
    const aiPid = s.pid;
    s.kill(); // the terminal goes away: SIGHUP
    await s.exited; // by itself: the grace timer is beyond the test's time-out
    expect(processAlive(aiPid)).toBe(false);
    await gone(pid);
  } finally {
    s?.kill();
  }
});
