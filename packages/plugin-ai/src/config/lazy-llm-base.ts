/**
 * llm-base's module, loaded at run time from where the registry says it is (its main, or its
 * bundle with V8's code cache), and the modules this process hands that bundle. Its requires are
 * of a path known only at run time, or getters that load a module when llm-base first asks for it.
 */
import { packageJson } from '../lazy-modules';

/** llm-base's package main (lib/index.js or what its package.json names). */
export function requireLlmBaseMain(main: string): unknown {
  return require(main);
}

/** llm-base's bundle, with V8's code cache under the SlothTool home and the modules `provide` hands it. */
export function loadLlmBaseBundle(bundle: string, provide: Record<string, unknown> | undefined): unknown {
  const { loadBundle, codeCacheDir } = require('@holic512/shared/lib/code-cache') as typeof import('@holic512/shared/lib/code-cache');
  return loadBundle(bundle, { cacheDir: codeCacheDir(), parent: module, provide });
}

/**
 * Our zod for llm-base's bundle, which leaves zod outside (scripts/bundle.js): when the zod range
 * llm-base depends on admits this zod's version, so the process has one zod; otherwise nothing,
 * and the bundle loads its own from its node_modules.
 */
export function sharedZod(range: unknown): Record<string, unknown> | undefined {
  const version = (require('zod/package.json') as { version: string }).version;
  return admits('zod', range, version) ? { zod: require('zod') as unknown } : undefined;
}

/**
 * What llm-base's bundle requires of @holic512/shared, which it leaves outside (scripts/bundle.js
 * checks the list against the bundle): ours, when the range llm-base depends on admits our
 * version, so the process has one redaction gate (its tables built once, its known secrets
 * shared, as when both load from lib/) instead of one per bundle; otherwise nothing, and the
 * bundle loads shared from its node_modules. Each is required on first use (a getter), so a
 * module the turn never reaches is not loaded for it. Literal requires: this bundle's copies.
 */
export const SHARED_FOR_LLM_BASE: Record<string, () => unknown> = {
  '@holic512/shared': () => require('@holic512/shared'),
  '@holic512/shared/lib/atomic-write': () => require('@holic512/shared/lib/atomic-write'),
  '@holic512/shared/lib/home': () => require('@holic512/shared/lib/home'),
  '@holic512/shared/lib/json-object': () => require('@holic512/shared/lib/json-object'),
  '@holic512/shared/lib/language': () => require('@holic512/shared/lib/language'),
  '@holic512/shared/lib/lazy': () => require('@holic512/shared/lib/lazy'),
  '@holic512/shared/lib/messages': () => require('@holic512/shared/lib/messages'),
  '@holic512/shared/lib/private-files': () => require('@holic512/shared/lib/private-files'),
};

/** The modules of SHARED_FOR_LLM_BASE as getters, when llm-base's range admits our shared; else none. */
export function sharedModules(range: unknown): Record<string, unknown> {
  const version = (require('@holic512/shared/package.json') as { version: string }).version;
  const out: Record<string, unknown> = {};
  if (!admits('@holic512/shared', range, version)) return out;
  for (const [id, load] of Object.entries(SHARED_FOR_LLM_BASE)) Object.defineProperty(out, id, { enumerable: true, get: load });
  return out;
}

/**
 * Whether a dependency range of llm-base's package.json admits `version` (ours of `name`), as npm
 * reads it. The range this package depends on itself admits it without asking semver: npm
 * installed our copy for that range (the usual case: both packages come from one release).
 */
function admits(name: string, range: unknown, version: string): boolean {
  if (typeof range !== 'string') return false;
  if (range === packageJson().dependencies[name]) return true;
  const satisfies = require('semver/functions/satisfies') as typeof import('semver/functions/satisfies');
  return satisfies(version, range);
}
