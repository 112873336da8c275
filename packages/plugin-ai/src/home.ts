import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Lang } from './i18n';

/** The SlothTool home: `$SLOTHTOOL_HOME`, else `~/.slothtool` (DESIGN §3). */
export function slothtoolHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SLOTHTOOL_HOME) return path.resolve(env.SLOTHTOOL_HOME);
  const home = env.HOME || env.USERPROFILE || os.homedir();
  return path.join(home, '.slothtool');
}

/** Paths plugin-ai uses under the SlothTool home. */
export interface AiPaths {
  home: string;
  config: string;
  registry: string;
  settings: string;
  sessionsDir: string;
  auditLog: string;
}

export function aiPaths(home: string): AiPaths {
  return {
    home,
    config: path.join(home, 'plugin-configs', 'ai.json'),
    registry: path.join(home, 'registry.json'),
    settings: path.join(home, 'settings.json'),
    sessionsDir: path.join(home, 'ai', 'sessions'),
    auditLog: path.join(home, 'ai', 'audit.jsonl'),
  };
}

/** The UI language from `settings.json` (`zh` unless it says `en`). Kept dependency-free:
 * it runs on the `--help` fast path, before zod is loaded. A missing or unreadable file
 * means the default; settings.json belongs to slothtool, which reports its corruption. */
export function readLanguage(home: string): Lang {
  let text: string;
  try {
    text = fs.readFileSync(path.join(home, 'settings.json'), 'utf8');
  } catch {
    return 'zh';
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && (value as { language?: unknown }).language === 'en') return 'en';
  } catch {
    return 'zh';
  }
  return 'zh';
}
