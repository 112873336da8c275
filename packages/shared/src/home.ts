import os = require('os');
import path = require('path');

/** The user's home directory as `env` sees it: `HOME`, then `USERPROFILE`, then the OS. Empty values count as unset. */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  const pick = (v: string | undefined): string | undefined => (v && v.trim() !== '' ? v : undefined);
  return pick(env.HOME) ?? pick(env.USERPROFILE) ?? os.homedir();
}

/**
 * The SlothTool home: `SLOTHTOOL_HOME` when set to something other than blanks, else
 * `<user home>/.slothtool` (DESIGN §3). Always absolute. `SLOTHTOOL_HOME=""` is unset, never cwd.
 */
export function slothtoolHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SLOTHTOOL_HOME;
  return fromEnv && fromEnv.trim() !== '' ? path.resolve(fromEnv) : path.join(userHome(env), '.slothtool');
}
