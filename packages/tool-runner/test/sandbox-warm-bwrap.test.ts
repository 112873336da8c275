import * as fs from 'fs';
import * as path from 'path';
import { describeWithBwrap } from './bwrap-available';
import { homeEnv, makeBoxPlace, type BoxPlace } from './helpers/real-box';

// The sandbox prepared ahead for the next read-only step (spawn-helper-warm.ts), with the real
// bubblewrap: a step that runs in it keeps every hardening of a fresh one, and a hidden secret
// swapped for another file since it was prepared stays hidden (the prepared sandbox's mount sits on
// the old file; the helper sees the path is another file now and starts afresh).
const run = describeWithBwrap();
jest.setTimeout(60_000);

// The built library: the spawn helper runs as plain node, from lib/ (the sources have no helper program).
const lib = require(path.join(__dirname, '..', 'lib')) as typeof import('../src');
const { prepareSpawnHelper } = require(path.join(__dirname, '..', 'lib', 'exec')) as typeof import('../src/exec');

let place: BoxPlace & { root: string };
beforeAll(async () => {
  place = makeBoxPlace('bwrap-warm-');
  fs.writeFileSync(path.join(place.ws, '.env'), 'TOKEN=first-secret\n');
  fs.writeFileSync(path.join(place.ws, 'notes.txt'), 'TOKEN is read from the environment\n');
  expect(await prepareSpawnHelper()).toBe(true);
});
afterAll(() => fs.rmSync(place.root, { recursive: true, force: true }));

/** The launchers waiting in sandboxes prepared for this test's workspace (their bubblewrap names it). */
function preparedHere(): number[] {
  const pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  return pids.map(Number).filter((pid) => {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('slothtool-step') || !/^\/(usr\/)?bin\/bash\0--posix/.test(cmd)) return false;
      const parent = /PPid:\s*(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      return fs.readFileSync(`/proc/${parent}/cmdline`, 'utf8').includes(place.ws);
    } catch {
      return false;
    }
  });
}

async function untilPrepared(): Promise<void> {
  for (let i = 0; i < 1000 && !preparedHere().length; i++) await new Promise((r) => setTimeout(r, 10));
  expect(preparedHere().length).toBe(1);
}

async function untilNonePrepared(): Promise<void> {
  for (let i = 0; i < 1000 && preparedHere().length; i++) await new Promise((r) => setTimeout(r, 10));
  expect(preparedHere()).toEqual([]);
}

/** A runner of this workspace with the OS sandbox required, answering every question with `action`. */
const runnerHere = (action: 'run' | 'decline') =>
  lib.createToolRunner({
    cwd: place.ws,
    workspace: place.ws,
    lang: 'en',
    env: homeEnv(place.home),
    sandbox: 'required',
    confirm: () => ({ action }),
  });

/** A read-only step in the workspace, wrapped as the runner wraps it, through the spawn helper. */
function step(program: string, args: string[]): Promise<string> {
  const box = lib.createSandbox({
    workspace: place.ws,
    home: place.home,
    slothtoolHome: path.join(place.home, '.slothtool'),
    env: homeEnv(place.home),
  });
  const w = box.wrap('L0', false, place.ws, program, args)!;
  expect(w.commandAt).toBeGreaterThan(0);
  return lib.exec({ ...w, cwd: place.ws, env: homeEnv(place.home), timeoutMs: 30_000 }).then((r) => r.stdoutTail);
}
const grep = () => step('grep', ['-r', 'TOKEN', '.']);
const capabilities = () => step('grep', ['-E', '^(Cap|NoNewPrivs|Seccomp:)', '/proc/self/status']);

run('a read-only step in a prepared sandbox', () => {
  test('has every hardening of a fresh one: no capability, no new privileges, the seccomp filter', async () => {
    const fresh = await capabilities();
    expect(fresh).toMatch(/CapEff:\s*0+\n/);
    expect(fresh).toMatch(/NoNewPrivs:\s*1/);
    expect(fresh).toMatch(/Seccomp:\s*2/);
    await untilPrepared();
    const [waiting] = preparedHere();
    const prepared = await capabilities();
    // It ran in the one that was waiting (that launcher is gone: it became the step).
    expect(preparedHere()).not.toContain(waiting);
    expect(prepared).toBe(fresh);
  });

  test('a hidden secret replaced since it was prepared stays hidden', async () => {
    expect(await grep()).not.toContain('first-secret');
    await untilPrepared();
    const secret = path.join(place.ws, '.env');
    fs.writeFileSync(`${secret}.new`, 'TOKEN=second-secret\n');
    fs.renameSync(`${secret}.new`, secret);
    const after = await grep();
    expect(after).toContain('notes.txt');
    expect(after).not.toContain('second-secret');
  });

  test("a runner's dispose ends the sandbox prepared for its next step", async () => {
    const runner = runnerHere('decline');
    expect(await runner.run({ tool: 'exec', program: 'grep', args: ['-c', 'TOKEN', 'notes.txt'] })).toMatchObject({ exitCode: 0 });
    await untilPrepared();
    runner.dispose();
    await untilNonePrepared();
  });

  test('no sandbox is kept prepared while a background process of the session runs', async () => {
    const runner = runnerHere('run');
    try {
      const read = { tool: 'exec' as const, program: 'grep', args: ['-c', 'TOKEN', 'notes.txt'] };
      expect(await runner.run(read)).toMatchObject({ exitCode: 0 });
      await untilPrepared();
      expect(await runner.run({ tool: 'proc.start', program: 'sleep', args: ['30'] })).toMatchObject({ state: 'running' });
      await untilNonePrepared();
      // A read-only step meanwhile runs in a fresh sandbox and prepares none.
      expect(await runner.run(read)).toMatchObject({ exitCode: 0 });
      await new Promise((r) => setTimeout(r, 300));
      expect(preparedHere()).toEqual([]);
    } finally {
      runner.dispose();
    }
  });
});
