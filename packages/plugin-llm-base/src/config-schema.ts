import { z } from 'zod';
import { lazy } from '@holic512/shared/lib/lazy';

/** How strict JSON is asked for: the system prompt only, or also `response_format: {type: "json_object"}`. */
export const JSON_MODES = ['prompt', 'response_format'] as const;

/** An http(s) URL, as a profile's base_url must be. */
function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function buildSchemas() {
  /** One profile (DESIGN §3 fields + optional json_mode / max_retries). Unknown fields are kept. */
  const ProfileSchema = z.looseObject({
    base_url: z.string().refine(isHttpUrl, { message: 'expected an http(s) URL' }),
    api_key: z.string().default(''),
    low_model: z.string().min(1, { message: 'expected a model id' }),
    high_model: z.string().min(1, { message: 'expected a model id' }),
    timeout: z.number().int().positive().default(60000),
    json_mode: z.enum(JSON_MODES).optional(),
    max_retries: z.number().int().min(0).max(10).optional(),
    /** ms until connected; default 5000 for local servers, 10000 for hosted ones. */
    connect_timeout: z.number().int().positive().optional(),
    /** ms from the connection to the first piece of the answer; default 120000 local, 60000 hosted. */
    first_token_timeout: z.number().int().positive().optional(),
    /** ms between two pieces of a streamed answer; default 60000 local, 30000 hosted. */
    idle_timeout: z.number().int().positive().optional(),
    /** `ollama` (or a base_url on port 11434): Ollama's native API (ollama-native.ts). */
    provider: z.string().min(1).optional(),
    /** Ollama: context tokens per request; never below the caller's budget, capped by the model's maximum. */
    num_ctx: z.number().int().min(512).max(1_048_576).optional(),
    /** Ollama: how long the model stays loaded after a request (`"30m"`, seconds, `-1` forever); default "30m". */
    keep_alive: z.union([z.string().min(1), z.number().int()]).optional(),
    /** How a caller's structured turns reach the model: `auto` (default: what `probe` found best), `tools`, `json_schema`, `json`. */
    transport: z.enum(['auto', 'tools', 'json_schema', 'json']).optional(),
    /** What `slothtool llm-base probe` found the server and model can do, and when. */
    capabilities: z
      .object({
        tools: z.boolean(),
        json_schema: z.boolean(),
        json_object: z.boolean(),
        vision: z.boolean().optional(),
        probed_at: z.string(),
      })
      .optional(),
    /** Prices per million tokens, so a call's usage carries its cost (`high` defaults to `low`). */
    pricing: z
      .object({
        currency: z.string().min(1).max(8),
        low: z.object({ input: z.number().min(0), cached_input: z.number().min(0).optional(), output: z.number().min(0) }),
        high: z.object({ input: z.number().min(0), cached_input: z.number().min(0).optional(), output: z.number().min(0) }).optional(),
        /** When the prices were taken from the provider's page (presets say). */
        as_of: z.string().optional(),
      })
      .optional(),
  });

  /** `llm-base.json` */
  const ConfigSchema = z.looseObject({
    default_profile: z.string().default(''),
    profiles: z.record(z.string(), ProfileSchema),
  });

  /** `llm-base.logs.json` (1.0.x) */
  const CallLogSchema = z.looseObject({
    calls: z.array(z.looseObject({ call_id: z.string() })),
  });

  /** One line of `llm-base.calls.jsonl`. */
  const CallLineSchema = z.looseObject({ call_id: z.string() });
  return { ProfileSchema, ConfigSchema, CallLogSchema, CallLineSchema };
}

/** The schemas of llm-base's files, built on first use. */
export const configSchemas = lazy(buildSchemas);

/** `path.to.field: message; …` for a failed safeParse. */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message}`).join('; ');
}
