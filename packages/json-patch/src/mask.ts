/** What a masked value is shown as. */
export const MASK = '***';

const SECRET_PARTS = [
  'apikey', 'token', 'password', 'passwd', 'passphrase', 'secret', 'credential',
  'privatekey', 'accesskey', 'authorization', 'cookie', 'sessionkey', 'signature',
];
const SECRET_WHOLE = new Set(['auth', 'pwd', 'pass', 'key', 'bearer']);
/** Token counters are not secrets (`max_tokens`, `input_tokens`...). */
const COUNTERS = /^(max|min|input|output|prompt|completion|total|num|used)_?tokens?$|^tokens?_?(count|used|limit)$/i;

/** True for a key whose value should never be shown: `api_key`, `apiKey`, `token`, `password`, `client_secret`... */
export function isSecretKey(key: string): boolean {
  if (COUNTERS.test(key)) return false;
  const flat = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_WHOLE.has(flat) || SECRET_PARTS.some((part) => flat.includes(part));
}

/** True when any step of the pointer tokens is a secret key. */
export function isSecretPath(tokens: readonly string[]): boolean {
  return tokens.some(isSecretKey);
}

/**
 * A copy of `value` with every leaf under a secret key replaced by {@link MASK}.
 * With `secret` true, every leaf is masked (the value itself sits under a secret key).
 */
export function maskValue(value: unknown, secret = false): unknown {
  if (Array.isArray(value)) return value.map((v) => maskValue(v, secret));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, { value: maskValue(v, secret || isSecretKey(k)), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return secret ? MASK : value;
}
