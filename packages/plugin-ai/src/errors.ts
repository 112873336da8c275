import { t, type MessageKey } from './i18n';

/** Error codes plugin-ai's library throws. The CLI maps them to messages and exit codes. */
export type AiErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_UNREADABLE'
  | 'REGISTRY_CORRUPT'
  | 'LLM_BASE_MISSING'
  | 'LLM_BASE_STALE'
  | 'LLM_BASE_BROKEN'
  | 'TOOL_RUNNER_MISSING'
  | 'USAGE';

/** A typed error whose message is an i18n key plus its variables, so the entry can print
 * it in the user's language. `message` holds the English text for logs and tests. */
export class AiError extends Error {
  readonly code: AiErrorCode;
  readonly key: MessageKey;
  readonly vars: Record<string, string | number>;
  constructor(code: AiErrorCode, key: MessageKey, vars: Record<string, string | number>, english: string) {
    super(english);
    this.name = 'AiError';
    this.code = code;
    this.key = key;
    this.vars = vars;
  }
  static isInstance(value: unknown): value is AiError {
    return value instanceof Error && (value as { name?: string }).name === 'AiError' && 'key' in value;
  }
}

/** Build an AiError whose `message` is the English text of `key`. */
export function aiError(code: AiErrorCode, key: MessageKey, vars: Record<string, string | number> = {}): AiError {
  return new AiError(code, key, vars, t('en', key, vars));
}
