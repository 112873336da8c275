import { slothtoolHome } from './paths';
import { readLanguage as readSharedLanguage } from '@holic512/shared/lib/language';
import { defineRecordMessages } from '@holic512/shared/lib/messages';
import LLM_BASE from './messages/llm-base.json';

export type Lang = 'zh' | 'en';

/** A message of llm-base: its texts are the JSON catalogue src/messages/llm-base.json, one record
 * per key with both languages (docs/architecture.md, Messages). */
export type MessageKey = keyof typeof LLM_BASE;

const catalogue = defineRecordMessages<MessageKey>(LLM_BASE);

/** The message tables, for the completeness test over every catalogue. */
export const MESSAGE_TABLES: Record<Lang, Record<MessageKey, string>> = catalogue.tables;

/** The user's language from `<home>/settings.json` (`language`), default zh. */
export function readLanguage(env: NodeJS.ProcessEnv = process.env): Lang {
  return readSharedLanguage(slothtoolHome(env), env);
}

/** Translate `key`, filling `{name}` placeholders. */
export const t: (lang: Lang, key: MessageKey, vars?: Record<string, string | number>) => string = catalogue.t;
