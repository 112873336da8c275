/**
 * Claude Code's settings, read where Claude Code keeps them and with its precedence (user <
 * project < local): `~/.claude/settings.json`, `<project>/.claude/settings.json`,
 * `<project>/.claude/settings.local.json`. What we use of them: `hooks`, `permissions` (mapped to
 * our rules where a counterpart exists, extensions/claude-names.ts) and `env`.
 *
 * The project's two files are under project trust like ours: untrusted, only their `deny` rules
 * apply (a repository may always make things stricter). The user's file needs no trust. Claude
 * Code's own environment (`ANTHROPIC_*`, `CLAUDE_CODE_*`: its API, keys, model) is never passed on.
 */
import fs = require('fs');
import path = require('path');
import { writeFileAtomicSync } from '@holic512/shared/lib/atomic-write';
import { ensurePrivateDir } from '@holic512/shared/lib/private-files';
import { mapClaudeRule } from './claude-names';
import { HOOK_EVENTS, readHooks } from './hooks';
import { sameFolder } from './same-folder';

/** One settings file's rules as a rule set of our policy (`extraPermissions`). */
export interface ClaudeRuleSet {
  allow?: string[];
  ask?: string[];
  deny?: string[];
  source: string;
}

export interface ClaudeSettings {
  /** Each file's `hooks` block with the file it came from (readHooks reads them). */
  hooks: Array<{ raw: unknown; source: string }>;
  /** Each file's permission rules, mapped to ours. */
  rules: ClaudeRuleSet[];
  /** `env` of every file, later files winning (user < project < local). */
  env: Record<string, string>;
  /** What could not be used, each named once (a rule without a counterpart, an unreadable file). */
  problems: Array<{ source: string; error: string }>;
  /** The files that exist, in precedence order. */
  files: Array<{ file: string; scope: 'user' | 'project' }>;
}

/**
 * Environment variables a project's settings may not set: they change which code the programs we
 * judge run (a loader, a start-up file, a search path). The user's own settings may.
 */
const PROJECT_ENV_REFUSED =
  /^(PATH|LD_\w+|DYLD_\w+|NODE_OPTIONS|NODE_PATH|PYTHON\w*|PERL5\w*|PERLLIB|RUBY\w*|BASH_ENV|ENV|GIT_\w+|SHELLOPTS|PS4|IFS|HOME|SLOTHTOOL_HOME|npm_config_\w+|NPM_CONFIG_\w+)$/i;

/** Claude Code's own environment (its API, keys, model, behaviour): not passed to steps, hooks or servers here. */
const CLAUDE_OWN_ENV = /^(ANTHROPIC|CLAUDE_CODE)_\w*$/;

/** The settings of Claude Code's files we act on; any other is named as ignored. */
const USED_KEYS = new Set(['hooks', 'permissions', 'env', '$schema']);
const USED_PERMISSION_KEYS = new Set(['allow', 'ask', 'deny']);

/** Why one `env` entry of a settings file is not used (`say`: a problem worth naming at start), or undefined when it is. */
function envRefusal(key: string, value: unknown, scope: 'user' | 'project'): { why: string; say: boolean } | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return { why: 'not a string', say: false };
  if (CLAUDE_OWN_ENV.test(key)) return { why: "Claude Code's own setting", say: false };
  if (scope === 'project' && PROJECT_ENV_REFUSED.test(key))
    return { why: 'a project may not set this variable (it changes which code programs run)', say: true };
  return undefined;
}

/** What trusting one Claude Code settings file turns on, and what of it is ignored (by name). */
export interface ClaudeFileUse {
  /** `Event (matcher): command`, each hook that would run. */
  hooks: string[];
  /** Rules that would apply once trusted (deny rules apply anyway). */
  rules: { allow: number; ask: number };
  /** Environment variables it would set. */
  env: string[];
  /** Settings not acted on here: `statusLine`, `permissions.defaultMode`, `env.ANTHROPIC_API_KEY`, `hooks.PreCompact`, … */
  ignored: string[];
}

/** What of a Claude Code settings file (its parsed `value`) is used here, for the trust question. */
export function claudeFileUse(value: Record<string, unknown>, scope: 'user' | 'project', file: string): ClaudeFileUse {
  const use: ClaudeFileUse = { hooks: [], rules: { allow: 0, ask: 0 }, env: [], ignored: [] };
  for (const key of Object.keys(value)) if (!USED_KEYS.has(key)) use.ignored.push(key);
  for (const h of readHooks(value.hooks, file, 'claude').hooks) {
    const matcher = h.matcher ? ` (${h.matcher.source.replace(/^\^\(\?:/, '').replace(/\)\$$/, '')})` : '';
    use.hooks.push(`${h.event}${matcher}: ${h.command}`);
  }
  for (const [event, groups] of Object.entries(obj(value.hooks) ?? {})) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      use.ignored.push(`hooks.${event}`);
      continue;
    }
    const entries = (Array.isArray(groups) ? groups : []).flatMap((g) =>
      Array.isArray(obj(g)?.hooks) ? (obj(g)!.hooks as unknown[]) : [],
    );
    for (const type of entries.map((h) => obj(h)?.type))
      if (typeof type === 'string' && type !== 'command') use.ignored.push(`hooks "type": "${type}"`);
  }
  const p = obj(value.permissions) ?? {};
  for (const key of Object.keys(p)) if (!USED_PERMISSION_KEYS.has(key)) use.ignored.push(`permissions.${key}`);
  for (const effect of ['allow', 'ask', 'deny'] as const) {
    for (const rule of strings(p[effect])) {
      if ('skip' in mapClaudeRule(rule)) use.ignored.push(`permissions.${effect} ${rule}`);
      else if (effect !== 'deny') use.rules[effect]++;
    }
  }
  for (const [k, v] of Object.entries(obj(value.env) ?? {})) {
    if (envRefusal(k, v, scope)) use.ignored.push(`env.${k}`);
    else use.env.push(k);
  }
  use.ignored = [...new Set(use.ignored)];
  return use;
}

/** Where the three files are for this home and project (the project's are left out when it is the home). */
export function claudeSettingsPaths(home: string, projectRoot: string): Array<{ file: string; scope: 'user' | 'project' }> {
  const user = path.join(home, '.claude', 'settings.json');
  const own = isHomeClaude(home, projectRoot);
  return [
    { file: user, scope: 'user' as const },
    ...(own
      ? []
      : [
          { file: path.join(projectRoot, '.claude', 'settings.json'), scope: 'project' as const },
          { file: path.join(projectRoot, '.claude', 'settings.local.json'), scope: 'project' as const },
        ]),
  ];
}

/** Whether `<projectRoot>/.claude` is the user's own `~/.claude` (started in the home folder). */
export function isHomeClaude(home: string, projectRoot: string): boolean {
  return sameFolder(path.join(projectRoot, '.claude'), path.join(home, '.claude'));
}

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Read one JSON object file; undefined when absent (or, with `needle`, when its text lacks it), a problem when unreadable. */
export function readJsonObject(file: string, needle?: string): { value?: Record<string, unknown>; error?: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? {} : { error: (err as Error).message };
  }
  if (needle !== undefined && !text.includes(needle)) return {};
  try {
    const value = obj(JSON.parse(text));
    return value ? { value } : { error: 'expected a JSON object' };
  } catch (err) {
    return { error: `not valid JSON: ${(err as Error).message}` };
  }
}

/**
 * Read Claude Code's settings for this home and project. `projectTrusted`: whether the project's
 * files may turn on hooks, allow / ask rules and env (deny rules apply either way).
 */
export function readClaudeSettings(home: string, projectRoot: string, projectTrusted: boolean): ClaudeSettings {
  const out: ClaudeSettings = { hooks: [], rules: [], env: {}, problems: [], files: [] };
  for (const { file, scope } of claudeSettingsPaths(home, projectRoot)) {
    const { value, error } = readJsonObject(file);
    if (error) out.problems.push({ source: file, error });
    if (!value) continue;
    out.files.push({ file, scope });
    const on = scope === 'user' || projectTrusted;
    if (on && value.hooks !== undefined) out.hooks.push({ raw: value.hooks, source: file });
    const p = obj(value.permissions);
    if (p) {
      const set: ClaudeRuleSet = { source: file };
      for (const effect of ['deny', ...(on ? (['ask', 'allow'] as const) : [])] as const) {
        const mapped: string[] = [];
        for (const rule of strings(p[effect])) {
          const m = mapClaudeRule(rule);
          if ('rules' in m) mapped.push(...m.rules);
          else out.problems.push({ source: file, error: `permissions.${effect} "${rule}": ${m.skip}; skipped` });
        }
        if (mapped.length) set[effect] = mapped;
      }
      if (set.allow || set.ask || set.deny) out.rules.push(set);
    }
    const env = obj(value.env);
    if (on && env) {
      for (const [k, v] of Object.entries(env)) {
        const refused = envRefusal(k, v, scope);
        if (!refused) out.env[k] = String(v);
        else if (refused.say) out.problems.push({ source: file, error: `env.${k}: ${refused.why}; skipped` });
      }
    }
  }
  return out;
}

/** The server blocks of `~/.claude.json`, as kept in the cache. */
interface ClaudeJsonServers {
  key: string;
  user?: unknown;
  projects: Record<string, unknown>;
}

/** Only what we use of `~/.claude.json` (it holds much else: history, per-project state). */
function extractServers(file: string, key: string): { found?: ClaudeJsonServers; error?: string } {
  const { value, error } = readJsonObject(file, '"mcpServers"');
  if (!value) return error ? { error } : { found: { key, projects: {} } };
  const projects: Record<string, unknown> = {};
  for (const [folder, entry] of Object.entries(obj(value.projects) ?? {})) {
    const servers = obj(entry)?.mcpServers;
    if (servers !== undefined) projects[folder] = servers;
  }
  return { found: { key, ...(value.mcpServers !== undefined ? { user: value.mcpServers } : {}), projects } };
}

/**
 * The server blocks of `~/.claude.json`, through a cache in `cacheFile` keyed by the file's size
 * and time (a heavy Claude Code user's file is megabytes: parsing it costs tens of ms per start).
 */
function cachedServers(file: string, cacheFile: string | undefined): { found?: ClaudeJsonServers; error?: string } {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return { found: { key: '', projects: {} } };
  }
  const key = `${st.size}:${st.mtimeMs}`;
  if (!cacheFile) return extractServers(file, key);
  const cached = readJsonObject(cacheFile).value as ClaudeJsonServers | undefined;
  if (cached && cached.key === key && obj(cached.projects)) return { found: cached };
  const read = extractServers(file, key);
  if (read.found) {
    try {
      ensurePrivateDir(path.dirname(cacheFile));
      writeFileAtomicSync(cacheFile, JSON.stringify(read.found), { mode: 0o600 });
    } catch {
      // Only a speed-up: without it the file is parsed again next time.
    }
  }
  return read;
}

/**
 * The user's MCP servers in Claude Code's `~/.claude.json`: `projects["<folder>"].mcpServers` (its
 * local scope: this user, this project — the working folder's entry, then the project root's;
 * first, as Claude Code prefers it) and `mcpServers` (user scope). Both are the user's own: no
 * trust needed. `cacheFile`: where the extracted blocks are kept between starts.
 */
export function claudeJsonServers(
  home: string,
  projectRoot: string,
  cwd: string = projectRoot,
  cacheFile?: string,
): { sources: Array<{ raw: unknown; source: string }>; problems: Array<{ source: string; error: string }> } {
  const file = path.join(home, '.claude.json');
  const { found, error } = cachedServers(file, cacheFile);
  if (!found) return { sources: [], problems: error ? [{ source: file, error }] : [] };
  const sources: Array<{ raw: unknown; source: string }> = [];
  // Claude Code keys a project by the folder it was started in: the working folder, else the project's root.
  for (const key of [...new Set([path.resolve(cwd), path.resolve(projectRoot)])]) {
    if (found.projects[key] !== undefined) sources.push({ raw: found.projects[key], source: `${file} (projects["${key}"])` });
  }
  if (found.user !== undefined) sources.push({ raw: found.user, source: file });
  return { sources, problems: [] };
}
