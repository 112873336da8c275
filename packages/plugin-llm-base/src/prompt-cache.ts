/**
 * A provider's prompt cache, where it can be asked for: OpenAI routes requests that share a
 * `prompt_cache_key` (and a prefix) to the same cache, so one key per conversation keeps its
 * prefix warm. Sent only to hosts known to take it: a strict OpenAI-compatible server may refuse
 * a field it does not know, and a request must never fail for a hint.
 */

/** Hosts whose API documents `prompt_cache_key`. */
const TAKES_CACHE_KEY = new Set(['api.openai.com']);

/** The request field for a conversation's cache key at this base URL, or none. */
export function promptCacheKey(baseUrl: string, key: string | undefined): { prompt_cache_key?: string } {
  if (!key) return {};
  let host: string;
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'https:') return {};
    host = url.hostname.toLowerCase();
  } catch {
    return {};
  }
  // At most 64 characters, as OpenAI takes it.
  return TAKES_CACHE_KEY.has(host) ? { prompt_cache_key: key.slice(0, 64) } : {};
}
