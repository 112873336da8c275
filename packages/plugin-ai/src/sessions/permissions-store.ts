/**
 * The permission rules of ai.json as a user changes them from `ai -i`: "yes, and don't ask
 * again" adds an allow rule, `/permissions remove` takes one out. The file is read as JSON and
 * written back whole, atomically and private, keeping every other setting; a file that is not
 * valid JSON is left alone (the error says so).
 */
import fs = require('fs');
import path = require('path');
import { ensurePrivateDir } from '@holic512/shared/lib/private-files';
import { writeFileAtomicSync } from '@holic512/shared/lib/atomic-write';

export type RuleEffect = 'allow' | 'ask' | 'deny';

/** ai.json as an object ({} when it is not there); throws when it is not a JSON object. */
export function readObject(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${file} does not hold a JSON object`);
  return value as Record<string, unknown>;
}

/** Write ai.json whole: atomically, 0600 in a 0700 folder, every key kept as given. */
export function write(file: string, value: Record<string, unknown>): void {
  ensurePrivateDir(path.dirname(file));
  writeFileAtomicSync(file, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
  // A config of ours is private, also when it was created wider by hand.
  fs.chmodSync(file, 0o600);
}

function rulesOf(config: Record<string, unknown>): Record<RuleEffect, string[]> {
  const p = (config.permissions && typeof config.permissions === 'object' ? config.permissions : {}) as Record<string, unknown>;
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return { allow: list(p.allow), ask: list(p.ask), deny: list(p.deny) };
}

/** Every rule of the file, by effect. */
export function listRules(file: string): Record<RuleEffect, string[]> {
  return rulesOf(readObject(file));
}

/**
 * Add an allow rule (once): everywhere (`permissions`), or for one project folder
 * (`projectPermissions[folder]`). Throws when the file cannot be read as a JSON object or written.
 */
export function addAllowRule(file: string, rule: string, folder?: string): void {
  const config = readObject(file);
  if (folder) {
    const all = (config.projectPermissions && typeof config.projectPermissions === 'object' ? config.projectPermissions : {}) as Record<
      string,
      unknown
    >;
    const here = rulesOf({ permissions: all[folder] });
    if (here.allow.includes(rule)) return;
    config.projectPermissions = { ...all, [folder]: { ...((all[folder] as object) ?? {}), allow: [...here.allow, rule] } };
  } else {
    const rules = rulesOf(config);
    if (rules.allow.includes(rule)) return;
    config.permissions = { ...((config.permissions as object) ?? {}), allow: [...rules.allow, rule] };
  }
  write(file, config);
}

/** The rules the user gave for one project folder. */
export function listProjectRules(file: string, folder: string): Record<RuleEffect, string[]> {
  const all = readObject(file).projectPermissions as Record<string, unknown> | undefined;
  return rulesOf({ permissions: all?.[folder] });
}

/**
 * Remove a rule wherever it is (allow, ask or deny), from the everywhere rules and from those of
 * `folder`; false when the file has no such rule.
 */
export function removeRule(file: string, rule: string, folder?: string): boolean {
  const config = readObject(file);
  const without = (set: unknown): { found: boolean; set: Record<string, unknown> } => {
    const rules = rulesOf({ permissions: set });
    const found = [...rules.allow, ...rules.ask, ...rules.deny].includes(rule);
    const drop = (list: string[]) => list.filter((r) => r !== rule);
    return { found, set: { ...((set as object) ?? {}), allow: drop(rules.allow), ask: drop(rules.ask), deny: drop(rules.deny) } };
  };
  const everywhere = without(config.permissions);
  if (everywhere.found) config.permissions = everywhere.set;
  const all = (config.projectPermissions && typeof config.projectPermissions === 'object' ? config.projectPermissions : {}) as Record<
    string,
    unknown
  >;
  const here = folder ? without(all[folder]) : { found: false, set: {} };
  if (folder && here.found) config.projectPermissions = { ...all, [folder]: here.set };
  if (!everywhere.found && !here.found) return false;
  write(file, config);
  return true;
}
