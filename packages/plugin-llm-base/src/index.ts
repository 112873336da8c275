/**
 * The llm-base module API other plugins require (DESIGN §3, docs/contracts.md).
 * Results are values, never thrown. What a function needs loads with its first call
 * (lazy-modules.ts), so requiring this file stays cheap.
 */
import type * as ClientModule from './client';
import type * as DoctorModule from './doctor';
import type { ProbeReport } from './probe';
import type { ApiError } from './errors';
import type { CallRecord, JsonMode, LlmConfig, ProfileConfig, ProfilePricing } from './types';
import { readLanguage, t, Lang } from './i18n';
import { callLogModule, clientModule, doctorModule, ollamaNativeModule, probeModule, storeModule, transportModule } from './lazy-modules';
import { pullModel, type PullProgress } from './ollama';
import { PRESETS } from './presets';
import { redactSecrets } from './masking';

export type { ChatOptions, ChatSuccess, CallFailure, RawSuccess, Usage } from './client';
export type { WaitInfo, WaitPhase } from './request-watch';
export type { DoctorReport, DoctorOptions, Check, CheckId } from './doctor';
export type { ApiError, ErrorCode } from './errors';
export type { CallRecord, LlmConfig, ProfileConfig, JsonMode } from './types';

/** Package version, read from package.json at run time so it never drifts. */
export const VERSION: string = require('../package.json').version;

/** What this llm-base offers beyond 1.0.x; plugin-ai checks it before using llm_chat's options. */
export const FEATURES = Object.freeze({
  chat_options: true,
  streaming: true,
  abort: true,
  response_format: true,
  doctor_profile: true,
  wait_events: true,
  pull: true,
  ollama: true,
  tools: true,
  images: true,
});

function context(): { env: NodeJS.ProcessEnv; lang: Lang } {
  return { env: process.env, lang: readLanguage(process.env) };
}

function deps() {
  return { ...context(), now: () => Date.now() };
}

/** `{success: true, data}` for profile and log functions (as 1.0.x). */
export interface DataSuccess<T> {
  success: true;
  data: T;
}
/** `{success: false, error}` for profile and log functions (no call_id, as 1.0.x). */
export interface DataFailure {
  success: false;
  error: ApiError;
}
export type DataResult<T> = DataSuccess<T> | DataFailure;

function toError(err: unknown): ApiError {
  const e = err as { name?: string; code?: unknown; message?: unknown };
  if (e && e.name === 'LlmBaseError' && typeof e.code === 'string') {
    return { code: e.code as ApiError['code'], message: redactSecrets(String(e.message)) };
  }
  return { code: 'PROVIDER_ERROR', message: redactSecrets(e && typeof e.message === 'string' ? e.message : String(err)) };
}

function wrap<T>(fn: () => T): DataResult<T> {
  try {
    return { success: true, data: fn() };
  } catch (err) {
    return { success: false, error: toError(err) };
  }
}

/** Create (or replace) a profile; missing fields take defaults. `data` is the whole config written. */
export function create_profile(name: string, profileConfig: Partial<ProfileConfig>): DataResult<LlmConfig> {
  return wrap(() => storeModule().createProfile(name, profileConfig, context()));
}

/** Merge `patch` into a profile. `data` is the whole config written. */
export function update_profile(profile_id: string, patch: Partial<ProfileConfig>): DataResult<LlmConfig> {
  return wrap(() => storeModule().updateProfile(profile_id, patch || {}, context()));
}

export function delete_profile(profile_id: string): DataResult<LlmConfig> {
  return wrap(() => storeModule().deleteProfile(profile_id, context()));
}

/** `data`: `{default_profile, profiles}` (keys as stored: literal or `env:NAME`). */
export function list_profiles(): DataResult<{ default_profile: string; profiles: Record<string, ProfileConfig> }> {
  return wrap(() => storeModule().listProfiles(context()));
}

export function set_default_profile(profile_id: string): DataResult<LlmConfig> {
  return wrap(() => storeModule().setDefaultProfile(profile_id, context()));
}

/**
 * Chat with strict JSON: `data` is always a JSON object (the fallback shape when the model
 * produced none). `options` (FEATURES.chat_options): `signal`, `onText`, `temperature`, `max_tokens`.
 */
export async function llm_chat(
  messages: Array<{ role: string; content: unknown }>,
  mode: 'low' | 'high' = 'low',
  profile: string | null = null,
  options: ClientModule.ChatOptions = {},
): Promise<ClientModule.ChatSuccess | ClientModule.CallFailure> {
  const d = deps();
  if (mode !== 'low' && mode !== 'high') {
    return { success: false, error: { code: 'PROVIDER_ERROR', message: t(d.lang, 'invalidMode', { mode: String(mode) }) }, call_id: null };
  }
  try {
    return await clientModule().chat(messages, mode, profile, options ?? {}, d);
  } catch (err) {
    return { success: false, error: toError(err), call_id: null };
  }
}

/** Send `payload` to /chat/completions unchanged; `data` is the provider's response. */
export async function llm_raw(
  payload: Record<string, unknown>,
  profile: string | null = null,
): Promise<ClientModule.RawSuccess | ClientModule.CallFailure> {
  try {
    return await clientModule().raw(payload, profile, deps());
  } catch (err) {
    return { success: false, error: toError(err), call_id: null };
  }
}

/** The call log, newest first. */
export function list_calls(): DataResult<CallRecord[]> {
  return wrap(() => {
    const { env, lang } = context();
    return callLogModule().listCalls(env, lang);
  });
}

/** One call by id, or `data: null`. */
export function get_call(call_id: string): DataResult<CallRecord | null> {
  return wrap(() => {
    const { env, lang } = context();
    return callLogModule().getCall(call_id, env, lang);
  });
}

/**
 * Diagnose a profile (the default when none is named): config, key, reachability, models, JSON
 * round trip. `options.profile` (FEATURES.doctor_profile) diagnoses that unsaved profile under
 * the name `profileName` instead, writing nothing — check before create_profile.
 */
export async function doctor(profileName?: string | null, options?: DoctorModule.DoctorOptions): Promise<DoctorModule.DoctorReport> {
  const d = deps();
  try {
    return await doctorModule().doctor(profileName ?? null, d, options ?? {});
  } catch (err) {
    const e = toError(err);
    return { ok: false, profile: profileName ?? null, checks: [{ id: 'profile', ok: false, message: e.message }] };
  }
}

/** Provider and local-server presets for `config create --preset`, with every profile field they
 * set (`json_mode` where the server takes `response_format`), so a setup that starts from one
 * keeps them all. */
export function list_presets(): Array<{
  name: string;
  base_url: string;
  low_model: string;
  high_model: string;
  needs_key: boolean;
  json_mode?: JsonMode;
  provider?: string;
  pricing?: ProfilePricing;
}> {
  return PRESETS.map((p) => ({
    name: p.name,
    base_url: p.base_url,
    low_model: p.low_model,
    high_model: p.high_model,
    needs_key: p.needs_key,
    ...(p.json_mode ? { json_mode: p.json_mode } : {}),
    ...(p.provider ? { provider: p.provider } : {}),
    ...(p.pricing ? { pricing: p.pricing } : {}),
  }));
}

/** A profile's config and its key ('' when it has none or its variable is unset), or the error
 * that says why there is no such profile. */
function profileOf(
  profile: string | null,
  ctx: ReturnType<typeof context>,
): DataSuccess<ProfileConfig & { resolvedKey: string }> | { success: false; error: ApiError } {
  let found: { profile_id: string; profile: ProfileConfig };
  try {
    found = storeModule().getProfile(profile, ctx);
  } catch (err) {
    return { success: false, error: toError(err) };
  }
  let resolvedKey: string;
  try {
    resolvedKey = storeModule().resolveApiKey(found.profile_id, found.profile, ctx);
  } catch {
    resolvedKey = ''; // a local Ollama needs none; a server that does says so itself
  }
  return { success: true, data: { ...found.profile, resolvedKey } };
}

/**
 * Download a model onto the profile's Ollama server (FEATURES.pull), reporting progress
 * (`{status, completed?, total?}`). `data.model` on success.
 */
export async function pull_model(
  model: string,
  profile: string | null = null,
  options: { onProgress?: (p: PullProgress) => void; signal?: AbortSignal } = {},
): Promise<DataResult<{ model: string }>> {
  const ctx = context();
  const found = profileOf(profile, ctx);
  if (!found.success) return found;
  const config = found.data;
  const r = await pullModel(config, model, ctx.lang, { ...options, apiKey: config.resolvedKey });
  return r.success
    ? { success: true, data: { model: r.model } }
    : { success: false, error: { code: r.error.code, message: redactSecrets(r.error.message) } };
}

/** Whether a profile is served by Ollama (`"provider": "ollama"`, or port 11434): then llm_chat
 * sends num_ctx and keep_alive natively and falls back from high to low (FEATURES.ollama). */
export function is_ollama_profile(profile: string | null = null): boolean {
  try {
    return ollamaNativeModule().isOllamaProfile(storeModule().getProfile(profile, context()).profile);
  } catch {
    return false;
  }
}

/**
 * Where the profile's model stands on its Ollama server (FEATURES.ollama): `not_running`,
 * `not_pulled`, `cold` (pulled, not loaded), `loading` (a warm-up runs) or `ready`. Never throws.
 */
export async function ollama_health(
  profile: string | null = null,
  mode: 'low' | 'high' = 'low',
): Promise<DataResult<{ state: string; model: string; message: string }>> {
  const ctx = context();
  const found = profileOf(profile, ctx);
  if (!found.success) return found;
  const config = found.data;
  const { ollamaHealth } = ollamaNativeModule();
  const h = await ollamaHealth(config, mode === 'high' ? config.high_model : config.low_model, config.resolvedKey);
  return { success: true, data: { state: h.state, model: h.model, message: t(ctx.lang, `ollamaState_${h.state}`, { model: h.model }) } };
}

/**
 * Load the profile's model on its Ollama server now, with the num_ctx real requests will use
 * (`options.min_context`, as for llm_chat) and its keep_alive, so the first answer is not a cold
 * load (FEATURES.ollama). Resolves when loaded; never throws.
 */
export async function warm_up(
  profile: string | null = null,
  mode: 'low' | 'high' = 'low',
  options: { min_context?: number } = {},
): Promise<DataResult<{ model: string }>> {
  const ctx = context();
  const found = profileOf(profile, ctx);
  if (!found.success) return found;
  const config = found.data;
  const { warmUp } = ollamaNativeModule();
  const r = await warmUp(config, mode === 'high' ? config.high_model : config.low_model, options.min_context, config.resolvedKey);
  return r.success
    ? { success: true, data: { model: r.model } }
    : { success: false, error: { code: 'PROVIDER_ERROR', message: redactSecrets(r.error ?? '') } };
}

/**
 * The transport a profile's calls use (FEATURES.tools): its `transport`, or for `auto` (the
 * default) the best its last probe passed — `tools` > `json_schema` > `json`.
 */
export function transport_for(profile: string | null = null): 'tools' | 'json_schema' | 'json' {
  try {
    return transportModule().effectiveTransport(storeModule().getProfile(profile, context()).profile);
  } catch {
    return 'json';
  }
}

/**
 * Find out what the profile's server and model can do with three small real requests (a tool
 * call, schema-following JSON, a JSON object) and record it in the profile with the date
 * (FEATURES.tools). `options.profile` probes that unsaved profile and writes nothing.
 */
export async function probe_profile(
  profileName: string | null = null,
  options: { profile?: Partial<ProfileConfig> } = {},
): Promise<DataResult<ProbeReport>> {
  const d = deps();
  try {
    const unsaved = options.profile ? storeModule().buildProfile(profileName ?? 'probe', options.profile, d) : undefined;
    return { success: true, data: await probeModule().probe(profileName, { ...d, ...(unsaved ? { unsaved } : {}) }) };
  } catch (err) {
    return { success: false, error: toError(err) };
  }
}
