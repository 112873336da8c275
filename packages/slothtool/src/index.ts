export { VERSION } from './version';

export { aliasFromName, isValidAlias } from './alias';
export { SlothToolError, type SlothToolErrorCode } from './errors';
export { classifySpec, type InstallSpec } from './install-spec';
export {
  createDefaultInstallerDeps,
  installPlugin,
  updatePlugin,
  type InstallerDeps,
  type InstallOptions,
  type InstallResult,
  type UpdateResult,
} from './installer';
export { linkLocalPlugins, type LinkOptions, type LinkOutcome } from './link';
export { listPlugins, type PluginListing } from './list';
export { createRunNpm, type NpmResult, type RunNpm } from './npm';
export { firstBin, interactiveFlagOf, readPluginPackage, type PluginPackage } from './package-json';
export { homePaths, isInside, pluginConfigFile, pluginDir, resolveHome, type HomePaths } from './paths';
export { getEntry, readRegistry, updateRegistry, writeRegistry, type Registry, type RegistryEntry } from './registry';
export { lookupRunnable, type RunnableEntry } from './registry-lookup';
export { createDefaultRunnerDeps, runPlugin, type RunnerDeps, type RunOutcome } from './runner';
export { languageOf, readSettings, setLanguage, type Language, type Settings } from './settings';
export { applyUninstall, planUninstall, type UninstallOptions, type UninstallPlan } from './uninstall';
