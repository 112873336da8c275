import { AiError } from '../errors';
import { aiPaths, slothtoolHome } from '../home';
import { readRegistry, type Registry } from '../config/registry';
import { loadSetupLlmBase } from './llm-base-module';

/** Why `ai` cannot talk to a model yet. */
export type SetupReason = 'no-llm-base' | 'no-profile';

export interface NeedsSetupResult {
  /** null: nothing to set up (or a problem the normal start-up reports better, such as a
   * corrupt registry or a broken llm-base config file, which the setup must not overwrite). */
  reason: SetupReason | null;
  /** For `no-llm-base`: LLM_BASE_MISSING, LLM_BASE_STALE or LLM_BASE_BROKEN. */
  code?: string;
  /** English detail for logs (the stale path, the load error). */
  detail?: string;
  /** For LLM_BASE_STALE / LLM_BASE_BROKEN: the registered file that is missing or broken. */
  path?: string;
  /** llm-base's config file cannot be used (corrupt JSON, a bad field): llm-base's own message,
   * naming the file and the fix. `ai -p` stops on it (exit 2), `ai -i` shows it at once. */
  configProblem?: string;
}

export interface NeedsSetupOptions {
  /** Environment (SLOTHTOOL_HOME / HOME); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The parsed registry; read from the home when absent. */
  registry?: Registry;
  /** The profile asked for with --profile: when given, that profile's existence is the
   * agent's business (it names the profile in its error), not a reason to set up. */
  profile?: string | null;
}

/**
 * Does `ai` need the guided setup before it can answer? Cheap: reads registry.json and the
 * llm-base config, no network. Never throws.
 */
export function needsSetup(options: NeedsSetupOptions = {}): NeedsSetupResult {
  const env = options.env ?? process.env;
  let registry = options.registry;
  try {
    registry ??= readRegistry(aiPaths(slothtoolHome(env)).registry);
  } catch (err) {
    if (AiError.isInstance(err)) return { reason: null };
    throw err;
  }
  let llm;
  try {
    llm = loadSetupLlmBase(registry);
  } catch (err) {
    if (AiError.isInstance(err) && err.code.startsWith('LLM_BASE_')) {
      const where = err.vars.path;
      return { reason: 'no-llm-base', code: err.code, detail: err.message, ...(typeof where === 'string' ? { path: where } : {}) };
    }
    if (AiError.isInstance(err)) return { reason: null };
    throw err;
  }
  const listed = llm.list_profiles();
  if (!listed.success) {
    // llm-base says NO_PROFILE when its config file cannot be read or is invalid (an llm-base
    // without list_profiles, the original 1.0.x, answers otherwise: nothing to say then).
    const error = (listed as { error?: { code?: unknown; message?: unknown } }).error;
    if (error?.code === 'NO_PROFILE' && typeof error.message === 'string' && error.message)
      return { reason: null, configProblem: error.message };
    return { reason: null };
  }
  if (options.profile) return { reason: null };
  const data = listed.data as { default_profile?: unknown; profiles?: unknown } | null;
  const profiles = data && typeof data.profiles === 'object' && data.profiles ? (data.profiles as Record<string, unknown>) : {};
  const def = typeof data?.default_profile === 'string' ? data.default_profile : '';
  return def && Object.prototype.hasOwnProperty.call(profiles, def) ? { reason: null } : { reason: 'no-profile' };
}
