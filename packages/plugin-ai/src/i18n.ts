import { defineRecordMessages } from '@holic512/shared/lib/messages';
import { commandFor } from '@holic512/shared/lib/usage';
import AI from './messages/ai.json';
import SCREEN from './messages/interactive.json';
import EXTENSIONS from './messages/interactive-ext.json';
import MORE from './messages/interactive-more.json';
import PLAN from './messages/interactive-plan.json';
import SETUP from './messages/setup.json';
/** Every user-facing string of plugin-ai, in zh and en, behind one lookup `t`: the texts are JSON
 * catalogues kept by area in src/messages/ (ai.json: the CLI, the agent loop, the sandbox check;
 * interactive*.json: `ai -i`; setup.json: the guided setup), one record per key with both
 * languages (docs/architecture.md, Messages). A key names one message across all of them.
 * Kept free of other imports so the CLI entry can load it on the fast `--help` path. */
export type Lang = 'zh' | 'en';

const RECORDS = { ...AI, ...SCREEN, ...EXTENSIONS, ...MORE, ...PLAN, ...SETUP };

/** A message of plugin-ai. */
export type MessageKey = keyof typeof RECORDS;

const catalogue = defineRecordMessages<MessageKey>(RECORDS);

/** Look up a message and fill `{name}` placeholders; `{ai}` is how the user runs ai here
 * (`slothtool ai`, or `ai` when started on its own: shared/usage commandFor). */
export function t(lang: Lang, key: MessageKey, vars: Record<string, string | number> = {}): string {
  return catalogue.t(lang, key, { ai: aiCommand(), ...vars });
}

/** How the user runs ai (shared/usage commandFor), for usage lines and hints. */
export function aiCommand(): string {
  return commandFor('ai');
}

/** All keys, for the test that checks both tables are complete. */
export function messageKeys(): MessageKey[] {
  return catalogue.keys();
}

/** The raw tables, for completeness tests. */
export function messageTables(): Record<Lang, Record<MessageKey, string>> {
  return catalogue.tables;
}

/** Keys two catalogues both define (the test that keeps each key naming one message reads it). */
export function sharedKeys(): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const table of [AI, SCREEN, EXTENSIONS, MORE, PLAN, SETUP]) {
    for (const key of Object.keys(table)) {
      if (seen.has(key)) twice.push(key);
      else seen.add(key);
    }
  }
  return twice;
}
