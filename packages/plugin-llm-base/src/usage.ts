/** Token usage as every provider reports it, normalised, and its cost from the profile's prices. */
import type { ProfileConfig } from './types';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  /** Input tokens the provider served from its prompt cache (when it says: OpenAI's `prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`). */
  cached_tokens?: number;
  /** Money for this call from the profile's `pricing`, in `currency`. */
  cost?: number;
  currency?: string;
}

export function normalizeUsage(raw: unknown): Usage {
  const u = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const details = (u.prompt_tokens_details && typeof u.prompt_tokens_details === 'object' ? u.prompt_tokens_details : {}) as Record<string, unknown>;
  const cached = num(details.cached_tokens) || num(u.prompt_cache_hit_tokens) || num(u.cached_tokens);
  return {
    input_tokens: num(u.prompt_tokens) || num(u.input_tokens),
    output_tokens: num(u.completion_tokens) || num(u.output_tokens),
    ...(cached ? { cached_tokens: cached } : {}),
  };
}

/** Usage with its cost when the profile has prices for the tier that answered. */
export function priced(usage: Usage, profile: ProfileConfig, tier: 'low' | 'high'): Usage {
  const p = profile.pricing;
  const price = p && (tier === 'high' ? (p.high ?? p.low) : p.low);
  if (!p || !price) return usage;
  const cached = Math.min(usage.cached_tokens ?? 0, usage.input_tokens);
  const cost = ((usage.input_tokens - cached) * price.input + cached * (price.cached_input ?? price.input) + usage.output_tokens * price.output) / 1e6;
  return { ...usage, cost, currency: p.currency };
}
