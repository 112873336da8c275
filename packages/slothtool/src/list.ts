import fs = require('fs');
import { isInside, pluginDir, type HomePaths } from './paths';
import { readRegistry, type RegistryEntry } from './registry';

/** One row of `slothtool list`. */
export interface PluginListing extends RegistryEntry {
  alias: string;
  /** `installed`: lives in `plugins/<alias>`; `linked`: points elsewhere (e.g. a checkout registered by `npm run setup`). */
  source: 'installed' | 'linked';
  /** False when binPath no longer exists (the plugin cannot run). */
  binExists: boolean;
}

/** Every registered plugin, sorted by alias. */
export function listPlugins(paths: HomePaths): PluginListing[] {
  const registry = readRegistry(paths);
  return Object.keys(registry.plugins)
    .sort()
    .map((alias) => {
      const entry = registry.plugins[alias];
      return {
        alias,
        ...entry,
        source: isInside(pluginDir(paths, alias), entry.binPath) ? 'installed' : 'linked',
        binExists: fs.existsSync(entry.binPath),
      };
    });
}
