/** The error codes of the module API (DESIGN §3). */
export type ErrorCode = 'NO_PROFILE' | 'NETWORK_ERROR' | 'AUTH_ERROR' | 'RATE_LIMIT' | 'PROVIDER_ERROR';

/** An error this package raises itself, with its API code and a user-facing message. */
export class LlmBaseError extends Error {
  readonly code: ErrorCode;
  /** A finer reason for the CLI and doctor (`config_invalid`, `env_key_missing`, …). */
  readonly reason?: string;
  constructor(code: ErrorCode, message: string, reason?: string) {
    super(message);
    this.name = 'LlmBaseError';
    this.code = code;
    this.reason = reason;
  }
  static isInstance(err: unknown): err is LlmBaseError {
    return err instanceof Error && err.name === 'LlmBaseError' && typeof (err as LlmBaseError).code === 'string';
  }
}

/** `{code, message}` as the module API returns it. */
export interface ApiError {
  code: ErrorCode;
  message: string;
  /** The provider's HTTP status when it answered with an error (not in 1.0.x; additive). */
  status?: number;
}
