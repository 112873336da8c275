/**
 * The code of the thread that reads a stream handed over by capture-offload.ts: a plain read()
 * loop on the descriptor that keeps only the count, the NUL check and the tail, posting the newest
 * bytes for display now and then. It runs from source (workerSource), so it needs no file of its
 * own next to the compiled code or in a bundle.
 */

/** What the worker reports when it stops. */
export interface Finished {
  type: 'done';
  total: number;
  sawNul: boolean;
  tail: Uint8Array;
  /** Bytes read after the last display text. */
  sinceText: number;
  error?: string;
}

/** One descriptor the worker reads: until EOF or `ctrl[0]` is set, keeping the last `tailLimit` bytes. */
interface ReadJob {
  fd: number;
  ctrl: Int32Array;
  tailLimit: number;
}

/** What the worker posts: newest bytes for display while it reads, and what it read once it stops. */
export type WorkerMessage = { type: 'text'; bytes: Uint8Array; total: number } | Finished;

/**
 * The worker's body. The worker runs from source (`eval`, workerSource), so it needs no file of
 * its own next to the compiled code; for the same reason the helpers it calls take `fs` as an
 * argument rather than using this module's.
 */
function workerMain(): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const fs = require('fs') as typeof import('fs');
  const { workerData, parentPort } = require('worker_threads') as typeof import('worker_threads');
  const text = workerData as { textEveryMs: number; textBytes: number };
  // Started ahead (or kept from an earlier stream): a descriptor comes once the event loop has
  // stopped reading it; one stream at a time, as many as it is given.
  parentPort!.on('message', (job: ReadJob) => readToEnd(fs, job, text, (m) => parentPort!.postMessage(m)));
}

/** The worker's source: its body and the helpers it calls, each from its own text. */
export function workerSource(): string {
  return [pipeReader, tailRing, readToEnd].map((f) => f.toString()).join('\n') + `\n(${workerMain.toString()})()`;
}

/** A blocking descriptor of the pipe `fd` reads (Linux), or undefined (a socket, no /proc).
 * Opening a FIFO to read waits for a writer, so a writer of our own is held for the open. */
function pipeReader(fs: typeof import('fs'), fd: number): number | undefined {
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

/** The last `limit` bytes of all the chunks given to `keep`, in a ring that is never copied until `tail`. */
function tailRing(limit: number): { keep(chunk: Buffer): void; tail(): Buffer } {
  const ring = Buffer.allocUnsafe(Math.max(limit, 1));
  let ringEnd = 0;
  let ringFull = false;
  return {
    keep(chunk) {
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
    },
    tail: () => (ringFull ? Buffer.concat([ring.subarray(ringEnd), ring.subarray(0, ringEnd)]) : Buffer.from(ring.subarray(0, ringEnd))),
  };
}

/**
 * Read `job.fd` until EOF, an error or a stop: the count, the NUL check and the tail only, with
 * the newest bytes posted for display every `textEveryMs`; at the end, what was read (Finished).
 */
function readToEnd(
  fs: typeof import('fs'),
  job: ReadJob,
  text: { textEveryMs: number; textBytes: number },
  post: (m: WorkerMessage) => void,
): void {
  const { ctrl } = job;
  const blocking = pipeReader(fs, job.fd);
  const from = blocking ?? job.fd;
  // A socketpair returns as much as its buffer holds, a pipe at most 64 KiB: a read of up to
  // 1 MiB takes a socket's whole buffer at once, in one call instead of several.
  const buf = Buffer.allocUnsafe(1 << 20);
  const ring = tailRing(job.tailLimit);
  let total = 0;
  let sawNul = false;
  let spins = 0;
  let sleepMs = 0;
  let lastText = Date.now();
  let sinceText = 0;
  let error: string | undefined;
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
    ring.keep(chunk);
    sinceText += n;
    const now = Date.now();
    if (now - lastText >= text.textEveryMs) {
      lastText = now;
      sinceText = 0;
      post({ type: 'text', bytes: Buffer.from(chunk.subarray(Math.max(0, n - text.textBytes))), total });
    }
  }
  if (blocking !== undefined) fs.closeSync(blocking);
  post({ type: 'done', total, sawNul, tail: ring.tail(), sinceText, ...(error ? { error } : {}) });
}
