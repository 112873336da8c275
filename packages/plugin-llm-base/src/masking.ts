/** Keys never leave this package in clear text: these helpers mask them for output. */

/** `sk-abcdef123456` → `sk-***3456`; 8 characters or fewer → `***`; empty → ``. Env references stay readable. */
export function maskApiKey(apiKey: unknown): string {
  if (typeof apiKey !== 'string' || apiKey.trim() === '') return '';
  const trimmed = apiKey.trim();
  if (isEnvReference(trimmed)) return trimmed;
  if (trimmed.length <= 8) return '***';
  return trimmed.slice(0, 3) + '***' + trimmed.slice(-4);
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
 * Remove secrets from a message: the given secret values wherever they appear, anything that
 * looks like an OpenAI-style key, Bearer tokens and `"api_key": "..."` pairs.
 */
export function redactSecrets(message: string, secrets: Array<string | undefined | null> = []): string {
  let out = message;
  for (const s of secrets) {
    if (typeof s === 'string' && s.length >= 4) out = out.split(s).join('***');
  }
  return out
    .replace(/\bsk-[A-Za-z0-9\-_]{4,}/g, '***')
    .replace(/(Bearer\s+)[^\s"',;]+/gi, '$1***')
    .replace(/(authorization["']?\s*[:=]\s*["']?)(?!Bearer)[^\s"',;]+/gi, '$1***')
    .replace(/(["']?api[_-]?key["']?\s*[:=]\s*["']?)[^"'\s,;}]+/gi, '$1***');
}
