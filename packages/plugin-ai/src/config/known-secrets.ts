import fs = require('fs');
import path = require('path');
import {
  addEnvSecrets,
  addKnownSecrets,
  envSecretValues,
  isSecretName,
  knownSecretsDropped as droppedCount,
  MIN_KNOWN_LENGTH,
} from '@holic512/shared';
import { z } from 'zod';
import { lazy } from '@holic512/shared/lib/lazy';

const llmBaseKeys = lazy(() =>
  z
    .object({
      profiles: z.record(z.string(), z.object({ api_key: z.unknown().optional() }).passthrough()),
    })
    .passthrough(),
);

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
  const parsed = llmBaseKeys().safeParse(raw);
  if (!parsed.success) return [];
  const keys: string[] = [];
  for (const { api_key: k } of Object.values(parsed.data.profiles)) {
    if (typeof k !== 'string') continue;
    const ref = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(k.trim());
    const value = ref ? env[ref[1]] : k;
    if (value) keys.push(value);
  }
  return keys;
}

/** Bytes read of one `.env*` file of the workspace: enough for any real one. */
const DOTENV_MAX_BYTES = 256 * 1024;

/**
 * The `NAME=value` pairs of the workspace's `.env`, `.env.local`, `.env.production`… (the
 * folder itself, not below): the OS sandbox hides these files from commands, so a value the
 * gate never saw in an observation is still found when it turns up later (a model that copies
 * it, a program that prints it encoded). Files that cannot be read count as empty.
 */
export function workspaceDotenv(cwd: string): Record<string, string> {
  const vars: Record<string, string> = {};
  let names: string[];
  try {
    names = fs.readdirSync(cwd).filter((n) => /^\.env(\..+)?$/.test(n));
  } catch {
    return vars;
  }
  for (const name of names) {
    let text: string;
    try {
      const fd = fs.openSync(path.join(cwd, name), fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
      try {
        if (!fs.fstatSync(fd).isFile()) continue;
        const buf = Buffer.alloc(DOTENV_MAX_BYTES);
        text = buf.toString('utf8', 0, fs.readSync(fd, buf, 0, DOTENV_MAX_BYTES, 0));
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      continue;
    }
    for (const line of text.split(/\r?\n/)) {
      const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*[=:]\s*(.*?)\s*$/.exec(line);
      if (m) vars[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
    }
  }
  return vars;
}

/**
 * Tell the redaction gate every secret value this run knows of: secret-looking variables of
 * `env` (the process's, or the `env` of Claude Code's settings that steps run with) and of the
 * workspace's `.env*` files, and the llm-base keys (an `env:NAME` key read from `env`).
 * Adding a value twice changes nothing. Call it before any text from the user's side (piped
 * stdin, a custom command's output) is redacted: a known value with no shape of its own is
 * caught only by value.
 */
export function registerKnownSecrets(home: string, env: NodeJS.ProcessEnv, cwd?: string): void {
  addEnvSecrets(env);
  if (cwd) addEnvSecrets(workspaceDotenv(cwd));
  addKnownSecrets(llmBaseApiKeys(home, env));
}

/**
 * The secret values the gate could not take, when there are any (what the environment, the
 * `.env` files, the llm-base keys and the MCP servers gave, past the gate's index): the session
 * says so once at start, since they are then masked only by their shape and name.
 */
export function knownSecretsDropped(): { knownSecretsDropped?: number } {
  const dropped = droppedCount();
  return dropped > 0 ? { knownSecretsDropped: dropped } : {};
}

/** An HTTP header whose value is a credential whatever its name says (the name test catches `X-Api-Key`). */
const CREDENTIAL_HEADER = /^(proxy-)?authorization$|^cookie$/i;

/**
 * The secret values an MCP server is configured with: its `env` under secret-looking names, and
 * its credential headers (`Authorization: Bearer …`, `X-Api-Key: …`) without their scheme word.
 * A server's own output or error may echo them, and they are never in the process environment.
 */
export function mcpServerSecrets(server: { env?: Record<string, string>; headers?: Record<string, string> }): string[] {
  const out = envSecretValues(server.env ?? {});
  for (const [name, value] of Object.entries(server.headers ?? {})) {
    if (!CREDENTIAL_HEADER.test(name) && !isSecretName(name)) continue;
    const credential = value.trim().replace(/^(Bearer|Basic|Token|Bot|Digest)\s+/i, '');
    if (credential.length >= MIN_KNOWN_LENGTH) out.push(credential);
  }
  return out;
}
