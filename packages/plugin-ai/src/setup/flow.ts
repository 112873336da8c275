import * as path from 'path';
import { spawn as nodeSpawn } from 'child_process';
import { AiError } from '../errors';
import { aiPaths, slothtoolHome } from '../home';
import { t, type Lang } from '../i18n';
import { readRegistry, type Registry } from '../registry';
import { installCommandText, llmBaseSpec, resolveHostCommand, runInstall, type HostCommand, type SpawnFn } from './host';
import { st } from './i18n';
import { loadSetupLlmBase, type DoctorReport, type PresetInfo, type SetupLlmBase, type SetupProfile } from './llm-base-module';
import { probeTransports } from './transport-probe';
import { hostedPresets, localPreset, type HostedPreset, type PresetExtras } from './presets';
import {
  fetchModels,
  likelyChatModels,
  probeLocalServers,
  probeTargetsFromEnv,
  probeTimeoutFromEnv,
  answersAsOllama,
  type FetchFn,
  type FoundServer,
  type ProbeTarget,
} from './probe';
import { createPromptsUi, type Choice, type SetupUi } from './ui';

/** How a setup ended. */
export type SetupStatus = 'ready' | 'cancelled' | 'saved-unverified';

export interface SetupResult {
  status: SetupStatus;
  /** The profile saved (and made the default), for 'ready' and 'saved-unverified'. */
  profile?: string;
}

/** Options of runSetup. Only `lang` is required; the rest default to the process. */
export interface RunSetupOptions {
  lang: Lang;
  /** Environment: SLOTHTOOL_HOME / HOME, the key variables, SLOTHTOOL_AI_* overrides. Default
   * process.env. llm-base itself reads process.env, so pass the process's own environment
   * (or a copy of it) outside tests that run the setup in a child process. */
  env?: NodeJS.ProcessEnv;
  /** Where questions read keys from and write to. Default process.stdin / process.stdout. */
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Replaces the prompts-based questions (tests of the flow's logic). */
  ui?: SetupUi;
  /** Loopback servers to probe; default SLOTHTOOL_AI_PROBE_PORTS or the usual ports. */
  probeTargets?: ProbeTarget[];
  /** Time-out of each probe in ms; default SLOTHTOOL_AI_PROBE_TIMEOUT_MS or 800. */
  probeTimeoutMs?: number;
  /** Replaces every hosted preset's base_url; default SLOTHTOOL_AI_HOSTED_BASE_URL (tests). */
  hostedBaseUrl?: string;
  /** For tests: HTTP, process spawning, the host command. */
  fetch?: FetchFn;
  spawn?: SpawnFn;
  host?: HostCommand;
}

/** Time-out of the `/models` request to a chosen server (a hosted one may be far away). */
const MODELS_TIMEOUT_MS = 5000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the person picked, before models and verification. */
interface Draft {
  name: string;
  base_url: string;
  api_key: string;
  low_default: string;
  high_default: string;
  /** Models the server listed (probe or a /models call); empty when unknown. */
  models: string[];
  /** The preset's other profile fields (json_mode, provider, pricing), kept in the saved profile. */
  extras: PresetExtras;
}

type Step<T> = { done: true; value: T } | { done: false };
const CANCEL = { done: false } as const;

/**
 * The guided setup for `ai -i` when no model is configured (issue #11): install llm-base when it
 * is missing (asking first), find local OpenAI-compatible servers, offer them with the hosted
 * presets, take a key or the name of the variable holding it, pick models from `/models`, check
 * the new profile with llm-base's doctor and save it only when it works (or when the person
 * says so). Never throws for anything a person can fix; prints as it goes.
 */
export async function runSetup(options: RunSetupOptions): Promise<SetupResult> {
  const { lang } = options;
  const env = options.env ?? process.env;
  const output = options.output ?? process.stdout;
  const ui = options.ui ?? createPromptsUi({ input: options.input ?? process.stdin, output, lang });
  const say = (key: Parameters<typeof st>[1], vars?: Record<string, string | number>) => ui.print(st(lang, key, vars));
  const cancelled = (): SetupResult => {
    say('cancelled');
    return { status: 'cancelled' };
  };

  say('intro');
  const llm = await ensureLlmBase(options, env, output, ui);
  if (!llm) return { status: 'cancelled' };

  const listed = llm.list_profiles();
  if (!listed.success) {
    say('configBroken', { message: listed.error.message });
    return { status: 'cancelled' };
  }
  const existing = Object.keys((listed.data as { profiles?: Record<string, unknown> }).profiles ?? {});

  const targets = options.probeTargets ?? probeTargetsFromEnv(env).targets;
  const probeTimeoutMs = options.probeTimeoutMs ?? probeTimeoutFromEnv(env);
  const presets = llm.list_presets?.();
  const hosted = hostedPresets(presets, options.hostedBaseUrl ?? env.SLOTHTOOL_AI_HOSTED_BASE_URL);

  for (;;) {
    let found: FoundServer[] = [];
    if (targets.length) {
      say('probing', { targets: targets.map((t) => `${t.label} ${t.port}`).join(', ') });
      found = await probeLocalServers(targets, { timeoutMs: probeTimeoutMs, fetch: options.fetch });
      if (found.length) say('probeFound', { list: found.map((f) => `${f.label} (${f.baseUrl})`).join(', ') });
      else {
        say('probeNone');
        say('probeNoneHint');
      }
    }

    const draft = await chooseServer(ui, lang, env, found, hosted, presets, options.fetch, targets.length > 0);
    if (draft === RESCAN) continue;
    if (!draft.done) return cancelled();
    const models = await chooseModels(ui, lang, draft.value);
    if (!models.done) return cancelled();

    const name = uniqueName(draft.value.name, existing);
    const profile: SetupProfile = {
      base_url: draft.value.base_url,
      api_key: draft.value.api_key,
      low_model: models.value.low,
      high_model: models.value.high,
      timeout: 60000,
      ...draft.value.extras,
    };
    const verdict = await verify(llm, ui, lang, name, profile);
    if (verdict.kind === 'saved' || verdict.kind === 'ok') {
      const saved = verdict.kind === 'ok' ? save(llm, name, profile) : true;
      if (saved !== true) {
        say('saveFailed', { message: saved });
        return { status: 'cancelled' };
      }
      say('saved', { name, file: configFile(env) });
      await probeTransports(llm, ui, lang, name);
      return { status: 'ready', profile: name };
    }
    const next = await ui.select(
      st(lang, 'afterFail'),
      [
        { title: st(lang, 'afterRetry'), value: 'retry' },
        { title: st(lang, 'afterSaveAnyway', { name }), value: 'save' },
        { title: st(lang, 'afterCancel'), value: 'cancel' },
      ],
      0,
    );
    if (next === 'save') {
      const saved = verdict.kind === 'failed-saved' ? true : save(llm, name, profile);
      if (saved !== true) {
        say('saveFailed', { message: saved });
        return { status: 'cancelled' };
      }
      say('savedUnverified', { name, file: configFile(env) });
      return { status: 'saved-unverified', profile: name };
    }
    // Verified without doctor(profile) means it was saved to be checked: take it back.
    if (verdict.kind === 'failed-saved') llm.delete_profile(name);
    if (next !== 'retry') return cancelled();
  }
}

function configFile(env: NodeJS.ProcessEnv): string {
  return path.join(aiPaths(slothtoolHome(env)).home, 'plugin-configs', 'llm-base.json');
}

function uniqueName(base: string, existing: string[]): string {
  if (!existing.includes(base)) return base;
  for (let i = 2; ; i++) if (!existing.includes(`${base}-${i}`)) return `${base}-${i}`;
}

/** create_profile + set_default_profile; true or the error message. */
function save(llm: SetupLlmBase, name: string, profile: SetupProfile): true | string {
  const created = llm.create_profile(name, profile);
  if (!created.success) return created.error.message;
  const def = llm.set_default_profile(name);
  return def.success ? true : def.error.message;
}

function registryOf(env: NodeJS.ProcessEnv): Registry {
  return readRegistry(aiPaths(slothtoolHome(env)).registry);
}

/** llm-base's module, installing it first when it is missing and the person agrees. */
async function ensureLlmBase(
  options: RunSetupOptions,
  env: NodeJS.ProcessEnv,
  output: NodeJS.WritableStream,
  ui: SetupUi,
): Promise<SetupLlmBase | undefined> {
  const { lang } = options;
  const load = (): SetupLlmBase | AiError => {
    try {
      return loadSetupLlmBase(registryOf(env));
    } catch (err) {
      if (AiError.isInstance(err)) return err;
      throw err;
    }
  };
  const first = load();
  if (!AiError.isInstance(first)) return first;
  if (!first.code.startsWith('LLM_BASE_')) {
    ui.print(t(lang, first.key, first.vars));
    return undefined;
  }
  const host = options.host ?? resolveHostCommand(env);
  const spec = llmBaseSpec(env);
  const command = installCommandText(host, spec);
  const where = first.vars.path;
  const detail = first.code !== 'LLM_BASE_MISSING' && typeof where === 'string' ? st(lang, 'brokenDetail', { path: where }) : '';
  ui.print(st(lang, 'noLlmBase', { detail }));
  const yes = await ui.confirm(st(lang, 'offerInstall', { command }), true);
  if (!yes) {
    ui.print(st(lang, 'cancelled'));
    return undefined;
  }
  ui.print(st(lang, 'installing', { command }));
  const run = await runInstall(host, { env, output, spec, spawn: options.spawn ?? (nodeSpawn as SpawnFn) });
  if (run.code !== 0) {
    ui.print(st(lang, 'installFailed', { detail: run.error ?? `exit code ${run.code}`, command }));
    return undefined;
  }
  const again = load();
  if (AiError.isInstance(again)) {
    ui.print(st(lang, 'installedButMissing', { detail: t(lang, again.key, again.vars) }));
    return undefined;
  }
  ui.print(st(lang, 'installed'));
  return again;
}

type ServerChoice = `local:${number}` | `hosted:${string}` | 'other' | 'rescan' | 'cancel';
const RESCAN = { done: false, rescan: true } as const;

async function chooseServer(
  ui: SetupUi,
  lang: Lang,
  env: NodeJS.ProcessEnv,
  found: FoundServer[],
  hosted: HostedPreset[],
  presets: PresetInfo[] | undefined,
  fetchFn: FetchFn | undefined,
  canRescan: boolean,
): Promise<Step<Draft> | typeof RESCAN> {
  const choices: Choice<ServerChoice>[] = [
    ...found.map((f, i) => ({
      title: st(lang, 'choiceLocal', {
        label: f.label,
        url: f.baseUrl,
        models: f.models.length ? st(lang, 'choiceLocalModels', { n: f.models.length }) : st(lang, 'choiceLocalNoModels'),
      }),
      value: `local:${i}` as const,
    })),
    ...hosted.map((h) => ({
      title: env[h.keyEnv]?.trim() ? st(lang, 'choiceHostedEnvSet', { label: h.label, env: h.keyEnv }) : st(lang, 'choiceHosted', { label: h.label }),
      value: `hosted:${h.name}` as const,
    })),
    { title: st(lang, 'choiceOther'), value: 'other' },
    ...(canRescan ? [{ title: st(lang, 'choiceRescan'), value: 'rescan' as const }] : []),
    { title: st(lang, 'choiceCancel'), value: 'cancel' },
  ];
  // A found server first; else a provider whose key is already in the environment.
  const withKey = hosted.findIndex((h) => env[h.keyEnv]?.trim());
  const initial = found.length || withKey < 0 ? 0 : withKey;
  const picked = await ui.select(st(lang, 'chooseServer'), choices, initial);
  if (!picked || picked === 'cancel') return CANCEL;
  if (picked === 'rescan') return RESCAN;

  if (picked.startsWith('local:')) {
    const f = found[Number(picked.slice('local:'.length))];
    const preset = localPreset(f.name, presets);
    const { provider, ...extras } = preset.extras; // `ollama` only when Ollama itself answers there
    if (provider && (await answersAsOllama(f.baseUrl, { timeoutMs: MODELS_TIMEOUT_MS, fetch: fetchFn }))) Object.assign(extras, { provider });
    let apiKey = '';
    let models = f.models;
    if (f.status === 401 || f.status === 403) {
      // e.g. vllm serve --api-key: it answered, but wants a key
      const key = await askKey(ui, lang, env, f.label, 'OPENAI_API_KEY', true);
      if (!key.done) return CANCEL;
      apiKey = key.value;
      if (apiKey) models = await listModels(ui, lang, env, f.baseUrl, apiKey, fetchFn);
    }
    return {
      done: true,
      value: {
        name: f.name,
        base_url: f.baseUrl,
        api_key: apiKey,
        low_default: preset.low_model,
        high_default: preset.high_model,
        models,
        extras,
      },
    };
  }

  if (picked.startsWith('hosted:')) {
    const h = hosted.find((p) => `hosted:${p.name}` === picked)!;
    const key = await askKey(ui, lang, env, h.label, h.keyEnv, false);
    if (!key.done) return CANCEL;
    const models = await listModels(ui, lang, env, h.base_url, key.value, fetchFn);
    return {
      done: true,
      value: {
        name: h.name,
        base_url: h.base_url,
        api_key: key.value,
        low_default: h.low_model,
        high_default: h.high_model,
        models,
        extras: h.extras,
      },
    };
  }

  const url = await ui.text(st(lang, 'askUrl'), {
    validate: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? true : st(lang, 'badUrl')),
  });
  if (url === undefined) return CANCEL;
  const baseUrl = url.trim().replace(/\/+$/, '');
  const key = await askKey(ui, lang, env, baseUrl, 'OPENAI_API_KEY', true);
  if (!key.done) return CANCEL;
  const models = await listModels(ui, lang, env, baseUrl, key.value, fetchFn);
  return { done: true, value: { name: 'custom', base_url: baseUrl, api_key: key.value, low_default: '', high_default: '', models, extras: {} } };
}

/** The api_key field: `env:NAME`, the pasted key, or '' (keyless, only offered for other servers). */
async function askKey(ui: SetupUi, lang: Lang, env: NodeJS.ProcessEnv, label: string, keyEnv: string, allowNone: boolean): Promise<Step<string>> {
  const isSet = Boolean(env[keyEnv]?.trim());
  const choices: Choice<'env' | 'other-env' | 'paste' | 'none'>[] = [
    ...(allowNone ? [{ title: st(lang, 'keyNone'), value: 'none' as const }] : []),
    { title: st(lang, isSet ? 'keyUseEnv' : 'keyUseEnvUnset', { env: keyEnv }), value: 'env' },
    { title: st(lang, 'keyPaste'), value: 'paste' },
    { title: st(lang, 'keyOtherEnv'), value: 'other-env' },
  ];
  const initial = allowNone ? 0 : isSet ? 0 : 1;
  const how = await ui.select(st(lang, 'keyHow', { label }), choices, initial);
  if (!how) return CANCEL;
  if (how === 'none') return { done: true, value: '' };
  let name = keyEnv;
  if (how === 'paste') {
    const key = await ui.password(st(lang, 'askKey'), { validate: (v) => (v.trim() ? true : st(lang, 'keyEmpty')) });
    if (key === undefined) return CANCEL;
    return { done: true, value: key.trim() };
  }
  if (how === 'other-env') {
    const typed = await ui.text(st(lang, 'askEnvName'), {
      validate: (v) => (ENV_NAME.test(v.trim().replace(/^\$/, '')) ? true : st(lang, 'badEnvName')),
    });
    if (typed === undefined) return CANCEL;
    name = typed.trim().replace(/^\$/, '');
  }
  if (!env[name]?.trim()) ui.print(st(lang, 'envUnsetWarn', { env: name }));
  return { done: true, value: `env:${name}` };
}

/** Model ids from `<baseUrl>/models` with the key; [] (and a note) when it lists none. */
async function listModels(ui: SetupUi, lang: Lang, env: NodeJS.ProcessEnv, baseUrl: string, apiKey: string, fetchFn?: FetchFn): Promise<string[]> {
  const ref = /^env:(.+)$/.exec(apiKey);
  const key = ref ? (env[ref[1]] ?? '').trim() : apiKey;
  if (ref && !key) return [];
  ui.print(st(lang, 'fetchingModels', { url: baseUrl }));
  const r = await fetchModels(baseUrl, { timeoutMs: MODELS_TIMEOUT_MS, apiKey: key || undefined, fetch: fetchFn });
  if (r.answered && r.models.length) return r.models;
  ui.print(st(lang, 'modelsNone', { detail: r.answered ? `HTTP ${r.status}` : r.detail }));
  return [];
}

async function chooseModels(ui: SetupUi, lang: Lang, draft: Draft): Promise<Step<{ low: string; high: string }>> {
  const models = likelyChatModels(draft.models);
  if (models.length === 1) return { done: true, value: { low: models[0], high: models[0] } };
  if (models.length > 1) {
    const choices = models.map((m) => ({ title: m, value: m }));
    const at = (m: string, fallback: number) => (models.includes(m) ? models.indexOf(m) : fallback);
    const low = await ui.select(st(lang, 'chooseLow'), choices, at(draft.low_default, 0));
    if (low === undefined) return CANCEL;
    const high = await ui.select(st(lang, 'chooseHigh'), choices, at(draft.high_default, models.indexOf(low)));
    if (high === undefined) return CANCEL;
    return { done: true, value: { low, high } };
  }
  const validate = (v: string) => (v.trim() ? true : st(lang, 'modelEmpty'));
  const low = await ui.text(st(lang, 'askLow'), { initial: draft.low_default || undefined, validate });
  if (low === undefined) return CANCEL;
  const high = await ui.text(st(lang, 'askHigh'), { initial: draft.high_default || low.trim(), validate });
  if (high === undefined) return CANCEL;
  return { done: true, value: { low: low.trim(), high: high.trim() } };
}

type Verdict = { kind: 'ok' } | { kind: 'saved' } | { kind: 'failed' } | { kind: 'failed-saved' };

/** Print a doctor report the way `llm-base doctor` does. */
function printReport(ui: SetupUi, lang: Lang, report: DoctorReport): void {
  for (const c of report.checks) {
    const key = c.skipped ? 'checkSkip' : c.ok ? 'checkOk' : 'checkFail';
    ui.print(st(lang, key, { id: c.id, message: c.message }));
    if (!c.ok && !c.skipped && c.fix) ui.print(st(lang, 'checkFix', { fix: c.fix }));
  }
  ui.print(st(lang, report.ok ? 'verdictOk' : 'verdictFail'));
}

/**
 * Check the profile. With doctor(name, {profile}) nothing is written before the verdict. An
 * older llm-base can only check a saved profile: it is saved first ('saved' / 'failed-saved')
 * and taken back by the caller when the person does not keep it.
 */
async function verify(llm: SetupLlmBase, ui: SetupUi, lang: Lang, name: string, profile: SetupProfile): Promise<Verdict> {
  ui.print(st(lang, 'checking', { name }));
  if (llm.doctor && llm.doctorUnsaved) {
    const report = await llm.doctor(name, { profile });
    printReport(ui, lang, report);
    return { kind: report.ok ? 'ok' : 'failed' };
  }
  const saved = save(llm, name, profile);
  if (saved !== true) {
    ui.print(st(lang, 'saveFailed', { message: saved }));
    return { kind: 'failed' };
  }
  if (llm.doctor) {
    const report = await llm.doctor(name);
    printReport(ui, lang, report);
    return { kind: report.ok ? 'saved' : 'failed-saved' };
  }
  ui.print(st(lang, 'noDoctor'));
  const res = (await llm.llm_chat([{ role: 'user', content: 'Reply with exactly this JSON object: {"ok": true}' }], 'low', name)) as {
    success?: boolean;
    data?: { _fallback?: unknown };
    error?: { code?: string; message?: string };
  };
  if (res && res.success === true && res.data?._fallback !== true) {
    ui.print(st(lang, 'pingOk'));
    return { kind: 'saved' };
  }
  const failure = res?.success === true ? { code: 'JSON', message: st(lang, 'pingNotJson') } : { code: res?.error?.code ?? '?', message: res?.error?.message ?? '?' };
  ui.print(st(lang, 'pingFail', failure));
  return { kind: 'failed-saved' };
}
