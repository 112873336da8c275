import path = require('path');
import { spawn as nodeSpawn } from 'child_process';
import { AiError } from '../errors';
import { aiPaths, slothtoolHome } from '../home';
import { t, type Lang } from '../i18n';
import { readRegistry, type Registry } from '../config/registry';
import { installCommandText, llmBaseSpec, resolveHostCommand, runInstall, type HostCommand, type SpawnFn } from './host';
import { loadSetupLlmBase, type DoctorReport, type SetupLlmBase, type SetupProfile } from './llm-base-module';
import { probeTransports } from './transport-probe';
import { hostedPresets } from './presets';
import {
  likelyChatModels,
  probeLocalServers,
  probeTargetsFromEnv,
  probeTimeoutFromEnv,
  type FetchFn,
  type FoundServer,
  type ProbeTarget,
} from './probe';
import { CANCEL, chooseServer, RESCAN, type Draft, type Remembered, type Step } from './server-choice';
import { createPromptsUi, type SetupUi } from './ui';

/** Print one of the setup's messages. */
type Say = (key: Parameters<typeof t>[1], vars?: Record<string, string | number>) => void;

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
  const say: Say = (key, vars) => ui.print(t(lang, key, vars));
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

  // After "change the settings and try again": what was chosen and typed is offered again.
  let remembered: Remembered = {};
  for (;;) {
    const found = await findServers(targets, probeTimeoutMs, options.fetch, say);
    const draft = await chooseServer(ui, lang, env, found, hosted, presets, options.fetch, targets.length > 0, remembered);
    if (draft === RESCAN) continue;
    if (!draft.done) return cancelled();
    const models = await chooseModels(ui, lang, {
      ...draft.value,
      low_default: remembered.low ?? draft.value.low_default,
      high_default: remembered.high ?? draft.value.high_default,
    });
    if (!models.done) return cancelled();
    remembered = { choice: draft.value.choice, url: draft.value.base_url, low: models.value.low, high: models.value.high };

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
    const ended = await saveOrAsk(llm, ui, { lang, env, say }, name, profile, verdict);
    if (ended) return ended;
  }
}

/** Probe the loopback servers `targets`, saying what answered. */
async function findServers(targets: ProbeTarget[], timeoutMs: number, fetch: FetchFn | undefined, say: Say): Promise<FoundServer[]> {
  if (!targets.length) return [];
  say('probing', { targets: targets.map((t) => `${t.label} ${t.port}`).join(', ') });
  const found = await probeLocalServers(targets, { timeoutMs, fetch });
  if (found.length) say('probeFound', { list: found.map((f) => `${f.label} (${f.baseUrl})`).join(', ') });
  else {
    say('probeNone');
    say('probeNoneHint');
  }
  return found;
}

/**
 * After the check: a working profile saved; else the person chooses to try again, save it anyway
 * or stop. How the setup ends, or undefined to go round again with what was chosen.
 */
async function saveOrAsk(
  llm: SetupLlmBase,
  ui: SetupUi,
  ctx: { lang: Lang; env: NodeJS.ProcessEnv; say: Say },
  name: string,
  profile: SetupProfile,
  verdict: Verdict,
): Promise<SetupResult | undefined> {
  const { lang, env, say } = ctx;
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
    t(lang, 'afterFail'),
    [
      { title: t(lang, 'afterRetry'), value: 'retry' },
      { title: t(lang, 'afterSaveAnyway', { name }), value: 'save' },
      { title: t(lang, 'afterCancel'), value: 'cancel' },
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
  if (next === 'retry') return undefined;
  say('cancelled');
  return { status: 'cancelled' };
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
  const detail = first.code !== 'LLM_BASE_MISSING' && typeof where === 'string' ? t(lang, 'brokenDetail', { path: where }) : '';
  ui.print(t(lang, 'noLlmBase', { detail }));
  const yes = await ui.confirm(t(lang, 'offerInstall', { command }), true);
  if (!yes) {
    ui.print(t(lang, 'cancelled'));
    return undefined;
  }
  ui.print(t(lang, 'installing', { command }));
  const run = await runInstall(host, { env, output, spec, spawn: options.spawn ?? (nodeSpawn as SpawnFn) });
  if (run.code !== 0) {
    ui.print(t(lang, 'installFailed', { detail: run.error ?? `exit code ${run.code}`, command }));
    return undefined;
  }
  const again = load();
  if (AiError.isInstance(again)) {
    ui.print(t(lang, 'installedButMissing', { detail: t(lang, again.key, again.vars) }));
    return undefined;
  }
  ui.print(t(lang, 'installed'));
  return again;
}

async function chooseModels(ui: SetupUi, lang: Lang, draft: Draft): Promise<Step<{ low: string; high: string }>> {
  const models = likelyChatModels(draft.models);
  if (models.length === 1) return { done: true, value: { low: models[0], high: models[0] } };
  if (models.length > 1) {
    const choices = models.map((m) => ({ title: m, value: m }));
    const at = (m: string, fallback: number) => (models.includes(m) ? models.indexOf(m) : fallback);
    const low = await ui.select(t(lang, 'chooseLow'), choices, at(draft.low_default, 0));
    if (low === undefined) return CANCEL;
    const high = await ui.select(t(lang, 'chooseHigh'), choices, at(draft.high_default, models.indexOf(low)));
    if (high === undefined) return CANCEL;
    return { done: true, value: { low, high } };
  }
  const validate = (v: string) => (v.trim() ? true : t(lang, 'modelEmpty'));
  const low = await ui.text(t(lang, 'askLow'), { initial: draft.low_default || undefined, validate });
  if (low === undefined) return CANCEL;
  const high = await ui.text(t(lang, 'askHigh'), { initial: draft.high_default || low.trim(), validate });
  if (high === undefined) return CANCEL;
  return { done: true, value: { low: low.trim(), high: high.trim() } };
}

type Verdict = { kind: 'ok' } | { kind: 'saved' } | { kind: 'failed' } | { kind: 'failed-saved' };

/** Print a doctor report the way `llm-base doctor` does. */
function printReport(ui: SetupUi, lang: Lang, report: DoctorReport): void {
  for (const c of report.checks) {
    const key = c.skipped ? 'checkSkip' : c.ok ? 'checkOk' : 'checkFail';
    ui.print(t(lang, key, { id: c.id, message: c.message }));
    if (!c.ok && !c.skipped && c.fix) ui.print(t(lang, 'checkFix', { fix: c.fix }));
  }
  ui.print(t(lang, report.ok ? 'verdictOk' : 'verdictFail'));
}

/**
 * Check the profile. With doctor(name, {profile}) nothing is written before the verdict. llm-base
 * 1.0.x has no doctor and can only call a saved profile: it is saved first ('saved' /
 * 'failed-saved') and taken back by the caller when the person does not keep it.
 */
async function verify(llm: SetupLlmBase, ui: SetupUi, lang: Lang, name: string, profile: SetupProfile): Promise<Verdict> {
  ui.print(t(lang, 'checking', { name }));
  if (llm.doctor) {
    const report = await llm.doctor(name, { profile });
    printReport(ui, lang, report);
    return { kind: report.ok ? 'ok' : 'failed' };
  }
  const saved = save(llm, name, profile);
  if (saved !== true) {
    ui.print(t(lang, 'saveFailed', { message: saved }));
    return { kind: 'failed' };
  }
  ui.print(t(lang, 'noDoctor'));
  const res = (await llm.llm_chat([{ role: 'user', content: 'Reply with exactly this JSON object: {"ok": true}' }], 'low', name)) as {
    success?: boolean;
    data?: { _fallback?: unknown };
    error?: { code?: string; message?: string };
  };
  if (res && res.success === true && res.data?._fallback !== true) {
    ui.print(t(lang, 'pingOk'));
    return { kind: 'saved' };
  }
  const failure =
    res?.success === true
      ? { code: 'JSON', message: t(lang, 'pingNotJson') }
      : { code: res?.error?.code ?? '?', message: res?.error?.message ?? '?' };
  ui.print(t(lang, 'pingFail', failure));
  return { kind: 'failed-saved' };
}
