import { checkRegistry, registrySchemas, type HostRegistry, type HostRegistryEntry } from '@holic512/shared/lib/registry';
import { SlothToolError } from './errors';
import { readJsonFile, writeJsonFileAtomic } from './json-file';
import type { HomePaths } from './paths';

/** One plugin in registry.json, exactly the keys the original host writes (the shared schema). */
export type RegistryEntry = HostRegistryEntry;
export type Registry = HostRegistry;

/**
 * Read `<home>/registry.json`. A missing file is an empty registry; a file that is not JSON or
 * not the registry shape is a REGISTRY_CORRUPT error naming the file (treating it as empty would
 * let the next write drop every entry).
 */
export function readRegistry(paths: HomePaths): Registry {
  const read = readJsonFile(paths.registry);
  if (read.kind === 'missing') return { plugins: {} };
  if (read.kind === 'invalid') throw new SlothToolError('REGISTRY_CORRUPT', { file: paths.registry, detail: read.detail });
  const checked = checkRegistry(registrySchemas().HostRegistrySchema, read.value);
  if (!checked.ok) throw new SlothToolError('REGISTRY_CORRUPT', { file: paths.registry, detail: checked.detail });
  return checked.registry;
}

/** Write the whole registry atomically, in the original host's 2-space format. */
export function writeRegistry(paths: HomePaths, registry: Registry): void {
  writeJsonFileAtomic(paths.registry, registry);
}

/**
 * Read the registry fresh, let `change` edit a copy, and write it back when `change` returns
 * true. Reading right before writing keeps entries another process added meanwhile.
 */
export function updateRegistry(paths: HomePaths, change: (registry: Registry) => boolean): Registry {
  const registry = readRegistry(paths);
  if (change(registry)) writeRegistry(paths, registry);
  return registry;
}

/** The entry of `alias`, or undefined. Never inherited properties like `constructor`. */
export function getEntry(registry: Registry, alias: string): RegistryEntry | undefined {
  return Object.prototype.hasOwnProperty.call(registry.plugins, alias) ? registry.plugins[alias] : undefined;
}
