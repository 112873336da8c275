/**
 * The HTTP part every scripted server shares: listen on 127.0.0.1, read and record each request
 * (JSON body parsed, raw text kept when it is not JSON), wake whoever waits for a number of
 * requests, route it, and on close drop open connections and pending timers.
 */
import http = require('http');
import type { AddressInfo, Socket } from 'net';
import { https } from './lazy-modules';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body; the raw text when it is not JSON; `undefined` when empty. Typed loosely on
   * purpose: a test reads into whatever the request it asserts on carries. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RecordingHttp {
  port: number;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Connections accepted so far (kept-alive requests share one). */
  readonly connections: number;
  /** Whether close() was called. */
  readonly closed: boolean;
  /** Run `fn` after `ms` unless the server closes first. */
  later(ms: number, fn: () => void): void;
  /**
   * Wait `ms` before answering `res`: true when the answer should still go out (the client is
   * there and the server open), false when either went away meanwhile.
   */
  wait(ms: number, res: http.ServerResponse): Promise<boolean>;
  /** Resolves once at least `count` requests have been received (no polling). */
  waitForRequests(count: number): Promise<RecordedRequest[]>;
  /** Stop listening, drop open connections and pending timers. Safe to call twice. */
  close(): Promise<void>;
}

export interface RecordingHttpOptions {
  port?: number;
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  route(req: RecordedRequest, res: http.ServerResponse): Promise<void> | void;
  /** The answer when `route` throws before any header went out. */
  failed(res: http.ServerResponse, err: unknown): void;
}

function parseBody(raw: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Call `done` with the request once its body has arrived (parsed when it is JSON). */
function whenRecorded(req: http.IncomingMessage, done: (recorded: RecordedRequest) => void): void {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () =>
    done({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body: parseBody(Buffer.concat(parts).toString('utf8')),
    }),
  );
}

export async function startRecordingHttp(options: RecordingHttpOptions): Promise<RecordingHttp> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ count: number; resolve: (r: RecordedRequest[]) => void }> = [];
  let closed = false;

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    whenRecorded(req, (recorded) => {
      requests.push(recorded);
      for (const w of waiters.splice(0)) {
        if (requests.length >= w.count) w.resolve(requests.slice());
        else waiters.push(w);
      }
      Promise.resolve()
        .then(() => options.route(recorded, res))
        .catch((err: unknown) => {
          if (!res.headersSent) options.failed(res, err);
          else res.destroy();
        });
    });
  };
  const httpServer = options.tls ? https().createServer(options.tls, onRequest) : http.createServer(onRequest);
  let connections = 0;
  httpServer.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  return {
    port: (httpServer.address() as AddressInfo).port,
    requests,
    get connections() {
      return connections;
    },
    get closed() {
      return closed;
    },
    later,
    wait: (ms, res) =>
      new Promise((resolve) => {
        if (!ms || ms <= 0) return resolve(!res.destroyed);
        const onClose = (): void => resolve(false);
        res.once('close', onClose);
        later(ms, () => {
          res.off('close', onClose);
          resolve(!res.destroyed && !closed);
        });
      }),
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve(requests.slice()) : new Promise((resolve) => waiters.push({ count, resolve })),
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
