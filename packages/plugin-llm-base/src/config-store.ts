import fs = require('fs');
import path = require('path');
import { LlmBaseError } from './errors';
import { Lang, t } from './i18n';
import { properLockfile, writeFileAtomic } from './lazy-modules';
import { configPath } from './paths';
import { configSchemas, formatIssues } from './config-schema';
import type { JsonMode, LlmConfig, ProfileConfig } from './types';

/** Defaults a new profile starts from (the original llm-base's). */
export const PROFILE_DEFAULTS: ProfileConfig = {
  base_url: 'https://api.openai.com/v1',
  api_key: '',
  low_model: 'gpt-4o-mini',
  high_model: 'gpt-4o',
  timeout: 60000,
};

export interface StoreContext {
  env: NodeJS.ProcessEnv;
  lang: Lang;
}

function emptyConfig(): LlmConfig {
  return { default_profile: '', profiles: {} };
}

/** Parse config text; a broken file is an error naming the file and the field. */
export function parseConfigText(text: string, file: string, lang: Lang): LlmConfig {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new LlmBaseError('NO_PROFILE', t(lang, 'configInvalid', { file, issues: (err as Error).message }), 'config_invalid');
  }
  const parsed = configSchemas().ConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlmBaseError('NO_PROFILE', t(lang, 'configInvalid', { file, issues: formatIssues(parsed.error) }), 'config_invalid');
  }
  return parsed.data as LlmConfig;
}

/** The config; a missing file is an empty config (no profiles). */
export function readConfig(ctx: StoreContext): LlmConfig {
  const file = configPath(ctx.env);
  // Every call asks the file system (another process may have changed the file). A file whose
  // stamp (device, inode, size, change and modification times) is the one it had when it was
  // last read, and which had last changed longer before that read than file times can tell apart
  // (SETTLED_MS), is the same file: its config is not read again. Otherwise it is read, and the
  // same text is not validated again. Callers get their own copy to change.
  const stamp = fileStamp(file);
  if (stamp && lastRead && lastRead.file === file && lastRead.settled && lastRead.stamp === stamp.key)
    return structuredClone(lastRead.config);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return emptyConfig();
    throw new LlmBaseError('NO_PROFILE', t(ctx.lang, 'configUnreadable', { file, detail: (err as Error).message }), 'config_invalid');
  }
  const known = lastRead && lastRead.file === file && lastRead.text === text ? lastRead.config : undefined;
  const config = known ? structuredClone(known) : parseConfigText(text, file, ctx.lang);
  lastRead = { file, text, config: known ?? structuredClone(config), stamp: stamp?.key, settled: stamp?.settled === true };
  return config;
}

/** The last config file read, what it validated to, and its stamp taken just before the read. */
let lastRead: { file: string; text: string; config: LlmConfig; stamp?: string; settled: boolean } | undefined;

/** A file time is only as fine as the file system keeps it (2 s on FAT, a clock tick elsewhere):
 * a change this long before a read cannot share its time stamp with a change after it. */
const SETTLED_MS = 2000;

/** What identifies a file's version, and whether its last change was long enough ago; undefined when it cannot be told. */
function fileStamp(file: string): { key: string; settled: boolean } | undefined {
  try {
    const s = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!s) return undefined;
    const changed = Number((s.ctimeNs > s.mtimeNs ? s.ctimeNs : s.mtimeNs) / 1_000_000n);
    const age = Date.now() - changed;
    return { key: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, settled: age > SETTLED_MS };
  } catch {
    return undefined;
  }
}

/** Write atomically with mode 0600; a failed write (a full disk) leaves the old file as it was and says so. */
export function writeConfig(config: LlmConfig, ctx: StoreContext): void {
  const file = configPath(ctx.env);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic().sync(file, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  } catch (err) {
    const detail = ((err as Error).message ?? String(err)).split('\n')[0].replace(/, (write|open|mkdir|rename|fsync)( '[^']*')?$/, '');
    throw new LlmBaseError('PROVIDER_ERROR', t(ctx.lang, 'configWriteFailed', { file, detail }), 'config_write_failed');
  }
}

/**
 * A config lock older than this belongs to a writer that died (a write takes milliseconds):
 * the next writer takes it over, so a killed `llm-base config …` blocks others for seconds, not longer.
 */
export const CONFIG_LOCK_STALE_MS = 3000;

/** Read, change and write the config while holding its lock (sync; no waiting). */
function mutate(ctx: StoreContext, change: (config: LlmConfig) => void): LlmConfig {
  const file = configPath(ctx.env);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lockfile = properLockfile();
  let release: () => void;
  try {
    release = lockfile.lockSync(file, { realpath: false, stale: CONFIG_LOCK_STALE_MS });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new LlmBaseError('PROVIDER_ERROR', t(ctx.lang, 'configLocked', { file }), 'config_locked');
    }
    throw err;
  }
  try {
    const config = readConfig(ctx);
    change(config);
    writeConfig(config, ctx);
    return config;
  } finally {
    release();
  }
}

/** Async variant of mutate that waits for the lock (used inside calls). */
export async function mutateAsync(ctx: StoreContext, change: (config: LlmConfig) => void): Promise<void> {
  const file = configPath(ctx.env);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const lockfile = properLockfile();
  const release = await lockfile.lock(file, {
    realpath: false,
    stale: CONFIG_LOCK_STALE_MS,
    retries: { retries: 50, minTimeout: 5, maxTimeout: 100 },
  });
  try {
    const config = readConfig(ctx);
    change(config);
    writeConfig(config, ctx);
  } finally {
    await release();
  }
}

/** The profile of that name, never an inherited property (`constructor`, `__proto__`). */
export function ownProfile(config: LlmConfig, id: string): ProfileConfig | undefined {
  return Object.prototype.hasOwnProperty.call(config.profiles, id) ? config.profiles[id] : undefined;
}

const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

function checkName(name: unknown, ctx: StoreContext): string {
  if (typeof name !== 'string' || name.trim() === '' || RESERVED_NAMES.has(name)) {
    throw new LlmBaseError('NO_PROFILE', t(ctx.lang, 'invalidProfileName'), 'invalid_name');
  }
  return name;
}

/** Drop undefined, null and '' so they do not overwrite defaults or current values. */
function definedFields(input: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  }
  return out;
}

function validateProfile(name: string, candidate: Record<string, unknown>, ctx: StoreContext): ProfileConfig {
  const parsed = configSchemas().ProfileSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new LlmBaseError(
      'PROVIDER_ERROR',
      t(ctx.lang, 'invalidProfile', { name, issues: formatIssues(parsed.error) }),
      'invalid_profile',
    );
  }
  return parsed.data as ProfileConfig;
}

function notFound(name: string, ctx: StoreContext): LlmBaseError {
  return new LlmBaseError('NO_PROFILE', t(ctx.lang, 'noProfile', { name }), 'no_profile');
}

/** The profile create_profile would store (defaults filled in, validated), without writing anything. */
export function buildProfile(name: unknown, input: unknown, ctx: StoreContext): { profile_id: string; profile: ProfileConfig } {
  const id = checkName(name, ctx);
  return { profile_id: id, profile: validateProfile(id, { ...PROFILE_DEFAULTS, ...definedFields(input) }, ctx) };
}

/** Create (or replace) a profile; missing fields take the defaults. Becomes the default when there is none. */
export function createProfile(name: unknown, input: unknown, ctx: StoreContext): LlmConfig {
  const { profile_id: id, profile } = buildProfile(name, input, ctx);
  return mutate(ctx, (config) => {
    config.profiles[id] = profile;
    if (!config.default_profile || !ownProfile(config, config.default_profile)) config.default_profile = id;
  });
}

/** Merge a patch into an existing profile. */
export function updateProfile(name: unknown, patch: unknown, ctx: StoreContext): LlmConfig {
  const id = checkName(name, ctx);
  return mutate(ctx, (config) => {
    const current = ownProfile(config, id);
    if (!current) throw notFound(id, ctx);
    const raw = patch && typeof patch === 'object' ? (patch as Record<string, unknown>) : {};
    const next: Record<string, unknown> = { ...current, ...definedFields(raw) };
    // An explicit empty key clears it (keyless local servers).
    if (raw.api_key === '') next.api_key = '';
    config.profiles[id] = validateProfile(id, next, ctx);
  });
}

export function deleteProfile(name: unknown, ctx: StoreContext): LlmConfig {
  const id = checkName(name, ctx);
  return mutate(ctx, (config) => {
    if (!ownProfile(config, id)) throw notFound(id, ctx);
    delete config.profiles[id];
    if (config.default_profile === id) config.default_profile = '';
  });
}

export function setDefaultProfile(name: unknown, ctx: StoreContext): LlmConfig {
  const id = checkName(name, ctx);
  return mutate(ctx, (config) => {
    if (!ownProfile(config, id)) throw notFound(id, ctx);
    config.default_profile = id;
  });
}

export function listProfiles(ctx: StoreContext): { default_profile: string; profiles: Record<string, ProfileConfig> } {
  const config = readConfig(ctx);
  return { default_profile: config.default_profile, profiles: config.profiles };
}

/** The named profile, or the default one. */
export function getProfile(name: string | null | undefined, ctx: StoreContext): { profile_id: string; profile: ProfileConfig } {
  const config = readConfig(ctx);
  const id = name || config.default_profile;
  if (!id) throw new LlmBaseError('NO_PROFILE', t(ctx.lang, 'noDefaultProfile'), 'no_profile');
  const profile = ownProfile(config, id);
  if (!profile) throw notFound(id, ctx);
  return { profile_id: id, profile };
}

/** The key to send: the literal value, or the value of `env:NAME`. */
export function resolveApiKey(profileId: string, profile: ProfileConfig, ctx: StoreContext): string {
  const key = profile.api_key.trim();
  const ref = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(key);
  if (!ref) return key;
  const value = ctx.env[ref[1]];
  if (value === undefined || value.trim() === '') {
    throw new LlmBaseError('AUTH_ERROR', t(ctx.lang, 'envKeyMissing', { name: profileId, env: ref[1] }), 'env_key_missing');
  }
  return value.trim();
}

/** Remember a profile's json_mode (after the provider rejected response_format). */
export function rememberJsonMode(profileId: string, mode: JsonMode, ctx: StoreContext): Promise<void> {
  return mutateAsync(ctx, (config) => {
    const p = ownProfile(config, profileId);
    if (p) p.json_mode = mode;
  });
}
