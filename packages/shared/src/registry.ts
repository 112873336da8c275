import { z } from 'zod';
import { lazy } from './lazy';
import { copyOtherKeys, isPlainObject } from './json-object';

/**
 * `<SlothTool home>/registry.json`, the one file every host and plugin reads: `{"plugins":
 * {"<alias>": {name, version, binPath, installedAt, updatedAt?}}}`, byte-compatible with the
 * original SlothTool. Unknown keys are kept. Readers (plugins finding llm-base) need an entry's
 * `name` and `binPath`; the host writes every key, so its schema requires them.
 */
function buildSchemas() {
  const RegistryEntrySchema = z.looseObject({
    /** The real npm package name, e.g. `@holic512/plugin-ai`. */
    name: z.string().min(1),
    /** The installed package version. */
    version: z.string().optional(),
    /** Absolute path of the file spawned with node. */
    binPath: z.string().min(1),
    /** ISO time of the first install. */
    installedAt: z.string().optional(),
    /** ISO time of the last `slothtool update` that changed the version. */
    updatedAt: z.string().optional(),
  });
  const RegistrySchema = z.looseObject({ plugins: z.record(z.string(), RegistryEntrySchema) });
  /** What a host writes (and checks when it reads the file back): every key the original writes. */
  const HostRegistryEntrySchema = RegistryEntrySchema.extend({ version: z.string(), installedAt: z.string() });
  const HostRegistrySchema = z.looseObject({ plugins: z.record(z.string(), HostRegistryEntrySchema) });
  return { RegistryEntrySchema, RegistrySchema, HostRegistryEntrySchema, HostRegistrySchema };
}

/** The registry's schemas, built on first use (a plugin's bundle loads zod then: scripts/zod-on-first-use.js). */
export const registrySchemas = lazy(buildSchemas);

type Schemas = ReturnType<typeof buildSchemas>;
export type RegistryEntry = z.infer<Schemas['RegistryEntrySchema']>;
export type Registry = z.infer<Schemas['RegistrySchema']>;
export type HostRegistryEntry = z.infer<Schemas['HostRegistryEntrySchema']>;
export type HostRegistry = z.infer<Schemas['HostRegistrySchema']>;

/** Check parsed JSON against a registry schema: the registry, or one line saying where it is wrong (`plugins.ai.binPath: …`). */
export function checkRegistry<S extends Schemas['RegistrySchema'] | Schemas['HostRegistrySchema']>(schema: S, json: unknown): { ok: true; registry: z.infer<S> } | { ok: false; detail: string } {
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, registry: parsed.data as z.infer<S> };
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : '(root)';
  return { ok: false, detail: `${where}: ${issue.message}` };
}

/** A plugin's read of registry.json: the registry, or one line saying where it is wrong. */
export function checkPluginRegistry(json: unknown): { ok: true; registry: Registry } | { ok: false; detail: string } {
  const plain = plainRegistry(json);
  return plain ? { ok: true, registry: plain } : checkRegistry(registrySchemas().RegistrySchema, json);
}

const ENTRY_KEYS = ['name', 'version', 'binPath', 'installedAt', 'updatedAt'] as const;
const OPTIONAL_KEYS = new Set<string>(['version', 'installedAt', 'updatedAt']);

const KNOWN_ENTRY = new Set<string>(ENTRY_KEYS);
const KNOWN_ROOT = new Set(['plugins']);

/**
 * What the plugin schema gives a registry of the usual shape (the schema's keys in its order,
 * then the others), read without zod so a turn that only talks never loads it; undefined for
 * anything else, which the schema then checks and words. Never accepts what the schema refuses
 * (test/registry-fast.test.ts holds the two equal).
 */
export function plainRegistry(json: unknown): Registry | undefined {
  if (!isPlainObject(json) || !isPlainObject(json.plugins)) return undefined;
  const plugins: Record<string, RegistryEntry> = {};
  for (const alias of Object.keys(json.plugins)) {
    const entry = json.plugins[alias];
    if (alias === '__proto__' || !isPlainObject(entry)) return undefined;
    const out: Record<string, unknown> = {};
    for (const key of ENTRY_KEYS) {
      if (!(key in entry)) {
        if (OPTIONAL_KEYS.has(key)) continue;
        return undefined;
      }
      const value = entry[key];
      if (typeof value !== 'string' || (!OPTIONAL_KEYS.has(key) && value === '')) return undefined;
      out[key] = value;
    }
    if (!copyOtherKeys(entry, out, KNOWN_ENTRY)) return undefined;
    plugins[alias] = out as RegistryEntry;
  }
  const registry: Record<string, unknown> = { plugins };
  return copyOtherKeys(json, registry, KNOWN_ROOT) ? (registry as Registry) : undefined;
}
