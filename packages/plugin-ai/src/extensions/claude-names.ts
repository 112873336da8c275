/**
 * Claude Code's names beside ours: tool names for hook matchers, the shape of `tool_input` a hook
 * script reads (`command`, `file_path`, …), and permission rules (`Bash(npm run test:*)`). One
 * table, documented in docs/extensions.md ("Coming from Claude Code").
 */
import * as path from 'path';

/** Our tool → Claude Code's names for it (a hook matcher may use either). */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  exec: ['Bash'],
  'proc.start': ['Bash'],
  'fs.read': ['Read'],
  'fs.edit': ['Edit', 'MultiEdit'],
  'fs.write': ['Write'],
  'fs.glob': ['Glob'],
  'fs.grep': ['Grep'],
  'http.get': ['WebFetch'],
  'web.search': ['WebSearch'],
  'agent.run': ['Task'],
};

/** Claude Code's tool → ours (the first of ours is what a permission rule names). */
const FROM_CLAUDE: Record<string, string> = { Bash: 'exec', Read: 'fs.read', Edit: 'fs.edit', MultiEdit: 'fs.edit', Write: 'fs.write', Glob: 'fs.glob', Grep: 'fs.grep', WebFetch: 'http.get', WebSearch: 'web.search', Task: 'agent.run' };

/**
 * Every name a hook matcher may use for a tool: ours, Claude Code's, and for an MCP tool
 * `mcp.<server>.<tool>` also `mcp__<server>__<tool>`.
 */
export function toolNames(tool: string): string[] {
  const out = [tool, ...(CLAUDE_TOOL_NAMES[tool] ?? [])];
  const mcp = /^mcp\.([^.]+)\.(.+)$/.exec(tool);
  if (mcp) out.push(`mcp__${mcp[1]}__${mcp[2]}`);
  return out;
}

/** One argument as a POSIX shell would read it back: bare when safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A program and its arguments as one command line (Claude Code's `tool_input.command`). */
export function commandLine(program: string, args: readonly string[] = []): string {
  return [program, ...args].map(shellQuote).join(' ');
}

/**
 * Split a command line into words the way a shell would for plain commands, without a shell:
 * quotes and backslashes group, and anything that needs a shell (pipes, `&&`, `;`, redirections,
 * `$` expansions, back-quotes, globs, `~`) is refused with what it was.
 */
export function splitCommandLine(line: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { error: 'an unclosed quote (\')' };
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && /["\\$`]/.test(line[j + 1])) word += line[++j];
        else if (line[j] === '$' || line[j] === '`') return { error: `"${line[j]}" (an expansion)` };
        else word += line[j];
      }
      if (j >= line.length) return { error: 'an unclosed quote (")' };
      inWord = true;
      i = j;
    } else if (ch === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (/[|&;<>()$`*?[\]{}]/.test(ch) || (ch === '~' && !inWord) || (ch === '#' && !inWord)) {
      return { error: `"${ch}"` };
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  if (!words.length) return { error: 'an empty command' };
  return { words };
}

/**
 * A step's input with Claude Code's fields beside ours, for hook stdin: `command` (one
 * shell-quoted line) beside `program` / `args`, `file_path` (absolute) beside `path`;
 * `content`, `old_string` / `new_string` are the same names in both.
 */
export function claudeToolInput(step: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...step };
  if (typeof step.program === 'string') {
    out.command = commandLine(step.program, Array.isArray(step.args) ? step.args.map(String) : []);
  }
  if (typeof step.path === 'string' && step.file_path === undefined) {
    const base = typeof step.cwd === 'string' ? path.resolve(cwd, step.cwd) : cwd;
    out.file_path = path.resolve(base, step.path);
  }
  if (typeof step.url === 'string' && out.url === undefined) out.url = step.url;
  return out;
}

/** Our run mode in Claude Code's words (`permission_mode` on hook stdin). */
export function claudePermissionMode(mode: string): string {
  return ({ default: 'default', plan: 'plan', 'auto-edit': 'acceptEdits', yolo: 'bypassPermissions' } as Record<string, string>)[mode] ?? mode;
}

/**
 * A Claude Code permission rule as ours, or why it has none:
 * `Bash(npm run test:*)` → `exec(npm run test *)` and `proc.start(npm run test *)`, `Read(./src/**)` → `fs.read(src/**)`,
 * `Edit` / `MultiEdit` → `fs.edit`, `Write` → `fs.write`, `WebFetch(domain:x)` →
 * `http.get(domain:x)`, `mcp__srv__tool` → `mcp.srv.tool`, `mcp__srv` → `mcp.srv.*`.
 */
export function mapClaudeRule(rule: string): { rules: string[] } | { skip: string } {
  const one = mapOne(rule);
  if ('skip' in one) return one;
  // `Bash` is both ways a command runs here: a step and a background process.
  return { rules: one.rule.startsWith('exec') ? [one.rule, one.rule.replace(/^exec/, 'proc.start')] : [one.rule] };
}

function mapOne(rule: string): { rule: string } | { skip: string } {
  const text = rule.trim();
  const mcp = /^mcp__([A-Za-z0-9_-]+?)(?:__(.+))?$/.exec(text);
  if (mcp) return { rule: `mcp.${mcp[1]}.${mcp[2] && mcp[2] !== '*' ? mcp[2] : '*'}` };
  const m = /^([A-Za-z]+)(?:\((.*)\))?$/s.exec(text);
  if (!m) return { skip: 'not a rule of the form Tool or Tool(argument)' };
  const ours = FROM_CLAUDE[m[1]];
  if (!ours) return { skip: `Claude Code's tool "${m[1]}" has no counterpart here` };
  const arg = m[2]?.trim();
  if (arg === undefined || arg === '' || arg === '*') return { rule: ours };
  if (ours === 'exec') {
    // `npm run test:*` is a prefix of words; a `*` inside a word already is a glob here.
    const words = arg.replace(/:\*$/, ' *').trim();
    return { rule: `exec(${words})` };
  }
  if (ours === 'http.get') return arg.startsWith('domain:') ? { rule: `http.get(${arg})` } : { skip: 'WebFetch rules are mapped only with domain:<host>' };
  if (ours.startsWith('fs.')) {
    // Claude Code: `//abs` is absolute, `~/x` the home, `/x` relative to the settings file's
    // folder, `./x` or `x` the working folder. Ours are relative to the workspace.
    if (arg.startsWith('//') || arg.startsWith('~')) return { skip: 'only paths inside the workspace map to our path rules' };
    return { rule: `${ours}(${arg.replace(/^\.?\//, '')})` };
  }
  return { rule: `${ours}(${arg})` };
}
