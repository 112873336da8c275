import type * as http from 'http';
import { startRecordingHttp, type RecordedRequest, type RecordingHttp } from './recording-http';
import { TEST_TLS } from './tls';
import { comparePrefix, type WireMessage } from './prefix-stats';

export type { RecordedRequest } from './recording-http';

/** Token counts a scripted completion reports (OpenAI wire names). */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Cached input as OpenAI reports it. */
  prompt_tokens_details?: { cached_tokens: number };
  /** Cached input as DeepSeek reports it. */
  prompt_cache_hit_tokens?: number;
  prompt_cache_miss_tokens?: number;
  /** Cached input as an Anthropic-compatible server reports it. */
  cache_read_input_tokens?: number;
}

/** How a scripted server reports the part of each prompt its (simulated) prefix cache held. */
export type PromptCacheStyle = 'openai' | 'deepseek' | 'anthropic';

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
  /** Native tool calls (`message.tool_calls`; streamed as the API does: the id and name in a
   * call's first delta, then its arguments in fragments; `finish_reason: "tool_calls"`).
   * `arguments` is sent as is when a string, else JSON-encoded. */
  toolCalls?: Array<{ id?: string; name: string; arguments: unknown }>;
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
  /** Serve HTTPS with testkit's self-signed certificate for 127.0.0.1 and localhost
   * ({@link TEST_TLS}); clients trust it only when told to (NODE_EXTRA_CA_CERTS=TEST_TLS.certFile). */
  tls?: boolean;
  /**
   * Report cached input like a provider with a prefix cache: a reply without scripted `usage` gets
   * `cached_tokens` (in this style's field) for the prompt's longest common prefix with the
   * previous request, message by message, at 4 characters a token. Without it no cache is reported.
   */
  promptCache?: PromptCacheStyle;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>/v1` (`https://` with `tls`) */
  baseURL: string;
  port: number;
  /** Queue replies for POST /v1/chat/completions, answered in order. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Compute replies from the request instead of the queue; `null` goes back to the queue. */
  setHandler(fn: ScriptedHandler | null): void;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Connections accepted so far (kept-alive requests share one). */
  readonly connections: number;
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

interface ChatState {
  http: RecordingHttp;
  chunkSize: number;
  next(req: RecordedRequest): Promise<ScriptedReply | undefined>;
  seq: number;
  promptCache?: PromptCacheStyle;
  /** The messages of the previous chat request (the simulated cache holds their prefix). */
  previous?: WireMessage[];
}

/** The usage a reply reports when its script gives none: estimated, with the cached part in `style`'s field. */
function defaultUsage(state: ChatState, previous: WireMessage[] | undefined, messages: WireMessage[], content: string): ScriptedUsage {
  const prompt = estimateTokens(JSON.stringify(messages));
  const completion = estimateTokens(content);
  if (!state.promptCache) return { prompt_tokens: prompt, completion_tokens: completion };
  const cached = previous ? Math.min(prompt, Math.floor(comparePrefix(previous, messages).shared / 4)) : 0;
  if (state.promptCache === 'openai')
    return { prompt_tokens: prompt, completion_tokens: completion, prompt_tokens_details: { cached_tokens: cached } };
  if (state.promptCache === 'deepseek')
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      prompt_cache_hit_tokens: cached,
      prompt_cache_miss_tokens: prompt - cached,
    };
  return { prompt_tokens: prompt, completion_tokens: completion, cache_read_input_tokens: cached };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

type WireCall = { id: string; type: 'function'; function: { name: string; arguments: string } };
type Completion = {
  id: string;
  created: number;
  model: string;
  content: string;
  finish: string;
  usage?: Record<string, unknown>;
  toolCalls?: WireCall[];
};

/** The scripted calls in wire form, with ids where the script gave none. */
function wireCalls(calls: ScriptedContentReply['toolCalls'], seq: number): WireCall[] | undefined {
  if (!calls?.length) return undefined;
  return calls.map((c, i) => ({
    id: c.id ?? `call_${seq}_${i}`,
    type: 'function' as const,
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
}

/** A completion as SSE frames; a scripted cut or hang stops it part-way. */
async function streamCompletion(
  reply: ScriptedContentReply | ScriptedJsonReply,
  c: Completion,
  body: Record<string, unknown>,
  chunkSize: number,
  res: http.ServerResponse,
): Promise<void> {
  const chunks = reply.chunks ?? splitChunks(c.content, chunkSize);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  // Resolves once the frame is handed to the socket, so a cut never drops frames already sent.
  const frame = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    new Promise<void>((resolve) => {
      res.write(
        `data: ${JSON.stringify({ id: c.id, object: 'chat.completion.chunk', created: c.created, model: c.model, choices, ...extra })}\n\n`,
        () => resolve(),
      );
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
  for (const [index, call] of (c.toolCalls ?? []).entries()) {
    await frame([
      {
        index: 0,
        delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] },
        finish_reason: null,
      },
    ]);
    for (const part of splitChunks(call.function.arguments, Math.max(1, chunkSize * 2))) {
      await frame([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: part } }] }, finish_reason: null }]);
    }
  }
  await frame([{ index: 0, delta: {}, finish_reason: c.finish }]);
  if (c.usage && (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage) await frame([], { usage: c.usage });
  res.end('data: [DONE]\n\n');
}

async function answerChat(state: ChatState, req: RecordedRequest, res: http.ServerResponse): Promise<void> {
  const reply = await state.next(req);
  if (!reply) {
    const message = `scripted server: the script ran out — no reply queued for request #${state.http.requests.length} (${req.method} ${req.path})`;
    return sendJson(res, 500, errorBody(500, message), { 'x-should-retry': 'false' });
  }
  if ('hang' in reply) return;
  if (!(await state.http.wait(reply.delayMs ?? 0, res))) return;
  if ('drop' in reply) {
    res.socket?.destroy();
    return;
  }
  if ('status' in reply) {
    const headers: http.OutgoingHttpHeaders = {};
    if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
    return sendJson(res, reply.status, reply.body ?? errorBody(reply.status), headers);
  }

  const content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;
  const body = req.body && typeof req.body === 'object' ? req.body : {};
  const toolCalls = wireCalls(reply.toolCalls, state.seq + 1);
  const messages = Array.isArray(body.messages) ? (body.messages as WireMessage[]) : [];
  const previous = state.previous;
  state.previous = messages;
  const usage = reply.usage === null ? undefined : (reply.usage ?? defaultUsage(state, previous, messages, content));
  const c: Completion = {
    id: `chatcmpl-scripted-${++state.seq}`,
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? (typeof body.model === 'string' ? body.model : 'scripted-model'),
    content,
    finish: reply.finish_reason ?? (toolCalls ? 'tool_calls' : 'stop'),
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
    ...(toolCalls ? { toolCalls } : {}),
  };
  if (body.stream === true) return streamCompletion(reply, c, body, state.chunkSize, res);

  const completion = {
    id: c.id,
    object: 'chat.completion',
    created: c.created,
    model: c.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: toolCalls && !content ? null : content,
          refusal: null,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: c.finish,
      },
    ],
    ...(c.usage ? { usage: c.usage } : {}),
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
}

function routeModels(models: string[] | null, req: RecordedRequest, pathname: string, res: http.ServerResponse): boolean {
  if (req.method !== 'GET') return false;
  if (pathname === '/v1/models') {
    if (models === null) sendJson(res, 404, errorBody(404, 'Not found: /v1/models'));
    else sendJson(res, 200, { object: 'list', data: models.map((m) => ({ id: m, object: 'model', created: 0, owned_by: 'scripted' })) });
    return true;
  }
  const match = /^\/v1\/models\/(.+)$/.exec(pathname);
  if (!match || !models) return false;
  const idWanted = decodeURIComponent(match[1]);
  if (models.includes(idWanted)) sendJson(res, 200, { id: idWanted, object: 'model', created: 0, owned_by: 'scripted' });
  else sendJson(res, 404, errorBody(404, `The model '${idWanted}' does not exist`));
  return true;
}

/**
 * Start an OpenAI-compatible HTTP server on 127.0.0.1 (random port) that answers chat
 * completions from a script. An empty script answers 500 with a body that says so.
 */
export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const queue: ScriptedReply[] = [];
  let handler: ScriptedHandler | null = null;
  const state: ChatState = {
    http: undefined as unknown as RecordingHttp,
    chunkSize: Math.max(1, options.chunkSize ?? 4),
    next: async (req) => (handler ? handler(req) : queue.shift()),
    seq: 0,
    ...(options.promptCache ? { promptCache: options.promptCache } : {}),
  };
  const route = async (req: RecordedRequest, res: http.ServerResponse): Promise<void> => {
    const pathname = req.path.split('?')[0].replace(/\/+$/, '');
    if (req.method === 'POST' && pathname === '/v1/chat/completions') return answerChat(state, req, res);
    if (routeModels(server.models, req, pathname, res)) return;
    sendJson(res, 404, errorBody(404, `scripted server: no route for ${req.method} ${req.path}`));
  };
  state.http = await startRecordingHttp({
    port: options.port,
    ...(options.tls ? { tls: { key: TEST_TLS.key(), cert: TEST_TLS.cert() } } : {}),
    route,
    failed: (res, err) => sendJson(res, 500, errorBody(500, `scripted server: handler failed: ${String(err)}`)),
  });
  const server: ScriptedServer = {
    baseURL: `${options.tls ? 'https' : 'http'}://127.0.0.1:${state.http.port}/v1`,
    port: state.http.port,
    requests: state.http.requests,
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
    get connections() {
      return state.http.connections;
    },
    waitForRequests: (count) => state.http.waitForRequests(count),
    close: () => state.http.close(),
  };
  return server;
}
