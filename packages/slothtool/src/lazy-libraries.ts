/**
 * Node modules and packages the host loads on first use. Running a plugin in this process
 * (dist/alias.js, on every start of ai and llm-base) spawns nothing, asks no terminal and writes
 * no file; nothing here is bundled into that file (node's modules and write-file-atomic stay
 * outside it, scripts/bundle.js), so the run path may import this module.
 */
import { lazy } from '@holic512/shared/lib/lazy';

/** child_process: only a plugin run as its own process is spawned. */
export const childProcess = lazy(() => require('child_process') as typeof import('child_process'));

/** tty: whether stdin is a terminal matters only to a spawned plugin's signals. */
export const tty = lazy(() => require('tty') as typeof import('tty'));

/** write-file-atomic: reading settings and the registry (every plugin start) writes nothing. */
export const writeFileAtomic = lazy(() => require('write-file-atomic') as typeof import('write-file-atomic'));

/** readline: only `uninstall --purge` asks a question. */
export const readline = lazy(() => require('readline') as typeof import('readline'));

/** os: only the number of the signal a spawned plugin ended by. */
export const os = lazy(() => require('os') as typeof import('os'));
