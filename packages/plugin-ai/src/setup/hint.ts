import type { Lang } from '../i18n';
import type { NeedsSetupResult } from './needs';
import { t } from '../i18n';

/**
 * What to print when setup is needed but nobody can be asked (`ai -p`, piped, CI): the exact
 * commands that fix it, in the user's language. Undefined when nothing is needed.
 */
export function setupHint(lang: Lang, needs: NeedsSetupResult): string | undefined {
  if (needs.reason === 'no-llm-base') {
    const detail = needs.code !== 'LLM_BASE_MISSING' && needs.path ? t(lang, 'brokenDetail', { path: needs.path }) : '';
    return t(lang, 'nonTtyNoLlmBase', { detail });
  }
  if (needs.reason === 'no-profile') return t(lang, 'nonTtyNoProfile');
  return undefined;
}
