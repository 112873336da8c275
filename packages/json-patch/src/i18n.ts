import { fill } from '@holic512/shared/lib/messages';

/** Languages of the user-facing words in a summary (SlothTool's `settings.json` languages). */
export type Lang = 'zh' | 'en';

const TEXT = {
  noChanges: { en: 'no changes', zh: '没有变化' },
  more: { en: '... and {n} more', zh: '……还有 {n} 项' },
  document: { en: '(document)', zh: '（整个文档）' },
  operation: { en: 'operation {n}', zh: '第 {n} 项操作' },
  wholeDocument: { en: 'the whole document', zh: '整个文档' },
  notApplied: { en: 'Patch not applied: {what}.', zh: '补丁未应用：{what}。' },
  notAppliedAt: { en: 'Patch not applied: {what} ({where}).', zh: '补丁未应用：{what}（{where}）。' },
  listSeparator: { en: ', ', zh: '，' },
} as const;

/** The message tables, for the completeness test over every catalogue. */
export const TEXT_TABLES = TEXT;

/** A summary word in `lang`, with `{n}`-style parameters filled in. */
export function text(id: keyof typeof TEXT, lang: Lang, params: Record<string, string | number> = {}): string {
  return fill(TEXT[id][lang], params, lang);
}
