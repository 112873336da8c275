import { loadLlmBase } from '../config/llm-base';
import type { Registry } from '../config/registry';
import type { DoctorCheck, DoctorReport } from '@holic512/shared/lib/llm-base-contract';

/** A profile as llm-base stores it (the fields the setup fills in). */
export interface SetupProfile {
  base_url: string;
  api_key: string;
  low_model: string;
  high_model: string;
  timeout?: number;
  /** From the preset the setup started from (`response_format` where the server takes it). */
  json_mode?: string;
  /** From the preset: `ollama` (llm-base then talks Ollama's native API). */
  provider?: string;
  /** From the preset: published prices per million tokens (llm-base's `pricing`). */
  pricing?: unknown;
}

/** llm-base's doctor report, check by check. */
export type { DoctorCheck, DoctorReport };

export interface PresetInfo {
  name: string;
  base_url: string;
  low_model: string;
  high_model: string;
  needs_key: boolean;
  /** How the server takes strict JSON (`response_format`); absent: in the prompt only. */
  json_mode?: string;
  provider?: string;
  pricing?: unknown;
}

type DataResult = { success: true; data: unknown } | { success: false; error: { code: string; message: string } };

/**
 * The part of llm-base's module API the setup uses. Functions the loaded llm-base does not
 * have (the original 1.0.x has no doctor or presets) are undefined.
 */
export interface SetupLlmBase {
  root: string;
  list_profiles(): DataResult;
  create_profile(name: string, profile: SetupProfile): DataResult;
  set_default_profile(name: string): DataResult;
  delete_profile(name: string): DataResult;
  llm_chat(messages: Array<{ role: string; content: string }>, mode: 'low' | 'high', profile: string | null): Promise<unknown>;
  /** doctor, which checks an unsaved profile (`options.profile`); absent in llm-base 1.0.x. */
  doctor?: (name: string | null, options?: { profile: SetupProfile }) => Promise<DoctorReport>;
  list_presets?: () => PresetInfo[];
  /** Probe a profile's transports; absent in llm-base 1.0.x. */
  probe_profile?: (name: string) => Promise<DataResult>;
}

/**
 * llm-base's module through the registry, the way the agent loads it (loadLlmBase validates
 * the entry and throws AiError LLM_BASE_MISSING / STALE / BROKEN). llm-base reads its home from
 * process.env, so the setup must run in the process whose SLOTHTOOL_HOME it configures.
 */
export function loadSetupLlmBase(registry: Registry): SetupLlmBase {
  const { root, module: mod } = loadLlmBase(registry);
  const fn = (name: string) => (typeof mod[name] === 'function' ? (mod[name] as (...a: unknown[]) => unknown) : undefined);
  const need = (name: string) => {
    const f = fn(name);
    if (!f) return () => ({ success: false, error: { code: 'PROVIDER_ERROR', message: `llm-base has no ${name}()` } });
    return f;
  };
  // Two llm-bases exist (docs/contracts.md): 1.0.x has none of these three, this repository's has them all.
  const doctor = fn('doctor');
  const listPresets = fn('list_presets');
  const probe = fn('probe_profile');
  return {
    root,
    list_profiles: () => need('list_profiles')() as DataResult,
    create_profile: (name, profile) => need('create_profile')(name, profile) as DataResult,
    set_default_profile: (name) => need('set_default_profile')(name) as DataResult,
    delete_profile: (name) => need('delete_profile')(name) as DataResult,
    llm_chat: async (messages, mode, profile) => need('llm_chat')(messages, mode, profile),
    doctor: doctor ? (name, options) => doctor(name, options) as Promise<DoctorReport> : undefined,
    list_presets: listPresets ? () => listPresets() as PresetInfo[] : undefined,
    probe_profile: probe ? async (name) => (await probe(name)) as DataResult : undefined,
  };
}
