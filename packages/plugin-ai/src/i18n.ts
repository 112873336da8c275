import { defineRecordMessages } from '@holic512/shared/lib/messages';
import { commandFor } from '@holic512/shared/lib/usage';
import AI from './messages/ai.json';
/** Every user-facing string of plugin-ai, in zh and en: the texts are the JSON catalogue
 * src/messages/ai.json, one record per key with both languages (docs/architecture.md, Messages).
 * Kept free of other imports so the CLI entry can load it on the fast `--help` path. */
export type Lang = 'zh' | 'en';

/** A message of the core (CLI, agent loop, sandbox check). */
export type MessageKey = keyof typeof AI;

const catalogue = defineRecordMessages<MessageKey>(AI);

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
