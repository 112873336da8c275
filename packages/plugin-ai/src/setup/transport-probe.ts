import type { Lang } from '../i18n';
import type { SetupLlmBase } from './llm-base-module';
import type { SetupUi } from './ui';
import { t } from '../i18n';

/** Find out (and record) which transport works best for the new profile (llm-base probe). */
export async function probeTransports(llm: SetupLlmBase, ui: SetupUi, lang: Lang, name: string): Promise<void> {
  if (!llm.probe_profile) return;
  ui.print(t(lang, 'transportProbing', { name }));
  const r = await llm.probe_profile(name);
  const d = (r.success ? r.data : {}) as { tools?: { ok?: boolean }; json_schema?: { ok?: boolean } };
  if (!r.success) return ui.print(t(lang, 'transportProbeFailed', { message: r.error.message }));
  ui.print(t(lang, 'transportProbed', { transport: d.tools?.ok ? 'tools' : d.json_schema?.ok ? 'json_schema' : 'json' }));
}
