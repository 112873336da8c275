import { processAlive } from '@holic512/testkit';
import { promises as fsp } from 'fs';
import * as path from 'path';
import { runProcKill, runProcStart, runProcStatus } from '../src/tools/proc-steps';
import type { ToolSession } from '../src/tools/session';
import { tempWorld, testCtx, testSession } from './tools-session';

let world: Awaited<ReturnType<typeof tempWorld>>;
let session: ToolSession;
beforeEach(async () => {
  world = await tempWorld();
  session = testSession(world.ws, world.home);
});
afterEach(async () => {
  session.procs.dispose();
  await world.cleanup();
});

const node = process.execPath;
const script = async (name: string, body: string): Promise<string> => {
  const file = path.join(world.ws, name);
  await fsp.writeFile(file, body);
  return file;
};

/** Poll until `ok`, bounded: at most `tries` rounds, 10 ms apart (no fixed sleep, no timing assertion). */
async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, tries = 1500): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await get();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not reached');
}

test('start answers at once with an id; status shows only new output, then the exit code', async () => {
  // The child prints a line, then waits for a file we create, prints another and exits 3.
  const gate = path.join(world.ws, 'gate');
  const file = await script(
    'p.js',
    `console.log('first'); const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(gate)})) { clearInterval(t); console.log('second'); console.error('warn'); process.exit(3); } }, 10);`,
  );
  const started = (await runProcStart({ tool: 'proc.start', program: node, args: [file] }, testCtx(session))) as Record<string, any>;
  expect(started).toMatchObject({ tool: 'proc.start', proc_id: 'proc_1', state: 'running' });
  const first = (await until(
    () => runProcStatus({ tool: 'proc.status', proc_id: 'proc_1' }, testCtx(session)) as Promise<Record<string, any>>,
    (r) => r.stdoutTail !== '',
  )) as Record<string, any>;
  expect(first.stdoutTail).toBe('first\n');
  expect(first.state).toBe('running');
  const again = (await runProcStatus({ tool: 'proc.status', proc_id: 'proc_1' }, testCtx(session))) as Record<string, any>;
  expect(again.stdoutTail).toBe('');
  await fsp.writeFile(gate, '');
  const end = (await runProcStatus({ tool: 'proc.status', proc_id: 'proc_1', wait_ms: 30000 }, testCtx(session))) as Record<string, any>;
  expect(end).toMatchObject({ state: 'exited', exitCode: 3, stdoutTail: 'second\n', stderrTail: 'warn\n' });
});

test('kill ends the whole process tree and returns the last output', async () => {
  const child = await script('child.js', `console.log('child ' + process.pid); setInterval(() => {}, 1000);`);
  const parent = await script(
    'parent.js',
    `const cp = require('child_process'); const c = cp.spawn(process.execPath, [${JSON.stringify(child)}], { stdio: 'inherit' }); console.log('parent ' + process.pid); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`,
  );
  await runProcStart({ tool: 'proc.start', program: node, args: [parent] }, testCtx(session));
  let out = '';
  await until(
    async () => {
      const r = (await runProcStatus({ tool: 'proc.status', proc_id: 'proc_1' }, testCtx(session))) as Record<string, any>;
      out += r.stdoutTail;
      return out;
    },
    (o) => /child \d+/.test(o) && /parent \d+/.test(o),
  );
  const childPid = Number(/child (\d+)/.exec(out)![1]);
  const parentPid = Number(/parent (\d+)/.exec(out)![1]);
  const killed = (await runProcKill({ tool: 'proc.kill', proc_id: 'proc_1' }, testCtx(session))) as Record<string, any>;
  expect(killed).toMatchObject({ tool: 'proc.kill', state: 'exited', killed: true });
  expect(killed.lastOutput).toMatch(/parent \d+/);
  await until(
    async () => !processAlive(childPid) && !processAlive(parentPid),
    (v) => v,
  );
});

test('unknown ids are errors that list the session processes', async () => {
  const r = (await runProcStatus({ tool: 'proc.status', proc_id: 'proc_9' }, testCtx(session))) as Record<string, any>;
  expect(r).toMatchObject({ status: 'error', error: { code: 'UNKNOWN_PROCESS' } });
  expect(r.error.message).toContain('proc_9');
});

test('a program that does not exist exits 127', async () => {
  await runProcStart({ tool: 'proc.start', program: 'definitely-not-a-program-xyz', args: [] }, testCtx(session));
  const r = (await runProcStatus({ tool: 'proc.status', proc_id: 'proc_1', wait_ms: 30000 }, testCtx(session))) as Record<string, any>;
  expect(r).toMatchObject({ state: 'exited', exitCode: 127 });
  expect(r.error.code).toBe('ENOENT');
});

test('dispose kills everything still running; output is redacted', async () => {
  const file = await script('s.js', `console.log('token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'); setInterval(() => {}, 1000);`);
  const started = (await runProcStart({ tool: 'proc.start', program: node, args: [file] }, testCtx(session))) as Record<string, any>;
  const r = (await until(
    () => runProcStatus({ tool: 'proc.status', proc_id: 'proc_1' }, testCtx(session)) as Promise<Record<string, any>>,
    (x) => x.stdoutTail !== '',
  )) as Record<string, any>;
  expect(r.stdoutTail).not.toContain('ghp_abcdefghij');
  session.procs.dispose();
  await until(
    async () => !processAlive(started.pid),
    (v) => v,
  );
  const after = (await runProcStatus({ tool: 'proc.status', proc_id: 'proc_1', wait_ms: 30000 }, testCtx(session))) as Record<string, any>;
  expect(after).toMatchObject({ state: 'exited', killed: true });
});

test('the number of running processes is bounded', async () => {
  const small = testSession(world.ws, world.home);
  const { ProcessTable, createDefaultProcDeps } = await import('../src/tools/proc');
  const { createDefaultExecDeps } = await import('../src/exec');
  small.procs = new ProcessTable(createDefaultProcDeps(createDefaultExecDeps()), { maxRunning: 1 });
  const file = await script('w.js', 'setInterval(() => {}, 1000);');
  await runProcStart({ tool: 'proc.start', program: node, args: [file] }, testCtx(small));
  const r = (await runProcStart({ tool: 'proc.start', program: node, args: [file] }, testCtx(small))) as Record<string, any>;
  expect(r).toMatchObject({ status: 'error', error: { code: 'TOO_MANY' } });
  small.procs.dispose();
});
