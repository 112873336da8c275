/**
 * `fetch` over node:http and node:https, for the openai and ollama SDKs (both take a `fetch`).
 *
 * Why not undici, which both use by default and which this package used before: loading it is a
 * large part of a short run such as `slothtool ai -p "hi"` (time and memory), and its HTTP parser
 * is WebAssembly whose background compilation node waits for before it exits, on every run.
 * node:http's parser is native and already in node (the figures: bench/measured-once.md).
 *
 * What the SDKs rely on, and what this gives: a `Response` (web-lite.ts: status, headers, a
 * streaming web `body`, `url`; node's own would load undici after all), the caller's `signal`,
 * redirects (up to 20; the method becomes GET on 303, and on 301/302 after a POST; `authorization` and `cookie` are dropped for another origin),
 * gzip / deflate / br bodies decoded, and the errors undici gives: `TypeError('fetch failed')`
 * with the socket error as its `cause` when no answer came, `TypeError('terminated')` when the
 * connection broke mid-body, the signal's reason when aborted.
 *
 * Connections are kept alive and reused across requests of the process (idle ones never keep
 * the process running). A request that fails on a reused connection before any answer
 * (the server closed it meanwhile) is sent once more on a new one.
 */
import http = require('http');
import type { Socket } from 'net';
import { https, zlib } from './lazy-modules';
import { LiteHeaders, LiteResponse } from './web-lite';

/** What one `fetch` reports and enforces beyond the standard. */
export interface FetchHooks {
  /** The request's connection is up: a new one (after its TLS handshake), or a kept one. */
  connected?(): void;
  /** Give up connecting (DNS, TCP, TLS) after this many ms; the cause's code is CONNECT_TIMEOUT. */
  connectMs?: number;
}

/**
 * A request's own hooks, as a key of its `RequestInit` (the SDKs pass request-level fetch options
 * through): one client and one fetch can then serve every request, each with its own watch.
 */
export const FETCH_HOOKS: unique symbol = Symbol.for('slothtool.fetchHooks');

const MAX_REDIRECTS = 20;
const NULL_BODY = new Set([101, 204, 205, 304]);

/** Sockets whose connection (and TLS handshake) is complete. */
const ready = new WeakSet<Socket>();
/** Per protocol: its request function and the kept-alive agent (loaded on first use). */
const protocols = new Map<string, { request: typeof http.request; agent: http.Agent }>();

function protocolFor(protocol: string): { request: typeof http.request; agent: http.Agent } {
  const known = protocols.get(protocol);
  if (known) return known;
  const secure = protocol === 'https:';
  const mod = secure ? https() : http;
  const agent = new mod.Agent({ keepAlive: true });
  const create = (agent as unknown as { createConnection: (o: unknown, cb: unknown) => Socket }).createConnection.bind(agent);
  (agent as unknown as { createConnection: unknown }).createConnection = (options: unknown, cb: unknown) => {
    const socket = create(options, cb);
    socket.once(secure ? 'secureConnect' : 'connect', () => ready.add(socket));
    return socket;
  };
  const entry = { request: mod.request, agent };
  protocols.set(protocol, entry);
  return entry;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function fetchFailed(cause: unknown): TypeError {
  return Object.assign(new TypeError('fetch failed'), { cause });
}

interface Prepared {
  method: string;
  headers: Record<string, string>;
  /** A string goes out as UTF-8 as it is: node writes it after the head in one write, with no copy of it as bytes first. */
  body?: Buffer | string;
}

/** The request's body as bytes (a string as it is), with the content-type its kind implies when none was given. */
async function bodyBytes(body: unknown, headers: LiteHeaders): Promise<Buffer | string | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (typeof body === 'object' && Symbol.asyncIterator in body && !(body instanceof ReadableStream)) {
    const chunks: Buffer[] = [];
    for await (const c of body as AsyncIterable<Uint8Array | string>) chunks.push(Buffer.from(c as Uint8Array));
    return Buffer.concat(chunks);
  }
  // URLSearchParams, FormData, Blob, ReadableStream: the standard's own encoding (node's own
  // Response, loaded only for these).
  const r = new globalThis.Response(body as ConstructorParameters<typeof Response>[0]);
  const type = r.headers.get('content-type');
  if (type && !headers.has('content-type')) headers.set('content-type', type);
  return Buffer.from(await r.arrayBuffer());
}

async function prepare(init: RequestInit): Promise<Prepared> {
  const h = new LiteHeaders(init.headers);
  const body = await bodyBytes(init.body, h);
  const headers: Record<string, string> = {};
  h.forEach((value, key) => {
    headers[key] = value;
  });
  if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  return { method: (init.method ?? 'GET').toUpperCase(), headers, body };
}

/** The web stream of a response body: paced by its reader, ended or broken like undici's. */
function webBody(res: http.IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let source: NodeJS.ReadableStream = res;
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate' || encoding === 'br') {
    const decoder =
      encoding === 'br' ? zlib().createBrotliDecompress() : encoding === 'deflate' ? zlib().createInflate() : zlib().createGunzip();
    res.on('error', (err) => decoder.destroy(err));
    source = res.pipe(decoder);
  }
  const readable = source as NodeJS.ReadableStream & { destroy(err?: Error): void; on(ev: string, fn: (...a: unknown[]) => void): unknown };
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        controller.error(signal?.aborted ? abortReason(signal) : Object.assign(new TypeError('terminated'), { cause: err }));
      };
      readable.on('data', (chunk: unknown) => {
        if (settled) return;
        const b = chunk as Buffer;
        controller.enqueue(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) readable.pause();
      });
      const onAbort = () => {
        fail(abortReason(signal!));
        res.destroy();
      };
      readable.on('end', () => {
        signal?.removeEventListener('abort', onAbort);
        if (settled) return;
        settled = true;
        controller.close();
      });
      readable.on('error', fail);
      // A connection closed before the end, with no error event of its own.
      res.on('close', () => {
        signal?.removeEventListener('abort', onAbort);
        if (!res.complete) fail(Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }));
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    },
    pull() {
      readable.resume();
    },
    cancel() {
      settled = true;
      res.destroy();
    },
  });
}

/** One request/response exchange, no redirects. `retried`: this is the second try. */
function exchange(
  url: URL,
  req: Prepared,
  hooks: FetchHooks,
  signal: AbortSignal | undefined,
  retried = false,
): Promise<http.IncomingMessage> {
  const { request, agent } = protocolFor(url.protocol);
  return new Promise((resolve, reject) => {
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    const outgoing = request(url, { method: req.method, headers: req.headers, agent });
    const onAbort = () => {
      outgoing.destroy();
      reject(abortReason(signal!));
    };
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.on('socket', (socket: Socket) => {
      if (ready.has(socket)) return hooks.connected?.();
      if (hooks.connectMs !== undefined) {
        timer = setTimeout(() => {
          const err = Object.assign(new Error(`Connect timeout after ${hooks.connectMs} ms`), { code: 'CONNECT_TIMEOUT' });
          outgoing.destroy(err);
        }, hooks.connectMs);
      }
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        hooks.connected?.();
      });
    });
    outgoing.on('response', (res) => {
      answered = true;
      cleanup();
      resolve(res);
    });
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      cleanup();
      if (answered) return;
      if (signal?.aborted) return reject(abortReason(signal));
      // The server closed a kept connection meanwhile: once more on a new one.
      if (!retried && outgoing.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        exchange(url, req, hooks, signal, true).then(resolve, reject);
        return;
      }
      reject(fetchFailed(err));
    });
    outgoing.end(req.body);
  });
}

/** A `fetch` for the SDKs, with these hooks (connect limit, connected) unless a request brings its own (FETCH_HOOKS). */
export function createHttpFetch(defaultHooks: FetchHooks = {}): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const hooks = (init as { [FETCH_HOOKS]?: FetchHooks })[FETCH_HOOKS] ?? defaultHooks;
    if (typeof input === 'object' && !(input instanceof URL)) {
      const r = input as Request;
      init = { method: r.method, headers: r.headers, body: r.body ? await r.arrayBuffer() : undefined, signal: r.signal, ...init };
      input = r.url;
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    let url = new URL(String(input));
    let req = await prepare(init);
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fetchFailed(new Error(`unsupported protocol ${url.protocol}`));
      const res = await exchange(url, req, hooks, signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location && init.redirect !== 'manual') {
        res.resume();
        if (init.redirect === 'error' || hop >= MAX_REDIRECTS)
          throw fetchFailed(new Error(`redirect ${init.redirect === 'error' ? 'not allowed' : 'count exceeded'}`));
        const next = new URL(location, url);
        const headers = { ...req.headers };
        let { method, body } = req;
        if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
          method = 'GET';
          body = undefined;
          for (const k of ['content-length', 'content-type', 'content-encoding', 'content-language', 'content-location']) delete headers[k];
        }
        if (next.origin !== url.origin) for (const k of ['authorization', 'cookie', 'proxy-authorization']) delete headers[k];
        url = next;
        req = { method, headers, body };
        continue;
      }
      const headers = new LiteHeaders();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        try {
          headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        } catch {
          // a header value fetch would refuse is left out, as undici does
        }
      }
      if (status < 200 || status > 599) {
        res.destroy();
        throw fetchFailed(new Error(`invalid HTTP status ${status}`));
      }
      const nullBody = NULL_BODY.has(status) || req.method === 'HEAD';
      if (nullBody) res.resume();
      return new LiteResponse(nullBody ? null : webBody(res, signal), {
        status,
        statusText: res.statusMessage ?? '',
        headers,
        url: url.href,
      }) as unknown as Response;
    }
  }) as typeof fetch;
}
