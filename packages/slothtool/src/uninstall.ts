import fs = require('fs');
import path = require('path');
import { SlothToolError } from './errors';
import { pluginConfigFile, pluginDir, type HomePaths } from './paths';
import { getEntry, readRegistry, updateRegistry, type RegistryEntry } from './registry';

/** What `slothtool uninstall <alias>` will remove, computed before anything is removed. */
export interface UninstallPlan {
  alias: string;
  entry: RegistryEntry;
  /** `plugins/<alias>` when it exists. A plugin registered from a checkout has none. */
  pluginDir?: string;
  /** `plugin-configs/<alias>.json` and `<alias>.*.json` (logs) that exist and are removed (`--purge`). */
  configFiles: string[];
  /** The same files when they are kept (the default: profiles and keys survive an uninstall). */
  keptConfigFiles: string[];
}

export interface UninstallOptions {
  /** Also remove the plugin's config files (`plugin-configs/<alias>.json`, `<alias>.*.json`). */
  purge?: boolean;
}

/** The plugin's own files under plugin-configs: `<alias>.json` and `<alias>.<anything>.json`. */
function configFilesOf(paths: HomePaths, alias: string): string[] {
  const main = pluginConfigFile(paths, alias);
  const dir = path.dirname(main);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n === `${alias}.json` || (n.startsWith(`${alias}.`) && n.endsWith('.json')))
    .sort()
    .map((n) => path.join(dir, n));
}

/** Work out what uninstalling `alias` removes. Throws NOT_INSTALLED. Touches nothing. */
export function planUninstall(paths: HomePaths, alias: string, options: UninstallOptions = {}): UninstallPlan {
  const entry = getEntry(readRegistry(paths), alias);
  if (!entry) throw new SlothToolError('NOT_INSTALLED', { alias });
  const dir = pluginDir(paths, alias);
  const configs = configFilesOf(paths, alias);
  return {
    alias,
    entry,
    pluginDir: fs.existsSync(dir) ? dir : undefined,
    configFiles: options.purge ? configs : [],
    keptConfigFiles: options.purge ? [] : configs,
  };
}

/**
 * Carry out a plan: the registry entry goes first (so the registry never points at a removed
 * folder), then `plugins/<alias>`, then the config file. Nothing outside the SlothTool home is
 * ever removed: a checkout registered by `npm run setup` stays as it is.
 */
export function applyUninstall(paths: HomePaths, plan: UninstallPlan): void {
  updateRegistry(paths, (registry) => {
    if (!getEntry(registry, plan.alias)) return false;
    delete registry.plugins[plan.alias];
    return true;
  });
  if (plan.pluginDir) fs.rmSync(plan.pluginDir, { recursive: true, force: true });
  for (const file of plan.configFiles) fs.rmSync(file, { force: true });
}
