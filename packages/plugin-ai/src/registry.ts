import * as fs from 'fs';
import { z } from 'zod';
import { aiError } from './errors';

const EntrySchema = z
  .object({
    name: z.string(),
    version: z.string().optional(),
    binPath: z.string(),
    installedAt: z.string().optional(),
    updatedAt: z.string().optional(),
  })
  .passthrough();

export const RegistrySchema = z.object({ plugins: z.record(z.string(), EntrySchema) }).passthrough();
export type Registry = z.infer<typeof RegistrySchema>;
export type RegistryEntry = z.infer<typeof EntrySchema>;

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
  const parsed = RegistrySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw aiError('REGISTRY_CORRUPT', 'registryCorrupt', { file, detail: `${issue.path.join('.')}: ${issue.message}` });
  }
  return parsed.data;
}
