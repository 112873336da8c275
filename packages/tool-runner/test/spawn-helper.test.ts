import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SpawnHelper } from '../src/spawn-helper';

/** The built helper program (tests run the TypeScript sources; the helper runs as plain node). */
const CHILD = path.join(__dirname, '..', 'lib', 'spawn-helper-child.js');

// Commands started through the spawn helper behave as directly spawned ones: output, exit code,
// signals, spawn errors; until the helper is up, and after it died, spawning is direct.
jest.setTimeout(20_000);

const PIPES = { stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };

// The helper makes its pipes in <SlothTool home>/run: a temporary home here.
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'helper-home-'));
const PIPE_DIR = path.join(home, 'run');
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

function run(
  child: ReturnType<SpawnHelper['spawn']>,
): Promise<{ out: string; err: string; code: number | null; signal: string | null; error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    let error: NodeJS.ErrnoException | undefined;
    child.stdout!.on('data', (d: Buffer) => (out += d));
    child.stderr!.on('data', (d: Buffer) => (err += d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      error = e;
      if (child.pid === undefined) resolve({ out, err, code: null, signal: null, error });
    });
    child.on('close', (code: number | null, signal: string | null) => resolve({ out, err, code, signal, error }));
  });
}

/** A helper that is up: the first spawn boots it (and runs directly); wait until it says ready. */
async function readyHelper(direct = jest.fn(spawn)): Promise<{ helper: SpawnHelper; direct: jest.Mock }> {
  const helper = new SpawnHelper(direct as never, CHILD, PIPE_DIR);
  await run(helper.spawn('true', [], PIPES));
  for (let i = 0; i < 500 && !(helper as unknown as { ready: boolean }).ready; i++) await new Promise((r) => setTimeout(r, 10));
  expect((helper as unknown as { ready: boolean }).ready).toBe(true);
  direct.mockClear();
  return { helper, direct };
}

test('output of both streams, the exit code, and nothing spawned directly once the helper is up', async () => {
  const { helper, direct } = await readyHelper();
  const big = await run(helper.spawn('sh', ['-c', 'head -c 3000000 /dev/zero | tr "\\0" a; echo done >&2; exit 4'], PIPES));
  expect(big.out.length).toBe(3_000_000);
  expect(big.err).toBe('done\n');
  expect(big.code).toBe(4);
  expect(direct).not.toHaveBeenCalled();
  helper.close();
});

test('the helper runs without worker threads (a process with fewer threads forks faster)', async () => {
  const { helper } = await readyHelper();
  // The command's parent is the helper: its command line and its thread count.
  const seen = await run(helper.spawn('sh', ['-c', 'tr "\\0" " " < /proc/$PPID/cmdline; echo; grep Threads /proc/$PPID/status'], PIPES));
  expect(seen.out).toContain('--single-threaded --v8-pool-size=0');
  expect(seen.out).toContain('spawn-helper-child.js');
  // node keeps a few of its own (the signal watcher, libuv's loop helpers): far fewer than the 7+ of a default node.
  expect(Number(/Threads:\s*(\d+)/.exec(seen.out)?.[1])).toBeLessThan(7);
  helper.close();
});

test('a missing program is a spawn error with its code; a killed command reports its signal', async () => {
  const { helper } = await readyHelper();
  const missing = await run(helper.spawn('no-such-program-xyz', [], PIPES));
  expect(missing.error?.code).toBe('ENOENT');
  const child = helper.spawn('sleep', ['30'], { ...PIPES, detached: true });
  const done = run(child);
  child.kill('SIGTERM'); // may come before the pid is known: it is sent once it is
  expect(await done).toMatchObject({ code: null, signal: 'SIGTERM' });
  helper.close();
});

test('other stdio shapes, and everything after the helper died, are spawned directly', async () => {
  const { helper, direct } = await readyHelper();
  await run(helper.spawn('true', [], { stdio: ['pipe', 'pipe', 'pipe'] }) as never).catch(() => undefined);
  expect(direct).toHaveBeenCalledTimes(1);
  const child = helper.spawn('sleep', ['30'], PIPES);
  const pending = run(child);
  await new Promise((r) => setTimeout(r, 200));
  (helper as unknown as { child: { kill(s: string): void } }).child.kill('SIGKILL');
  expect(await pending).toMatchObject({ signal: 'SIGKILL' });
  direct.mockClear();
  expect((await run(helper.spawn('echo', ['after'], PIPES))).out).toBe('after\n');
  expect(direct).toHaveBeenCalledTimes(1);
});

test('commands get real pipes (FIFOs) made ahead, no other descriptor of the helper, and socketpairs when FIFOs are off', async () => {
  const { helper } = await readyHelper();
  // What the command's stdout and stderr are, and which descriptors it holds.
  const probe = [
    '-c',
    'stat -L -c %F /proc/self/fd/1; stat -L -c %F /proc/self/fd/2 >&2; ls /proc/self/fd | tr "\\n" " "; echo; readlink /proc/self/fd/1',
  ];
  // The descriptors a directly spawned command has (this process may pass some on to every child).
  const plain = spawnSync('sh', probe, { encoding: 'utf8' }).stdout.split('\n')[1].trim();
  for (let i = 0; i < 20; i++) {
    // More commands than one batch (16): the pool is made again when it runs out.
    const r = await run(helper.spawn('sh', probe, PIPES));
    expect(r.out.split('\n')[0]).toBe('fifo');
    expect(r.err.trim()).toBe('fifo');
    // The same as a direct spawn: none of the helper's pooled ends.
    expect(r.out.split('\n')[1].trim()).toBe(plain);
    // Made in <SlothTool home>/run, which the OS sandbox hides; the name is gone already.
    expect(r.out.split('\n')[2]).toMatch(new RegExp(`^${fs.realpathSync(home)}/run/pipes-[^/]+/\\d+ \\(deleted\\)$`));
  }
  expect(fs.readdirSync(path.join(home, 'run'))).toEqual([]); // nothing left there by name
  helper.close();
  const off = new SpawnHelper(jest.fn(spawn) as never, CHILD, PIPE_DIR);
  const saved = process.env.SLOTHTOOL_SPAWN_FIFO;
  process.env.SLOTHTOOL_SPAWN_FIFO = '0';
  try {
    expect(await off.whenReady()).toBe(true);
  } finally {
    if (saved === undefined) delete process.env.SLOTHTOOL_SPAWN_FIFO;
    else process.env.SLOTHTOOL_SPAWN_FIFO = saved;
  }
  const r = await run(off.spawn('sh', probe, PIPES));
  expect(r.out.split('\n')[0]).toBe('socket');
  off.close();
  // No folder given (exec used on its own, without a SlothTool home): socketpairs too.
  const nowhere = new SpawnHelper(jest.fn(spawn) as never, CHILD);
  expect(await nowhere.whenReady()).toBe(true);
  expect((await run(nowhere.spawn('sh', probe, PIPES))).out.split('\n')[0]).toBe('socket');
  nowhere.close();
});

test("one helper, runners of several homes: each command's pipes are made in its own home's folder, never the first caller's", async () => {
  // What a process with several runners does (a test file, a plugin serving two homes): the first
  // runner's home may be gone, or be the real ~/.slothtool, by the time another runner's step runs.
  const probe = ['-c', 'stat -L -c %F /proc/self/fd/1; readlink /proc/self/fd/1'];
  const homes = ['first', 'second'].map((n) => fs.mkdtempSync(path.join(home, `${n}-`)));
  const helper = new SpawnHelper(jest.fn(spawn) as never, CHILD);
  try {
    expect(await helper.whenReady()).toBe(true);
    // A home that does not exist: socketpairs for that command, no folder made up along the way…
    const gone = path.join(home, 'no-such-home', 'run');
    expect((await run(helper.spawn('sh', probe, PIPES, gone))).out.split('\n')[0]).toBe('socket');
    expect(fs.existsSync(path.dirname(gone))).toBe(false);
    // …and FIFOs again for the next command whose home exists, made in that home.
    const first = await run(helper.spawn('sh', probe, PIPES, path.join(homes[0], 'run')));
    expect(first.out.split('\n')[0]).toBe('fifo');
    expect(first.out.split('\n')[1]).toContain(`${fs.realpathSync(homes[0])}/run/pipes-`);
    // The first home's batch is spent (16 pairs); the next batch is the second home's, not the first's.
    fs.rmSync(homes[0], { recursive: true, force: true });
    for (let i = 0; i < 15; i++) await run(helper.spawn('true', [], PIPES, path.join(homes[1], 'run')));
    const second = await run(helper.spawn('sh', probe, PIPES, path.join(homes[1], 'run')));
    expect(second.out.split('\n')[0]).toBe('fifo');
    expect(second.out.split('\n')[1]).toContain(`${fs.realpathSync(homes[1])}/run/pipes-`);
    expect(fs.existsSync(homes[0])).toBe(false);
  } finally {
    helper.close();
  }
});

test('whenReady starts the helper and keeps the process waiting for it', async () => {
  const helper = new SpawnHelper(jest.fn(spawn) as never, CHILD, PIPE_DIR);
  expect(await helper.whenReady()).toBe(true);
  expect(await helper.whenReady()).toBe(true);
  helper.close();
  const broken = new SpawnHelper(jest.fn(spawn) as never, path.join(__dirname, 'no-such-helper.js'));
  expect(await broken.whenReady()).toBe(false);
});

test("a command's environment is exactly the one asked for: added, changed and removed names, none of node's IPC variables", async () => {
  process.env.SPAWN_HELPER_BASE_VAR = 'base';
  const { helper } = await readyHelper();
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, ADDED_VAR: 'new value', PATH: `/opt/none:${process.env.PATH}` };
    delete env.SPAWN_HELPER_BASE_VAR;
    const r = await run(helper.spawn('sh', ['-c', 'env'], { ...PIPES, env }));
    const seen = Object.fromEntries(
      r.out
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(seen.ADDED_VAR).toBe('new value');
    expect(seen.PATH).toBe(env.PATH);
    expect(seen.SPAWN_HELPER_BASE_VAR).toBeUndefined();
    expect(Object.keys(seen).filter((k) => k.startsWith('NODE_CHANNEL'))).toEqual([]);
    // The same with the base environment itself.
    const same = await run(helper.spawn('sh', ['-c', 'echo "$SPAWN_HELPER_BASE_VAR"'], { ...PIPES, env: process.env }));
    expect(same.out).toBe('base\n');
  } finally {
    delete process.env.SPAWN_HELPER_BASE_VAR;
    helper.close();
  }
});

test('an environment object changed between two commands: the second sees the change; a frozen one is sent once and stays right', async () => {
  const { helper } = await readyHelper();
  try {
    const echo = (env: NodeJS.ProcessEnv) => run(helper.spawn('sh', ['-c', 'echo "$STEP_VAR"'], { ...PIPES, env }));
    const live: NodeJS.ProcessEnv = { ...process.env, STEP_VAR: 'one' };
    expect((await echo(live)).out).toBe('one\n');
    live.STEP_VAR = 'two';
    expect((await echo(live)).out).toBe('two\n');
    delete live.STEP_VAR;
    expect((await echo(live)).out).toBe('\n');
    const frozen = Object.freeze({ ...process.env, STEP_VAR: 'kept' });
    for (let i = 0; i < 3; i++) expect((await echo(frozen)).out).toBe('kept\n');
    expect((await echo({ ...frozen, STEP_VAR: 'other' })).out).toBe('other\n');
  } finally {
    helper.close();
  }
});

test('pipe folders left by a killed helper are removed when a helper starts; fresh ones (another session making its pipes) are not', async () => {
  fs.mkdirSync(PIPE_DIR, { recursive: true });
  const stale = path.join(PIPE_DIR, 'pipes-stale');
  const fresh = path.join(PIPE_DIR, 'pipes-fresh');
  for (const dir of [stale, fresh]) {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, '0'), '');
  }
  const hourAgo = Date.now() / 1000 - 3600;
  fs.utimesSync(stale, hourAgo, hourAgo);
  const helper = new SpawnHelper(jest.fn(spawn) as never, CHILD, PIPE_DIR);
  expect(await helper.whenReady()).toBe(true);
  expect(fs.existsSync(stale)).toBe(true); // nothing is touched before a command asks for pipes
  await run(helper.spawn('true', [], PIPES));
  expect(fs.existsSync(stale)).toBe(false);
  expect(fs.existsSync(fresh)).toBe(true);
  helper.close();
  fs.rmSync(fresh, { recursive: true, force: true });
});

describe('bytes for fds 3, 4, … (a sandboxed command’s seccomp filter) reach the command through pipes', () => {
  const data = [Buffer.from('filter bytes \u0000\u00ff end'), Buffer.alloc(70_000, 7)];
  const READ = ['-c', 'cat <&3 | od -An -tx1 | tr -d " \\n" | head -c 80; echo; wc -c <&4'];
  const WITH_FDS = { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] as const, fdData: data };
  const expected = `${data[0].toString('hex')}\n${data[1].length}\n`;

  test('through the helper, nothing spawned directly', async () => {
    const { helper, direct } = await readyHelper();
    const r = await run(helper.spawn('sh', READ, { ...WITH_FDS, stdio: [...WITH_FDS.stdio] }));
    expect(r.out.replace(/ +/g, '')).toBe(expected);
    expect(direct).not.toHaveBeenCalled();
    helper.close();
  });

  test('the same bytes again are named by their key; bytes changed in place are new', async () => {
    const { helper } = await readyHelper();
    const mine = [Buffer.from(data[0]), Buffer.from(data[1])];
    const spawnOnce = () => run(helper.spawn('sh', READ, { ...WITH_FDS, stdio: [...WITH_FDS.stdio], fdData: mine }));
    expect((await spawnOnce()).out.replace(/ +/g, '')).toBe(expected);
    expect((await spawnOnce()).out.replace(/ +/g, '')).toBe(expected);
    mine[0].write('FILTER', 0, 'latin1');
    const changed = `${mine[0].toString('hex')}\n${data[1].length}\n`;
    expect((await spawnOnce()).out.replace(/ +/g, '')).toBe(changed);
    helper.close();
  });

  test('directly (the helper not up yet, or off): exec feeds them itself', async () => {
    const { exec } = require('../src/exec') as typeof import('../src/exec');
    const r = await exec({ program: 'sh', args: READ, cwd: os.tmpdir(), fds: data });
    expect(r.stdoutTail.replace(/ +/g, '')).toBe(expected);
  });

  test('a command that ends before it reads them: no error, the result as usual', async () => {
    const { exec } = require('../src/exec') as typeof import('../src/exec');
    const r = await exec({ program: 'sh', args: ['-c', 'exit 3'], cwd: os.tmpdir(), fds: [Buffer.alloc(1 << 20, 1)] });
    expect(r.exitCode).toBe(3);
  });
});
