import { isSecretName, maskSecret, redactValue } from '@holic512/shared';

/** How every masked value begins (the rest names its key and length: `[redacted api_key, 51 chars]`). */
export const MASK = '[redacted';

/**
 * True for a key whose value should never be shown: `api_key`, `apiKey`, `token`, `password`,
 * `client_secret`… Token counters (`max_tokens`, `input_tokens`) are not. This is the shared
 * redaction gate's rule, so a diff and a tool result agree on what is secret.
 */
export function isSecretKey(key: string): boolean {
  return isSecretName(key);
}

/** True when any step of the pointer tokens is a secret key. */
export function isSecretPath(tokens: readonly string[]): boolean {
  return tokens.some(isSecretKey);
}

/**
 * A copy of `value` for display: every leaf under a secret key masked by the redaction gate
 * (`[redacted api_key, 51 chars]`), and everything else through the gate too (a copy of a key
 * under an innocent name, a token in a URL). With `secret` true, every leaf is masked.
 */
export function maskValue(value: unknown, secret = false, key = 'secret'): unknown {
  if (Array.isArray(value)) return value.map((v) => maskValue(v, secret, key));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = secret || isSecretKey(k);
      Object.defineProperty(out, k, {
        value: maskValue(v, s, s && !secret ? k : key),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  if (!secret) return redactValue(value);
  return typeof value === 'string' ? maskSecret(key, value) : maskSecret(key, JSON.stringify(value) ?? '');
}
