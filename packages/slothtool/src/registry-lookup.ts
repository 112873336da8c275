import { SlothToolError } from './errors';
import { readJsonFile } from './json-file';
import type { HomePaths } from './paths';

/** The part of an entry `slothtool <alias>` needs to start a plugin. */
export interface RunnableEntry {
  name: string;
  binPath: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Look up one alias for running it, without loading zod: `slothtool <alias>` is on every
 * plugin start, and loading zod would be a large share of that start. The check is the registry
 * schema narrowed to what running needs; a broken file is the same REGISTRY_CORRUPT error.
 */
export function lookupRunnable(paths: HomePaths, alias: string): RunnableEntry | undefined {
  const read = readJsonFile(paths.registry);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'invalid') throw new SlothToolError('REGISTRY_CORRUPT', { file: paths.registry, detail: read.detail });
  const root = read.value;
  if (!isRecord(root) || !isRecord(root.plugins)) {
    throw new SlothToolError('REGISTRY_CORRUPT', { file: paths.registry, detail: 'plugins: expected an object' });
  }
  if (!Object.prototype.hasOwnProperty.call(root.plugins, alias)) return undefined;
  const entry = root.plugins[alias];
  if (!isRecord(entry) || typeof entry.binPath !== 'string' || !entry.binPath || typeof entry.name !== 'string') {
    throw new SlothToolError('REGISTRY_CORRUPT', {
      file: paths.registry,
      detail: `plugins.${alias}: expected {name, version, binPath, installedAt}`,
    });
  }
  return { name: entry.name, binPath: entry.binPath };
}
