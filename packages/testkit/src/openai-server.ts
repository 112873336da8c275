import * as http from 'http';
import type { AddressInfo, Socket } from 'net';

/** Token counts a scripted completion reports (OpenAI wire names). */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** Fields every reply may carry. */
export interface ScriptedReplyTiming {
  /** Wait this long before answering (the request is recorded at once). */
  delayMs?: number;
}

/** A chat completion. Streamed as SSE when the request says `stream: true`. */
export interface ScriptedContentReply extends ScriptedReplyTiming {
  content: string;
  /** Reported usage; omitted → estimated from the text; `null` → no usage at all. */
  usage?: ScriptedUsage | null;
  /** `finish_reason` of the choice, default `stop`. */
  finish_reason?: string;
  /** Explicit stream chunks (their concatenation should equal `content`). */
  chunks?: string[];
  /** Stream (or write) this many content chunks, then destroy the socket. */
  cutAfterChunks?: number;
  /** Stream this many content chunks, then keep the connection open without answering
   * further until the client goes away or the server closes (for abort tests). */
  hangAfterChunks?: number;
  /** `model` field of the answer; default the request's model. */
  model?: string;
}

/** A chat completion whose content is `JSON.stringify(json)`. */
export interface ScriptedJsonReply extends Omit<ScriptedContentReply, 'content'> {
  json: unknown;
}

/** An error response with an OpenAI-style body. */
export interface ScriptedErrorReply extends ScriptedReplyTiming {
  status: number;
  /** Response body; default `{error: {message, type, code, param: null}}` for the status. */
  body?: unknown;
  /** Seconds, sent as the `Retry-After` header. */
  retryAfter?: number;
}

/** Close the connection without answering (a connection error; the SDK retries it). */
export interface ScriptedDropReply extends ScriptedReplyTiming {
  drop: true;
}

/** Accept the request and never answer (no status, no byte) until the client goes away or
 * the server closes: a model server that hangs. */
export interface ScriptedHangReply {
  hang: true;
}

export type ScriptedReply = ScriptedContentReply | ScriptedJsonReply | ScriptedErrorReply | ScriptedDropReply | ScriptedHangReply;

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body; the raw text when it is not JSON; `undefined` when empty. */
  body: any;
}

/** Computes a reply for a chat request instead of taking the next one from the queue. */
export type ScriptedHandler = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedServerOptions {
  /** Ids served by GET /v1/models. Default `['test-low', 'test-high']`. */
  models?: string[] | null;
  /** Characters per streamed chunk when a reply has no explicit `chunks`. Default 4. */
  chunkSize?: number;
  /** Port on 127.0.0.1; default 0 (a free one). A fixed port stands in for a server on its
   * usual port (Ollama's 11434) in tests that follow the README literally. */
  port?: number;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  port: number;
  /** Queue replies for POST /v1/chat/completions, answered in order. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Compute replies from the request instead of the queue; `null` goes back to the queue. */
  setHandler(fn: ScriptedHandler | null): void;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Ids served by GET /v1/models; `null` makes that endpoint answer 404 (servers without it). */
  models: string[] | null;
  /** Replies still queued. */
  readonly pending: number;
  /** Resolves once at least `count` requests have been received (no polling). */
  waitForRequests(count: number): Promise<RecordedRequest[]>;
  /** Stop listening, drop open connections and pending timers. Safe to call twice. */
  close(): Promise<void>;
}

const STATUS_DEFAULTS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Bad request' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'permission_error', code: null, message: 'Permission denied' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist' },
  429: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Rate limit reached' },
  500: { type: 'server_error', code: null, message: 'The server had an error' },
  502: { type: 'server_error', code: null, message: 'Bad gateway' },
  503: { type: 'server_error', code: null, message: 'Service unavailable' },
};

/** Default OpenAI-style error body for a status. */
export function errorBody(status: number, message?: string): { error: Record<string, unknown> } {
  const d = STATUS_DEFAULTS[status] ?? { type: 'api_error', code: null, message: `HTTP ${status}` };
  return { error: { message: message ?? d.message, type: d.type, param: null, code: d.code } };
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function splitChunks(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/**
 * Start an OpenAI-compatible HTTP server on 127.0.0.1 (random port) that answers chat
 * completions from a script. An empty script answers 500 with a body that says so.
 */
export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const queue: ScriptedReply[] = [];
  let handler: ScriptedHandler | null = null;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const waiters: Array<{ count: number; resolve: (r: RecordedRequest[]) => void }> = [];
  const chunkSize = Math.max(1, options.chunkSize ?? 4);
  let seq = 0;
  let closed = false;

  const wait = (ms: number, res: http.ServerResponse): Promise<boolean> =>
    new Promise((resolve) => {
      if (!ms || ms <= 0) return resolve(!res.destroyed);
      const t = setTimeout(() => {
        timers.delete(t);
        resolve(!res.destroyed && !closed);
      }, ms);
      timers.add(t);
      res.once('close', () => {
        clearTimeout(t);
        timers.delete(t);
        resolve(false);
      });
    });

  const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };

  const answerChat = async (req: RecordedRequest, res: http.ServerResponse): Promise<void> => {
    let reply: ScriptedReply | undefined;
    if (handler) {
      reply = await handler(req);
    } else {
      reply = queue.shift();
    }
    if (!reply) {
      sendJson(
        res,
        500,
        errorBody(500, `scripted server: the script ran out — no reply queued for request #${server.requests.length} (${req.method} ${req.path})`),
        { 'x-should-retry': 'false' },
      );
      return;
    }
    if ('hang' in reply) return;
    if (!(await wait(reply.delayMs ?? 0, res))) return;

    if ('drop' in reply) {
      res.socket?.destroy();
      return;
    }

    if ('status' in reply) {
      const headers: http.OutgoingHttpHeaders = {};
      if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
      sendJson(res, reply.status, reply.body ?? errorBody(reply.status), headers);
      return;
    }

    const content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;
    const body = req.body && typeof req.body === 'object' ? req.body : {};
    const model = reply.model ?? (typeof body.model === 'string' ? body.model : 'scripted-model');
    const usage =
      reply.usage === null
        ? undefined
        : (reply.usage ?? { prompt_tokens: estimateTokens(JSON.stringify(body.messages ?? '')), completion_tokens: estimateTokens(content) });
    const usageWire = usage && { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    const id = `chatcmpl-scripted-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const finish = reply.finish_reason ?? 'stop';

    if (body.stream === true) {
      const chunks = reply.chunks ?? splitChunks(content, chunkSize);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      // Resolves once the frame is handed to the socket, so a cut never drops frames already sent.
      const frame = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        new Promise<void>((resolve) => {
          res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`, () => resolve());
        });
      await frame([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
      for (let i = 0; i < chunks.length; i++) {
        if (reply.cutAfterChunks !== undefined && i >= reply.cutAfterChunks) {
          res.socket?.destroy();
          return;
        }
        if (reply.hangAfterChunks !== undefined && i >= reply.hangAfterChunks) return;
        await frame([{ index: 0, delta: { content: chunks[i] }, finish_reason: null }]);
        if (res.destroyed) return;
      }
      if (reply.cutAfterChunks !== undefined) {
        res.socket?.destroy();
        return;
      }
      if (reply.hangAfterChunks !== undefined) return;
      await frame([{ index: 0, delta: {}, finish_reason: finish }]);
      if (usageWire && body.stream_options?.include_usage) await frame([], { usage: usageWire });
      res.end('data: [DONE]\n\n');
      return;
    }

    const completion = {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish }],
      ...(usageWire ? { usage: usageWire } : {}),
    };
    if (reply.cutAfterChunks !== undefined || reply.hangAfterChunks !== undefined) {
      const text = JSON.stringify(completion);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      const cut = reply.cutAfterChunks !== undefined;
      res.write(text.slice(0, Math.floor(text.length / 2)), () => {
        if (cut) res.socket?.destroy();
      });
      return;
    }
    sendJson(res, 200, completion);
  };

  const route = async (req: RecordedRequest, res: http.ServerResponse): Promise<void> => {
    const pathname = req.path.split('?')[0].replace(/\/+$/, '');
    if (req.method === 'POST' && pathname === '/v1/chat/completions') return answerChat(req, res);
    if (req.method === 'GET' && pathname === '/v1/models') {
      if (server.models === null) return sendJson(res, 404, errorBody(404, 'Not found: /v1/models'));
      return sendJson(res, 200, {
        object: 'list',
        data: server.models.map((m) => ({ id: m, object: 'model', created: 0, owned_by: 'scripted' })),
      });
    }
    const modelMatch = /^\/v1\/models\/(.+)$/.exec(pathname);
    if (req.method === 'GET' && modelMatch && server.models) {
      const idWanted = decodeURIComponent(modelMatch[1]);
      if (server.models.includes(idWanted)) return sendJson(res, 200, { id: idWanted, object: 'model', created: 0, owned_by: 'scripted' });
      return sendJson(res, 404, errorBody(404, `The model '${idWanted}' does not exist`));
    }
    sendJson(res, 404, errorBody(404, `scripted server: no route for ${req.method} ${req.path}`));
  };

  const httpServer = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: unknown = undefined;
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
      server.requests.push(recorded);
      for (const w of [...waiters]) {
        if (server.requests.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(server.requests.slice());
        }
      }
      route(recorded, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, errorBody(500, `scripted server: handler failed: ${String(err)}`));
        else res.destroy();
      });
    });
  });
  httpServer.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;

  const server: ScriptedServer = {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests: [],
    models: options.models === undefined ? ['test-low', 'test-high'] : options.models,
    enqueue(...replies) {
      queue.push(...replies);
    },
    setHandler(fn) {
      handler = fn;
    },
    get pending() {
      return queue.length;
    },
    waitForRequests(count) {
      if (server.requests.length >= count) return Promise.resolve(server.requests.slice());
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
  return server;
}
