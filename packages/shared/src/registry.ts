import { z } from 'zod';
import { lazy } from './lazy';

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

/** The registry's schemas, built on first use. */
export const registrySchemas = lazy(buildSchemas);

type Schemas = ReturnType<typeof buildSchemas>;
export type RegistryEntry = z.infer<Schemas['RegistryEntrySchema']>;
export type Registry = z.infer<Schemas['RegistrySchema']>;
export type HostRegistryEntry = z.infer<Schemas['HostRegistryEntrySchema']>;
export type HostRegistry = z.infer<Schemas['HostRegistrySchema']>;

/** Check parsed JSON against a registry schema: the registry, or one line saying where it is wrong (`plugins.ai.binPath: …`). */
export function checkRegistry<S extends Schemas['RegistrySchema'] | Schemas['HostRegistrySchema']>(
  schema: S,
  json: unknown,
): { ok: true; registry: z.infer<S> } | { ok: false; detail: string } {
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, registry: parsed.data as z.infer<S> };
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : '(root)';
  return { ok: false, detail: `${where}: ${issue.message}` };
}

/** A plugin's read of registry.json: the registry, or one line saying where it is wrong. */
export function checkPluginRegistry(json: unknown): { ok: true; registry: Registry } | { ok: false; detail: string } {
  return checkRegistry(registrySchemas().RegistrySchema, json);
}
