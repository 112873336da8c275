/**
 * Shapes llm-base hands to plugin-ai. plugin-ai never imports llm-base (it finds llm-base through
 * the registry at run time and checks what it gets field by field), so both take these types
 * from here. Types only: nothing here runs.
 */

/** Token usage of one model call, normalised over the providers. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  /** Input tokens the provider served from its prompt cache (when it says: OpenAI's `prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`). */
  cached_tokens?: number;
  /** Money for this call from the profile's `pricing`, in `currency` (when the profile has prices). */
  cost?: number;
  currency?: string;
}

/** One check of llm-base's `doctor` report. */
export interface DoctorCheck<Id extends string = string> {
  id: Id;
  ok: boolean;
  message: string;
  /** What the user can do about it (failed checks only). */
  fix?: string;
  /** Not run because an earlier check failed. */
  skipped?: boolean;
}

/** llm-base's `doctor` report: is a profile usable, check by check. */
export interface DoctorReport<Id extends string = string> {
  ok: boolean;
  /** The profile examined (the default when none was named), or null when there is none. */
  profile: string | null;
  checks: DoctorCheck<Id>[];
}
