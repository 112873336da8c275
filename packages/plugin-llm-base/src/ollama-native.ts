/**
 * Ollama as a first-class service. Ollama's OpenAI-compatible endpoint has no way to set the
 * context size or how long the model stays loaded, and its default context (2k–4k tokens)
 * silently cuts an agent's prompt. So for an Ollama profile llm_chat talks to the native
 * `/api/chat` through the official `ollama` client, with `options.num_ctx` and `keep_alive` on
 * every request; `warmUp` loads the model before the first question; `ollamaHealth` says whether
 * the server runs, the model is pulled, loading or ready.
 *
 * A profile is an Ollama one when it says `"provider": "ollama"`, or when its base_url's port is
 * 11434 (Ollama's) and it does not say another provider.
 */
import type { Lang } from './i18n';
import { t } from './i18n';
import { LlmBaseError } from './errors';
import { ollamaHost } from './ollama';
import type { ProfileConfig } from './types';
import type { ChatOptions } from './client';
import type { Transport } from './openai-client';
import { createHttpFetch } from './http-fetch';
import { ollamaSdk } from './lazy-modules';
import type { RequestWatch } from './request-watch';
import { ollamaMessage, toolCallsOf, type ToolCall } from './transport';

/** Context tokens when the caller names no budget (plugin-ai passes its own). */
export const DEFAULT_MIN_CONTEXT = 8192;
export const DEFAULT_KEEP_ALIVE = '30m';

export function isOllamaProfile(profile: Pick<ProfileConfig, 'base_url'> & { provider?: unknown }): boolean {
  if (typeof profile.provider === 'string') return profile.provider.toLowerCase() === 'ollama';
  try {
    return new URL(profile.base_url).port === '11434';
  } catch {
    return false;
  }
}

type OllamaClient = import('ollama').Ollama;

/** The client for a profile; `fetch` is the caller's (connect limit, abort, first-token watch). */
export function ollamaClient(profile: Pick<ProfileConfig, 'base_url'>, fetchImpl?: typeof fetch, apiKey?: string): OllamaClient {
  const { Ollama } = ollamaSdk();
  // A key (a hosted or proxied Ollama) goes as a bearer token, as on the OpenAI path.
  return new Ollama({
    host: ollamaHost(profile),
    fetch: fetchImpl ?? createHttpFetch(),
    ...(apiKey ? { headers: { Authorization: `Bearer ${apiKey}` } } : {}),
  });
}

/** Models' own maximum context, from /api/show, per server and model (asked once per process). */
const maxContext = new Map<string, number | undefined>();

async function modelMaxContext(client: OllamaClient, host: string, model: string): Promise<number | undefined> {
  const key = `${host}\0${model}`;
  if (maxContext.has(key)) return maxContext.get(key);
  let max: number | undefined;
  try {
    const shown = await client.show({ model });
    const info = (shown.model_info ?? {}) as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(info)) if (k.endsWith('.context_length') && typeof v === 'number' && v > 0) max = v;
  } catch {
    return undefined; // not known (yet: a model pulled later is asked again); the chat reports a missing one
  }
  maxContext.set(key, max);
  return max;
}

/**
 * num_ctx for a request: the profile's `num_ctx`, never below what the caller needs (its prompt
 * budget plus room for the answer), rounded up to a multiple of 1024, capped by the model's own
 * maximum. The same inputs always give the same value, so Ollama does not reload the model.
 */
export async function numCtxFor(client: OllamaClient, profile: ProfileConfig, model: string, minContext?: number): Promise<number> {
  const wanted = Math.max(typeof profile.num_ctx === 'number' ? profile.num_ctx : 0, minContext ?? DEFAULT_MIN_CONTEXT);
  const rounded = Math.ceil(wanted / 1024) * 1024;
  const max = await modelMaxContext(client, ollamaHost(profile), model);
  return max ? Math.min(rounded, max) : rounded;
}

export function keepAliveOf(profile: ProfileConfig): string | number {
  const k = profile.keep_alive;
  return typeof k === 'string' || typeof k === 'number' ? k : DEFAULT_KEEP_ALIVE;
}

export interface NativeChat {
  messages: Array<Record<string, unknown>>;
  model: string;
  /** `'json'`, a JSON Schema, or none. */
  format?: unknown;
  tools?: unknown[];
  temperature?: number;
  max_tokens?: number;
  numCtx: number;
  keepAlive: string | number;
  onText?: (delta: string) => void;
  /** Called for every piece received (the first-token and idle watch). */
  onPiece: () => void;
}

/** One /api/chat call: the reply's text and OpenAI-shaped usage. Throws ResponseError / network errors. */
export async function nativeChat(
  client: OllamaClient,
  req: NativeChat,
): Promise<{ text: string; usage: { prompt_tokens: number; completion_tokens: number }; toolCalls: ToolCall[] }> {
  const options: Record<string, number> = { num_ctx: req.numCtx };
  if (req.temperature !== undefined) options.temperature = req.temperature;
  if (req.max_tokens !== undefined) options.num_predict = req.max_tokens;
  const base = {
    model: req.model,
    messages: req.messages.map((m) => ollamaMessage(m)) as unknown as import('ollama').Message[],
    options,
    keep_alive: req.keepAlive,
    ...(req.format !== undefined ? { format: req.format as string } : {}),
    ...(req.tools ? { tools: req.tools as import('ollama').Tool[] } : {}),
  };
  const usage = (r: { prompt_eval_count?: number; eval_count?: number }) => ({
    prompt_tokens: r.prompt_eval_count ?? 0,
    completion_tokens: r.eval_count ?? 0,
  });
  const calls: ToolCall[] = [];
  // Ollama's calls have no ids: number them across the answer.
  const collect = (message: unknown) => {
    for (const c of toolCallsOf(message)) calls.push({ ...c, id: `call_${calls.length}` });
  };
  if (!req.onText) {
    const r = await client.chat({ ...base, stream: false });
    req.onPiece();
    collect(r.message);
    return { text: r.message?.content ?? '', usage: usage(r), toolCalls: calls };
  }
  let text = '';
  let last: { prompt_eval_count?: number; eval_count?: number } = {};
  for await (const part of await client.chat({ ...base, stream: true })) {
    req.onPiece();
    const delta = part.message?.content ?? '';
    if (delta) {
      text += delta;
      req.onText(delta);
    }
    collect(part.message);
    if (part.done) last = part;
  }
  return { text, usage: usage(last), toolCalls: calls };
}

/** Whether an error of the high model means it cannot be loaded here (not pulled, out of memory). */
export function cannotLoad(err: unknown): string | undefined {
  const e = err as { name?: string; status_code?: number; message?: string };
  if (e?.name !== 'ResponseError') return undefined;
  const m = e.message ?? '';
  if (e.status_code === 404 || /not found/i.test(m)) return 'not_pulled';
  if (/memory|unable to load|failed to load|out of/i.test(m)) return 'cannot_load';
  return undefined;
}

/** An Ollama ResponseError as our error, saying what to do. */
export function ollamaError(err: unknown, model: string, lang: Lang): LlmBaseError | undefined {
  const e = err as { name?: string; status_code?: number; message?: string };
  if (e?.name !== 'ResponseError') return undefined;
  if (cannotLoad(err) === 'not_pulled') return new LlmBaseError('PROVIDER_ERROR', t(lang, 'ollamaNotPulled', { model }), 'ollama');
  return new LlmBaseError('PROVIDER_ERROR', t(lang, 'ollamaError', { status: e.status_code ?? 0, detail: e.message ?? '' }), 'ollama');
}

export type OllamaState = 'not_running' | 'not_pulled' | 'cold' | 'loading' | 'ready';

/** Warm-ups in flight, per server and model (`loading` until they end). */
const warming = new Set<string>();

/** Where a model stands on the profile's server: from /api/tags and /api/ps. Never throws. */
export async function ollamaHealth(
  profile: ProfileConfig,
  model: string,
  apiKey?: string,
): Promise<{ state: OllamaState; model: string; detail?: string }> {
  const client = ollamaClient(profile, undefined, apiKey);
  const host = ollamaHost(profile);
  try {
    const tags = await client.list();
    const has = (list: Array<{ name?: string; model?: string }>) =>
      list.some((m) => m.name === model || m.model === model || m.name === `${model}:latest`);
    if (!has(tags.models)) return { state: 'not_pulled', model };
    const ps = await client.ps();
    if (has(ps.models)) return { state: 'ready', model };
    return { state: warming.has(`${host}\0${model}`) ? 'loading' : 'cold', model };
  } catch (err) {
    const e = err as { cause?: { code?: string }; message?: string };
    return { state: 'not_running', model, detail: e.cause?.code ?? e.message ?? String(err) };
  }
}

/**
 * Load the model now, with the num_ctx and keep_alive real requests will use (a different num_ctx
 * would make Ollama load it again), so the first answer is not a cold load. An empty chat loads
 * the model without generating anything. Never throws.
 */
export async function warmUp(
  profile: ProfileConfig,
  model: string,
  minContext?: number,
  apiKey?: string,
): Promise<{ success: boolean; model: string; error?: string }> {
  const client = ollamaClient(profile, undefined, apiKey);
  const key = `${ollamaHost(profile)}\0${model}`;
  warming.add(key);
  try {
    const numCtx = await numCtxFor(client, profile, model, minContext);
    await client.chat({ model, messages: [], keep_alive: keepAliveOf(profile), options: { num_ctx: numCtx }, stream: false });
    return { success: true, model };
  } catch (err) {
    return { success: false, model, error: (err as Error)?.message ?? String(err) };
  } finally {
    warming.delete(key);
  }
}

/** What llm_chat asks of an Ollama profile. */
export interface NativeCall {
  profile: ProfileConfig;
  mode: 'low' | 'high';
  messages: Array<{ role: string; content: unknown }>;
  options: ChatOptions;
  /** The request's watch (first token, idle, the caller's abort) and transport (connect limit). */
  watch: RequestWatch;
  transport: Transport;
  lang: Lang;
  /** The profile's resolved key ('' for a local server). */
  apiKey: string;
}

/** When the high model could not be loaded and the low one answered instead. */
export interface Fallback {
  from: string;
  to: string;
  reason: 'not_pulled' | 'cannot_load';
}

/**
 * llm_chat's request on an Ollama profile: native /api/chat with num_ctx and keep_alive. When the
 * high model cannot be loaded (not pulled, not enough memory) and the low one differs, the low one
 * answers and `fallback` says so. Throws our errors (LlmBaseError) or network ones.
 */
export async function completeNative(
  call: NativeCall,
): Promise<{ text: string; usage: unknown; model: string; fallback?: Fallback; toolCalls: ToolCall[] }> {
  const { watch, transport, options } = call;
  const watchedFetch = ((url: string, init?: RequestInit) =>
    transport.fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, watch.signal]) : watch.signal })) as typeof fetch;
  const client = ollamaClient(call.profile, watchedFetch, call.apiKey);
  const messages = call.messages as Array<Record<string, unknown>>;
  const tools = Array.isArray(options.tools) && options.tools.length ? options.tools : undefined;
  const format = tools
    ? undefined
    : options.json_schema
      ? options.json_schema.schema
      : call.profile.json_mode === 'response_format'
        ? 'json'
        : undefined;
  const run = async (model: string) =>
    nativeChat(client, {
      messages,
      model,
      format,
      tools,
      temperature: options.temperature,
      max_tokens: options.max_tokens,
      onText: options.onText,
      onPiece: () => watch.received(),
      numCtx: await numCtxFor(client, call.profile, model, options.min_context),
      keepAlive: keepAliveOf(call.profile),
    });
  const first = call.mode === 'high' ? call.profile.high_model : call.profile.low_model;
  try {
    return { ...(await run(first)), model: first };
  } catch (err) {
    const reason = cannotLoad(err);
    const low = call.profile.low_model;
    if (call.mode === 'high' && reason && low !== first && !watch.signal.aborted) {
      try {
        return { ...(await run(low)), model: low, fallback: { from: first, to: low, reason: reason as Fallback['reason'] } };
      } catch (lowErr) {
        throw ollamaError(lowErr, low, call.lang) ?? lowErr;
      }
    }
    throw ollamaError(err, first, call.lang) ?? err;
  }
}
