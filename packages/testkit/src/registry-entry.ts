// Entries of SlothTool's registry.json, as the tests write them.

/** An entry of `registry.json`, in the original host's shape and key order. */
export type RegistryEntry = {
  name: string;
  version: string;
  binPath: string;
  installedAt: string;
  updatedAt?: string;
};

/**
 * A registry entry for the package `name` whose bin is `binPath`: version 1.0.0, installed at
 * 2026-01-01T00:00:00.000Z; `fields` win.
 *
 * @example await temp.writeJson('registry.json', { plugins: { ai: registryEntry('@holic512/plugin-ai', '/x/ai.js', { version: '1.0.3' }) } });
 */
export function registryEntry(name: string, binPath: string, fields: Partial<RegistryEntry> = {}): RegistryEntry {
  return { name, version: '1.0.0', binPath, installedAt: '2026-01-01T00:00:00.000Z', ...fields };
}
