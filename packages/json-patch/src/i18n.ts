/** Languages of the user-facing words in a summary (SlothTool's `settings.json` languages). */
export type Lang = 'zh' | 'en';

const TEXT = {
  noChanges: { en: 'no changes', zh: '没有变化' },
  more: { en: '... and {n} more', zh: '……还有 {n} 项' },
  document: { en: '(document)', zh: '（整个文档）' },
} as const;

/** A summary word in `lang`, with `{n}`-style parameters filled in. */
export function text(id: keyof typeof TEXT, lang: Lang, params: Record<string, string | number> = {}): string {
  return TEXT[id][lang].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`));
}
