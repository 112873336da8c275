import { addKnownSecrets, redact, secretPrefix } from '@holic512/shared';

/** Keys never leave this package in clear text: these helpers mask them for output. */

/**
 * For display: `sk-proj-abcdef…123456` → `sk-proj-***3456` (the prefix the redaction gate
 * recognises, else the first 3 characters); 8 characters or fewer → `***`; empty → ``.
 * Env references stay readable.
 */
export function maskApiKey(apiKey: unknown): string {
  if (typeof apiKey !== 'string' || apiKey.trim() === '') return '';
  const trimmed = apiKey.trim();
  if (isEnvReference(trimmed)) return trimmed;
  if (trimmed.length <= 8) return '***';
  return (secretPrefix(trimmed) || trimmed.slice(0, 3)) + '***' + trimmed.slice(-4);
}

/** `env:NAME` names an environment variable that holds the key. */
export function isEnvReference(value: string): boolean {
  return /^env:[A-Za-z_][A-Za-z0-9_]*$/.test(value.trim());
}

/** A copy of the profile with its api_key masked. */
export function maskProfile<T extends { api_key?: unknown }>(profile: T): T {
  return { ...profile, api_key: maskApiKey(profile.api_key) };
}

/** A copy of the config with every profile's api_key masked. */
export function maskConfig<T extends { profiles: Record<string, { api_key?: unknown }> }>(config: T): T {
  const profiles: Record<string, { api_key?: unknown }> = {};
  for (const [name, p] of Object.entries(config.profiles)) profiles[name] = maskProfile(p);
  return { ...config, profiles } as T;
}

/**
 * Remove secrets from a message with the shared redaction gate; the given secret values (the
 * profile's key, say) become known to the gate first, so they are found in any encoded form.
 */
export function redactSecrets(message: string, secrets: Array<string | undefined | null> = []): string {
  addKnownSecrets(secrets);
  return redact(message);
}
