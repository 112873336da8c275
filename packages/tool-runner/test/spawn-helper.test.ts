import { spawn } from 'child_process';
import * as path from 'path';
import { SpawnHelper } from '../src/spawn-helper';

/** The built helper program (tests run the TypeScript sources; the helper runs as plain node). */
const CHILD = path.join(__dirname, '..', 'lib', 'spawn-helper-child.js');

// Commands started through the spawn helper behave as directly spawned ones: output, exit code,
// signals, spawn errors; until the helper is up, and after it died, spawning is direct.
jest.setTimeout(20_000);

const PIPES = { stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };

function run(child: ReturnType<SpawnHelper['spawn']>): Promise<{ out: string; err: string; code: number | null; signal: string | null; error?: NodeJS.ErrnoException }> {
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
  const helper = new SpawnHelper(direct as never, CHILD);
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
