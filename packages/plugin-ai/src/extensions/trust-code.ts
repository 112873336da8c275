/**
 * Trust covers what runs: the project files a trusted hook, check or MCP server executes. A hook
 * `./.hooks/start.sh`, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py` or a server
 * `node ./tools/server.js` names files of the project on its command line; their contents join
 * the trust hash (extensions/trust.ts), so changing one after the trust question asks again.
 * (Skill folders are hashed whole already.) What those files load in turn is not followed.
 */
import fs = require('fs');
import path = require('path');
import { readJsonObject } from './claude-settings';

/** The project's files that hold hooks (ours and Claude Code's). */
export const HOOK_FILES = ['.slothtool/settings.json', '.claude/settings.json', '.claude/settings.local.json'];

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PROJECT_DIR}` and `${VAR:-default}` (its default) in a word. */
function expand(word: string, workspace: string): string {
  return word
    .replace(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR\b/g, workspace)
    .replace(/\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}/g, '$1');
}

/** Words of a shell command line, good enough to find file names: quotes dropped, operators split off. */
function shellWords(command: string): string[] {
  return command
    .split(/[\s;&|()<>]+/)
    .map((w) => w.replace(/["'`]/g, ''))
    .filter(Boolean);
}

/** The commands (as words) the project's hooks and `.mcp.json` servers run, with the folder each runs in. */
export function projectCommands(workspace: string, hookFiles: readonly string[] = HOOK_FILES): Array<{ words: string[]; cwd: string }> {
  const out: Array<{ words: string[]; cwd: string }> = [];
  for (const rel of hookFiles) {
    const { value } = readJsonObject(path.join(workspace, rel));
    // Checks after edits (`.slothtool/settings.json`): a program and its arguments each.
    for (const c of list(value?.checks)) {
      const run = list(obj(c).run);
      if (run.length && run.every((w) => typeof w === 'string')) out.push({ words: run as string[], cwd: workspace });
    }
    for (const groups of Object.values(obj(value?.hooks))) {
      for (const g of list(groups)) {
        for (const h of list(obj(g).hooks)) {
          const command = obj(h).command;
          if (typeof command === 'string') out.push({ words: shellWords(command), cwd: workspace });
        }
      }
    }
  }
  const { value } = readJsonObject(path.join(workspace, '.mcp.json'));
  for (const raw of Object.values(obj(value?.mcpServers))) {
    const e = obj(raw);
    if (typeof e.command !== 'string') continue;
    const cwd = typeof e.cwd === 'string' ? path.resolve(workspace, expand(e.cwd, workspace)) : workspace;
    out.push({ words: [e.command, ...list(e.args).map(String)], cwd });
  }
  return out;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false; // absent, or a path through a file: not something that runs
  }
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * The files inside `workspace` that those commands name (the program, or a script argument):
 * existing files (a link is kept too: the hash records where it points and what it holds),
 * sorted, each once.
 */
export function executedProjectFiles(workspace: string, hookFiles?: readonly string[]): string[] {
  const found = new Set<string>();
  for (const { words, cwd } of projectCommands(workspace, hookFiles)) {
    for (const raw of words) {
      const word = expand(raw.includes('=') && raw.startsWith('-') ? raw.slice(raw.indexOf('=') + 1) : raw, workspace);
      if (!word || word.startsWith('-') || /^[a-z]+:\/\//i.test(word)) continue;
      const abs = path.resolve(cwd, word);
      if (!inside(abs, workspace)) continue;
      if (!isFile(abs)) continue;
      found.add(path.relative(workspace, abs).split(path.sep).join('/'));
    }
  }
  return [...found].sort();
}
