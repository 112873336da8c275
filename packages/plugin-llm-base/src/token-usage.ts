/** Token usage (of a model call, not a command line's usage text) as every provider reports it, normalised, and its cost from the profile's prices. */
import type { TokenUsage as Usage } from '@holic512/shared/lib/llm-base-contract';
import type { ProfileConfig } from './types';

export type { Usage };

/**
 * The usage of one answer in our shape. Cached input (the part of the prompt the provider served
 * from its prompt cache) as each API names it: OpenAI `prompt_tokens_details.cached_tokens`,
 * DeepSeek `prompt_cache_hit_tokens`, Anthropic-compatible `cache_read_input_tokens` (whose
 * `input_tokens` leave out what was read from or written to the cache: added back, so
 * `input_tokens` is always the whole prompt). Ollama reports none.
 */
export function normalizeUsage(raw: unknown): Usage {
  const u = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  const details = (u.prompt_tokens_details && typeof u.prompt_tokens_details === 'object' ? u.prompt_tokens_details : {}) as Record<
    string,
    unknown
  >;
  const cacheRead = num(u.cache_read_input_tokens);
  const anthropic = !num(u.prompt_tokens) && (cacheRead > 0 || num(u.cache_creation_input_tokens) > 0);
  const cached = num(details.cached_tokens) || num(u.prompt_cache_hit_tokens) || cacheRead || num(u.cached_tokens);
  const input = anthropic
    ? num(u.input_tokens) + cacheRead + num(u.cache_creation_input_tokens)
    : num(u.prompt_tokens) || num(u.input_tokens);
  return {
    input_tokens: input,
    output_tokens: num(u.completion_tokens) || num(u.output_tokens),
    ...(cached ? { cached_tokens: Math.min(cached, input || cached) } : {}),
  };
}

/** Usage with its cost when the profile has prices for the tier that answered. */
export function priced(usage: Usage, profile: ProfileConfig, tier: 'low' | 'high'): Usage {
  const p = profile.pricing;
  const price = p && (tier === 'high' ? (p.high ?? p.low) : p.low);
  if (!p || !price) return usage;
  const cached = Math.min(usage.cached_tokens ?? 0, usage.input_tokens);
  const cost =
    ((usage.input_tokens - cached) * price.input + cached * (price.cached_input ?? price.input) + usage.output_tokens * price.output) / 1e6;
  return { ...usage, cost, currency: p.currency };
}
