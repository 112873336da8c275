/**
 * Reading a fast output stream off the event loop. Node reads a pipe 64 KiB per callback, each
 * through the stream machinery: measured, that moves 1 GiB at 0.3–0.5× the speed of
 * `head -c 1G /dev/zero | cat`. A stream that has brought OFFLOAD_START_BYTES gets a worker thread;
 * past OFFLOAD_AFTER_BYTES, once the worker runs, the reading moves to it: a plain loop on the
 * same descriptor that keeps only the count, the NUL check and the tail (a real pipe from the
 * spawn helper then runs at 0.7–1.0× the pipe's speed; bench "Output capture"). Small outputs
 * never leave the event loop, so a step pays nothing.
 *
 * libuv's descriptor is non-blocking. A pipe (the spawn helper's FIFO, Linux) is opened again
 * through /proc/self/fd as a blocking descriptor of the same pipe (pipeReader), so the worker sleeps
 * in read() until the writer has written: the spin-and-sleep loop on EAGAIN cost 1.5–3× the time
 * of a blocking read on a busy 2-core machine (each EAGAIN an exception, the spinning thread taking
 * the writer's core). A stop wakes a blocked read with one byte written into the pipe (wakePipe);
 * what is read after a stop was asked is not kept. Other descriptors (node's socketpair of a first
 * step) keep the non-blocking loop: it spins briefly on EAGAIN, then sleeps with a growing wait
 * (≤ 4 ms), so a stop is seen within 4 ms. The socket is closed only after the worker has
 * stopped reading its descriptor. A stream past OFFLOAD_AFTER_BYTES whose worker still starts is
 * paused until it runs (`hold`): each chunk the event loop reads is a new buffer that lives until
 * a collection, and reading on through the start-up held 10–20 MB more at the peak.
 */
import * as fs from 'fs';
import type { Socket } from 'net';
import type { Worker } from 'worker_threads';
import type { BoundedCapture } from './capture';
import { workerThreads } from './lazy-modules';

/** Bytes read on the event loop before a worker is started for the rest. */
export const OFFLOAD_START_BYTES = 2 ** 20;
/** Bytes read on the event loop before the rest is read by a worker (once it is running). */
export const OFFLOAD_AFTER_BYTES = 8 * 2 ** 20;
/** The longest a stream waits for its starting worker before the event loop reads on (ms). */
const HOLD_MAX_MS = 1000;
/** How often (ms) the worker sends the newest output for display while it reads. */
const TEXT_EVERY_MS = 100;
/** The most display text sent at a time. */
const TEXT_BYTES = 4096;

interface PipeHandle {
  fd?: number;
  reading?: boolean;
  readStop?(): number;
}

/** What the worker reports when it stops. */
interface Finished {
  type: 'done';
  total: number;
  sawNul: boolean;
  tail: Uint8Array;
  /** Bytes read after the last display text. */
  sinceText: number;
  error?: string;
}

/**
 * The worker's body, run from its source (`eval`), so it needs no file of its own next to the
 * compiled code. Reads `fd` until EOF or `ctrl[0]` is set, keeping the last `tailLimit` bytes.
 */
function workerMain(): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const fs = require('fs') as typeof import('fs');
  const { workerData, parentPort } = require('worker_threads') as typeof import('worker_threads');
  const { textEveryMs, textBytes } = workerData as { textEveryMs: number; textBytes: number };
  // Started ahead (or kept from an earlier stream): a descriptor comes once the event loop has
  // stopped reading it; one stream at a time, as many as it is given.
  parentPort!.on('message', (job: { fd: number; ctrl: Int32Array; tailLimit: number }) => read(job.fd, job.ctrl, job.tailLimit));
  /** A blocking descriptor of the pipe `fd` reads (Linux), or undefined (a socket, no /proc).
   * Opening a FIFO to read waits for a writer, so a writer of our own is held for the open. */
  function pipeReader(fd: number): number | undefined {
    try {
      if (!fs.fstatSync(fd).isFIFO()) return undefined;
      const proc = `/proc/self/fd/${fd}`;
      const writer = fs.openSync(proc, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
      try {
        return fs.openSync(proc, fs.constants.O_RDONLY);
      } finally {
        fs.closeSync(writer);
      }
    } catch {
      return undefined;
    }
  }
  function read(fd: number, ctrl: Int32Array, tailLimit: number): void {
    const blocking = pipeReader(fd);
    const from = blocking ?? fd;
    // A socketpair returns as much as its buffer holds (about 200 KiB), a pipe at most 64 KiB:
    // a read of up to 1 MiB takes a socket's whole buffer at once (1 GiB on node's socketpair,
    // same run: 1.2 s against 1.85 s with 64 KiB reads, medians of 5).
    const buf = Buffer.allocUnsafe(1 << 20);
    const ring = Buffer.allocUnsafe(Math.max(tailLimit, 1));
    let ringEnd = 0;
    let ringFull = false;
    let total = 0;
    let sawNul = false;
    let spins = 0;
    let sleepMs = 0;
    let lastText = Date.now();
    let sinceText = 0;
    let error: string | undefined;
    const keep = (chunk: Buffer): void => {
      if (chunk.length >= ring.length) {
        chunk.copy(ring, 0, chunk.length - ring.length);
        ringEnd = 0;
        ringFull = true;
        return;
      }
      const first = Math.min(chunk.length, ring.length - ringEnd);
      chunk.copy(ring, ringEnd, 0, first);
      if (first < chunk.length) chunk.copy(ring, 0, first);
      const end = ringEnd + chunk.length;
      if (end >= ring.length) ringFull = true;
      ringEnd = end % ring.length;
    };
    const tail = (): Buffer => (ringFull ? Buffer.concat([ring.subarray(ringEnd), ring.subarray(0, ringEnd)]) : Buffer.from(ring.subarray(0, ringEnd)));
    for (;;) {
      if (Atomics.load(ctrl, 0) !== 0) break;
      let n: number;
      try {
        n = fs.readSync(from, buf, 0, buf.length, null);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') {
          error = code ?? String(err);
          break;
        }
        // Nothing to read yet: spin a little (a fast writer refills within microseconds), then
        // sleep with a growing wait, woken early by a stop.
        if (++spins < 50) continue;
        sleepMs = Math.min(sleepMs ? sleepMs * 2 : 0.02, 4);
        Atomics.wait(ctrl, 0, 0, sleepMs);
        continue;
      }
      spins = 0;
      sleepMs = 0;
      // Read after a stop was asked (it may hold wakePipe's byte): not kept.
      if (n === 0 || Atomics.load(ctrl, 0) !== 0) break;
      const chunk = buf.subarray(0, n);
      total += n;
      if (!sawNul && chunk.includes(0)) sawNul = true;
      keep(chunk);
      sinceText += n;
      const now = Date.now();
      if (now - lastText >= textEveryMs) {
        lastText = now;
        sinceText = 0;
        parentPort!.postMessage({ type: 'text', bytes: Buffer.from(chunk.subarray(Math.max(0, n - textBytes))), total });
      }
    }
    if (blocking !== undefined) fs.closeSync(blocking);
    parentPort!.postMessage({ type: 'done', total, sawNul, tail: tail(), sinceText, ...(error ? { error } : {}) });
  }
}

/** Wake a worker blocked in read() on the pipe `fd` (after its stop flag is set): one byte into
 * the pipe. A full pipe needs none (the reader is not blocked); a socket never blocks it. */
function wakePipe(fd: number): void {
  try {
    if (!fs.fstatSync(fd).isFIFO()) return;
    const w = fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    try {
      fs.writeSync(w, Buffer.from([10]));
    } finally {
      fs.closeSync(w);
    }
  } catch {
    // EAGAIN (full: the reader is awake), or no /proc (then the worker never blocks)
  }
}

/** The socket a child's output stream reads from: its own, or the one the spawn helper handed over. */
function socketOf(stream: NodeJS.ReadableStream): Socket | undefined {
  const s = stream as unknown as { _handle?: PipeHandle; socket?: Socket };
  if (s._handle) return stream as unknown as Socket;
  return s.socket;
}

/**
 * One idle worker is kept after a stream, for the next large output of the session: a new
 * worker takes 15–30 ms to start, during which the event loop reads at well under the pipe's
 * speed (bench "Output capture"). Kept unreferenced (it never holds the process open) and ended
 * after SPARE_IDLE_MS unused; an idle worker costs about 11 MB.
 */
let spare: { worker: Worker; timer: NodeJS.Timeout } | undefined;
const SPARE_IDLE_MS = 60_000;

function takeWorker(): { worker: Worker; warm: boolean } | undefined {
  if (spare) {
    const { worker, timer } = spare;
    spare = undefined;
    clearTimeout(timer);
    worker.off('error', dropSpare).off('exit', dropSpare);
    worker.ref();
    return { worker, warm: true };
  }
  try {
    const worker = new (workerThreads().Worker)(`(${workerMain.toString()})()`, { eval: true, workerData: { textEveryMs: TEXT_EVERY_MS, textBytes: TEXT_BYTES } });
    return { worker, warm: false };
  } catch {
    return undefined;
  }
}

/** Keep `worker` (running: it came online) as the spare, unless there is one already. */
function keepWorker(worker: Worker): void {
  if (spare) {
    void worker.terminate();
    return;
  }
  worker.unref();
  worker.on('error', dropSpare).on('exit', dropSpare);
  const timer = setTimeout(dropSpare, SPARE_IDLE_MS);
  timer.unref();
  spare = { worker, timer };
}

/** End the idle worker now, if there is one (bench: a cold start; tests). */
export function dropSpare(): void {
  if (!spare) return;
  const { worker, timer } = spare;
  spare = undefined;
  clearTimeout(timer);
  void worker.terminate();
}

/** Whether an idle worker is kept for the next stream. */
export function hasSpare(): boolean {
  return spare !== undefined;
}

/**
 * A worker started ahead for one stream (its start-up, 15–30 ms, overlaps the reading on the
 * event loop). `ready` once it runs; `handOver` moves the reading to it; `stop` ends it, before or
 * after the hand-over (after: the reading stops within 4 ms and the stream then closes).
 */
export interface OffloadWorker {
  readonly ready: boolean;
  readonly handedOver: boolean;
  /** Stop reading `stream` on the event loop until the worker runs or is gone (then the next
   * 'data' event may hand it over); false when it cannot be paused. Once per stream. */
  hold(stream: NodeJS.ReadableStream): boolean;
  /** From inside one of the stream's 'data' events; false when it cannot be done now. */
  handOver(stream: NodeJS.ReadableStream): boolean;
  stop(): void;
}

/**
 * Start a worker for `cap`'s stream. `onText` gets newest bytes for display now and then once it
 * reads, with `end`, their end's offset in what the worker read (so gaps between them are known);
 * when it is done its count, NUL flag and tail go into `cap`, and the stream is closed.
 * Undefined when worker threads are not available.
 */
export function startOffloadWorker(cap: BoundedCapture, onText?: (bytes: Buffer, end: number) => void): OffloadWorker | undefined {
  const taken = takeWorker();
  if (!taken) return undefined;
  const worker = taken.worker;
  const ctrl = new Int32Array(new SharedArrayBuffer(4));
  let ready = taken.warm;
  let stopped = false;
  let socket: Socket | undefined;
  let handedFd = -1;
  let finished = false;
  const show = (bytes: Buffer, end: number): void => {
    try {
      if (bytes.length) onText?.(bytes, end);
    } catch {
      // a failing display callback must not stop the capture
    }
  };
  const finish = (result?: Finished): void => {
    if (finished) return;
    finished = true;
    if (result && socket) {
      const tail = Buffer.from(result.tail);
      cap.absorb(result.total, tail, result.sawNul);
      // The display ends with the output's true last bytes, not with the last sample.
      show(tail.subarray(Math.max(0, tail.length - Math.min(result.sinceText, TEXT_BYTES))), result.total);
    }
    worker.off('online', onOnline).off('message', onMessage).off('error', onLost).off('exit', onLost);
    // A running worker that read to the end (or never got the stream) waits for the next one;
    // one still starting, lost, or whose reading failed is ended.
    if (ready && !lost && result?.error === undefined && (result || !socket)) keepWorker(worker);
    else void worker.terminate();
    // Only now, with the worker off the descriptor, may it be closed (and its number reused).
    socket?.destroy();
    settle();
  };
  let lost = false;
  let waiting: (() => void)[] = [];
  const settle = (): void => {
    const cbs = waiting;
    waiting = [];
    for (const cb of cbs) cb();
  };
  const onOnline = (): void => {
    ready = true;
    settle();
  };
  const onMessage = (m: { type: 'text'; bytes: Uint8Array; total: number } | Finished): void => {
    if (m.type === 'text') show(Buffer.from(m.bytes), m.total);
    else finish(m);
  };
  const onLost = (): void => {
    lost = true;
    finish();
  };
  worker.on('online', onOnline).on('message', onMessage).on('error', onLost).on('exit', onLost);
  return {
    get ready() {
      return ready && !finished && !stopped;
    },
    get handedOver() {
      return socket !== undefined;
    },
    hold(stream) {
      const s = socketOf(stream);
      if (!s || ready || finished || stopped || socket) return false;
      s.pause();
      // A worker that neither runs nor fails for this long: the event loop reads on.
      const resume = (): void => {
        clearTimeout(timer);
        if (!s.destroyed) s.resume();
      };
      const timer = setTimeout(resume, HOLD_MAX_MS);
      timer.unref();
      waiting.push(resume);
      return true;
    },
    handOver(stream) {
      const s = socketOf(stream);
      const handle = (s as unknown as { _handle?: PipeHandle } | undefined)?._handle;
      const fd = handle?.fd;
      if (!ready || finished || stopped || socket || !cap.headFull || !s || !handle?.readStop || typeof fd !== 'number' || fd < 0 || s.readableLength > 0) return false;
      // No more reads on the event loop: the descriptor is the worker's from here until it
      // stops. The stream machinery would start its handle reading again on its own (a
      // read-ahead below its high-water mark), so its read becomes a no-op.
      s.pause();
      (s as unknown as { _read: () => void })._read = () => undefined;
      handle.reading = false;
      handle.readStop();
      socket = s;
      handedFd = fd;
      worker.postMessage({ fd, ctrl, tailLimit: cap.tailCapacity });
      return true;
    },
    stop() {
      stopped = true;
      if (!socket) return finish();
      Atomics.store(ctrl, 0, 1);
      Atomics.notify(ctrl, 0);
      wakePipe(handedFd);
    },
  };
}
