import { checkPluginRegistry, type Registry, type RegistryEntry } from '@holic512/shared/lib/registry';
import { aiError } from '../errors';
import { readJsonFile } from './read-json';

export type { Registry, RegistryEntry };

/** Read `registry.json`: a missing file means no plugins; a corrupt one is an error naming it. */
export function readRegistry(file: string): Registry {
  const json = readJsonFile(file, (detail) => aiError('REGISTRY_CORRUPT', 'registryCorrupt', { file, detail }));
  if (json === undefined) return { plugins: {} };
  const checked = checkPluginRegistry(json);
  if (!checked.ok) throw aiError('REGISTRY_CORRUPT', 'registryCorrupt', { file, detail: checked.detail });
  return checked.registry;
}
