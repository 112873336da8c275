/**
 * What trusting a folder would turn on, named exactly for the trust question: each MCP server of
 * `.mcp.json` with its command or URL; per settings file, by its own name (`.slothtool/settings.json`,
 * `.claude/settings.json`, `.claude/settings.local.json`), each hook with its command, the allow and
 * ask rules and the environment variables it would set; the project's skills; and, once, by name,
 * what of Claude Code's files is not used here (statusLine, outputStyle, sandbox, `ANTHROPIC_*`
 * env, events not run …). Deny rules are not listed: they apply whether the folder is trusted or not.
 */
import fs = require('fs');
import path = require('path');
import { claudeFileUse } from './claude-settings';
import { readHooks } from './hooks';
import type { ProjectExtras } from './trust';

/** What one settings file of the project would turn on. */
export interface SettingsDescription {
  /** The file, relative to the folder (`.claude/settings.json`). */
  file: string;
  /** `Event (matcher): command`, one per hook command that would run. */
  hooks: string[];
  /** Counts of the allow and ask rules that would apply. */
  rules: { allow: number; ask: number };
  /** Environment variables it would set (Claude Code's files). */
  env: string[];
  /** Checks after edits it would run: `glob → command` (ours). */
  checks?: string[];
}

export interface ExtrasDescription {
  /** `name: command args` or `name: url`, one per server. */
  servers: string[];
  /** Per settings file, what it would turn on (files that would turn on nothing are left out). */
  settings: SettingsDescription[];
  /** Skill folders (relative), one per skill. */
  skills: string[];
  /** Project files those hooks and servers run (their contents are part of the trust). */
  code: string[];
  /** Project commands whose `allowed-tools` answer questions for their turn. */
  commands: string[];
  /** Project agent files (relative). */
  agents: string[];
  /** What the project's Claude Code files hold that is not used here, each name once. */
  ignored: string[];
  /** Files that could not be read as JSON, with why. */
  unreadable: string[];
}

const MAX_ITEM = 160;

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_ITEM ? `${one.slice(0, MAX_ITEM - 1)}…` : one;
}

function readJson(file: string, rel: string, unreadable: string[]): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    unreadable.push(`${rel}: expected a JSON object`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') unreadable.push(`${rel}: ${short((err as Error).message)}`);
  }
  return undefined;
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/** Our own `.slothtool/settings.json`: its hooks and its allow / ask rules. */
function ownSettings(rel: string, value: Record<string, unknown>): SettingsDescription {
  const hooks = readHooks(value.hooks, rel).hooks.map(
    (h) => `${h.event}${h.matcher ? ` (${h.matcher.source.replace(/^\^\(\?:/, '').replace(/\)\$$/, '')})` : ''}: ${h.command}`,
  );
  const p = obj(value.permissions);
  const checks = (Array.isArray(value.checks) ? value.checks : []).map((c) => {
    const run = obj(c).run;
    return `${String(obj(c).match ?? '?')} → ${Array.isArray(run) ? run.map(String).join(' ') : '?'}`;
  });
  return { file: rel, hooks, rules: { allow: count(p.allow), ask: count(p.ask) }, env: [], ...(checks.length ? { checks } : {}) };
}

export function describeExtras(extras: ProjectExtras): ExtrasDescription {
  const out: ExtrasDescription = { servers: [], settings: [], skills: [], code: [], commands: [], agents: [], ignored: [], unreadable: [] };
  if (extras.files.some((f) => f.kind === 'mcp')) {
    const servers = obj(readJson(path.join(extras.workspace, '.mcp.json'), '.mcp.json', out.unreadable)?.mcpServers);
    for (const [name, raw] of Object.entries(servers)) {
      const e = obj(raw);
      const what = typeof e.url === 'string' ? e.url : [e.command, ...(Array.isArray(e.args) ? e.args : [])].map(String).join(' ');
      out.servers.push(short(`${name}: ${what}`));
    }
  }
  const ignored = new Set<string>();
  for (const f of extras.files) {
    if (f.kind === 'code') out.code.push(f.rel);
    if (f.kind === 'command') out.commands.push(f.rel);
    if (f.kind === 'agent') out.agents.push(f.rel);
    if (f.kind !== 'settings') continue;
    const abs = path.join(extras.workspace, f.rel);
    const value = readJson(abs, f.rel, out.unreadable);
    if (!value) continue;
    let described: SettingsDescription;
    if (f.rel.startsWith('.claude/')) {
      const use = claudeFileUse(value, 'project', abs);
      for (const name of use.ignored) ignored.add(name);
      described = { file: f.rel, hooks: use.hooks, rules: use.rules, env: use.env };
    } else {
      described = ownSettings(f.rel, value);
    }
    described.hooks = described.hooks.map(short);
    described.checks = described.checks?.map(short);
    if (described.hooks.length || described.rules.allow || described.rules.ask || described.env.length || described.checks?.length)
      out.settings.push(described);
  }
  out.ignored = [...ignored];
  const dirs = new Set<string>();
  for (const f of extras.files) if (f.kind === 'skill' && /\/SKILL\.md$/i.test(f.rel)) dirs.add(path.posix.dirname(f.rel));
  out.skills = [...dirs];
  return out;
}
