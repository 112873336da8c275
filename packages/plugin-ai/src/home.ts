import path = require('path');
import { readLanguage as readSettingsLanguage } from '@holic512/shared/lib/language';
import type { Lang } from './i18n';

/** The SlothTool home and the UI language come from @holic512/shared (one lookup for every plugin). */
export { slothtoolHome } from '@holic512/shared/lib/home';

/** Paths plugin-ai uses under the SlothTool home. */
export interface AiPaths {
  home: string;
  config: string;
  registry: string;
  settings: string;
  sessionsDir: string;
  auditLog: string;
  /** Which project folders the user trusts (extensions/trust.ts). */
  trust: string;
}

export function aiPaths(home: string): AiPaths {
  return {
    home,
    config: path.join(home, 'plugin-configs', 'ai.json'),
    registry: path.join(home, 'registry.json'),
    settings: path.join(home, 'settings.json'),
    sessionsDir: path.join(home, 'ai', 'sessions'),
    auditLog: path.join(home, 'ai', 'audit.jsonl'),
    trust: path.join(home, 'ai', 'trust.json'),
  };
}

/** The UI language: settings.json's `language`, else the locale (LC_ALL, LC_MESSAGES, LANG). */
export function readLanguage(home: string, env: NodeJS.ProcessEnv = process.env): Lang {
  return readSettingsLanguage(home, env);
}
