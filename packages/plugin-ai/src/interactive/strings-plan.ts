/** User-facing strings of `ai -i` for the plan line, `/agents`, `/checks` and `/review` (zh and en),
 * from the JSON catalogue src/messages/interactive-plan.json. */
import type { Lang } from '../i18n';
import { defineRecordMessages } from '@holic512/shared/lib/messages';
import PLAN from '../messages/interactive-plan.json';

type Key = keyof typeof PLAN;

const catalogue = defineRecordMessages<Key>(PLAN);

/** Look up a plan, agents, checks or review string and fill its placeholders. */
export const ps: (lang: Lang, key: Key, vars?: Record<string, string | number>) => string = catalogue.t;

/** Both tables, for the completeness test. */
export function planTables(): Record<Lang, Record<Key, string>> {
  return catalogue.tables;
}
