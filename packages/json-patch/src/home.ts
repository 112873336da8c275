import path = require('path');
import { JsonPatchError } from './errors';

export { slothtoolHome, userHome } from '@holic512/shared/lib/home';
import { slothtoolHome, userHome } from '@holic512/shared/lib/home';

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
    if (first === '.slothtool') {
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
