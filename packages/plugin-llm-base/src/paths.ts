import path = require('path');

/** `$SLOTHTOOL_HOME` (empty counts as unset), else `~/.slothtool`: the one lookup of @holic512/shared. */
export { slothtoolHome } from '@holic512/shared/lib/home';
import { slothtoolHome } from '@holic512/shared/lib/home';

/** `<home>/plugin-configs` */
export function pluginConfigsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(slothtoolHome(env), 'plugin-configs');
}

/** `<home>/plugin-configs/llm-base.json` */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(pluginConfigsDir(env), 'llm-base.json');
}

/** `<home>/plugin-configs/llm-base.calls.jsonl`: the call log, one JSON object per line. */
export function callLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(pluginConfigsDir(env), 'llm-base.calls.jsonl');
}

/** `<home>/plugin-configs/llm-base.logs.json`: the 1.0.x call log (`{calls: [...]}`), moved into the JSON-lines log once. */
export function legacyCallLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(pluginConfigsDir(env), 'llm-base.logs.json');
}

/** `<home>/settings.json` (owned by slothtool; we only read `language`). */
export function settingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(slothtoolHome(env), 'settings.json');
}
