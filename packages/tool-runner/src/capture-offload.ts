/**
 * Reading a fast output stream off the event loop. Node reads a pipe in small chunks, each through
 * the stream machinery, well below the pipe's own speed (bench "Output capture"). A stream that
 * has brought OFFLOAD_START_BYTES gets a worker thread; past OFFLOAD_AFTER_BYTES, once the worker
 * runs, the reading moves to it: a plain loop on the same descriptor that keeps only the count,
 * the NUL check and the tail. Small outputs never leave the event loop, so a step pays nothing.
 *
 * libuv's descriptor is non-blocking. A pipe (the spawn helper's FIFO, Linux) is opened again
 * through /proc/self/fd as a blocking descriptor of the same pipe (pipeReader), so the worker
 * sleeps in read() until the writer has written, rather than spinning on EAGAIN (an exception
 * each) on the core the writer needs. A stop wakes a blocked read with one byte written into the
 * pipe (wakePipe); what is read after a stop was asked is not kept. Other descriptors (node's
 * socketpair of a first step) keep the non-blocking loop: it spins briefly on EAGAIN, then sleeps
 * with a growing wait (≤ 4 ms), so a stop is seen within 4 ms. The socket is closed only after the
 * worker has stopped reading its descriptor. A stream past OFFLOAD_AFTER_BYTES whose worker still
 * starts is paused until it runs (`hold`): each chunk the event loop reads is a new buffer that
 * lives until a collection, so reading on through the start-up raises the peak memory.
 */
import fs = require('fs');
import type { Socket } from 'net';
import type { Worker } from 'worker_threads';
import type { BoundedCapture } from './capture';
import { workerSource, type Finished, type WorkerMessage } from './capture-worker';
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
 * One idle worker is kept after a stream, for the next large output of the session: a new worker
 * starts slowly, and meanwhile the event loop reads well under the pipe's speed. Kept
 * unreferenced (it never holds the process open) and ended after SPARE_IDLE_MS unused, since an
 * idle worker holds its own heap.
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
    const worker = new (workerThreads().Worker)(workerSource(), {
      eval: true,
      workerData: { textEveryMs: TEXT_EVERY_MS, textBytes: TEXT_BYTES },
    });
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
 * A worker started ahead for one stream (its start-up overlaps the reading on the event loop).
 * `ready` once it runs; `handOver` moves the reading to it; `stop` ends it, before or after the
 * hand-over (after: the reading stops within 4 ms and the stream then closes).
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
  return taken && new Offload(taken.worker, taken.warm, cap, onText);
}

/** One stream's worker, from its start to the hand-over and on until it has stopped reading. */
class Offload implements OffloadWorker {
  private running: boolean;
  private stopped = false;
  private finished = false;
  private lost = false;
  /** The stream's socket once handed over, and the descriptor the worker reads. */
  private socket: Socket | undefined;
  private handedFd = -1;
  private readonly ctrl = new Int32Array(new SharedArrayBuffer(4));
  /** Streams held until the worker runs or is gone. */
  private waiting: (() => void)[] = [];

  constructor(
    private readonly worker: Worker,
    warm: boolean,
    private readonly cap: BoundedCapture,
    private readonly onText?: (bytes: Buffer, end: number) => void,
  ) {
    this.running = warm;
    worker.on('online', this.onOnline).on('message', this.onMessage).on('error', this.onLost).on('exit', this.onLost);
  }

  get ready(): boolean {
    return this.running && !this.finished && !this.stopped;
  }

  get handedOver(): boolean {
    return this.socket !== undefined;
  }

  hold(stream: NodeJS.ReadableStream): boolean {
    const s = socketOf(stream);
    if (!s || this.running || this.finished || this.stopped || this.socket) return false;
    s.pause();
    // A worker that neither runs nor fails for this long: the event loop reads on.
    const resume = (): void => {
      clearTimeout(timer);
      if (!s.destroyed) s.resume();
    };
    const timer = setTimeout(resume, HOLD_MAX_MS);
    timer.unref();
    this.waiting.push(resume);
    return true;
  }

  handOver(stream: NodeJS.ReadableStream): boolean {
    const s = socketOf(stream);
    const handle = (s as unknown as { _handle?: PipeHandle } | undefined)?._handle;
    const fd = handle?.fd;
    if (!this.running || this.finished || this.stopped || this.socket || !this.cap.headFull) return false;
    if (!s || !handle?.readStop || typeof fd !== 'number' || fd < 0 || s.readableLength > 0) return false;
    // No more reads on the event loop: the descriptor is the worker's from here until it
    // stops. The stream machinery would start its handle reading again on its own (a
    // read-ahead below its high-water mark), so its read becomes a no-op.
    s.pause();
    (s as unknown as { _read: () => void })._read = () => undefined;
    handle.reading = false;
    handle.readStop();
    this.socket = s;
    this.handedFd = fd;
    this.worker.postMessage({ fd, ctrl: this.ctrl, tailLimit: this.cap.tailCapacity });
    return true;
  }

  stop(): void {
    this.stopped = true;
    if (!this.socket) return this.finish();
    Atomics.store(this.ctrl, 0, 1);
    Atomics.notify(this.ctrl, 0);
    wakePipe(this.handedFd);
  }

  private show(bytes: Buffer, end: number): void {
    try {
      if (bytes.length) this.onText?.(bytes, end);
    } catch {
      // a failing display callback must not stop the capture
    }
  }

  private finish(result?: Finished): void {
    if (this.finished) return;
    this.finished = true;
    const { worker, socket } = this;
    if (result && socket) {
      const tail = Buffer.from(result.tail);
      this.cap.absorb(result.total, tail, result.sawNul);
      // The display ends with the output's true last bytes, not with the last sample.
      this.show(tail.subarray(Math.max(0, tail.length - Math.min(result.sinceText, TEXT_BYTES))), result.total);
    }
    worker.off('online', this.onOnline).off('message', this.onMessage).off('error', this.onLost).off('exit', this.onLost);
    // A running worker that read to the end (or never got the stream) waits for the next one;
    // one still starting, lost, or whose reading failed is ended.
    if (this.running && !this.lost && result?.error === undefined && (result || !socket)) keepWorker(worker);
    else void worker.terminate();
    // Only now, with the worker off the descriptor, may it be closed (and its number reused).
    socket?.destroy();
    this.settle();
  }

  private settle(): void {
    const cbs = this.waiting;
    this.waiting = [];
    for (const cb of cbs) cb();
  }

  private readonly onOnline = (): void => {
    this.running = true;
    this.settle();
  };

  private readonly onMessage = (m: WorkerMessage): void => {
    if (m.type === 'text') this.show(Buffer.from(m.bytes), m.total);
    else this.finish(m);
  };

  private readonly onLost = (): void => {
    this.lost = true;
    this.finish();
  };
}
