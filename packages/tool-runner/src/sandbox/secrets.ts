import path = require('path');

/**
 * The secret stores under the home folder, by class: what the approved-step (L1) sandbox hides
 * (folders behind an empty tmpfs, files behind /dev/null), and what the read-only (L0) sandbox
 * never binds back into its private home. One table with the policy's (policy/secret-stores.ts:
 * fs.read, a command's arguments and uploads are judged by it); docs/security.md §4a lists it.
 *
 * At L0 this table is a second line only: the L0 home is empty except an allow-list
 * (home-view.ts), so a store missing here is still not visible to an auto-run step.
 */
export { SECRET_CLASSES, HOME_SECRET_STORES } from '../policy/secret-stores';

/**
 * npm's global config, `<prefix>/etc/npmrc` (where `npm config set --global` writes a registry
 * token), of every node installation a step can see: those the home's version managers keep (one
 * folder per version: `*`) and the system's prefixes. Hidden like the registries class at both
 * levels: at L0 the version managers' folders are bound back (home-view.ts) and the system is
 * shown read-only.
 */
export const GLOBAL_NPMRC_IN_HOME: readonly string[] = [
  '.nvm/versions/node/*/etc/npmrc',
  '.volta/tools/image/node/*/etc/npmrc',
  '.local/share/fnm/node-versions/*/installation/etc/npmrc',
  '.fnm/node-versions/*/installation/etc/npmrc',
  '.asdf/installs/nodejs/*/etc/npmrc',
  '.local/share/mise/installs/node/*/etc/npmrc',
  '.nodenv/versions/*/etc/npmrc',
];
export const GLOBAL_NPMRC_SYSTEM: readonly string[] = ['/etc/npmrc', '/usr/etc/npmrc', '/usr/local/etc/npmrc', '/opt/homebrew/etc/npmrc'];

/** The global npmrc files there are now (the running node's prefix too), for a sandbox plan. */
export function globalNpmrcs(home: string, readdir: (dir: string) => string[], execPath: string = process.execPath): string[] {
  const out = new Set<string>([...GLOBAL_NPMRC_SYSTEM, path.join(path.dirname(path.dirname(execPath)), 'etc', 'npmrc')]);
  for (const pattern of GLOBAL_NPMRC_IN_HOME) {
    const [before, after] = pattern.split('/*/');
    if (after === undefined) out.add(path.join(home, pattern));
    else for (const version of readdir(path.join(home, before))) out.add(path.join(home, before, version, after));
  }
  return [...out];
}
