/** Types shared by the module API (no runtime code, so importing them is free). */

export type JsonMode = 'prompt' | 'response_format';

/** A profile as stored in `llm-base.json`. */
export interface ProfileConfig {
  base_url: string;
  /** The key itself, `env:NAME` to read it from the environment, or `` for servers that need none. */
  api_key: string;
  low_model: string;
  high_model: string;
  /** Milliseconds per request attempt. */
  timeout: number;
  /** `response_format` also sends `response_format: {type: "json_object"}`. Default `prompt`. */
  json_mode?: JsonMode;
  /** Retries of 429/5xx/connection errors done by the SDK (default 2). */
  max_retries?: number;
  /** Milliseconds until connected (default 5000 local, 10000 hosted; see wait-limits.ts). */
  connect_timeout?: number;
  /** Milliseconds from the connection to the first piece of the answer (120000 local, 60000 hosted). */
  first_token_timeout?: number;
  /** Milliseconds between two pieces of a streamed answer (60000 local, 30000 hosted). */
  idle_timeout?: number;
  /** `ollama` (or a base_url on port 11434): llm_chat uses Ollama's native API. */
  provider?: string;
  /** Ollama: context tokens per request (never below the caller's `min_context`, capped by the model). */
  num_ctx?: number;
  /** Ollama: how long the model stays loaded (default "30m"). */
  keep_alive?: string | number;
  /** `auto` (default), `tools`, `json_schema` or `json` (transport.ts). */
  transport?: 'auto' | 'tools' | 'json_schema' | 'json';
  /** What `probe` found, with when (transport.ts `Capabilities`). */
  capabilities?: { tools: boolean; json_schema: boolean; json_object: boolean; probed_at: string };
  /** Prices per million tokens (input, cached input, output) per tier: usage then carries `cost`. */
  pricing?: ProfilePricing;
  [extra: string]: unknown;
}

/** Prices per million tokens; `high` defaults to `low`; `cached_input` to `input`. */
export interface ProfilePricing {
  currency: string;
  low: { input: number; cached_input?: number; output: number };
  high?: { input: number; cached_input?: number; output: number };
  as_of?: string;
}

/** `llm-base.json` */
export interface LlmConfig {
  default_profile: string;
  profiles: Record<string, ProfileConfig>;
  [extra: string]: unknown;
}

/** One entry of `llm-base.logs.json` (metadata only). */
export interface CallRecord {
  call_id: string;
  timestamp: string;
  profile: string | null;
  model: string | null;
  duration_ms: number;
  success: boolean;
  /** Tokens of the call, the prompt's cached part among them (`cached_tokens`), and its cost when the profile has prices. */
  usage: { input_tokens: number; output_tokens: number; cached_tokens?: number; cost?: number; currency?: string } | null;
  /** Added fields (absent in 1.0.x logs). */
  kind?: 'chat' | 'raw';
  error_code?: string;
  stream?: boolean;
  json_method?: string;
  [extra: string]: unknown;
}
