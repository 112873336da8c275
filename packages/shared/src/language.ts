import fs = require('fs');
import path = require('path');

export type Lang = 'zh' | 'en';

/**
 * The language of the locale: `LC_ALL`, then `LC_MESSAGES`, then `LANG` (the first one set and
 * not empty wins, as POSIX orders them); `zh…` is Chinese, anything else (`en_US.UTF-8`, `C`,
 * `POSIX`, unset) English.
 */
export function localeLanguage(env: NodeJS.ProcessEnv = process.env): Lang {
  const value = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => typeof v === 'string' && v.trim() !== '');
  return value && /^zh/i.test(value.trim()) ? 'zh' : 'en';
}

/** `language` of a settings.json text when it is zh or en; undefined otherwise (absent, other, broken). */
export function settingsLanguage(text: string | undefined): Lang | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    const language = value && typeof value === 'object' ? (value as { language?: unknown }).language : undefined;
    return language === 'zh' || language === 'en' ? language : undefined;
  } catch {
    return undefined; // settings.json belongs to slothtool, which reports a broken one; here: the locale
  }
}

/**
 * The UI language: `<SlothTool home>/settings.json` when it names zh or en (`slothtool config
 * language en`), else the locale. Dependency-free: it runs on every `--help`.
 */
export function readLanguage(slothtoolHome: string, env: NodeJS.ProcessEnv = process.env): Lang {
  return settingsLanguageOf(path.join(slothtoolHome, 'settings.json')) ?? localeLanguage(env);
}

/**
 * What settings files said, kept while their size, mtime and inode stay (asked on every model
 * call). A file changed in the last 2 s is read again every time: file times are coarse (a
 * kernel tick), so two writes of the same size in one tick would look unchanged (git's "racy" rule).
 */
const seen = new Map<string, { stamp: string; lang: Lang | undefined }>();

function settingsLanguageOf(file: string): Lang | undefined {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) {
    seen.delete(file);
    return undefined;
  }
  const stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
  const known = seen.get(file);
  if (known?.stamp === stamp) return known.lang;
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  const lang = settingsLanguage(text);
  if (Date.now() - st.mtimeMs > 2000) seen.set(file, { stamp, lang });
  else seen.delete(file);
  return lang;
}
