import { slothtoolHome } from '@holic512/shared/lib/home';
import path = require('path');

/** Where everything SlothTool owns lives. All paths are absolute. */
export interface HomePaths {
  /** `~/.slothtool`, or `SLOTHTOOL_HOME` when set. */
  home: string;
  /** `<home>/registry.json`: alias -> installed plugin. */
  registry: string;
  /** `<home>/settings.json`: `{"language": "zh" | "en"}`. */
  settings: string;
  /** `<home>/plugins`: one npm prefix per alias. */
  plugins: string;
  /** `<home>/plugin-configs`: one `<alias>.json` per plugin. */
  pluginConfigs: string;
}

/** Resolve the SlothTool home from the environment: `SLOTHTOOL_HOME`, else `<homedir>/.slothtool`. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): HomePaths {
  return homePaths(slothtoolHome(env));
}

/** The layout under a given SlothTool home folder. */
export function homePaths(home: string): HomePaths {
  return {
    home,
    registry: path.join(home, 'registry.json'),
    settings: path.join(home, 'settings.json'),
    plugins: path.join(home, 'plugins'),
    pluginConfigs: path.join(home, 'plugin-configs'),
  };
}

/** `<home>/plugins/<alias>`: the npm prefix a plugin is installed into. */
export function pluginDir(paths: HomePaths, alias: string): string {
  return path.join(paths.plugins, alias);
}

/** `<home>/plugin-configs/<alias>.json`. */
export function pluginConfigFile(paths: HomePaths, alias: string): string {
  return path.join(paths.pluginConfigs, `${alias}.json`);
}

/** True when `file` is inside `dir` (or is `dir`). */
export function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
