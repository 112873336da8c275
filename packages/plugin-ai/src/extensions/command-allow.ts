/**
 * A custom command's `allowed-tools` (Claude Code's front matter: `Bash(git add:*)`, `Read`,
 * `Edit`, `mcp__srv__tool`, or ours: `exec(git add *)`) as this turn's allowances. They answer
 * the runner's question for an L1 step whose exact rule they cover; they never reach an L2 step
 * (it is refused before any question) nor one a permission rule asks about.
 */
import { parseRule, ruleMatches, isRuleProblem, type PermissionRule, type PermissionSubject } from '@holic512/tool-runner';
import { argKindOf, claudeNamedTools, mapClaudeRule, type NamedTool } from './claude-names';

/**
 * `allowed-tools` entries (Claude Code's names or ours) as our rules, and what could not be used.
 * `tools`: whose names and rule arguments they are read by (each tool's own definition says).
 */
export function readAllowedTools(
  entries: readonly string[],
  source: string,
  tools: readonly NamedTool[] = claudeNamedTools(),
): { rules: PermissionRule[]; skipped: string[] } {
  const rules: PermissionRule[] = [];
  const skipped: string[] = [];
  const argKind = (tool: string) => argKindOf(tool, tools);
  for (const entry of entries) {
    // Claude Code's tool names are capitalised (`Bash`, `Read`) or `mcp__…`; ours are dotted lower case.
    const mapped = /^[A-Z]|^mcp__/.test(entry.trim()) ? mapClaudeRule(entry, tools) : { rules: [entry.trim()] };
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
function subjectOf(exact: string, tools: readonly NamedTool[]): { tool: string; subject: PermissionSubject } | undefined {
  const m = /^([^(]+)(?:\((.*)\))?$/s.exec(exact.trim());
  if (!m) return undefined;
  const tool = m[1];
  const arg = m[2];
  if (arg === undefined) return { tool, subject: { kind: 'none' } };
  const kind = argKindOf(tool, tools);
  if (kind === 'path') return { tool, subject: { kind: 'path', path: arg } };
  if (kind === 'domain') return { tool, subject: { kind: 'url', host: arg.replace(/^domain:/, '') } };
  if (kind === 'name') return { tool, subject: { kind: 'name', name: arg } };
  return { tool, subject: { kind: 'command', words: arg.split(/\s+/) } };
}

/** Whether the turn's allowances cover the step whose exact rule is `exact`. */
export function turnAllows(rules: readonly PermissionRule[], exact: string, tools: readonly NamedTool[] = claudeNamedTools()): boolean {
  const s = subjectOf(exact, tools);
  if (!s) return false;
  return rules.some((r) => ruleMatches(r, s.tool, s.subject));
}
