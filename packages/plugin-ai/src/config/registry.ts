import * as fs from 'fs';
import { checkRegistry, RegistrySchema, type Registry, type RegistryEntry } from '@holic512/shared/lib/registry';
import { aiError } from '../errors';

export { RegistrySchema };
export type { Registry, RegistryEntry };

/** Read `registry.json`: a missing file means no plugins; a corrupt one is an error naming it. */
export function readRegistry(file: string): Registry {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { plugins: {} };
    throw aiError('REGISTRY_CORRUPT', 'registryCorrupt', { file, detail: (err as Error).message });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw aiError('REGISTRY_CORRUPT', 'registryCorrupt', { file, detail: (err as Error).message });
  }
  const checked = checkRegistry(RegistrySchema, json);
  if (!checked.ok) throw aiError('REGISTRY_CORRUPT', 'registryCorrupt', { file, detail: checked.detail });
  return checked.registry;
}
