import { copyOtherKeys, isPlainObject } from '@holic512/shared/lib/json-object';
import { isHttpUrl, JSON_MODES } from './config-schema';
import type { LlmConfig, ProfileConfig } from './types';

/**
 * llm-base.json of the usual shape, read without zod: what `configSchemas().ConfigSchema` gives
 * it (the schema's keys in its order with their defaults, then the others; the nested objects
 * with their own keys only), so a turn that only talks never loads zod (a plugin's bundle loads
 * it on first use: scripts/zod-on-first-use.js). Anything else (a field out of range, a value
 * of another type, an odd object) is undefined here and goes to the schema, which says what is
 * wrong: this never accepts what the schema refuses (test/config-plain.test.ts holds the two
 * equal).
 */
export function plainConfig(json: unknown): LlmConfig | undefined {
  if (!isPlainObject(json) || !isPlainObject(json.profiles)) return undefined;
  const out: Record<string, unknown> = {};
  if (!('default_profile' in json)) out.default_profile = '';
  else if (typeof json.default_profile === 'string') out.default_profile = json.default_profile;
  else return undefined;
  const profiles: Record<string, ProfileConfig> = {};
  for (const name of Object.keys(json.profiles)) {
    // An assignment to `__proto__` would set the prototype: the schema decides that one.
    const profile = name === '__proto__' ? undefined : plainProfile(json.profiles[name]);
    if (!profile) return undefined;
    profiles[name] = profile;
  }
  out.profiles = profiles;
  return copyOtherKeys(json, out, ROOT_KEYS) ? (out as LlmConfig) : undefined;
}

type Check = (value: unknown) => boolean;

const str: Check = (v) => typeof v === 'string';
const nonEmpty: Check = (v) => typeof v === 'string' && v.length > 0;
const int = (min: number, max = Number.MAX_SAFE_INTEGER): Check => (v) => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const positive = int(1);
const oneOf = (values: readonly string[]): Check => (v) => typeof v === 'string' && values.includes(v);
const bool: Check = (v) => typeof v === 'boolean';
const price: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The profile schema's fields in its order: the check, and the default of a field that has one. */
const PROFILE_FIELDS: Array<[string, Check, unknown?]> = [
  ['base_url', (v) => typeof v === 'string' && isHttpUrl(v)],
  ['api_key', str, ''],
  ['low_model', nonEmpty],
  ['high_model', nonEmpty],
  ['timeout', positive, 60000],
  ['json_mode', oneOf(JSON_MODES)],
  ['max_retries', int(0, 10)],
  ['connect_timeout', positive],
  ['first_token_timeout', positive],
  ['idle_timeout', positive],
  ['provider', nonEmpty],
  ['num_ctx', int(512, 1_048_576)],
  ['keep_alive', (v) => nonEmpty(v) || int(Number.MIN_SAFE_INTEGER)(v)],
  ['transport', oneOf(['auto', 'tools', 'json_schema', 'json'])],
];
const REQUIRED = new Set(['base_url', 'low_model', 'high_model']);
const CAPABILITY_FIELDS: Array<[string, Check, boolean]> = [
  ['tools', bool, true],
  ['json_schema', bool, true],
  ['json_object', bool, true],
  ['vision', bool, false],
  ['probed_at', str, true],
];
const PRICE_FIELDS: Array<[string, Check, boolean]> = [
  ['input', price, true],
  ['cached_input', price, false],
  ['output', price, true],
];
const PROFILE_KEYS = new Set([...PROFILE_FIELDS.map(([k]) => k), 'capabilities', 'pricing']);
const ROOT_KEYS = new Set(['default_profile', 'profiles']);

function plainProfile(value: unknown): ProfileConfig | undefined {
  if (!isPlainObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, check, fallback] of PROFILE_FIELDS) {
    if (!(key in value)) {
      if (REQUIRED.has(key)) return undefined;
      if (fallback !== undefined) out[key] = fallback;
      continue;
    }
    if (!check(value[key])) return undefined;
    out[key] = value[key];
  }
  if ('capabilities' in value) {
    const caps = strictObject(value.capabilities, CAPABILITY_FIELDS);
    if (!caps) return undefined;
    out.capabilities = caps;
  }
  if ('pricing' in value) {
    const pricing = plainPricing(value.pricing);
    if (!pricing) return undefined;
    out.pricing = pricing;
  }
  return copyOtherKeys(value, out, PROFILE_KEYS) ? (out as ProfileConfig) : undefined;
}

function plainPricing(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || !(typeof value.currency === 'string' && value.currency.length >= 1 && value.currency.length <= 8)) return undefined;
  const low = strictObject(value.low, PRICE_FIELDS);
  if (!low) return undefined;
  const out: Record<string, unknown> = { currency: value.currency, low };
  if ('high' in value) {
    const high = strictObject(value.high, PRICE_FIELDS);
    if (!high) return undefined;
    out.high = high;
  }
  if ('as_of' in value) {
    if (typeof value.as_of !== 'string') return undefined;
    out.as_of = value.as_of;
  }
  return out;
}

/** A `z.object` of these fields (`true`: required): its own keys only, in the schema's order. */
function strictObject(value: unknown, fields: Array<[string, Check, boolean]>): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, check, required] of fields) {
    if (!(key in value)) {
      if (required) return undefined;
      continue;
    }
    if (!check(value[key])) return undefined;
    out[key] = value[key];
  }
  return out;
}
