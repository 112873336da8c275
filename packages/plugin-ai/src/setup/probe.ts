/** Finding OpenAI-compatible model servers on this machine's loopback ports. */

/** A loopback address to probe, with the server usually found there. */
export interface ProbeTarget {
  /** Preset name of the server usually on this port (`ollama`, …), or `local` when unknown. */
  name: string;
  /** Display name. */
  label: string;
  host: string;
  port: number;
}

/** A server that answered. `models` is empty when it has no usable `/models`. */
export interface FoundServer extends ProbeTarget {
  baseUrl: string;
  models: string[];
  /** HTTP status of `/models` (401/403: the server wants a key). */
  status: number;
}

/** The usual ports: Ollama 11434, LM Studio 1234, llama.cpp server 8080, vLLM 8000. */
export const DEFAULT_PROBE_TARGETS: readonly ProbeTarget[] = [
  { name: 'ollama', label: 'Ollama', host: '127.0.0.1', port: 11434 },
  { name: 'lmstudio', label: 'LM Studio', host: '127.0.0.1', port: 1234 },
  { name: 'llamacpp', label: 'llama.cpp server', host: '127.0.0.1', port: 8080 },
  { name: 'vllm', label: 'vLLM', host: '127.0.0.1', port: 8000 },
];

/** Default time-out of one probe: loopback answers (or refuses) in well under this. */
export const DEFAULT_PROBE_TIMEOUT_MS = 800;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * The probe targets: `SLOTHTOOL_AI_PROBE_PORTS` when set, else the usual ports.
 * Format: a comma-separated list of `[name=][host:]port`, e.g.
 * `ollama=127.0.0.1:11434,8080,lmstudio=localhost:1234`; an empty value probes nothing.
 * Hosts other than loopback (127.0.0.1, localhost, ::1 as `[::1]`) are dropped: the setup
 * never knocks on another machine. Returns the targets and the entries it dropped.
 */
export function probeTargetsFromEnv(env: NodeJS.ProcessEnv): { targets: ProbeTarget[]; ignored: string[] } {
  const raw = env.SLOTHTOOL_AI_PROBE_PORTS;
  if (raw === undefined) return { targets: [...DEFAULT_PROBE_TARGETS], ignored: [] };
  const targets: ProbeTarget[] = [];
  const ignored: string[] = [];
  for (const item of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(?:([A-Za-z0-9_.-]+)=)?(?:(\[::1\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(item);
    const port = m ? Number(m[3]) : NaN;
    const host = m?.[2] === '[::1]' ? '::1' : (m?.[2] ?? '127.0.0.1');
    if (!m || port < 1 || port > 65535 || !LOOPBACK.has(host)) {
      ignored.push(item);
      continue;
    }
    const known =
      DEFAULT_PROBE_TARGETS.find((t) => t.name === m[1]) ?? (m[1] ? undefined : DEFAULT_PROBE_TARGETS.find((t) => t.port === port));
    targets.push({ name: known?.name ?? 'local', label: known?.label ?? m[1] ?? 'OpenAI-compatible server', host, port });
  }
  return { targets, ignored };
}

/** The probe time-out: `SLOTHTOOL_AI_PROBE_TIMEOUT_MS` when it is a positive number. */
export function probeTimeoutFromEnv(env: NodeJS.ProcessEnv): number {
  const n = Number(env.SLOTHTOOL_AI_PROBE_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_PROBE_TIMEOUT_MS;
}

export function baseUrlOf(target: Pick<ProbeTarget, 'host' | 'port'>): string {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `http://${host}:${target.port}/v1`;
}

/** Model ids from an OpenAI-style `/models` body (`{data: [{id}]}`; Ollama's `{models: [{name}]}` too). */
export function modelIdsOf(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const b = body as { data?: unknown; models?: unknown };
  const list = Array.isArray(b.data) ? b.data : Array.isArray(b.models) ? b.models : [];
  const ids: string[] = [];
  for (const item of list) {
    const id = item && typeof item === 'object' ? ((item as { id?: unknown }).id ?? (item as { name?: unknown }).name) : undefined;
    if (typeof id === 'string' && id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Ids that are surely not chat models (embeddings, speech, images, moderation). */
const NOT_CHAT = /embed|whisper|tts|dall-e|moderation|transcribe|rerank|(^|[-_/])(audio|image|realtime|search)([-_/]|$)/i;

/** The ids worth offering as chat models; all of them when the filter would leave none. */
export function likelyChatModels(ids: string[]): string[] {
  const chat = ids.filter((id) => !NOT_CHAT.test(id));
  return chat.length ? chat : ids;
}

export type FetchFn = typeof fetch;

/**
 * Whether the server at `baseUrl` is Ollama itself (its native `/api/version` answers), not only
 * something on Ollama's usual port: then the profile says `provider: "ollama"` and llm-base can
 * send num_ctx and keep_alive. False when anything else answers or nothing does.
 */
export async function answersAsOllama(baseUrl: string, options: { timeoutMs: number; fetch?: FetchFn }): Promise<boolean> {
  const root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  try {
    const res = await (options.fetch ?? fetch)(`${root}/api/version`, { signal: AbortSignal.timeout(options.timeoutMs) });
    const body = res.ok ? ((await res.json()) as { version?: unknown }) : undefined;
    return typeof body?.version === 'string';
  } catch {
    return false;
  }
}

/**
 * GET `<baseUrl>/models` with a time-out. Resolves `{answered: false}` when nothing answered
 * (refused, timed out); `{answered: true, models, status}` for any HTTP answer.
 */
export async function fetchModels(
  baseUrl: string,
  options: { timeoutMs: number; apiKey?: string; fetch?: FetchFn },
): Promise<{ answered: false; detail: string } | { answered: true; status: number; models: string[] }> {
  const doFetch = options.fetch ?? fetch;
  const url = baseUrl.replace(/\/+$/, '') + '/models';
  try {
    const res = await doFetch(url, {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    let models: string[] = [];
    if (res.ok) {
      try {
        models = modelIdsOf(await res.json());
      } catch {
        // an answer that is not JSON: the server is there, it just lists nothing
      }
    } else {
      await res.body?.cancel().catch(() => undefined);
    }
    return { answered: true, status: res.status, models };
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string }; message?: string };
    const detail = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message ?? String(err));
    return { answered: false, detail };
  }
}

/** Probe every target at once; the servers that answered, in the targets' order. */
export async function probeLocalServers(
  targets: readonly ProbeTarget[],
  options: { timeoutMs?: number; fetch?: FetchFn } = {},
): Promise<FoundServer[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const results = await Promise.all(
    targets.map(async (target) => {
      const baseUrl = baseUrlOf(target);
      const r = await fetchModels(baseUrl, { timeoutMs, fetch: options.fetch });
      return r.answered ? { ...target, baseUrl, models: r.models, status: r.status } : undefined;
    }),
  );
  return results.filter((r): r is FoundServer => r !== undefined);
}
