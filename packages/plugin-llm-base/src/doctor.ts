import * as openai from 'openai';
import { chat, CallDeps } from './client';
import { buildProfile, getProfile, resolveApiKey, StoreContext } from './config-store';
import { LlmBaseError } from './errors';
import { t, type Lang } from './i18n';
import { causeCode } from './map-error';
import { isOllamaProfile, ollamaHealth } from './ollama-native';
import { createClient } from './openai-client';
import { configPath } from './paths';
import { findPreset, localPreset, Preset, startHintOf } from './presets';
import { redactSecrets } from './masking';
import { probe } from './probe';
import { effectiveTransport } from './transport';
import type { ProfileConfig } from './types';
import type { DoctorCheck, DoctorReport as BaseDoctorReport } from '@holic512/shared/lib/llm-base-contract';

export type CheckId = 'profile' | 'api_key' | 'reachable' | 'auth' | 'models' | 'ollama' | 'json';

export type Check = DoctorCheck<CheckId>;

export interface DoctorReport extends BaseDoctorReport<CheckId> {
  /** How structured turns travel for this profile: its `transport` (or what `auto` picks) and
   * the capabilities the last `probe` recorded (none: never probed). */
  transport?: { effective: 'tools' | 'json_schema' | 'json'; setting: string; capabilities?: ProfileConfig['capabilities'] };
}

function isLocal(profile: ProfileConfig): boolean {
  try {
    return ['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0'].includes(new URL(profile.base_url).hostname);
  } catch {
    return false;
  }
}

/** Options of doctor. */
export interface DoctorOptions {
  /** Diagnose this profile instead of the saved one named `profileName` (a setup that checks a
   * profile before saving it). Missing fields take create_profile's defaults; nothing is written. */
  profile?: Partial<ProfileConfig>;
  /** false: do not run `probe` after a passing check of a saved profile (default: run it). */
  probe?: boolean;
}

/** The checks of one diagnosis so far; one that stops reports the checks it did not reach as skipped. */
class Diagnosis {
  readonly checks: Check[] = [];
  transport: DoctorReport['transport'];
  constructor(readonly lang: Lang) {}

  skip(ids: CheckId[]): void {
    for (const id of ids) this.checks.push({ id, ok: false, skipped: true, message: t(this.lang, 'doctorSkipped') });
  }

  report(profile: string | null): DoctorReport {
    return { ok: this.checks.every((c) => c.ok), profile, checks: this.checks, ...(this.transport ? { transport: this.transport } : {}) };
  }
}

/**
 * Check a profile the way a user would: is the config valid, is the key there, is the server
 * up, is the key accepted, do the models exist (via /models when the server has it), and does
 * a strict-JSON round trip work. Never throws.
 */
export async function doctor(profileName: string | null | undefined, deps: CallDeps, options: DoctorOptions = {}): Promise<DoctorReport> {
  const d = new Diagnosis(deps.lang);
  const ctx: StoreContext = { env: deps.env, lang: deps.lang };
  const found = profileCheck(d, profileName, deps, options, ctx);
  if (!found) return d.report(profileName ?? null);
  const { profileId, profile } = found;
  deps = found.deps;
  const apiKey = keyCheck(d, profileId, profile, ctx);
  if (apiKey === undefined) return d.report(profileId);
  const server = await serverChecks(d, profile, profileId, apiKey);
  if (server.stop) return d.report(profileId);
  if (isOllamaProfile(profile)) {
    const ollama = await ollamaCheck(profile, profileId, localPreset(profile), d.lang, apiKey);
    d.checks.push(ollama);
    if (!ollama.ok) {
      d.skip(['json']);
      return d.report(profileId);
    }
  }
  await roundTripCheck(d, profileId, profile, deps, options, server.authKnown);
  return d.report(profileId);
}

/** The profile, saved or given (`options.profile`: checked as create_profile would make it, with one attempt per call). */
function profileCheck(
  d: Diagnosis,
  profileName: string | null | undefined,
  deps: CallDeps,
  options: DoctorOptions,
  ctx: StoreContext,
): { profileId: string; profile: ProfileConfig; deps: CallDeps } | undefined {
  const { lang } = d;
  let profileId: string;
  let profile: ProfileConfig;
  try {
    if (options.profile) {
      ({ profile_id: profileId, profile } = buildProfile(profileName || 'new', options.profile, ctx));
      // A setup waits on this verdict: one attempt, no SDK retries (a saved profile keeps its own).
      deps = { ...deps, unsaved: { profile_id: profileId, profile: { ...profile, max_retries: 0 } } };
    } else {
      ({ profile_id: profileId, profile } = getProfile(profileName ?? null, ctx));
    }
  } catch (err) {
    const e = err as LlmBaseError;
    const fix =
      e.reason === 'config_invalid'
        ? t(lang, 'fixConfigFile', { file: configPath(deps.env) })
        : e.reason === 'invalid_profile' || e.reason === 'invalid_name'
          ? undefined
          : t(lang, 'fixCreate');
    d.checks.push({ id: 'profile', ok: false, message: e.message, ...(fix ? { fix } : {}) });
    d.skip(['api_key', 'reachable', 'auth', 'models', 'json']);
    return undefined;
  }
  d.checks.push({ id: 'profile', ok: true, message: t(lang, options.profile ? 'chkProfileUnsavedOk' : 'chkProfileOk') });
  d.transport = {
    effective: effectiveTransport(profile),
    setting: profile.transport ?? 'auto',
    ...(profile.capabilities ? { capabilities: profile.capabilities } : {}),
  };
  return { profileId, profile, deps };
}

/** The profile's key ('' for a server that needs none), or undefined when its variable is not set. */
function keyCheck(d: Diagnosis, profileId: string, profile: ProfileConfig, ctx: StoreContext): string | undefined {
  const { lang } = d;
  try {
    const apiKey = resolveApiKey(profileId, profile, ctx);
    d.checks.push({ id: 'api_key', ok: true, message: apiKey ? t(lang, 'chkKeyOk') : t(lang, 'chkKeyNone') });
    return apiKey;
  } catch (err) {
    const env = /^env:(.+)$/.exec(profile.api_key.trim())?.[1] ?? 'API_KEY';
    d.checks.push({ id: 'api_key', ok: false, message: (err as Error).message, fix: t(lang, 'fixKeyEnv', { env }) });
    d.skip(['reachable', 'auth', 'models', 'json']);
    return undefined;
  }
}

/** Is the server up, is the key accepted, do the models exist: through /models when the server has it. */
async function serverChecks(
  d: Diagnosis,
  profile: ProfileConfig,
  profileId: string,
  apiKey: string,
): Promise<{ stop: boolean; authKnown: boolean }> {
  const { lang } = d;
  // A diagnosis should answer quickly: no retries, a short timeout.
  const client = createClient(openai, { ...profile, max_retries: 0, timeout: Math.min(profile.timeout, 15000) }, apiKey);
  let authKnown = false;
  const stop = (ids: CheckId[]) => {
    d.skip(ids);
    return { stop: true, authKnown };
  };
  try {
    const page = await client.models.list();
    const ids = page.data.map((m) => m.id);
    d.checks.push({ id: 'reachable', ok: true, message: t(lang, 'chkReachableOk') });
    d.checks.push({ id: 'auth', ok: true, message: t(lang, 'chkAuthOk') });
    authKnown = true;
    const models = await checkModels(client, profile, profileId, ids, lang);
    d.checks.push(models);
    return models.ok ? { stop: false, authKnown } : stop(['json']);
  } catch (err) {
    if (err instanceof openai.APIConnectionError) {
      const detail = redactSecrets(err instanceof openai.APIConnectionTimeoutError ? 'timeout' : (causeCode(err) ?? err.message), [apiKey]);
      // Refused on this machine: the server is down, or the address (often the port) is wrong.
      const fix =
        startHintOf(profile) || isLocal(profile)
          ? t(lang, 'fixStartLocal', {
              hint: startHintOf(profile) ?? 'ollama serve / lms server start / vllm serve / llama-server',
              name: profileId,
            })
          : t(lang, 'fixCheckUrl', { name: profileId });
      d.checks.push({ id: 'reachable', ok: false, message: t(lang, 'chkReachableFail', { url: profile.base_url, detail }), fix });
      return stop(['auth', 'models', 'json']);
    }
    d.checks.push({ id: 'reachable', ok: true, message: t(lang, 'chkReachableOk') });
    const status = err instanceof openai.APIError ? err.status : undefined;
    if (status === 401 || status === 403) {
      d.checks.push({ id: 'auth', ok: false, message: t(lang, 'chkAuthFail', { status }), fix: t(lang, 'fixAuth', { name: profileId }) });
      return stop(['models', 'json']);
    }
    // No /models here (404) or another answer: the round trip judges the key and the low model.
    return { stop: await highModelChecks(d, { client, profile, profileId, preset: localPreset(profile), lang }), authKnown };
  }
}

/** A strict-JSON round trip with the low model; a saved profile that passes is probed for its best transport. */
async function roundTripCheck(
  d: Diagnosis,
  profileId: string,
  profile: ProfileConfig,
  deps: CallDeps,
  options: DoctorOptions,
  authKnown: boolean,
): Promise<void> {
  const { lang, checks } = d;
  const res = await chat([{ role: 'user', content: 'Reply with exactly this JSON object: {"ok": true}' }], 'low', profileId, {}, deps);
  if (res.success) {
    if (!authKnown) checks.splice(checks.length - 1, 0, { id: 'auth', ok: true, message: t(lang, 'chkAuthOk') });
    if (res.data._fallback === true) {
      checks.push({ id: 'json', ok: false, message: t(lang, 'chkJsonFallback'), fix: t(lang, 'fixJson') });
    } else {
      checks.push({ id: 'json', ok: true, message: t(lang, 'chkJsonOk', { model: res.model }) });
      // A saved profile that works: find out (and record) which transport suits it best.
      if (!options.profile && options.probe !== false) d.transport = (await probedTransport(profileId, profile, deps)) ?? d.transport;
    }
  } else if (res.error.code === 'AUTH_ERROR' && !authKnown) {
    checks.splice(checks.length - 1, 0, {
      id: 'auth',
      ok: false,
      message: res.error.message,
      fix: t(lang, 'fixAuth', { name: profileId }),
    });
    d.skip(['json']);
  } else {
    if (!authKnown) checks.splice(checks.length - 1, 0, { id: 'auth', ok: true, message: t(lang, 'chkAuthOk') });
    const fix = res.error.code === 'PROVIDER_ERROR' ? t(lang, 'fixChooseModel', { name: profileId }) : undefined;
    checks.push({
      id: 'json',
      ok: false,
      message: t(lang, 'chkJsonFail', { code: res.error.code, detail: res.error.message }),
      ...(fix ? { fix } : {}),
    });
  }
}

/** Run `probe` on a saved profile and say which transport its calls now use; undefined when it could not run. */
async function probedTransport(profileId: string, profile: ProfileConfig, deps: CallDeps): Promise<DoctorReport['transport']> {
  const found = await probe(profileId, deps).catch(() => undefined);
  if (!found) return undefined;
  return {
    effective: effectiveTransport({ transport: profile.transport, capabilities: found.capabilities }),
    setting: profile.transport ?? 'auto',
    capabilities: found.capabilities,
  };
}

/**
 * Without `/models`: the high model, when it is not the low one, gets a one-token probe of its own
 * (Ollama's own check looks at both). True when that ends the diagnosis (a rejected key, a
 * missing model); the checks it made are in the diagnosis.
 */
async function highModelChecks(
  d: Diagnosis,
  o: { client: ReturnType<typeof createClient>; profile: ProfileConfig; profileId: string; preset: Preset | undefined; lang: Lang },
): Promise<boolean> {
  const { checks } = d;
  const skip = (ids: CheckId[]) => d.skip(ids);
  const { profile, profileId, lang } = o;
  const high =
    profile.high_model !== profile.low_model && !isOllamaProfile(profile) ? await probeModel(o.client, profile.high_model) : undefined;
  if (high === 'rejected_key') {
    checks.push({ id: 'auth', ok: false, message: t(lang, 'chkAuthFail', { status: 401 }), fix: t(lang, 'fixAuth', { name: profileId }) });
    skip(['models', 'json']);
    return true;
  }
  if (high === 'missing') {
    checks.push({ id: 'auth', ok: true, message: t(lang, 'chkAuthOk') });
    checks.push({
      id: 'models',
      ok: false,
      message: t(lang, 'chkModelsMissing', { missing: profile.high_model, available: '-' }),
      fix: missingModelFix(o.preset, [profile.high_model], profileId, lang),
    });
    skip(['json']);
    return true;
  }
  checks.push({
    id: 'models',
    ok: true,
    message: t(lang, high === 'accepted' ? 'chkModelsNoEndpointHigh' : 'chkModelsNoEndpoint', { model: profile.high_model }),
  });
  return false;
}

/**
 * A one-token request to `model`: accepted, missing (the server says no such model), a rejected
 * key, or unknown (another answer; the round trip will tell).
 */
async function probeModel(
  client: ReturnType<typeof createClient>,
  model: string,
): Promise<'accepted' | 'missing' | 'rejected_key' | 'unknown'> {
  try {
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 });
    return 'accepted';
  } catch (err) {
    const status = err instanceof openai.APIError ? err.status : undefined;
    if (status === 401 || status === 403) return 'rejected_key';
    if (status === 404 || ((status === 400 || status === 422) && /model/i.test((err as Error).message))) return 'missing';
    return 'unknown';
  }
}

/** Ollama's own view of the profile's models: server running, pulled, loaded (ollama-native.ts). */
async function ollamaCheck(
  profile: ProfileConfig,
  profileId: string,
  preset: Preset | undefined,
  lang: Lang,
  apiKey: string,
): Promise<Check> {
  const models = [...new Set([profile.low_model, profile.high_model])];
  const health = await Promise.all(models.map((m) => ollamaHealth(profile, m, apiKey)));
  const message = health.map((h) => t(lang, `ollamaState_${h.state}`, { model: h.model })).join('; ');
  if (health.some((h) => h.state === 'not_running'))
    return { id: 'ollama', ok: false, message, fix: t(lang, 'fixStartLocal', { hint: 'ollama serve', name: profileId }) };
  const missing = health.filter((h) => h.state === 'not_pulled').map((h) => h.model);
  if (missing.length)
    return { id: 'ollama', ok: false, message, fix: missingModelFix(preset ?? findPreset('ollama'), missing, profileId, lang) };
  return { id: 'ollama', ok: true, message };
}

/**
 * Whether the profile's models exist. Some servers answer for models they do not list (llama.cpp
 * serves one model under any name, LM Studio loads on demand): a one-token probe tells missing
 * from unlisted.
 */
async function checkModels(
  client: ReturnType<typeof createClient>,
  profile: ProfileConfig,
  profileId: string,
  ids: string[],
  lang: Lang,
): Promise<Check> {
  const wanted = [...new Set([profile.low_model, profile.high_model])];
  const unlisted = wanted.filter((m) => !ids.includes(m));
  const missing: string[] = [];
  for (const m of unlisted) {
    const accepted = await client.chat.completions.create({ model: m, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 }).then(
      () => true,
      () => false,
    );
    if (!accepted) missing.push(m);
  }
  if (missing.length === 0) {
    const message =
      unlisted.length === 0
        ? t(lang, 'chkModelsOk', { models: wanted.join(', '), count: wanted.length })
        : t(lang, 'chkModelsAccepted', { models: unlisted.join(', '), count: unlisted.length });
    return { id: 'models', ok: true, message };
  }
  const preset = localPreset(profile);
  const fix = missingModelFix(preset, missing, profileId, lang);
  return {
    id: 'models',
    ok: false,
    message: t(lang, 'chkModelsMissing', { missing: missing.join(', '), available: ids.slice(0, 8).join(', ') || '-' }),
    fix,
  };
}

/** What to do about models a server does not have: Ollama's are downloaded by llm-base itself (its API, also on another machine). */
export function missingModelFix(preset: Preset | undefined, missing: string[], profileId: string, lang: Lang): string {
  const hint =
    preset?.name === 'ollama'
      ? `slothtool llm-base pull ${missing.join(' ')} --profile ${profileId}`
      : preset?.pull_hint
        ? missing.map((m) => preset.pull_hint!.split('{model}').join(m)).join(' ; ')
        : undefined;
  return hint ? t(lang, 'fixPullModel', { hint }) : t(lang, 'fixChooseModel', { name: profileId });
}
