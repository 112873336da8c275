import { defineRecordMessages, type Catalogue } from '@holic512/shared/lib/messages';
import { commandFor } from '@holic512/shared/lib/usage';
import AI from './messages/ai.json';
import { screenCatalogueFiles } from './lazy-modules';
/** Every user-facing string of plugin-ai, in zh and en, behind one lookup `t`: the texts are JSON
 * catalogues kept by area in src/messages/ (ai.json: the CLI, the agent loop, the sandbox check;
 * interactive*.json: `ai -i`; setup.json: the guided setup), one record per key with both
 * languages (docs/architecture.md, Messages). A key names one message across all of them.
 * ai.json is read at once; the others when a key first needs them (lazy-modules.ts
 * screenCatalogueFiles), so `-p`, `--help` and `--version` do not build what only `ai -i` shows.
 * Kept free of other imports so the CLI entry can load it on the fast `--help` path. */
export type Lang = 'zh' | 'en';

type CoreKey = keyof typeof AI;
type ScreenKey =
  | keyof typeof import('./messages/interactive.json')
  | keyof typeof import('./messages/interactive-ext.json')
  | keyof typeof import('./messages/interactive-more.json')
  | keyof typeof import('./messages/interactive-plan.json')
  | keyof typeof import('./messages/setup.json');

/** A message of plugin-ai. */
export type MessageKey = CoreKey | ScreenKey;

const core = defineRecordMessages<CoreKey>(AI);
let screen: Catalogue<ScreenKey> | undefined;
const screenCatalogue = (): Catalogue<ScreenKey> =>
  (screen ??= defineRecordMessages(Object.assign({}, ...screenCatalogueFiles()) as Record<ScreenKey, { zh: string; en: string }>));

/** Look up a message and fill `{name}` placeholders; `{ai}` is how the user runs ai here
 * (`slothtool ai`, or `ai` when started on its own: shared/usage commandFor). */
export function t(lang: Lang, key: MessageKey, vars: Record<string, string | number> = {}): string {
  const filled = { ai: aiCommand(), ...vars };
  return core.has(key) ? core.t(lang, key, filled) : screenCatalogue().t(lang, key as ScreenKey, filled);
}

/** How the user runs ai (shared/usage commandFor), for usage lines and hints. */
export function aiCommand(): string {
  return commandFor('ai');
}

/** All keys, for the test that checks both tables are complete. */
export function messageKeys(): MessageKey[] {
  return [...core.keys(), ...screenCatalogue().keys()];
}

/** The raw tables, for completeness tests. */
export function messageTables(): Record<Lang, Record<MessageKey, string>> {
  const a = core.tables;
  const b = screenCatalogue().tables;
  return { zh: { ...b.zh, ...a.zh }, en: { ...b.en, ...a.en } };
}

/** Keys two catalogues both define (the test that keeps each key naming one message reads it). */
export function sharedKeys(): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const table of [AI, ...screenCatalogueFiles()]) {
    for (const key of Object.keys(table)) {
      if (seen.has(key)) twice.push(key);
      else seen.add(key);
    }
  }
  return twice;
}
