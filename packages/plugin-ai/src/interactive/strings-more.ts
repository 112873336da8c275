/** User-facing strings of `ai -i`'s everyday conveniences (`!`, `#`, `@`, /diff, /export, Ctrl+R,
 * Ctrl+G, notifications), zh and en, from the JSON catalogue src/messages/interactive-more.json. */
import type { Lang } from '../i18n';
import { defineRecordMessages } from '@holic512/shared/lib/messages';
import MORE from '../messages/interactive-more.json';

export type MoreKey = keyof typeof MORE;

const catalogue = defineRecordMessages<MoreKey>(MORE);

/** Look up a string and fill its placeholders. */
export const ms: (lang: Lang, key: MoreKey, vars?: Record<string, string | number>) => string = catalogue.t;

/** Both tables, for the completeness test. */
export function moreTables(): Record<Lang, Record<MoreKey, string>> {
  return catalogue.tables;
}
