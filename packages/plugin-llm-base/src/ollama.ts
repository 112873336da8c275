/**
 * Ollama's native API where the OpenAI-compatible one cannot help: downloading a model, with
 * progress. Through the official `ollama` client (loaded on first use, so requiring llm-base
 * stays fast), against the server of the profile (its base_url without `/v1`).
 */
import type { Lang } from './i18n';
import { t } from './i18n';
import { ollamaSdk } from './lazy-modules';
import type { ProfileConfig } from './types';

/** One progress report of a download: what Ollama is doing and, while pulling layers, bytes. */
export interface PullProgress {
  status: string;
  completed?: number;
  total?: number;
}

export type PullResult =
  { success: true; model: string } | { success: false; error: { code: 'NETWORK_ERROR' | 'PROVIDER_ERROR'; message: string } };

/** The Ollama server of a profile: `http://127.0.0.1:11434/v1` → `http://127.0.0.1:11434`. */
export function ollamaHost(profile: Pick<ProfileConfig, 'base_url'>): string {
  return profile.base_url.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * Download `model` onto the profile's Ollama server, reporting each progress line. Never throws:
 * a server that is not there, a model the library does not have, and an abort come back as errors.
 */
export async function pullModel(
  profile: Pick<ProfileConfig, 'base_url'>,
  model: string,
  lang: Lang,
  options: { onProgress?: (p: PullProgress) => void; signal?: AbortSignal; apiKey?: string } = {},
): Promise<PullResult> {
  const { Ollama } = ollamaSdk();
  const host = ollamaHost(profile);
  const client = new Ollama({ host, ...(options.apiKey ? { headers: { Authorization: `Bearer ${options.apiKey}` } } : {}) });
  const onAbort = (): void => client.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const stream = await client.pull({ model, stream: true });
    let last = '';
    for await (const p of stream) {
      last = p.status;
      options.onProgress?.({ status: p.status, ...(p.total ? { total: p.total, completed: p.completed ?? 0 } : {}) });
    }
    if (last !== 'success')
      return { success: false, error: { code: 'PROVIDER_ERROR', message: t(lang, 'pullIncomplete', { model, status: last || '-' }) } };
    return { success: true, model };
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string } };
    if (options.signal?.aborted || e.name === 'AbortError')
      return { success: false, error: { code: 'NETWORK_ERROR', message: t(lang, 'aborted') } };
    if (e.name === 'ResponseError')
      return { success: false, error: { code: 'PROVIDER_ERROR', message: t(lang, 'pullFailed', { model, detail: e.message ?? '' }) } };
    return {
      success: false,
      error: { code: 'NETWORK_ERROR', message: t(lang, 'pullUnreachable', { host, detail: e.cause?.code ?? e.message ?? String(err) }) },
    };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** One line for a progress report: `pulling 3a7c…: 45% (1.8/4.0 GB)`. */
export function formatPullProgress(p: PullProgress): string {
  if (!p.total) return p.status;
  const gb = (n: number): string => (n / 1e9).toFixed(1);
  const pct = Math.min(100, Math.floor(((p.completed ?? 0) / p.total) * 100));
  return `${p.status}: ${pct}% (${gb(p.completed ?? 0)}/${gb(p.total)} GB)`;
}
