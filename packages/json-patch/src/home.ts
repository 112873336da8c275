import * as os from 'os';
import * as path from 'path';
import { JsonPatchError } from './errors';

/** The user's home directory as `env` sees it (HOME, then USERPROFILE, then the OS). */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME || env.USERPROFILE || os.homedir();
}

/** The SlothTool home: `SLOTHTOOL_HOME` when set, else `~/.slothtool`. */
export function slothtoolHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.SLOTHTOOL_HOME ? path.resolve(env.SLOTHTOOL_HOME) : path.join(userHome(env), '.slothtool');
}

/**
 * The files SlothTool lets a plugin patch by default:
 * `<SlothTool home>/settings.json` and `<SlothTool home>/plugin-configs/*.json`.
 */
export function defaultAllowedRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = slothtoolHome(env);
  return [path.join(home, 'settings.json'), path.join(home, 'plugin-configs', '*.json')];
}

/**
 * Expand a leading `~` and make the path absolute. `~/.slothtool/...` follows
 * `SLOTHTOOL_HOME` when it is set, so a model's "~/.slothtool/settings.json" means the
 * SlothTool home in use. `~user/...` is refused: it would reach another user's files.
 */
export function expandPath(file: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  if (file === '~' || file.startsWith('~/') || file.startsWith('~\\')) {
    const rest = file.slice(2);
    const first = rest.split(/[\\/]/)[0];
    if (first === '.slothtool' && env.SLOTHTOOL_HOME) {
      return path.join(slothtoolHome(env), rest.slice(first.length));
    }
    return path.join(userHome(env), rest);
  }
  if (file.startsWith('~')) {
    throw new JsonPatchError(
      'PATH_NOT_ALLOWED',
      `Expected a path inside your own home ("~/..."), found ${JSON.stringify(file)}, which names another user's home. ` +
        'Use "~/" or an absolute path inside an allowed root.',
      { file },
    );
  }
  return path.resolve(cwd, file);
}
