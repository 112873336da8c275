/**
 * A project's own permission rules (`.slothtool/settings.json` → `permissions`). A repository may
 * only make things stricter on its own: its deny rules always apply; its allow and ask rules only
 * once the user trusts the folder (extensions/trust.ts: remembered per folder and content hash).
 */
import fs = require('fs');
import path = require('path');
import { isOwnHome, projectExtras, TrustStore, type TrustState } from '../extensions/trust';

export interface ProjectRules {
  /** The rule set for the runner's policy (`extraPermissions`), or undefined when there is none. */
  set?: { allow?: string[]; ask?: string[]; deny?: string[]; source: string };
  trust: TrustState;
  /** Why the file's rules could not be read (they are not applied). */
  problem?: string;
  /** The file's `hooks` block, only when the folder is trusted. */
  hooks?: unknown;
  /** The file's `checks` (checks after edits), only when the folder is trusted: they run programs. */
  checks?: unknown;
  /** The settings file. */
  file?: string;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * `trust`: the folder's trust state when the caller has it (else it is worked out here). `home`:
 * the SlothTool home; in the home folder itself `.slothtool/settings.json` is the user's settings.
 */
export function readProjectRules(workspace: string, trustFile: string, known?: TrustState, home?: string): ProjectRules {
  if (isOwnHome(workspace, home)) return { trust: 'nothing' };
  const file = path.join(workspace, '.slothtool', 'settings.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { trust: 'nothing' };
  }
  const trust = known ?? new TrustStore(trustFile).state(projectExtras(workspace, home));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { trust, problem: `${file}: ${(err as Error).message}` };
  }
  const trusted = trust === 'trusted';
  const hooks = trusted && value && typeof value === 'object' ? (value as { hooks?: unknown }).hooks : undefined;
  const checks = trusted && value && typeof value === 'object' ? (value as { checks?: unknown }).checks : undefined;
  const own = { ...(hooks ? { hooks } : {}), ...(checks !== undefined ? { checks } : {}) };
  const p = (value && typeof value === 'object' ? (value as { permissions?: unknown }).permissions : undefined) as
    Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object') return { trust, file, ...own };
  const deny = strings(p.deny);
  return { trust, file, ...own, set: { deny, ...(trusted ? { allow: strings(p.allow), ask: strings(p.ask) } : {}), source: file } };
}
