/**
 * A custom command's `allowed-tools` (Claude Code's front matter: `Bash(git add:*)`, `Read`,
 * `Edit`, `mcp__srv__tool`, or ours: `exec(git add *)`) as this turn's allowances. They answer
 * the runner's question for an L1 step whose exact rule they cover; they never reach an L2 step
 * (it is refused before any question) nor one a permission rule asks about.
 */
import { parseRule, ruleMatches, isRuleProblem, type PermissionRule, type PermissionSubject } from '@holic512/tool-runner';
import { mapClaudeRule } from './claude-names';

/** How a tool's rule argument is written: paths for fs.*, hosts for http.get, words otherwise. */
function argKind(tool: string): 'path' | 'domain' | 'words' {
  if (tool.startsWith('fs.') || tool === 'config.json_patch') return 'path';
  if (tool === 'http.get') return 'domain';
  return 'words';
}

/** `allowed-tools` entries (Claude Code's names or ours) as our rules, and what could not be used. */
export function readAllowedTools(entries: readonly string[], source: string): { rules: PermissionRule[]; skipped: string[] } {
  const rules: PermissionRule[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    const mapped = /^[A-Z]|^mcp__/.test(entry.trim()) ? mapClaudeRule(entry) : { rules: [entry.trim()] };
    if ('skip' in mapped) {
      skipped.push(`${entry} (${mapped.skip})`);
      continue;
    }
    for (const text of mapped.rules) {
      const rule = parseRule(text, 'allow', source, argKind);
      if (isRuleProblem(rule)) skipped.push(`${entry} (${rule.error})`);
      else rules.push(rule);
    }
  }
  return { rules, skipped };
}

/** The subject of an exact rule as the runner offers it (`exec(npm test)`, `fs.edit(src/a.ts)`). */
function subjectOf(exact: string): { tool: string; subject: PermissionSubject } | undefined {
  const m = /^([^(]+)(?:\((.*)\))?$/s.exec(exact.trim());
  if (!m) return undefined;
  const tool = m[1];
  const arg = m[2];
  if (arg === undefined) return { tool, subject: { kind: 'none' } };
  const kind = argKind(tool);
  if (kind === 'path') return { tool, subject: { kind: 'path', path: arg } };
  if (kind === 'domain') return { tool, subject: { kind: 'url', host: arg.replace(/^domain:/, '') } };
  return { tool, subject: { kind: 'command', words: arg.split(/\s+/) } };
}

/** Whether the turn's allowances cover the step whose exact rule is `exact`. */
export function turnAllows(rules: readonly PermissionRule[], exact: string): boolean {
  const s = subjectOf(exact);
  if (!s) return false;
  return rules.some((r) => ruleMatches(r, s.tool, s.subject));
}
