import { randomUUID } from 'crypto';
import * as openai from 'openai';
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
import { hasImages, requestMessage, type ToolCall } from './transport';
import { complete, createClient, rejectsResponseFormat, sharedClient, watchedTransport, type Completed } from './openai-client';
import { completeNative, isOllamaProfile, type Fallback } from './ollama-native';

export type { Usage };

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
    .filter(
      (m): m is { role: string; content?: unknown } => !!m && typeof m === 'object' && typeof (m as { role?: unknown }).role === 'string',
    )
    .map((m) => requestMessage(m) as Record<string, unknown> & { role: string; content: unknown });
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
 * cannot be written never turns a successful answer into a failure). Metadata only. */
function logCall(
  kind: 'chat' | 'raw',
  call: { callId: string; start: number; profile: string | null },
  outcome: { model: string; usage: Usage; more?: Partial<CallRecord> } | { code: string },
  deps: CallDeps,
): void {
  const base = { call_id: call.callId, timestamp: new Date(call.start).toISOString(), profile: call.profile };
  const record: CallRecord =
    'code' in outcome
      ? { ...base, model: null, duration_ms: deps.now() - call.start, success: false, usage: null, kind, error_code: outcome.code }
      : { ...base, model: outcome.model, duration_ms: deps.now() - call.start, success: true, usage: outcome.usage, kind, ...outcome.more };
  addCall(record, deps.env, deps.lang);
}

/** A model the probe found blind gets a clear message instead of a failed (and paid) call. */
function refuseImagesIfBlind(messages: unknown, profileId: string, profile: ProfileConfig, model: string, lang: Lang): void {
  const caps = profile.capabilities as { vision?: boolean; probed_at?: string } | undefined;
  if (caps?.vision === false && Array.isArray(messages) && messages.some((m) => hasImages(m as { content?: unknown }))) {
    throw new LlmBaseError(
      'PROVIDER_ERROR',
      t(lang, 'noVision', { profile: profileId, model, date: String(caps.probed_at ?? '').slice(0, 10) }),
      'no_vision',
    );
  }
}

/** The request body of a chat: the strict-JSON prompt unless tool calls carry the structure (transport.ts). */
function chatBody(
  messages: unknown,
  model: string,
  profile: ProfileConfig,
  options: ChatOptions,
  tools: unknown[] | undefined,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: [...(tools ? [] : [{ role: 'system', content: JSON_MODE_SYSTEM_PROMPT }]), ...normalizeMessages(messages)],
    ...(tools ? { tools } : {}),
    ...promptCacheKey(profile.base_url, options.cache_key),
  };
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.max_tokens !== undefined) body.max_tokens = options.max_tokens;
  return body;
}

/** What one chat request needs on its way out. */
interface ChatRequest {
  profileId: string;
  profile: ProfileConfig;
  mode: 'low' | 'high';
  apiKey: string;
  body: Record<string, unknown>;
  tools: unknown[] | undefined;
  options: ChatOptions;
  watch: RequestWatch;
  connectMs: number;
  deps: CallDeps;
}

/**
 * Send a chat the way its server takes it: Ollama's native API (num_ctx and keep_alive,
 * ollama-native.ts), the OpenAI API with a response_format (json_schema, or json_object where
 * the profile says so; sent again without it when the server refuses it), or plain.
 */
async function completeChat(req: ChatRequest): Promise<Completed & { model?: string; fallback?: Fallback }> {
  const { profile, body, options, watch, connectMs, deps } = req;
  if (isOllamaProfile(profile)) {
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    return completeNative({
      profile,
      mode: req.mode,
      messages,
      options,
      watch,
      transport: watchedTransport(watch, connectMs),
      lang: deps.lang,
      apiKey: req.apiKey,
    });
  }
  const schema =
    !req.tools && options.json_schema ? { type: 'json_schema', json_schema: { strict: false, ...options.json_schema } } : undefined;
  const client = sharedClient(openai, profile, req.apiKey);
  if (!schema && (req.tools || profile.json_mode !== 'response_format')) return complete(client, body, options, watch, connectMs);
  try {
    return await complete(client, { ...body, response_format: schema ?? { type: 'json_object' } }, options, watch, connectMs);
  } catch (err) {
    if (!rejectsResponseFormat(err, openai) || watch.signal.aborted) throw err;
    const done = { ...(await complete(client, body, options, watch, connectMs)), formatRejected: true };
    // Only now is it clear the parameter was the problem: remember it for this profile. If that
    // write fails (config locked or read-only) the answer still stands; the next call simply
    // pays for one more rejected attempt.
    if (!deps.unsaved && !schema)
      await rememberJsonMode(req.profileId, 'prompt', { env: deps.env, lang: deps.lang }).catch(() => undefined);
    return done;
  }
}

/** llm_chat after the mode check: strict JSON, optional streaming, logged. Never throws. */
export async function chat(
  messages: unknown,
  mode: 'low' | 'high',
  profileName: string | null,
  options: ChatOptions,
  deps: CallDeps,
): Promise<ChatSuccess | CallFailure> {
  const call = { callId: randomUUID(), start: deps.now(), profile: profileName ?? null };
  const ctx: StoreContext = { env: deps.env, lang: deps.lang };
  const mapCtx: MapContext = { lang: deps.lang, signal: options.signal };
  let sdk: Sdk | undefined;
  let watch: RequestWatch | undefined;
  try {
    const { profile_id, profile } = deps.unsaved ?? getProfile(profileName, ctx);
    mapCtx.profileId = call.profile = profile_id;
    mapCtx.profile = profile;
    const apiKey = resolveApiKey(profile_id, profile, ctx);
    mapCtx.apiKey = apiKey;
    const model = mode === 'high' ? profile.high_model : profile.low_model;
    if (options.signal?.aborted) throw new LlmBaseError('NETWORK_ERROR', t(deps.lang, 'aborted'), 'aborted');
    refuseImagesIfBlind(messages, profile_id, profile, model, deps.lang);
    sdk = openai;
    const limits = waitLimits(profile);
    watch = new RequestWatch(limits, { model, server: serverOf(profile.base_url) }, options.onWait, options.signal);
    const tools = Array.isArray(options.tools) && options.tools.length ? options.tools : undefined;
    const body = chatBody(messages, model, profile, options, tools);
    const done = await completeChat({
      profileId: profile_id,
      profile,
      mode,
      apiKey,
      body,
      tools,
      options,
      watch,
      connectMs: limits.connect,
      deps,
    });
    const extracted = extractJsonObject(done.text);
    const usage = priced(normalizeUsage(done.usage), profile, done.model && done.model !== model ? 'low' : mode);
    const result: ChatSuccess = {
      success: true,
      model: done.model ?? model,
      data: extracted.data,
      usage,
      call_id: call.callId,
      ...(done.fallback ? { fallback: done.fallback } : {}),
      ...(tools ? { text: done.text, tool_calls: done.toolCalls ?? [] } : {}),
      ...(done.formatRejected ? { format_rejected: true } : {}),
    };
    logCall(
      'chat',
      call,
      { model: result.model, usage, more: { ...(options.onText ? { stream: true } : {}), json_method: extracted.method } },
      deps,
    );
    return result;
  } catch (err) {
    const error = watch?.timedOut && !options.signal?.aborted ? waitTimeoutError(watch, mapCtx) : mapError(err, mapCtx, sdk);
    logCall('chat', call, { code: error.code }, deps);
    return { success: false, error, call_id: call.callId };
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
  const call = { callId: randomUUID(), start: deps.now(), profile: profileName ?? null };
  const ctx: StoreContext = { env: deps.env, lang: deps.lang };
  const mapCtx: MapContext = { lang: deps.lang };
  let sdk: Sdk | undefined;
  try {
    const { profile_id, profile } = getProfile(profileName, ctx);
    mapCtx.profileId = call.profile = profile_id;
    mapCtx.profile = profile;
    const body = payload ?? {};
    if (typeof body !== 'object' || Array.isArray(body))
      throw new LlmBaseError('PROVIDER_ERROR', t(deps.lang, 'invalidPayload'), 'invalid_payload');
    const apiKey = resolveApiKey(profile_id, profile, ctx);
    mapCtx.apiKey = apiKey;
    sdk = openai;
    const client = createClient(sdk, profile, apiKey);
    const request = body as Record<string, unknown>;
    let data: unknown;
    let usage: unknown;
    if (request.stream === true) {
      // A streamed answer comes back as the list of its chunks.
      const stream = (await client.post<unknown>('/chat/completions', { body: request, stream: true })) as unknown as AsyncIterable<
        Record<string, unknown>
      >;
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
    const model = (typeof d.model === 'string' && d.model) || (typeof request.model === 'string' && request.model) || profile.low_model;
    const result: RawSuccess = { success: true, model, data, usage: normalizeUsage(usage), call_id: call.callId };
    logCall('raw', call, { model, usage: result.usage }, deps);
    return result;
  } catch (err) {
    const error = mapError(err, mapCtx, sdk);
    logCall('raw', call, { code: error.code }, deps);
    return { success: false, error, call_id: call.callId };
  }
}
