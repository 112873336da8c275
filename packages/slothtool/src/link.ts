import path = require('path');
import { aliasFromName, isValidAlias } from './alias';
import { SlothToolError } from './errors';
import { firstBin, readPluginPackage } from './package-json';
import type { HomePaths } from './paths';
import { getEntry, updateRegistry, type RegistryEntry } from './registry';

/** What registering one local package folder did. */
export type LinkOutcome =
  | { status: 'added' | 'unchanged'; alias: string; entry: RegistryEntry }
  /** Same binPath, new name or version recorded. */
  | { status: 'updated'; alias: string; entry: RegistryEntry; previous: RegistryEntry }
  /** The alias pointed elsewhere and `force` replaced it. */
  | { status: 'replaced'; alias: string; entry: RegistryEntry; previous: RegistryEntry }
  /** The alias points elsewhere (e.g. a real install); left untouched. */
  | { status: 'conflict'; alias: string; entry: RegistryEntry; previous: RegistryEntry };

export interface LinkOptions {
  /** Replace entries of the same alias that point elsewhere. */
  force?: boolean;
  now?: () => Date;
}

/**
 * Register package folders in place (no copy, no npm): each becomes the entry
 * `{name, version, binPath: <folder>/<first bin>, installedAt}` under its alias. This is how a
 * checkout's plugins are run by `slothtool` during development. Entries already pointing at the
 * same bin are left as they are, so a second run writes nothing. Validates every folder before
 * writing anything.
 */
export function linkLocalPlugins(paths: HomePaths, packageDirs: string[], options: LinkOptions = {}): LinkOutcome[] {
  const now = options.now ?? (() => new Date());
  const wanted = packageDirs.map((dir) => {
    const pkg = readPluginPackage(dir);
    const alias = aliasFromName(pkg.name);
    if (!isValidAlias(alias)) throw new SlothToolError('INVALID_ALIAS', { alias, name: pkg.name });
    const bin = firstBin(pkg);
    if (!bin) throw new SlothToolError('NO_BIN', { name: pkg.name });
    return { alias, name: pkg.name, version: pkg.version ?? '', binPath: path.resolve(dir, bin) };
  });
  const outcomes: LinkOutcome[] = [];
  updateRegistry(paths, (registry) => {
    let changed = false;
    for (const w of wanted) {
      const previous = getEntry(registry, w.alias);
      const fresh: RegistryEntry = { name: w.name, version: w.version, binPath: w.binPath, installedAt: now().toISOString() };
      if (!previous) {
        registry.plugins[w.alias] = fresh;
        outcomes.push({ status: 'added', alias: w.alias, entry: fresh });
        changed = true;
      } else if (path.resolve(previous.binPath) === w.binPath) {
        if (previous.name === w.name && previous.version === w.version) {
          outcomes.push({ status: 'unchanged', alias: w.alias, entry: previous });
        } else {
          const entry = { ...previous, name: w.name, version: w.version, updatedAt: now().toISOString() };
          registry.plugins[w.alias] = entry;
          outcomes.push({ status: 'updated', alias: w.alias, entry, previous });
          changed = true;
        }
      } else if (options.force) {
        registry.plugins[w.alias] = fresh;
        outcomes.push({ status: 'replaced', alias: w.alias, entry: fresh, previous });
        changed = true;
      } else {
        outcomes.push({ status: 'conflict', alias: w.alias, entry: fresh, previous });
      }
    }
    return changed;
  });
  return outcomes;
}
