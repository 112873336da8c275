import * as fs from 'fs';
import * as path from 'path';
import { addEnvSecrets, addKnownSecrets } from '@holic512/shared';
import { z } from 'zod';

const LlmBaseKeys = z.object({
  profiles: z.record(z.string(), z.object({ api_key: z.unknown().optional() }).passthrough()),
}).passthrough();

/**
 * The API keys of the llm-base profiles (`<home>/plugin-configs/llm-base.json`): literal keys
 * as they are, `env:NAME` keys as the value of that variable. A missing or unreadable file has
 * none (llm-base reports its own config problems).
 */
export function llmBaseApiKeys(home: string, env: NodeJS.ProcessEnv): string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(home, 'plugin-configs', 'llm-base.json'), 'utf8'));
  } catch {
    return [];
  }
  const parsed = LlmBaseKeys.safeParse(raw);
  if (!parsed.success) return [];
  const keys: string[] = [];
  for (const p of Object.values(parsed.data.profiles)) {
    const k = p.api_key;
    if (typeof k !== 'string') continue;
    const ref = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(k.trim());
    const value = ref ? env[ref[1]] : k;
    if (value) keys.push(value);
  }
  return keys;
}

/** Tell the redaction gate every secret value this run knows of: secret-looking variables of `env` and the llm-base keys. */
export function registerKnownSecrets(home: string, env: NodeJS.ProcessEnv): void {
  addEnvSecrets(env);
  addKnownSecrets(llmBaseApiKeys(home, env));
}
