import * as fs from 'fs';
import { SlothToolError } from './errors';
import { pluginConfigFile, pluginDir, type HomePaths } from './paths';
import { getEntry, readRegistry, updateRegistry, type RegistryEntry } from './registry';

/** What `slothtool uninstall <alias>` will remove, computed before anything is removed. */
export interface UninstallPlan {
  alias: string;
  entry: RegistryEntry;
  /** `plugins/<alias>` when it exists. A plugin registered from a checkout has none. */
  pluginDir?: string;
  /** `plugin-configs/<alias>.json` when it exists and is to be removed. */
  configFile?: string;
  /** `plugin-configs/<alias>.json` when it exists and is kept (`--keep-config`). */
  keptConfigFile?: string;
}

export interface UninstallOptions {
  /** Leave `plugin-configs/<alias>.json` in place. */
  keepConfig?: boolean;
}

/** Work out what uninstalling `alias` removes. Throws NOT_INSTALLED. Touches nothing. */
export function planUninstall(paths: HomePaths, alias: string, options: UninstallOptions = {}): UninstallPlan {
  const entry = getEntry(readRegistry(paths), alias);
  if (!entry) throw new SlothToolError('NOT_INSTALLED', { alias });
  const dir = pluginDir(paths, alias);
  const config = pluginConfigFile(paths, alias);
  const hasConfig = fs.existsSync(config);
  return {
    alias,
    entry,
    pluginDir: fs.existsSync(dir) ? dir : undefined,
    configFile: hasConfig && !options.keepConfig ? config : undefined,
    keptConfigFile: hasConfig && options.keepConfig ? config : undefined,
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
  if (plan.configFile) fs.rmSync(plan.configFile, { force: true });
}
