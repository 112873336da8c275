/**
 * A response body without node's web streams: the part of the standard's `ReadableStream` of
 * bytes that a fetch answer's readers use (the openai SDK iterates it, the ollama SDK and
 * web-lite's `Response` take a reader): `getReader()` with `read`, `releaseLock`, `cancel` and
 * `closed`; async iteration (`values({preventCancel})`); `cancel`, `locked`, `tee`; `pipeTo` and
 * `pipeThrough` hand over to node's own stream, loaded then. Node's web streams cost a reply
 * 3–4 ms to load and to release a reader (node words that release's error through a regular
 * expression of a second V8 context, made on first use): docs/architecture.md §6. The source
 * pushes chunks as the standard's underlying source does (`start(controller)`, `pull`, `cancel`;
 * one chunk of room, as the standard's default strategy). Errors are node's: TypeErrors with
 * `code: 'ERR_INVALID_STATE'`. test/lite-stream.test.ts runs random scripts on this and on node's
 * own `ReadableStream` and compares every answer.
 */

import type { ReadableStream, ReadableStreamReadResult, ReadableWritablePair, StreamPipeOptions, WritableStream } from 'stream/web';

/** What a source is handed: the standard controller's methods. */
export interface LiteController {
  enqueue(chunk: Uint8Array): void;
  close(): void;
  error(reason?: unknown): void;
  readonly desiredSize: number | null;
}

/** The standard's underlying source, as http-fetch.ts gives it. */
export interface LiteSource {
  start(controller: LiteController): void;
  pull?(): void;
  cancel?(reason: unknown): void;
}

export interface LiteReader {
  readonly closed: Promise<undefined>;
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  releaseLock(): void;
  cancel(reason?: unknown): Promise<void>;
}

function invalidState(message: string): TypeError {
  return Object.assign(new TypeError(`Invalid state: ${message}`), { code: 'ERR_INVALID_STATE' });
}

/**
 * A reader's `closed`, made when first asked for: a reader released without anyone asking costs
 * no TypeError (its stack trace took 25 µs a step). Its rejection, when nobody waits for it, is
 * not reported (the standard marks `closed` handled).
 */
class ClosedPromise {
  #promise: Promise<undefined> | undefined;
  #settle: { resolve(v: undefined): void; reject(e: unknown): void } | undefined;
  #outcome: { error?: () => unknown } | undefined;

  get promise(): Promise<undefined> {
    if (!this.#promise) {
      this.#promise = new Promise<undefined>((resolve, reject) => {
        this.#settle = { resolve, reject };
      });
      this.#promise.catch(() => undefined);
      if (this.#outcome) this.#apply();
    }
    return this.#promise;
  }

  /** Settle it once: fulfilled, or rejected with what `error` makes (made only if asked for). */
  settle(error?: () => unknown): void {
    if (this.#outcome) return;
    this.#outcome = error ? { error } : {};
    if (this.#settle) this.#apply();
  }

  #apply(): void {
    const error = this.#outcome!.error;
    if (error) this.#settle!.reject(error());
    else this.#settle!.resolve(undefined);
  }
}

type PendingRead = { resolve(r: ReadableStreamReadResult<Uint8Array>): void; reject(e: unknown): void };

export class LiteReadableStream {
  #queue: Uint8Array[] = [];
  /** `closing`: closed by the source with chunks still queued. */
  #state: 'readable' | 'closing' | 'closed' | 'errored' = 'readable';
  #error: unknown;
  #reads: PendingRead[] = [];
  #reader: LiteReader | undefined;
  #closed: ClosedPromise | undefined;
  readonly #source: LiteSource;

  constructor(source: LiteSource) {
    this.#source = source;
    const stream = this;
    source.start({
      enqueue: (chunk) => this.#enqueue(chunk),
      close: () => this.#close(),
      error: (reason) => this.#fail(reason),
      get desiredSize() {
        return stream.#state === 'errored' ? null : stream.#state === 'readable' ? 1 - stream.#queue.length : 0;
      },
    });
  }

  get [Symbol.toStringTag](): string {
    return 'ReadableStream';
  }

  get locked(): boolean {
    return this.#reader !== undefined;
  }

  getReader(options?: { mode?: string }): LiteReader {
    if (options?.mode !== undefined) throw new TypeError(`a response body gives no ${String(options.mode)} reader`);
    if (this.#reader) throw invalidState('ReadableStream is locked');
    let closed = new ClosedPromise();
    if (this.#state === 'closed') closed.settle();
    else if (this.#state === 'errored') closed.settle(() => this.#error);
    this.#closed = closed;
    let attached = true;
    const detached = () => Promise.reject(invalidState('The reader is not attached to a stream'));
    const reader: LiteReader = {
      get closed() {
        return closed.promise;
      },
      read: () => (attached ? this.#read() : detached()),
      releaseLock: () => {
        if (!attached) return;
        attached = false;
        this.#reader = undefined;
        this.#closed = undefined;
        for (const r of this.#reads.splice(0)) r.reject(invalidState('Releasing reader'));
        // As the standard: a pending `closed` is rejected, a settled one replaced by a rejected one.
        const released = () => invalidState('Reader released');
        if (this.#state === 'readable' || this.#state === 'closing') closed.settle(released);
        else {
          closed = new ClosedPromise();
          closed.settle(released);
        }
      },
      cancel: (reason?: unknown) => (attached ? this.#cancel(reason) : detached()),
    };
    this.#reader = reader;
    return reader;
  }

  cancel(reason?: unknown): Promise<void> {
    return this.#reader ? Promise.reject(invalidState('ReadableStream is locked')) : this.#cancel(reason);
  }

  values(options: { preventCancel?: boolean } = {}): AsyncIterableIterator<Uint8Array> {
    const reader = this.getReader();
    let done = false;
    const finish = () => {
      done = true;
      reader.releaseLock();
    };
    // As the standard's async iterator: each call waits for the one before it.
    let ongoing: Promise<unknown> = Promise.resolve();
    const queued = <T>(step: () => Promise<T>): Promise<T> => {
      const p = ongoing.then(step, step);
      ongoing = p.catch(() => undefined);
      return p;
    };
    return {
      next: () =>
        queued(async () => {
          if (done) return { value: undefined, done: true } as IteratorResult<Uint8Array>;
          try {
            const r = await reader.read();
            if (r.done) finish();
            return r as IteratorResult<Uint8Array>;
          } catch (err) {
            finish();
            throw err;
          }
        }),
      return: (value?: unknown) =>
        queued(async () => {
          if (!done) {
            const cancelled = options.preventCancel ? undefined : reader.cancel(value);
            finish();
            await cancelled;
          }
          return { value, done: true } as IteratorResult<Uint8Array>;
        }),
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this.values();
  }

  /** Two streams of the same chunks, read at the pace of the faster one (the standard's tee). */
  tee(): [LiteReadableStream, LiteReadableStream] {
    const reader = this.getReader();
    const branches: LiteController[] = [];
    const cancelled = [false, false];
    const reasons: unknown[] = [undefined, undefined];
    let reading = false;
    const pump = () => {
      if (reading) return;
      reading = true;
      reader.read().then(
        (r) => {
          reading = false;
          branches.forEach((b, i) => {
            if (cancelled[i]) return;
            if (r.done) b.close();
            else b.enqueue(r.value);
          });
        },
        (err) => branches.forEach((b) => b.error(err)),
      );
    };
    const branch = (i: number) =>
      new LiteReadableStream({
        start: (c) => {
          branches[i] = c;
        },
        pull: pump,
        cancel: (reason) => {
          cancelled[i] = true;
          reasons[i] = reason;
          if (cancelled[0] && cancelled[1]) void reader.cancel(reasons);
        },
      });
    return [branch(0), branch(1)];
  }

  pipeTo(destination: WritableStream<Uint8Array>, options?: StreamPipeOptions): Promise<void> {
    return this.#web().pipeTo(destination, options);
  }

  pipeThrough<T>(transform: ReadableWritablePair<T, Uint8Array>, options?: StreamPipeOptions): ReadableStream<T> {
    return this.#web().pipeThrough(transform, options);
  }

  /** Node's own stream of this one's chunks (it takes the lock). */
  #web(): ReadableStream<Uint8Array> {
    const reader = this.getReader();
    const { ReadableStream: Web } = require('stream/web') as typeof import('stream/web');
    return new Web<Uint8Array>({
      pull: async (c) => {
        const r = await reader.read();
        if (r.done) c.close();
        else c.enqueue(r.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
  }

  #enqueue(chunk: Uint8Array): void {
    if (this.#state !== 'readable') throw invalidState('Controller is already closed');
    const read = this.#reads.shift();
    if (read) read.resolve({ value: chunk, done: false });
    else this.#queue.push(chunk);
  }

  #close(): void {
    if (this.#state !== 'readable') throw invalidState('Controller is already closed');
    if (this.#queue.length) {
      this.#state = 'closing';
      return;
    }
    this.#finish();
  }

  #finish(): void {
    this.#state = 'closed';
    for (const r of this.#reads.splice(0)) r.resolve({ value: undefined, done: true });
    this.#closed?.settle();
  }

  #fail(reason: unknown): void {
    if (this.#state !== 'readable' && this.#state !== 'closing') return;
    this.#state = 'errored';
    this.#error = reason;
    this.#queue = [];
    for (const r of this.#reads.splice(0)) r.reject(reason);
    this.#closed?.settle(() => reason);
  }

  #read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const chunk = this.#queue.shift();
    if (chunk) {
      if (this.#state === 'closing' && !this.#queue.length) this.#finish();
      else this.#pull();
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.#state === 'closed') return Promise.resolve({ value: undefined, done: true });
    if (this.#state === 'errored') return Promise.reject(this.#error);
    const pending = new Promise<ReadableStreamReadResult<Uint8Array>>((resolve, reject) => this.#reads.push({ resolve, reject }));
    this.#pull();
    return pending;
  }

  #pull(): void {
    if (this.#state === 'readable' && this.#queue.length === 0) this.#source.pull?.();
  }

  #cancel(reason: unknown): Promise<void> {
    if (this.#state === 'closed') return Promise.resolve();
    if (this.#state === 'errored') return Promise.reject(this.#error);
    this.#queue = [];
    this.#finish();
    try {
      this.#source.cancel?.(reason);
    } catch (err) {
      return Promise.reject(err);
    }
    return Promise.resolve();
  }
}
