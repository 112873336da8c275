import type * as http from 'http';
import { startRecordingHttp, type RecordedRequest, type RecordingHttp } from './recording-http';

/** A model the scripted Ollama knows. */
export interface ScriptedOllamaModel {
  name: string;
  /** `<arch>.context_length` in /api/show's model_info; default 32768. */
  contextLength?: number;
  /** /api/show `capabilities`; default `['completion', 'tools']`. */
  capabilities?: string[];
  /** Size in bytes reported by /api/tags, /api/ps and the pull progress; default 4 GB. */
  size?: number;
}

/** One answer of /api/chat. */
export type ScriptedOllamaReply =
  | {
      content: string;
      /** Native tool calls (`message.tool_calls`), sent in one chunk before the final one. */
      toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
      /** Explicit content chunks (their concatenation should equal `content`). */
      chunks?: string[];
      /** Wait this long before the first byte (a model loading). */
      delayMs?: number;
      /** Reported counts; default estimated from the text. */
      promptEvalCount?: number;
      evalCount?: number;
    }
  | { json: unknown; delayMs?: number }
  | { status: number; error: string }
  /** Accept the request and never answer (until the client goes or the server closes). */
  | { hang: true };

export type ScriptedOllamaHandler = (request: RecordedRequest) => ScriptedOllamaReply | Promise<ScriptedOllamaReply>;

export interface ScriptedOllamaOptions {
  /** Models already pulled. Default one: `qwen2.5:7b`. */
  models?: ScriptedOllamaModel[];
  /** Models `/api/pull` can fetch (beyond the installed ones). */
  library?: ScriptedOllamaModel[];
  /** Port on 127.0.0.1; default a free one. */
  port?: number;
  /** Pull progress lines per layer; default 3. */
  pullSteps?: number;
}

export interface ScriptedOllama {
  /** `http://127.0.0.1:<port>` (Ollama's native API root; the OpenAI-compatible one would be `/v1`). */
  baseURL: string;
  port: number;
  /** Installed models by name (pulls add to it). */
  readonly models: Map<string, ScriptedOllamaModel>;
  /** Names of the models loaded in memory (/api/ps); a chat or an empty generate loads one. */
  readonly loaded: Set<string>;
  enqueue(...replies: ScriptedOllamaReply[]): void;
  setHandler(fn: ScriptedOllamaHandler | null): void;
  /** Every request, in arrival order, with its parsed JSON body. */
  requests: RecordedRequest[];
  /** Resolves once at least `count` requests have been received. */
  waitForRequests(count: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

const VERSION = '0.12.6';

function architecture(name: string): string {
  const base = name.split(':')[0].replace(/[^a-z0-9]/gi, '');
  return base.replace(/[0-9.]+$/, '') || 'llama';
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

function modelInfo(m: ScriptedOllamaModel) {
  return {
    name: m.name,
    model: m.name,
    modified_at: '2026-11-01T00:00:00Z',
    size: m.size ?? 4_000_000_000,
    digest: `sha256:${Buffer.from(m.name).toString('hex').padEnd(64, '0').slice(0, 64)}`,
    details: { format: 'gguf', family: architecture(m.name), parameter_size: '7.6B', quantization_level: 'Q4_K_M' },
  };
}

const nameOf = (body: Record<string, unknown>): string => String(body.model ?? body.name ?? '');
const notFound = (res: http.ServerResponse, name: string): void =>
  send(res, 404, { error: `model "${name}" not found, try pulling it first` });

/** What a scripted Ollama knows: its models, the library it can pull from, what is loaded. */
interface OllamaState {
  http: RecordingHttp;
  models: Map<string, ScriptedOllamaModel>;
  library: Map<string, ScriptedOllamaModel>;
  loaded: Set<string>;
  pullSteps: number;
  next(req: RecordedRequest): Promise<ScriptedOllamaReply>;
}

/** /api/chat: NDJSON chunks by default, one object with `stream: false`, native tool calls. */
async function chat(state: OllamaState, req: RecordedRequest, res: http.ServerResponse): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const name = nameOf(body);
  if (!state.models.has(name)) return notFound(res, name);
  if (Array.isArray(body.messages) && body.messages.length === 0) {
    // Ollama: a chat without messages only loads (keep_alive 0: unloads) the model.
    if (body.keep_alive === 0 || body.keep_alive === '0') state.loaded.delete(name);
    else state.loaded.add(name);
    return send(res, 200, {
      model: name,
      created_at: new Date().toISOString(),
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: body.keep_alive === 0 ? 'unload' : 'load',
    });
  }
  const reply = await state.next(req);
  if ('hang' in reply) return; // the socket stays open until the client or close() ends it
  if ('status' in reply) return send(res, reply.status, { error: reply.error });
  const delay = reply.delayMs ?? 0;
  const content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;
  const toolCalls = 'toolCalls' in reply ? reply.toolCalls : undefined;
  const chunks = 'chunks' in reply && reply.chunks ? reply.chunks : content ? (content.match(/[\s\S]{1,8}/g) ?? []) : [];
  const created = new Date().toISOString();
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  const prompt = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const final = {
    model: name,
    created_at: created,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: 'stop',
    total_duration: 1_000_000,
    load_duration: state.loaded.has(name) ? 0 : delay * 1_000_000,
    prompt_eval_count: 'promptEvalCount' in reply && reply.promptEvalCount !== undefined ? reply.promptEvalCount : estimateTokens(prompt),
    eval_count: 'evalCount' in reply && reply.evalCount !== undefined ? reply.evalCount : estimateTokens(content),
  };
  state.http.later(delay, () => {
    state.loaded.add(name);
    const tool_calls = toolCalls?.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
    if (body.stream === false) {
      return send(res, 200, { ...final, message: { role: 'assistant', content, ...(tool_calls ? { tool_calls } : {}) } });
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const c of chunks)
      res.write(JSON.stringify({ model: name, created_at: created, message: { role: 'assistant', content: c }, done: false }) + '\n');
    if (tool_calls)
      res.write(
        JSON.stringify({ model: name, created_at: created, message: { role: 'assistant', content: '', tool_calls }, done: false }) + '\n',
      );
    res.end(JSON.stringify(final) + '\n');
  });
}

/** /api/pull: progress lines, then the model is there. */
function pull(state: OllamaState, req: RecordedRequest, res: http.ServerResponse): void {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const name = nameOf(body);
  const found = state.models.get(name) ?? state.library.get(name);
  if (!found) return send(res, 500, { error: 'pull model manifest: file does not exist' });
  const total = found.size ?? 4_000_000_000;
  const steps = Math.max(1, state.pullSteps);
  const lines: unknown[] = [{ status: 'pulling manifest' }];
  const digest = modelInfo(found).digest;
  for (let i = 1; i <= steps; i++)
    lines.push({ status: `pulling ${digest.slice(7, 19)}`, digest, total, completed: Math.round((total * i) / steps) });
  lines.push({ status: 'verifying sha256 digest' }, { status: 'writing manifest' }, { status: 'success' });
  state.models.set(name, found);
  if (body.stream === false) return send(res, 200, { status: 'success' });
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  res.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

/** /api/show: the model's details, context length and capabilities. */
function show(state: OllamaState, body: Record<string, unknown>, res: http.ServerResponse): void {
  const m = state.models.get(nameOf(body));
  if (!m) return notFound(res, nameOf(body));
  const arch = architecture(m.name);
  send(res, 200, {
    modelfile: `FROM ${m.name}`,
    parameters: '',
    template: '{{ .Prompt }}',
    details: modelInfo(m).details,
    model_info: { 'general.architecture': arch, [`${arch}.context_length`]: m.contextLength ?? 32768 },
    capabilities: m.capabilities ?? ['completion', 'tools'],
  });
}

/** /api/generate with an empty prompt: load (or with keep_alive 0, unload) the model. */
function generate(state: OllamaState, body: Record<string, unknown>, res: http.ServerResponse): void {
  const name = nameOf(body);
  if (!state.models.has(name)) return notFound(res, name);
  if (body.keep_alive === 0 || body.keep_alive === '0') state.loaded.delete(name);
  else state.loaded.add(name);
  send(res, 200, {
    model: name,
    created_at: new Date().toISOString(),
    response: '',
    done: true,
    done_reason: body.keep_alive === 0 ? 'unload' : 'load',
  });
}

async function route(state: OllamaState, req: RecordedRequest, res: http.ServerResponse): Promise<void> {
  const url = req.path.split('?')[0];
  const body = (req.body ?? {}) as Record<string, unknown>;
  const key = `${req.method} ${url}`;
  if (key === 'GET /') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('Ollama is running');
  if (key === 'GET /api/version') return send(res, 200, { version: VERSION });
  if (key === 'GET /api/tags') return send(res, 200, { models: [...state.models.values()].map(modelInfo) });
  if (key === 'GET /api/ps') {
    const expires = new Date(Date.now() + 5 * 60_000).toISOString();
    const running = [...state.loaded].filter((n) => state.models.has(n));
    return send(res, 200, {
      models: running.map((n) => ({ ...modelInfo(state.models.get(n)!), expires_at: expires, size_vram: 0, context_length: 4096 })),
    });
  }
  if (key === 'POST /api/show') return show(state, body, res);
  if (key === 'POST /api/pull') return pull(state, req, res);
  if (key === 'POST /api/generate') return generate(state, body, res);
  if (key === 'POST /api/chat') return chat(state, req, res);
  send(res, 404, { error: `scripted ollama: no route ${req.method} ${url}` });
}

/**
 * Start a scripted Ollama on 127.0.0.1 speaking the native API the way the real server does:
 * `/api/tags`, `/api/show`, `/api/ps`, streamed `/api/pull`, `/api/generate` (empty prompt = load),
 * `/api/chat` (NDJSON stream by default, `stream: false` for one object, native tool calls; no
 * messages = load the model).
 */
export async function startScriptedOllama(options: ScriptedOllamaOptions = {}): Promise<ScriptedOllama> {
  const queue: ScriptedOllamaReply[] = [];
  let handler: ScriptedOllamaHandler | null = null;
  const state: OllamaState = {
    http: undefined as unknown as RecordingHttp,
    models: new Map((options.models ?? [{ name: 'qwen2.5:7b' }]).map((m) => [m.name, m])),
    library: new Map((options.library ?? []).map((m) => [m.name, m])),
    loaded: new Set<string>(),
    pullSteps: options.pullSteps ?? 3,
    next: async (req) => (handler ? handler(req) : (queue.shift() ?? { status: 500, error: 'scripted ollama: no reply queued' })),
  };
  state.http = await startRecordingHttp({
    port: options.port,
    route: (req, res) => route(state, req, res),
    failed: (res, err) => send(res, 500, { error: `scripted ollama: handler failed: ${String(err)}` }),
  });
  return {
    baseURL: `http://127.0.0.1:${state.http.port}`,
    port: state.http.port,
    models: state.models,
    loaded: state.loaded,
    requests: state.http.requests,
    enqueue: (...replies) => void queue.push(...replies),
    setHandler: (fn) => {
      handler = fn;
    },
    waitForRequests: (count) => state.http.waitForRequests(count),
    close: () => state.http.close(),
  };
}
