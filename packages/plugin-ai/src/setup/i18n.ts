import type { Lang } from '../i18n';
import { defineRecordMessages } from '@holic512/shared/lib/messages';
import SETUP from '../messages/setup.json';

/** Every user-facing string of the guided setup, in zh and en: the JSON catalogue src/messages/setup.json. */
export type SetupKey = keyof typeof SETUP;

const catalogue = defineRecordMessages<SetupKey>(SETUP);

/** Look up a setup message and fill `{name}` placeholders. */
export const st: (lang: Lang, key: SetupKey, vars?: Record<string, string | number>) => string = catalogue.t;

/** Both tables, for the completeness test. */
export const SETUP_TABLES: Record<Lang, Record<SetupKey, string>> = catalogue.tables;
