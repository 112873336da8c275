/**
 * The host's modules that only some of its commands load. `slothtool <alias>` for a plugin that
 * runs as its own process goes through the CLI (lib/cli.js) on every start of that plugin, and
 * reads registry.json without zod (registry-lookup): these all bring zod, npm or a terminal
 * question with them.
 */
import { lazy } from '@holic512/shared/lib/lazy';

/** settings.json and its schema: read when a message is worded (its language) or by `config`. */
export const settingsModule = lazy(() => require('./settings') as typeof import('./settings'));

/** The whole registry and its schema: `update`, and the names a mistyped command is matched against. */
export const registryModule = lazy(() => require('./registry') as typeof import('./registry'));

/** npm and the staging folders: `install` and `update`. */
export const installerModule = lazy(() => require('./installer') as typeof import('./installer'));

/** `uninstall`'s plan and its removal. */
export const uninstallModule = lazy(() => require('./uninstall') as typeof import('./uninstall'));

/** `list`'s rows. */
export const listModule = lazy(() => require('./list') as typeof import('./list'));
