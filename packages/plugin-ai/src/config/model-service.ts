/** llm-base's local model server functions (FEATURES.ollama), as plugin-ai calls them. */
import type { ModelService, ModelState } from './llm-base';

const STATES: readonly string[] = ['not_running', 'not_pulled', 'cold', 'loading', 'ready'];

/** llm-base's Ollama functions; their answers are checked as they come from another package. */
export function modelService(mod: Record<string, unknown>): ModelService {
  const fns = ['is_ollama_profile', 'ollama_health', 'warm_up', 'pull_model'] as const;
  type Data = { success?: boolean; data?: Record<string, unknown>; error?: { message?: unknown } };
  const call = async (f: (typeof fns)[number], ...args: unknown[]): Promise<Data> => {
    try {
      return ((await (mod[f] as (...a: unknown[]) => unknown)(...args)) ?? {}) as Data;
    } catch (err) {
      return { success: false, error: { message: (err as Error)?.message ?? String(err) } };
    }
  };
  return {
    isLocalService: (profile) => {
      try {
        return (mod.is_ollama_profile as (p: string | null) => unknown)(profile) === true;
      } catch {
        return false;
      }
    },
    async health(profile, mode) {
      const r = await call('ollama_health', profile, mode);
      const d = r.data ?? {};
      return r.success && STATES.includes(String(d.state))
        ? { state: d.state as ModelState, model: String(d.model ?? ''), message: String(d.message ?? '') }
        : undefined;
    },
    async warmUp(profile, mode, minContext) {
      return (await call('warm_up', profile, mode, { min_context: minContext })).success === true;
    },
    async pull(model, profile, onProgress, signal) {
      const progress = (p: unknown) => {
        const x = (p && typeof p === 'object' ? p : {}) as { status?: unknown; completed?: unknown; total?: unknown };
        const pct =
          typeof x.total === 'number' && x.total > 0 && typeof x.completed === 'number'
            ? ` ${Math.floor((x.completed / x.total) * 100)}%`
            : '';
        onProgress(`${String(x.status ?? '')}${pct}`);
      };
      const r = await call('pull_model', model, profile, { onProgress: progress, signal });
      return r.success ? undefined : String(r.error?.message ?? 'failed');
    },
  };
}
