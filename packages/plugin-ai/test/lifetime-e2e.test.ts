import { createTempHome, packageDir, startScriptedServer, type ScriptedServer, type TempHome } from '@holic512/testkit';
import { spawn, type ChildProcess } from 'child_process';
import { promises as fs, readFileSync } from 'fs';
import * as path from 'path';
import { AI_BIN } from './run-bin';
import { startAi, KEY, type PtySession } from './pty/pty-session';

/**
 * `ai` told to stop (SIGTERM, SIGHUP, a closed terminal) while a background process the model
 * started runs: within two seconds `ai` is gone and so is the process group it started.
 */
let temp: TempHome;
/** ai's stop grace (SLOTHTOOL_AI_STOP_GRACE_MS) set beyond any test time-out. */
const NO_GRACE = String(10 * 60 * 1000);
let server: ScriptedServer;
let cwd: string;
const started: number[] = [];

/** A server that runs until it is killed. */
const SERVER_JS = "require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1');\n";

beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
  server = await startScriptedServer();
  cwd = path.join(temp.home, 'project');
  await fs.mkdir(cwd);
  await fs.writeFile(path.join(cwd, 'server.js'), SERVER_JS);
  await temp.registerPlugin('llm-base', packageDir('plugin-llm-base'));
  await temp.writeJson('plugin-configs/llm-base.json', {
    default_profile: 'local',
    profiles: { local: { base_url: server.baseURL, api_key: 'sk-test', low_model: 'm', high_model: 'm', timeout: 60000, max_retries: 0 } },
  });
  await temp.writeJson('plugin-configs/ai.json', { allowedPrograms: ['node server.js'] });
  // The model starts the server, then never answers again (the turn waits on it).
  server.enqueue(
    { json: { type: 'cmd', message: 'start it', data: { cwd: null, commands: [{ tool: 'proc.start', program: 'node', args: ['server.js'] }] } } },
    { hang: true },
  );
});
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL'); // only if the test failed: never leave it behind
    } catch {
      // gone, as it should be
    }
  }
  await server.close();
  await temp.cleanup();
});

/** Alive = in the process table and not a zombie (a zombie has ended; only its parent's
 * wait is missing, and inside a container nobody may ever reap it). */
function alive(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}

/** The pid of the background server, from the proc.start result the model was sent. */
async function serverPid(): Promise<number> {
  const requests = await server.waitForRequests(2);
  const result = JSON.parse(requests[1].body.messages.at(-1).content);
  expect(result).toMatchObject({ tool: 'proc.start', state: 'running' });
  started.push(result.pid);
  expect(alive(result.pid)).toBe(true);
  return result.pid as number;
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

test.each([
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)('ai -p on %s: exits by itself (not by the grace timer), the background process group is gone, the session is kept', async (signal, code) => {
  // The grace timer that would end ai regardless is set beyond the test's time-out: exiting at
  // all proves the clean path ran to its end (counted by the outcome, not timed).
  const child = spawn(process.execPath, [AI_BIN, '-p', 'start the server', '--approve-l1'], { env: { ...temp.env, SLOTHTOOL_AI_STOP_GRACE_MS: NO_GRACE }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = exitOf(child);
  const pid = await serverPid();
  child.kill(signal);
  expect(await exited).toEqual({ code, signal: null });
  expect(alive(pid)).toBe(false);
  const sessions = await fs.readdir(path.join(temp.slothtoolHome, 'ai', 'sessions'));
  const records = (await fs.readFile(path.join(temp.slothtoolHome, 'ai', 'sessions', sessions[0]), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  expect(records.map((r) => r.t)).toEqual(expect.arrayContaining(['user', 'assistant', 'tool']));
  expect(records.at(-1)).toMatchObject({ t: 'event', content: JSON.stringify({ _event: 'interrupted', by: 'user', during: 'model_call' }) });
});

test('ai -p: a second Ctrl+C stops ai even when the first one is still being handled', async () => {
  const child = spawn(process.execPath, [AI_BIN, '-p', 'start the server', '--approve-l1', '--json'], { env: temp.env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = exitOf(child);
  const pid = await serverPid();
  child.kill('SIGINT');
  child.kill('SIGINT');
  const { code } = await exited;
  expect(code).toBe(130); // the aborted turn and the stop say the same
  expect(alive(pid)).toBe(false);
});

test('closing the terminal of ai -i with a running dev server leaves no process behind', async () => {
  let s: PtySession | undefined;
  try {
    s = startAi(['-i'], { env: { ...temp.env, SLOTHTOOL_AI_STOP_GRACE_MS: NO_GRACE }, cwd });
    await s.waitFor('› ');
    s.write('start the server' + KEY.enter);
    await s.waitFor('y/a/n/'); // the keys line shows once the question takes keys
    s.write('y');
    const pid = await serverPid();
    const aiPid = s.pid;
    s.kill(); // the terminal goes away: SIGHUP
    await s.exited; // by itself: the grace timer is beyond the test's time-out
    expect(alive(aiPid)).toBe(false);
    expect(alive(pid)).toBe(false);
  } finally {
    s?.kill();
  }
});
