import path = require('path');
import { z } from 'zod';
import { SlothToolError } from './errors';
import { readJsonFile } from './json-file';

/** The fields of a plugin's package.json the host reads. */
export const PluginPackageSchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().optional(),
  bin: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  /** A hint for hosts; a malformed one is ignored rather than failing the install. */
  slothtool: z
    .looseObject({
      interactive: z.boolean().optional(),
      interactiveFlag: z.string().optional(),
    })
    .optional()
    .catch(undefined),
});
export type PluginPackage = z.infer<typeof PluginPackageSchema>;

/** Read and validate `<dir>/package.json`; PACKAGE_UNREADABLE names the file on any problem. */
export function readPluginPackage(dir: string): PluginPackage {
  const file = path.join(dir, 'package.json');
  const read = readJsonFile(file);
  if (read.kind === 'missing') throw new SlothToolError('PACKAGE_UNREADABLE', { file, detail: 'not found' });
  if (read.kind === 'invalid') throw new SlothToolError('PACKAGE_UNREADABLE', { file, detail: read.detail });
  const parsed = PluginPackageSchema.safeParse(read.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SlothToolError('PACKAGE_UNREADABLE', { file, detail: `${issue.path.join('.') || '(root)'}: ${issue.message}` });
  }
  return parsed.data;
}

/** The first `bin` entry, relative to the package folder (the original host's rule), or undefined. */
export function firstBin(pkg: PluginPackage): string | undefined {
  if (typeof pkg.bin === 'string') return pkg.bin || undefined;
  if (pkg.bin) return Object.values(pkg.bin)[0] || undefined;
  return undefined;
}

/** How the plugin asks to be started interactively (`"slothtool": {"interactive": true, "interactiveFlag": "-i"}`). */
export function interactiveFlagOf(pkg: PluginPackage): string | undefined {
  if (!pkg.slothtool?.interactive) return undefined;
  return pkg.slothtool.interactiveFlag || '-i';
}
