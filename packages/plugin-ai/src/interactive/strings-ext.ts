/** User-facing strings of `ai -i` for extensions: `/mcp` and the trust question at start (zh and
 * en), from the JSON catalogue src/messages/interactive-ext.json. */
import type { Lang } from '../i18n';
import { defineRecordMessages } from '@holic512/shared/lib/messages';
import EXTENSIONS from '../messages/interactive-ext.json';

type Key = keyof typeof EXTENSIONS;

const catalogue = defineRecordMessages<Key>(EXTENSIONS);

/** Look up an extension string and fill its placeholders. */
export const xs: (lang: Lang, key: Key, vars?: Record<string, string | number>) => string = catalogue.t;

/** Both tables, for the completeness test. */
export function extensionTables(): Record<Lang, Record<Key, string>> {
  return catalogue.tables;
}
