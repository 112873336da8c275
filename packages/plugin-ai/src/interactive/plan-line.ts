/**
 * The model's latest plan above the prompt of `ai -i` (issue #46): a head line `Plan 2/5`, then
 * one line per step — `✓` done, `▸` in progress, `○` pending — each cut to the screen's width.
 * Compact: a long plan shows a window around the step in progress and says how many more; a plan
 * whose steps are all done is its head line alone. Pure.
 */
import type { PlanItem } from '@holic512/tool-runner';
import type { Lang } from '../i18n';
import type { Theme } from './theme';
import { truncateWidth } from './width';
import { t } from '../i18n';

const MARK: Record<PlanItem['status'], string> = { done: '✓', in_progress: '▸', pending: '○' };

/** How many step lines a screen of `rows` gives the plan: a quarter of it, between 3 and 8. */
export function planRows(rows: number): number {
  return Math.max(3, Math.min(8, Math.floor(rows / 4)));
}

/** The steps to show (at most `room`): a window that starts one before the step in progress. */
function shownSteps(items: readonly PlanItem[], room: number): { from: number; to: number } {
  if (items.length <= room) return { from: 0, to: items.length };
  const fit = room - 1; // one line says how many more
  const current = items.findIndex((i) => i.status !== 'done');
  const from = Math.max(0, Math.min(current - 1, items.length - fit));
  return { from, to: from + fit };
}

export function planLines(
  items: readonly PlanItem[] | undefined,
  view: { columns: number; rows: number },
  theme: Theme,
  lang: Lang,
): string[] {
  if (!items?.length) return [];
  const width = Math.max(10, view.columns - 1);
  const done = items.filter((i) => i.status === 'done').length;
  const head = t(lang, 'planHead', { done, total: items.length });
  if (done === items.length) return [theme.dim(truncateWidth(`${MARK.done} ${head}`, width))];
  const lines = [theme.bold(truncateWidth(head, width))];
  const { from, to } = shownSteps(items, planRows(view.rows));
  for (const item of items.slice(from, to)) {
    const line = truncateWidth(`  ${MARK[item.status]} ${item.step.replace(/\s+/g, ' ')}`, width);
    lines.push(item.status === 'in_progress' ? theme.cyan(line) : item.status === 'done' ? theme.dim(line) : line);
  }
  const hidden = items.length - (to - from);
  if (hidden > 0) lines.push(theme.dim(truncateWidth(`  … ${t(lang, 'planMore', { n: hidden })}`, width)));
  return lines;
}
