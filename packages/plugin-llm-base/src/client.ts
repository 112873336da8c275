import { randomUUID } from 'crypto';
import * as openai from 'openai';
import type OpenAIType from 'openai';
import { addCall } from './call-log';
import { getProfile, rememberJsonMode, resolveApiKey, StoreContext } from './config-store';
import { ApiError, LlmBaseError } from './errors';
import { extractJsonObject } from './json-extract';
import { Lang, t } from './i18n';
import { RequestWatch, type WaitInfo } from './request-watch';
import type { CallRecord, ProfileConfig } from './types';
import { serverOf, waitLimits } from './wait-limits';
import { causeCode, mapError, seconds, type MapContext } from './map-error';

export { causeCode, mapError };
import { normalizeUsage, priced, type Usage } from './token-usage';
import { promptCacheKey } from './prompt-cache';
import { contentToText, hasImages, requestMessage, ToolCallAssembler, toolCallsOf, type ToolCall } from './transport';
import { createHttpFetch, FETCH_HOOKS, type FetchHooks } from './http-fetch';
import { completeNative, isOllamaProfile, type Fallback } from './ollama-native';

export { normalizeUsage, type Usage };

type Sdk = typeof openai;

/** The strict-JSON system prompt prepended to every llm_chat (the original's wording). */
export const JSON_MODE_SYSTEM_PROMPT = [
  'You are in strict JSON mode.',
  'You must return exactly one valid JSON object and nothing else.',
  'Do not output markdown, code fences, or explanations.',
  'If the user asks for plain text, wrap it as JSON fields.',
  'If you cannot fulfill the request, still return a JSON object with an error field.',
].join('\n');

/** Per-call options of llm_chat (contracts.md). */
export interface ChatOptions {
  /** Aborts the request; the result is a NETWORK_ERROR failure. */
  signal?: AbortSignal;
  /** Streams the reply: called with each piece of text as it arrives. */
  onText?: (delta: string) => void;
  temperature?: number;
  max_tokens?: number;
  /** Told what the request waits for (connection, first token, next piece) and its limit,
   * so a caller can show it (FEATURES.wait_events). */
  onWait?: (info: WaitInfo) => void;
  /** Tokens the caller's prompt may take plus room for the answer: an Ollama profile's num_ctx is
   * never below it (FEATURES.ollama). */
  min_context?: number;
  /** OpenAI tool definitions (FEATURES.tools): sent as `tools`, without the strict-JSON prompt;
   * the answer's `text` and `tool_calls` come back. */
  tools?: unknown[];
  /** A JSON Schema the answer must follow (FEATURES.tools): `response_format: {type: "json_schema"}`. */
  json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean };
  /** One key per conversation for the provider's prompt cache: sent as `prompt_cache_key` only
   * to a provider known to take it (prompt-cache.ts), never to another server. */
  cache_key?: string;
}


export interface ChatSuccess {
  success: true;
  model: string;
  data: Record<string, unknown>;
  usage: Usage;
  call_id: string;
  /** Ollama: the high model could not be loaded and the low one answered (FEATURES.ollama). */
  fallback?: { from: string; to: string; reason: string };
  /** With `options.tools`: the answer's text and its tool calls (arguments as the model's JSON text). */
  text?: string;
  tool_calls?: ToolCall[];
  /** The server refused the requested response_format (json_schema / json_object) and the answer came without it. */
  format_rejected?: boolean;
}

export interface CallFailure {
  success: false;
  error: ApiError;
  call_id: string | null;
}

export interface RawSuccess {
  success: true;
  model: string;
  data: unknown;
  usage: Usage;
  call_id: string;
}



/** Keep well-formed messages; content null/undefined becomes '' (as 1.0.x did); an assistant's
 * `tool_calls` and a tool message's `tool_call_id` stay. */
function normalizeMessages(messages: unknown): Array<Record<string, unknown> & { role: string; content: unknown }> {
  if (!Array.isArray(messages)) return [];
  return messages
    .filter((m): m is { role: string; content?: unknown } => !!m && typeof m === 'object' && typeof (m as { role?: unknown }).role === 'string')
    .map((m) => requestMessage(m) as Record<string, unknown> & { role: string; content: unknown });
}

/** How requests go out: node:http's fetch (http-fetch.ts) with this request's connect limit and hook. */
export interface Transport {
  fetch: typeof fetch;
}

/**
 * A transport whose connection attempt gives up after `connectMs` and tells the watch when the
 * connection is up (the SDK's own timeout only covers the whole wait for response headers,
 * which a local server loading a model legitimately keeps long).
 */
function watchedTransport(watch: RequestWatch, connectMs: number): Transport {
  return { fetch: createHttpFetch(watchHooks(watch, connectMs)) };
}

function watchHooks(watch: RequestWatch, connectMs: number): FetchHooks {
  return { connectMs, connected: () => watch.connected() };
}

/** The request options that give one request its watch (signal, connect limit, connected). */
function watched(watch: RequestWatch, connectMs: number): OpenAIType.RequestOptions {
  return { signal: watch.signal, fetchOptions: { [FETCH_HOOKS]: watchHooks(watch, connectMs) } as OpenAIType.RequestOptions['fetchOptions'] };
}

/**
 * Clients kept for the process, one per server, key, time-out and retries: building one costs
 * about 0.2 ms, and one client keeps its connections (each request brings its own watch).
 */
const clients = new Map<string, OpenAIType>();

function sharedClient(sdk: Sdk, profile: ProfileConfig, apiKey: string): OpenAIType {
  const key = [profile.base_url, apiKey, profile.timeout, profile.max_retries ?? 2].join('\u0000');
  let client = clients.get(key);
  if (!client) {
    if (clients.size >= 8) clients.delete(clients.keys().next().value as string);
    client = createClient(sdk, profile, apiKey);
    clients.set(key, client);
  }
  return client;
}

/** A client for one profile; keys never reach the environment-driven SDK defaults. */
export function createClient(sdk: Sdk, profile: ProfileConfig, apiKey: string, transport?: Transport): OpenAIType {
  return new sdk.OpenAI({
    fetch: (transport?.fetch ?? createHttpFetch()) as never,
    baseURL: profile.base_url.replace(/\/+$/, ''),
    // The SDK refuses an empty key; keyless local servers ignore whatever is sent.
    apiKey: apiKey || 'no-key',
    organization: null,
    project: null,
    timeout: profile.timeout,
    maxRetries: profile.max_retries ?? 2,
    logLevel: 'off',
  });
}

/** A 400/422 after sending response_format: the provider does not take that parameter. */
function rejectsResponseFormat(err: unknown, sdk: Sdk): boolean {
  return err instanceof sdk.APIError && (err.status === 400 || err.status === 422);
}

export interface CallDeps {
  env: NodeJS.ProcessEnv;
  lang: Lang;
  now: () => number;
  /** A profile that is not saved (doctor before create_profile): used instead of the config
   * file, and never written back (no json_mode memory). */
  unsaved?: { profile_id: string; profile: ProfileConfig };
}

/** The call's log line (call-log.ts writes it once the caller has its answer; a log that
 * cannot be written never turns a successful answer into a failure). */
function log(record: CallRecord, deps: CallDeps): void {
  addCall(record, deps.env, deps.lang);
}

/** The log line of a call that failed: metadata only, like every log line. */
function logFailure(
  kind: 'chat' | 'raw',
  call: { callId: string; start: number; profile: string | null; code: string },
  deps: CallDeps,
): void {
  log(
    {
      call_id: call.callId,
      timestamp: new Date(call.start).toISOString(),
      profile: call.profile,
      model: null,
      duration_ms: deps.now() - call.start,
      success: false,
      usage: null,
      kind,
      error_code: call.code,
    },
    deps,
  );
}

interface Completed {
  text: string;
  usage: unknown;
  toolCalls?: ToolCall[];
  /** The server refused the response_format; the answer came without it. */
  formatRejected?: boolean;
}

async function complete(client: OpenAIType, body: Record<string, unknown>, options: ChatOptions, watch: RequestWatch, connectMs: number): Promise<Completed> {
  if (options.onText) {
    const stream = await client.chat.completions.create(
      { ...(body as object), stream: true, stream_options: { include_usage: true } } as OpenAIType.Chat.ChatCompletionCreateParamsStreaming,
      watched(watch, connectMs),
    );
    let text = '';
    let usage: unknown;
    const calls = new ToolCallAssembler();
    for await (const chunk of stream) {
      // Any piece counts, also one without content (a model that streams its reasoning).
      watch.received();
      const delta = chunk.choices?.[0]?.delta;
      if (typeof delta?.content === 'string' && delta.content !== '') {
        text += delta.content;
        options.onText(delta.content);
      }
      calls.push(delta?.tool_calls);
      if (chunk.usage) usage = chunk.usage;
    }
    // The SDK ends the iteration quietly when aborted.
    if (watch.signal.aborted) throw new LlmBaseError('NETWORK_ERROR', 'aborted', 'aborted');
    return { text, usage, toolCalls: calls.result() };
  }
  const res = await client.chat.completions.create(body as unknown as OpenAIType.Chat.ChatCompletionCreateParamsNonStreaming, watched(watch, connectMs));
  const message = res.choices?.[0]?.message;
  return { text: contentToText(message?.content), usage: res.usage, toolCalls: toolCallsOf(message) };
}

/** llm_chat after the mode check: strict JSON, optional streaming, logged. Never throws. */
export async function chat(
  messages: unknown,
  mode: 'low' | 'high',
  profileName: string | null,
  options: ChatOptions,
  deps: CallDeps,
): Promise<ChatSuccess | CallFailure> {
  const callId = randomUUID();
  const start = deps.now();
  const ctx: StoreContext = { env: deps.env, lang: deps.lang };
  const mapCtx: MapContext = { lang: deps.lang, signal: options.signal };
  let sdk: Sdk | undefined;
  let watch: RequestWatch | undefined;
  try {
    const { profile_id, profile } = deps.unsaved ?? getProfile(profileName, ctx);
    mapCtx.profileId = profile_id;
    mapCtx.profile = profile;
    const apiKey = resolveApiKey(profile_id, profile, ctx);
    mapCtx.apiKey = apiKey;
    const model = mode === 'high' ? profile.high_model : profile.low_model;
    if (options.signal?.aborted) throw new LlmBaseError('NETWORK_ERROR', t(deps.lang, 'aborted'), 'aborted');
    // A model the probe found blind gets a clear message instead of a failed (and paid) call.
    const caps = profile.capabilities as { vision?: boolean; probed_at?: string } | undefined;
    if (caps?.vision === false && Array.isArray(messages) && messages.some((m) => hasImages(m as { content?: unknown }))) {
      throw new LlmBaseError('PROVIDER_ERROR', t(deps.lang, 'noVision', { profile: profile_id, model, date: String(caps.probed_at ?? '').slice(0, 10) }), 'no_vision');
    }
    sdk = openai;
    const limits = waitLimits(profile);
    watch = new RequestWatch(limits, { model, server: serverOf(profile.base_url) }, options.onWait, options.signal);
    // Tool calls carry their own structure: no strict-JSON prompt then (transport.ts).
    const tools = Array.isArray(options.tools) && options.tools.length ? options.tools : undefined;
    const body: Record<string, unknown> = {
      model,
      messages: [...(tools ? [] : [{ role: 'system', content: JSON_MODE_SYSTEM_PROMPT }]), ...normalizeMessages(messages)],
      ...(tools ? { tools } : {}),
      ...promptCacheKey(profile.base_url, options.cache_key),
    };
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.max_tokens !== undefined) body.max_tokens = options.max_tokens;
    const schema = !tools && options.json_schema ? { type: 'json_schema', json_schema: { strict: false, ...options.json_schema } } : undefined;

    let done: Completed & { model?: string; fallback?: Fallback };
    if (isOllamaProfile(profile)) {
      // Ollama: the native API, which takes num_ctx and keep_alive (ollama-native.ts).
      const transport = watchedTransport(watch, limits.connect);
      done = await completeNative({ profile, mode, messages: body.messages as Array<{ role: string; content: unknown }>, options, watch, transport, lang: deps.lang, apiKey });
    } else if (schema || (!tools && profile.json_mode === 'response_format')) {
      const client = sharedClient(sdk, profile, apiKey);
      try {
        done = await complete(client, { ...body, response_format: schema ?? { type: 'json_object' } }, options, watch, limits.connect);
      } catch (err) {
        if (!rejectsResponseFormat(err, sdk) || watch.signal.aborted) throw err;
        done = { ...(await complete(client, body, options, watch, limits.connect)), formatRejected: true };
        // Only now is it clear the parameter was the problem: remember it for this profile.
        // If that write fails (config locked or read-only) the answer still stands; the next
        // call simply pays for one more rejected attempt.
        if (!deps.unsaved && !schema) await rememberJsonMode(profile_id, 'prompt', ctx).catch(() => undefined);
      }
    } else {
      done = await complete(sharedClient(sdk, profile, apiKey), body, options, watch, limits.connect);
    }
    const extracted = extractJsonObject(done.text);
    const usage = priced(normalizeUsage(done.usage), profile, done.model && done.model !== model ? 'low' : mode);
    const result: ChatSuccess = {
      success: true,
      model: done.model ?? model,
      data: extracted.data,
      usage,
      call_id: callId,
      ...(done.fallback ? { fallback: done.fallback } : {}),
      ...(tools ? { text: done.text, tool_calls: done.toolCalls ?? [] } : {}),
      ...(done.formatRejected ? { format_rejected: true } : {}),
    };
    log(
      {
        call_id: callId,
        timestamp: new Date(start).toISOString(),
        profile: profile_id,
        model: result.model,
        duration_ms: deps.now() - start,
        success: true,
        usage: result.usage,
        kind: 'chat',
        ...(options.onText ? { stream: true } : {}),
        json_method: extracted.method,
      },
      deps,
    );
    return result;
  } catch (err) {
    const error = watch?.timedOut && !options.signal?.aborted ? waitTimeoutError(watch, mapCtx) : mapError(err, mapCtx, sdk);
    logFailure('chat', { callId, start, profile: mapCtx.profileId ?? profileName ?? null, code: error.code }, deps);
    return { success: false, error, call_id: callId };
  } finally {
    watch?.done();
  }
}


/** The message of a request the watch gave up: what was late, by how long, and what to do. */
function waitTimeoutError(watch: RequestWatch, ctx: MapContext): ApiError {
  const timedOut = watch.timedOut!;
  const vars = {
    model: watch.info.model,
    server: watch.info.server,
    s: seconds(timedOut.limitMs),
    name: ctx.profileId ?? '',
  };
  const key = timedOut.phase === 'streaming' ? 'idleTimeout' : 'firstTokenTimeout';
  return { code: 'NETWORK_ERROR', message: t(ctx.lang, key, vars) };
}

/** llm_raw: the payload goes to /chat/completions unchanged. Never throws. */
export async function raw(payload: unknown, profileName: string | null, deps: CallDeps): Promise<RawSuccess | CallFailure> {
  const callId = randomUUID();
  const start = deps.now();
  const ctx: StoreContext = { env: deps.env, lang: deps.lang };
  const mapCtx: MapContext = { lang: deps.lang };
  let sdk: Sdk | undefined;
  try {
    const { profile_id, profile } = getProfile(profileName, ctx);
    mapCtx.profileId = profile_id;
    mapCtx.profile = profile;
    const body = payload ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) throw new LlmBaseError('PROVIDER_ERROR', t(deps.lang, 'invalidPayload'), 'invalid_payload');
    const apiKey = resolveApiKey(profile_id, profile, ctx);
    mapCtx.apiKey = apiKey;
    sdk = openai;
    const client = createClient(sdk, profile, apiKey);
    const request = body as Record<string, unknown>;
    let data: unknown;
    let usage: unknown;
    if (request.stream === true) {
      // A streamed answer comes back as the list of its chunks.
      const stream = await client.post<unknown>('/chat/completions', { body: request, stream: true }) as unknown as AsyncIterable<Record<string, unknown>>;
      const chunks: Array<Record<string, unknown>> = [];
      for await (const chunk of stream) {
        chunks.push(chunk);
        if (chunk.usage) usage = chunk.usage;
      }
      data = { object: 'chat.completion.chunk.list', chunks };
    } else {
      data = await client.post<unknown>('/chat/completions', { body: request });
      usage = (data as { usage?: unknown } | null)?.usage;
    }
    const d = (data && typeof data === 'object' ? data : {}) as { model?: unknown };
    const model =
      (typeof d.model === 'string' && d.model) || (typeof request.model === 'string' && request.model) || profile.low_model;
    const result: RawSuccess = { success: true, model, data, usage: normalizeUsage(usage), call_id: callId };
    log(
      {
        call_id: callId,
        timestamp: new Date(start).toISOString(),
        profile: profile_id,
        model,
        duration_ms: deps.now() - start,
        success: true,
        usage: result.usage,
        kind: 'raw',
      },
      deps,
    );
    return result;
  } catch (err) {
    const error = mapError(err, mapCtx, sdk);
    logFailure('raw', { callId, start, profile: mapCtx.profileId ?? profileName ?? null, code: error.code }, deps);
    return { success: false, error, call_id: callId };
  }
}
