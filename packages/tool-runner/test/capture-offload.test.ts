import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BoundedCapture } from '../src/capture';
import * as offload from '../src/capture-offload';
import { OFFLOAD_AFTER_BYTES } from '../src/capture-offload';
import { createDefaultExecDeps, exec, type ExecDeps } from '../src/exec';
import { SpawnHelper } from '../src/spawn-helper';

// Past OFFLOAD_AFTER_BYTES a stream is read by a worker thread: the result must be the one the
// event loop would have produced (count, head, tail, NUL), through socketpairs (direct spawn) and
// FIFOs (the spawn helper), and stopping must still work.
jest.setTimeout(30_000);

const CHILD = path.join(__dirname, '..', 'lib', 'spawn-helper-child.js');

// The helper makes its pipes in <SlothTool home>/run: a temporary home here.
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'offload-home-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));
const MB = 2 ** 20;

/** A node program printing numbered lines up to `bytes`, then `tail` (no newline). */
function producer(bytes: number, tail: string): { program: string; args: string[] } {
  const code = `
    const line = (i) => 'line ' + String(i).padStart(9, '0') + ' 汉字\\n';
    let i = 0, left = ${bytes};
    function pump() {
      while (left > 0) {
        let s = '';
        while (s.length < 65536 && left > 0) { const l = line(i++); s += l; left -= Buffer.byteLength(l); }
        if (!process.stdout.write(s)) return void process.stdout.once('drain', pump);
      }
      process.stdout.write(${JSON.stringify(tail)});
    }
    pump();`;
  return { program: process.execPath, args: ['-e', code] };
}

/** What `producer(bytes, tail)` prints in all (its last line may go past `bytes`). */
function producedBytes(bytes: number, tail: string): number {
  let total = 0;
  for (let i = 0; total < bytes; i++) total += Buffer.byteLength('line ' + String(i).padStart(9, '0') + ' 汉字\n');
  return total + Buffer.byteLength(tail);
}

let helper: SpawnHelper | undefined;
afterAll(() => helper?.close());

async function viaHelper(): Promise<ExecDeps> {
  helper ??= new SpawnHelper(spawn as never, CHILD, path.join(home, 'run'));
  expect(await helper.whenReady()).toBe(true);
  await new Promise((resolve) => helper!.spawn('true', [], { stdio: ['ignore', 'pipe', 'pipe'] }).on('close', resolve));
  expect(fs.existsSync(path.join(home, 'run'))).toBe(true); // its FIFOs are made there, for the first command
  return {
    ...createDefaultExecDeps(),
    spawn: (c, a, o) => helper!.spawn(c, a, o),
  };
}

const direct = (): ExecDeps => ({
  ...createDefaultExecDeps(),
  spawn: (c, a, o) => spawn(c, a, o),
});

describe.each([
  ['direct (socketpair)', async () => direct()],
  ['spawn helper (FIFO)', viaHelper],
])('%s', (_name, deps) => {
  test('a large output: exact count, head from the start, tail from the end, live text that ends with the end', async () => {
    const size = OFFLOAD_AFTER_BYTES * 2 + 12345;
    const shown: string[] = [];
    let skipped = 0;
    const spy = jest.spyOn(offload, 'startOffloadWorker');
    const r = await exec(
      {
        ...producer(size, 'END-MARK ✓'),
        cwd: process.cwd(),
        maxOutputBytes: 4096,
        onStdout: (s, gap) => {
          shown.push(s);
          skipped += gap ?? 0;
        },
      },
      await deps(),
    );
    expect(r.exitCode).toBe(0);
    // The worker did read it (one stream went past the mark).
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.results[0].value.handedOver).toBe(true);
    spy.mockRestore();
    expect(r.stdoutBytes).toBe(producedBytes(size, 'END-MARK ✓'));
    expect(r.truncated).toBe(true);
    expect(r.stdoutTail.startsWith('line 000000000 汉字\nline 000000001')).toBe(true);
    expect(r.stdoutTail.endsWith('END-MARK ✓')).toBe(true);
    expect(r.stdoutTail).toMatch(/…\[\d+ bytes omitted\]…/);
    expect(r.binary).toBeUndefined();
    // Everything before the offload was shown; what came after, in samples and its end.
    const text = shown.join('');
    expect(text.startsWith('line 000000000')).toBe(true);
    expect(text.endsWith('END-MARK ✓')).toBe(true);
    expect(text).not.toContain('\uFFFD');
    // Every byte is either shown or counted as skipped.
    expect(Buffer.byteLength(text) + skipped).toBe(r.stdoutBytes);
    expect(skipped).toBeGreaterThan(0);
  });

  test('a NUL only after the offload still makes the output binary', async () => {
    const r = await exec(
      {
        ...producer(OFFLOAD_AFTER_BYTES + MB, '\u0000tail'),
        cwd: process.cwd(),
      },
      await deps(),
    );
    expect(r.binary).toBe(true);
    expect(r.stdoutTail).toMatch(/^<binary output, \d+ bytes>$/);
  });

  test('a command that never stops printing is stopped by its time-out', async () => {
    // timedOut says the time-out stopped it (a hang would end in jest's own time-out).
    const r = await exec(
      {
        program: 'yes',
        args: ['0123456789'],
        cwd: process.cwd(),
        timeoutMs: 1500,
        killGraceMs: 200,
      },
      await deps(),
    );
    expect(r.timedOut).toBe(true);
    expect(r.stdoutBytes).toBeGreaterThan(OFFLOAD_AFTER_BYTES);
    expect(r.stdoutTail.endsWith('0123456789\n')).toBe(true);
  });

  test('a background process keeping the pipe open after a large output does not hold the step', async () => {
    // setsid: outside the group, so only closing our side of the pipe ends the wait. The step
    // returned without waiting for it when the background sleep is still running afterwards
    // (checked, not timed), and it is ended here by its pid.
    const marker = `20.${process.pid}`;
    const r = await exec(
      {
        program: 'sh',
        args: ['-c', `head -c ${OFFLOAD_AFTER_BYTES + MB} /dev/zero | tr '\\0' x; setsid sleep ${marker} & exit 0`],
        cwd: process.cwd(),
        killGraceMs: 300,
      },
      await deps(),
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdoutBytes).toBe(OFFLOAD_AFTER_BYTES + MB);
    const sleeper = fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .find((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8') === `sleep\0${marker}\0`;
        } catch {
          return false;
        }
      });
    expect(sleeper).toBeDefined();
    process.kill(Number(sleeper), 'SIGKILL');
  });
});

describe('one worker kept between large outputs', () => {
  test('the next large output reuses it (no new thread); a failed or lost worker is not kept; dropSpare ends it', async () => {
    const threads = require('worker_threads') as typeof import('worker_threads');
    offload.dropSpare();
    // Count the threads started (a subclass: a spy would call the class without \`new\`).
    const Real = threads.Worker;
    const made: import('worker_threads').Worker[] = [];
    (threads as { Worker: unknown }).Worker = class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made.push(this);
      }
    };
    try {
      const deps = await viaHelper();
      const size = OFFLOAD_AFTER_BYTES * 2 + 777;
      for (const tail of ['FIRST', 'SECOND', 'THIRD']) {
        const r = await exec({ ...producer(size, tail), cwd: process.cwd(), maxOutputBytes: 4096 }, deps);
        expect(r.stdoutBytes).toBe(producedBytes(size, tail));
        expect(r.stdoutTail.endsWith(tail)).toBe(true);
        expect(offload.hasSpare()).toBe(true);
      }
      expect(made).toHaveLength(1);
      // A small output never takes it.
      await exec({ program: 'true', args: [], cwd: process.cwd() }, deps);
      expect(offload.hasSpare()).toBe(true);
      offload.dropSpare();
      expect(offload.hasSpare()).toBe(false);
      const r = await exec({ ...producer(size, 'AGAIN'), cwd: process.cwd(), maxOutputBytes: 4096 }, deps);
      expect(r.stdoutTail.endsWith('AGAIN')).toBe(true);
      expect(made).toHaveLength(2);
      // A kept worker that ends (here: terminated from outside) is dropped, not handed out.
      await made[1].terminate();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(offload.hasSpare()).toBe(false);
    } finally {
      (threads as { Worker: unknown }).Worker = Real;
      offload.dropSpare();
    }
  });
});

describe('a worker still starting when the mark is passed', () => {
  const threads = require('worker_threads') as typeof import('worker_threads');
  const Real = threads.Worker;
  /** Threads whose 'online' comes `delayMs` late (never: Infinity), or that end before it (`lose`). */
  const made: import('worker_threads').Worker[] = [];
  function slowWorkers(delayMs: number, lose = false): void {
    (threads as { Worker: unknown }).Worker = class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made.push(this);
      }
      override emit(event: string | symbol, ...args: unknown[]): boolean {
        if (event !== 'online') return super.emit(event, ...args);
        if (lose) void this.terminate();
        else if (Number.isFinite(delayMs)) setTimeout(() => super.emit(event, ...args), delayMs);
        return true;
      }
    };
  }
  afterEach(async () => {
    (threads as { Worker: unknown }).Worker = Real;
    offload.dropSpare();
    await Promise.all(made.splice(0).map((w) => w.terminate()));
  });

  test.each([
    ['direct (socketpair)', async () => direct()],
    ['spawn helper (FIFO)', viaHelper],
  ])(
    '%s: the event loop stops reading until it runs (its 64 KiB buffers stay until a collection), then hands over',
    async (_name, deps) => {
      offload.dropSpare();
      const d = await deps();
      slowWorkers(400);
      let onLoop = 0;
      let absorbed = false;
      const realPush = BoundedCapture.prototype.push;
      const realAbsorb = BoundedCapture.prototype.absorb;
      BoundedCapture.prototype.push = function (this: BoundedCapture, chunk: Buffer) {
        if (!absorbed) onLoop += chunk.length;
        realPush.call(this, chunk);
      };
      BoundedCapture.prototype.absorb = function (this: BoundedCapture, total: number, tail: Buffer, sawNul: boolean) {
        absorbed = true;
        realAbsorb.call(this, total, tail, sawNul);
      };
      try {
        const size = OFFLOAD_AFTER_BYTES * 3;
        const r = await exec({ ...producer(size, 'HELD'), cwd: process.cwd(), maxOutputBytes: 4096 }, d);
        expect(r.exitCode).toBe(0);
        expect(r.stdoutBytes).toBe(producedBytes(size, 'HELD'));
        expect(r.stdoutTail.endsWith('HELD')).toBe(true);
        // Read on the event loop: the mark and what was in flight, not the 400 ms of output after it.
        expect(absorbed).toBe(true);
        expect(onLoop).toBeLessThan(OFFLOAD_AFTER_BYTES + MB);
      } finally {
        BoundedCapture.prototype.push = realPush;
        BoundedCapture.prototype.absorb = realAbsorb;
      }
    },
  );

  test('a worker that never says it runs: the event loop reads on after a while (the command is not left blocked)', async () => {
    offload.dropSpare();
    slowWorkers(Infinity);
    const size = OFFLOAD_AFTER_BYTES * 2;
    const spy = jest.spyOn(offload, 'startOffloadWorker');
    const r = await exec({ ...producer(size, 'READ ON'), cwd: process.cwd(), maxOutputBytes: 4096 }, direct());
    expect(spy.mock.results[0].value.handedOver).toBe(false);
    spy.mockRestore();
    expect(r.exitCode).toBe(0);
    expect(r.stdoutBytes).toBe(producedBytes(size, 'READ ON'));
    expect(r.stdoutTail.endsWith('READ ON')).toBe(true);
  });

  test('a worker that ends before it runs lets the event loop read on (nothing waits for it)', async () => {
    offload.dropSpare();
    slowWorkers(0, true);
    const size = OFFLOAD_AFTER_BYTES * 2;
    const r = await exec({ ...producer(size, 'ON THE LOOP'), cwd: process.cwd(), maxOutputBytes: 4096 }, direct());
    expect(r.exitCode).toBe(0);
    expect(r.stdoutBytes).toBe(producedBytes(size, 'ON THE LOOP'));
    expect(r.stdoutTail.endsWith('ON THE LOOP')).toBe(true);
    expect(offload.hasSpare()).toBe(false);
  });
});

describe('BoundedCapture.absorb', () => {
  test('bytes read elsewhere join the count and the tail; only after a full head', () => {
    const cap = new BoundedCapture(64);
    expect(() => cap.absorb(10, Buffer.from('x'), false)).toThrow(/full head/);
    cap.push(Buffer.from('a'.repeat(40)));
    cap.absorb(1000, Buffer.from('0123456789'.repeat(10)), false);
    expect(cap.total).toBe(1040);
    expect(cap.render().endsWith('0123456789')).toBe(true);
    expect(cap.render()).toContain('bytes omitted');
    cap.absorb(3, Buffer.from('abc'), true);
    expect(cap.total).toBe(1043);
    expect(cap.sawNul).toBe(true);
  });
});
