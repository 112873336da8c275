/** User-facing strings of `ai -i` (zh and en): the JSON catalogue src/messages/interactive.json.
 * The core's is ../i18n.ts. */
import { aiCommand, type Lang } from '../i18n';
import { defineRecordMessages } from '@holic512/shared/lib/messages';
import SCREEN from '../messages/interactive.json';

/** A string of the interactive screen. */
export type ScreenKey = keyof typeof SCREEN;

const catalogue = defineRecordMessages<ScreenKey>(SCREEN);

/** Look up a screen string and fill `{name}` placeholders. */
export function ts(lang: Lang, key: ScreenKey, vars: Record<string, string | number> = {}): string {
  return catalogue.t(lang, key, { ai: aiCommand(), ...vars });
}

/** Both tables, for the completeness test. */
export function screenTables(): Record<Lang, Record<ScreenKey, string>> {
  return catalogue.tables;
}
