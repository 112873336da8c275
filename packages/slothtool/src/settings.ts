import { localeLanguage } from '@holic512/shared/lib/language';
import { z } from 'zod';
import { SlothToolError } from './errors';
import { readJsonFile, writeJsonFileAtomic } from './json-file';
import type { HomePaths } from './paths';

export type Language = 'zh' | 'en';

/** settings.json: only `language` is ours; other keys are kept as they are. */
export const SettingsSchema = z.looseObject({
  language: z.string().optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** Read settings.json; missing means `{}`, unreadable is SETTINGS_CORRUPT naming the file. */
export function readSettings(paths: HomePaths): Settings {
  const read = readJsonFile(paths.settings);
  if (read.kind === 'missing') return {};
  if (read.kind === 'invalid') throw new SlothToolError('SETTINGS_CORRUPT', { file: paths.settings, detail: read.detail });
  const parsed = SettingsSchema.safeParse(read.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SlothToolError('SETTINGS_CORRUPT', {
      file: paths.settings,
      detail: `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    });
  }
  return parsed.data;
}

/** The language messages are shown in: `settings.language` when it is zh or en, else the locale (LC_ALL, LC_MESSAGES, LANG: zh* is Chinese, anything else English). */
export function languageOf(settings: Settings, env: NodeJS.ProcessEnv = process.env): Language {
  if (settings.language === 'en' || settings.language === 'zh') return settings.language;
  return localeLanguage(env);
}

/** Set `language` in settings.json, keeping every other key. Refuses to overwrite a corrupt file. */
export function setLanguage(paths: HomePaths, language: Language): void {
  const settings = readSettings(paths);
  writeJsonFileAtomic(paths.settings, { ...settings, language });
}
