/**
 * The setup's first questions: which server (a found local one, a hosted preset, or an address
 * typed in), its key, and the models it lists. A server that does not answer is said at once,
 * before any model name is asked, with the choice to type the address again (kept as typed).
 */
import type { Lang } from '../i18n';
import type { PresetInfo } from './llm-base-module';
import { localPreset, type HostedPreset, type PresetExtras } from './presets';
import { answersAsOllama, fetchModels, type FetchFn, type FoundServer } from './probe';
import type { Choice, SetupUi } from './ui';
import { t } from '../i18n';

/** Time-out of the `/models` request to a chosen server (a hosted one may be far away). */
const MODELS_TIMEOUT_MS = 5000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the person picked, before models and verification. */
export interface Draft {
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

export type Step<T> = { done: true; value: T } | { done: false };
export const CANCEL = { done: false } as const;

export type ServerChoice = `local:${number}` | `hosted:${string}` | 'other' | 'rescan' | 'cancel';
export const RESCAN = { done: false, rescan: true } as const;

/** What was answered last time, offered again after "change the settings and try again". */
export interface Remembered {
  choice?: ServerChoice;
  url?: string;
  low?: string;
  high?: string;
}

/** What the server questions ask with. */
interface Asking {
  ui: SetupUi;
  lang: Lang;
  env: NodeJS.ProcessEnv;
  fetchFn: FetchFn | undefined;
}

type Chosen = Step<Draft & { choice: ServerChoice }>;

/** Which server: a found local one, a hosted preset, an address typed in; its key and models. */
export async function chooseServer(
  ui: SetupUi,
  lang: Lang,
  env: NodeJS.ProcessEnv,
  found: FoundServer[],
  hosted: HostedPreset[],
  presets: PresetInfo[] | undefined,
  fetchFn: FetchFn | undefined,
  canRescan: boolean,
  remembered: Remembered = {},
): Promise<Chosen | typeof RESCAN> {
  const choices = serverChoices(lang, env, found, hosted, canRescan);
  // A found server first; else a provider whose key is already in the environment.
  const withKey = hosted.findIndex((h) => env[h.keyEnv]?.trim());
  const again = remembered.choice ? choices.findIndex((c) => c.value === remembered.choice) : -1;
  const initial = again >= 0 ? again : found.length || withKey < 0 ? 0 : withKey;
  const picked = await ui.select(t(lang, 'chooseServer'), choices, initial);
  if (!picked || picked === 'cancel') return CANCEL;
  if (picked === 'rescan') return RESCAN;
  const asking: Asking = { ui, lang, env, fetchFn };
  if (picked.startsWith('local:')) return fromLocalServer(asking, picked as `local:${number}`, found, presets);
  if (picked.startsWith('hosted:')) return fromHostedPreset(asking, picked as `hosted:${string}`, hosted);
  return fromTypedAddress(asking, remembered.url);
}

/** The servers to choose from: the found local ones, the hosted presets, "other", rescan, cancel. */
function serverChoices(
  lang: Lang,
  env: NodeJS.ProcessEnv,
  found: FoundServer[],
  hosted: HostedPreset[],
  canRescan: boolean,
): Choice<ServerChoice>[] {
  return [
    ...found.map((f, i) => ({
      title: t(lang, 'choiceLocal', {
        label: f.label,
        url: f.baseUrl,
        models: f.models.length ? t(lang, 'choiceLocalModels', { n: f.models.length }) : t(lang, 'choiceLocalNoModels'),
      }),
      value: `local:${i}` as const,
    })),
    ...hosted.map((h) => ({
      title: env[h.keyEnv]?.trim()
        ? t(lang, 'choiceHostedEnvSet', { label: h.label, env: h.keyEnv })
        : t(lang, 'choiceHosted', { label: h.label }),
      value: `hosted:${h.name}` as const,
    })),
    { title: t(lang, 'choiceOther'), value: 'other' },
    ...(canRescan ? [{ title: t(lang, 'choiceRescan'), value: 'rescan' as const }] : []),
    { title: t(lang, 'choiceCancel'), value: 'cancel' },
  ];
}

/** A found local server: its preset, and its key when it asks for one (vllm serve --api-key). */
async function fromLocalServer(
  { ui, lang, env, fetchFn }: Asking,
  picked: `local:${number}`,
  found: FoundServer[],
  presets: PresetInfo[] | undefined,
): Promise<Chosen> {
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
    if (apiKey) models = (await listModels(ui, lang, env, f.baseUrl, apiKey, fetchFn)).models;
  }
  return {
    done: true,
    value: {
      choice: picked,
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

/** A hosted preset: its key (or the variable holding it) and the models it lists. */
async function fromHostedPreset({ ui, lang, env, fetchFn }: Asking, picked: `hosted:${string}`, hosted: HostedPreset[]): Promise<Chosen> {
  const h = hosted.find((p) => `hosted:${p.name}` === picked)!;
  const key = await askKey(ui, lang, env, h.label, h.keyEnv, false);
  if (!key.done) return CANCEL;
  const listed = await listModels(ui, lang, env, h.base_url, key.value, fetchFn);
  if (listed.reached === false && (await ifUnreachable(ui, lang, h.base_url, listed.detail, false)) !== 'go-on') return CANCEL;
  const models = listed.models;
  return {
    done: true,
    value: {
      choice: picked,
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

/** An address typed in (the last one offered again), its key and models; a server that does not answer can be retyped. */
async function fromTypedAddress({ ui, lang, env, fetchFn }: Asking, previousUrl: string | undefined): Promise<Chosen> {
  let typedUrl = previousUrl;
  for (;;) {
    const url = await ui.text(t(lang, 'askUrl'), {
      initial: typedUrl,
      validate: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? true : t(lang, 'badUrl')),
    });
    if (url === undefined) return CANCEL;
    const baseUrl = url.trim().replace(/\/+$/, '');
    const key = await askKey(ui, lang, env, baseUrl, 'OPENAI_API_KEY', true);
    if (!key.done) return CANCEL;
    const listed = await listModels(ui, lang, env, baseUrl, key.value, fetchFn);
    if (listed.reached === false) {
      // Said before any model name is asked; the address typed stays in the field.
      const next = await ifUnreachable(ui, lang, baseUrl, listed.detail, true);
      if (next === 'retype') {
        typedUrl = baseUrl;
        continue;
      }
      if (next !== 'go-on') return CANCEL;
    }
    return {
      done: true,
      value: {
        choice: 'other',
        name: 'custom',
        base_url: baseUrl,
        api_key: key.value,
        low_default: '',
        high_default: '',
        models: listed.models,
        extras: {},
      },
    };
  }
}

/** A server that did not answer: type the address again (`retype`), go on anyway, or cancel. */
async function ifUnreachable(
  ui: SetupUi,
  lang: Lang,
  url: string,
  detail: string,
  canRetype: boolean,
): Promise<'retype' | 'go-on' | undefined> {
  ui.print(t(lang, 'serverUnreachable', { url, detail }));
  const choices: Choice<'retype' | 'go-on' | 'cancel'>[] = [
    ...(canRetype ? [{ title: t(lang, 'unreachableRetype'), value: 'retype' as const }] : []),
    { title: t(lang, 'unreachableGoOn'), value: 'go-on' },
    { title: t(lang, 'choiceCancel'), value: 'cancel' },
  ];
  const next = await ui.select(t(lang, 'afterFail'), choices, 0);
  return next === 'cancel' ? undefined : next;
}

/** The api_key field: `env:NAME`, the pasted key, or '' (keyless, only offered for other servers). */
async function askKey(
  ui: SetupUi,
  lang: Lang,
  env: NodeJS.ProcessEnv,
  label: string,
  keyEnv: string,
  allowNone: boolean,
): Promise<Step<string>> {
  const isSet = Boolean(env[keyEnv]?.trim());
  const choices: Choice<'env' | 'other-env' | 'paste' | 'none'>[] = [
    ...(allowNone ? [{ title: t(lang, 'keyNone'), value: 'none' as const }] : []),
    { title: t(lang, isSet ? 'keyUseEnv' : 'keyUseEnvUnset', { env: keyEnv }), value: 'env' },
    { title: t(lang, 'keyPaste'), value: 'paste' },
    { title: t(lang, 'keyOtherEnv'), value: 'other-env' },
  ];
  const initial = allowNone ? 0 : isSet ? 0 : 1;
  const how = await ui.select(t(lang, 'keyHow', { label }), choices, initial);
  if (!how) return CANCEL;
  if (how === 'none') return { done: true, value: '' };
  let name = keyEnv;
  if (how === 'paste') {
    const key = await ui.password(t(lang, 'askKey'), { validate: (v) => (v.trim() ? true : t(lang, 'keyEmpty')) });
    if (key === undefined) return CANCEL;
    return { done: true, value: key.trim() };
  }
  if (how === 'other-env') {
    const typed = await ui.text(t(lang, 'askEnvName'), {
      validate: (v) => (ENV_NAME.test(v.trim().replace(/^\$/, '')) ? true : t(lang, 'badEnvName')),
    });
    if (typed === undefined) return CANCEL;
    name = typed.trim().replace(/^\$/, '');
  }
  if (!env[name]?.trim()) ui.print(t(lang, 'envUnsetWarn', { env: name }));
  return { done: true, value: `env:${name}` };
}

/** Model ids from `<baseUrl>/models` with the key ([] and a note when it lists none); `reached`:
 * whether the server answered at all (undefined: not asked, the key's variable is unset). */
async function listModels(
  ui: SetupUi,
  lang: Lang,
  env: NodeJS.ProcessEnv,
  baseUrl: string,
  apiKey: string,
  fetchFn?: FetchFn,
): Promise<{ models: string[]; reached?: boolean; detail: string }> {
  const ref = /^env:(.+)$/.exec(apiKey);
  const key = ref ? (env[ref[1]] ?? '').trim() : apiKey;
  if (ref && !key) return { models: [], detail: '' };
  ui.print(t(lang, 'fetchingModels', { url: baseUrl }));
  const r = await fetchModels(baseUrl, { timeoutMs: MODELS_TIMEOUT_MS, apiKey: key || undefined, fetch: fetchFn });
  if (!r.answered) return { models: [], reached: false, detail: r.detail };
  if (r.models.length) return { models: r.models, reached: true, detail: '' };
  ui.print(t(lang, 'modelsNone', { detail: `HTTP ${r.status}` }));
  return { models: [], reached: true, detail: '' };
}
