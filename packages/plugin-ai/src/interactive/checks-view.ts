/**
 * `/checks`: the checks after edits of the session (ai.json's, a trusted project's), each with its
 * glob, its command, the file it comes from and what the user answered this session; then the
 * entries that could not be used, with why.
 */
import { checkLine, type Check, type CheckProblem } from '../extensions/checks';
import type { Lang } from '../i18n';
import type { Theme } from './theme';
import { t } from '../i18n';

export function checksText(
  checks: readonly Check[],
  problems: readonly CheckProblem[],
  answers: ReadonlyMap<string, 'yes' | 'no'> | undefined,
  file: string,
  theme: Theme,
  lang: Lang,
): string {
  const lines = checks.length ? [t(lang, 'checksHead')] : [t(lang, 'checksNone', { file })];
  for (const c of checks) {
    const answer = answers?.get(checkLine(c));
    const state = answer === 'yes' ? t(lang, 'checkAllowed') : answer === 'no' ? t(lang, 'checkDeclined') : '';
    lines.push(`  ${theme.cyan(c.match)}  →  ${checkLine(c)}  ${theme.dim(`· ${c.source}`)}${state ? `  ${theme.yellow(state)}` : ''}`);
  }
  if (problems.length) lines.push(t(lang, 'checksProblems'), ...problems.map((p) => theme.yellow(`  ${p.source}: ${p.error}`)));
  return lines.join('\n');
}
