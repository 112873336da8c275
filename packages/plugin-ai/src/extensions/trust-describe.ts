/**
 * What trusting a folder would turn on, named exactly for the trust question: each MCP server of
 * `.mcp.json` with its command or URL, each hook of `.slothtool/settings.json` with its command,
 * how many permission rules it holds, and the project's skills.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ProjectExtras } from './trust';

export interface ExtrasDescription {
  /** `name: command args` or `name: url`, one per server. */
  servers: string[];
  /** `Event: command`, one per hook command. */
  hooks: string[];
  /** Counts of the project's own permission rules. */
  rules: { allow: number; ask: number; deny: number };
  /** Skill folders (relative), one per skill. */
  skills: string[];
  /** Project files those hooks and servers run (their contents are part of the trust). */
  code: string[];
  /** Project commands whose `allowed-tools` answer questions for their turn. */
  commands: string[];
  /** Files that could not be read as JSON, with why. */
  unreadable: string[];
}

const MAX_ITEM = 160;

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_ITEM ? `${one.slice(0, MAX_ITEM - 1)}…` : one;
}

function readJson(file: string, unreadable: string[]): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') unreadable.push(`${path.basename(file)}: ${short((err as Error).message)}`);
    return undefined;
  }
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

export function describeExtras(extras: ProjectExtras): ExtrasDescription {
  const out: ExtrasDescription = { servers: [], hooks: [], rules: { allow: 0, ask: 0, deny: 0 }, skills: [], code: [], commands: [], unreadable: [] };
  const has = (kind: string) => extras.files.some((f) => f.kind === kind);
  if (has('mcp')) {
    const servers = obj(readJson(path.join(extras.workspace, '.mcp.json'), out.unreadable)?.mcpServers);
    for (const [name, raw] of Object.entries(servers)) {
      const e = obj(raw);
      const what = typeof e.url === 'string' ? e.url : [e.command, ...(Array.isArray(e.args) ? e.args : [])].map(String).join(' ');
      out.servers.push(short(`${name}: ${what}`));
    }
  }
  // Ours (.slothtool/settings.json) and Claude Code's (.claude/settings.json, settings.local.json).
  for (const f of extras.files) {
    if (f.kind === 'code') out.code.push(f.rel);
    if (f.kind === 'command') out.commands.push(f.rel);
    if (f.kind !== 'settings') continue;
    const settings = readJson(path.join(extras.workspace, f.rel), out.unreadable);
    for (const [event, groups] of Object.entries(obj(settings?.hooks))) {
      for (const g of Array.isArray(groups) ? groups : []) {
        for (const h of Array.isArray(obj(g).hooks) ? (obj(g).hooks as unknown[]) : []) out.hooks.push(short(`${event}: ${String(obj(h).command ?? obj(h).type ?? '?')}`));
      }
    }
    const p = obj(settings?.permissions);
    out.rules = { allow: out.rules.allow + count(p.allow), ask: out.rules.ask + count(p.ask), deny: out.rules.deny + count(p.deny) };
  }
  const dirs = new Set<string>();
  for (const f of extras.files) if (f.kind === 'skill' && /\/SKILL\.md$/i.test(f.rel)) dirs.add(path.posix.dirname(f.rel));
  out.skills = [...dirs];
  return out;
}
