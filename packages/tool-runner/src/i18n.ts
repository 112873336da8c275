import { SANDBOX_MESSAGES } from './sandbox/i18n-sandbox';
import { OPTION_MESSAGES } from './policy/options/i18n-options';
import { RULE_MESSAGES } from './policy/i18n-rules';
import type { Lang } from './types';
import { fill, type RuleMessage, type RuleMessages } from '@holic512/shared/lib/messages';
import RUNNER from './messages/runner.json';
import TOOLS from './messages/tools.json';
import SEARCH from './messages/search.json';
import EFFECTS from './messages/effects.json';

/** The policy file, written `{config}` in the catalogues' hints and filled in here, once. */
const CONFIG = '~/.slothtool/plugin-configs/ai.json';

/** A JSON catalogue's records with `{config}` filled in (the few that have it are copied, the
 * others used as they are). Typed as {@link RuleMessages}, so a record without its Chinese text,
 * or with a hint in one language only, does not compile. */
function withConfig(records: RuleMessages): RuleMessages {
  const out: RuleMessages = {};
  for (const id in records) {
    const m = records[id];
    out[id] = [m.zh, m.en, m.hintZh, m.hintEn].some((text) => text?.includes('{config}'))
      ? (Object.fromEntries(Object.entries(m).map(([k, text]) => [k, text.split('{config}').join(CONFIG)])) as RuleMessage)
      : m;
  }
  return out;
}

/**
 * Every user-facing string of the package, keyed by message id. The texts live in JSON
 * catalogues beside the code (src/messages/runner.json, tools.json for the fs/http/proc tools,
 * search.json for fs.glob, fs.grep and web.search: docs/architecture.md, Messages); `{name}`
 * placeholders are filled from the rule's parameters.
 */
export const MESSAGES: RuleMessages = Object.assign(
  {},
  withConfig(RUNNER),
  withConfig(TOOLS),
  withConfig(SEARCH),
  withConfig(EFFECTS),
  SANDBOX_MESSAGES,
  OPTION_MESSAGES,
  RULE_MESSAGES,
);

const NO_PARAMS: Record<string, string | number> = {};

/** Fill a message for `lang` (its `reason`, and its `hint` unless `withHint` is false); unknown ids come back as the id itself. The package's one translation helper. */
export function message(
  id: string,
  lang: Lang,
  params: Record<string, string | number> = NO_PARAMS,
  withHint = true,
): { reason: string; hint?: string } {
  const m = MESSAGES[id];
  if (!m) return { reason: id };
  const reason = fill(lang === 'zh' ? m.zh : m.en, params, lang);
  const hint = withHint ? (lang === 'zh' ? m.hintZh : m.hintEn) : undefined;
  return hint ? { reason, hint: fill(hint, params, lang) } : { reason };
}
