/**
 * Claude Code's names beside ours, read from the tools' own definitions (ToolDefinition.claude:
 * `Bash` on exec and proc.start, `Read` on fs.read, `mcp__srv__tool` on an MCP tool …): permission
 * rules in Claude Code's syntax (`Bash(npm run test:*)`), a command's `allowed-tools`, and the
 * run mode as `permission_mode`. No tool is named here: a tool that declares a Claude Code name
 * is found by it, and one that declares none is known by its own name only.
 */
import type { ArgKind, ClaudeCodeForm } from '@holic512/tool-runner';
import { agentRunNames } from '../agent/agent-children';
import { skillLoadNames } from './skill-tool';

/** What rules and Claude Code's names need of a tool: its name, how a rule writes its argument, its Claude Code form. */
export interface NamedTool {
  name: string;
  permission: { arg: ArgKind };
  claude?: ClaudeCodeForm<never>;
}

/**
 * The tools rules and commands may name before a session's registry exists: tool-runner's
 * built-ins, then the definitions plugin-ai adds (agent.run, skill.load) by their exported names.
 * A built-in tool that declares a Claude Code name needs nothing here; a new tool of plugin-ai's
 * own joins this list with its definition's names.
 */
export function claudeNamedTools(): readonly NamedTool[] {
  const { tools } = require('@holic512/tool-runner') as { tools: readonly NamedTool[] };
  return [...tools, agentRunNames as unknown as NamedTool, skillLoadNames as unknown as NamedTool];
}

/** How the rules of the tool named `tool` write its argument (paths, hosts, words, names). */
export function argKindOf(tool: string, tools: readonly NamedTool[] = claudeNamedTools()): ArgKind {
  return tools.find((t) => t.name === tool)?.permission.arg ?? 'words';
}

/** Our run mode in Claude Code's words (`permission_mode` on hook stdin). */
export function claudePermissionMode(mode: string): string {
  return (
    ({ default: 'default', plan: 'plan', 'auto-edit': 'acceptEdits', yolo: 'bypassPermissions' } as Record<string, string>)[mode] ?? mode
  );
}

/**
 * A Claude Code permission rule as ours, one per tool that declares the name, or why it has none:
 * `Bash(npm run test:*)` → `exec(npm run test *)` and `proc.start(npm run test *)` (a command runs
 * either way here), `Read(./src/**)` → `fs.read(src/**)`, `MultiEdit` → `fs.edit`,
 * `WebFetch(domain:x)` → `http.get(domain:x)`, `mcp__srv__tool` → `mcp.srv.tool`, `mcp__srv` → `mcp.srv.*`.
 */
export function mapClaudeRule(rule: string, tools: readonly NamedTool[] = claudeNamedTools()): { rules: string[] } | { skip: string } {
  const text = rule.trim();
  // mcp/tools.ts builds a schema when loaded: only a rule that may name an MCP tool loads it (a start reads rules).
  const mcp = text.startsWith('mcp__') ? (require('../mcp/tools') as typeof import('../mcp/tools')).mcpRuleFromClaude(text) : undefined;
  if (mcp) return { rules: [mcp] };
  const m = /^([A-Za-z]+)(?:\((.*)\))?$/s.exec(text);
  if (!m) return { skip: 'not a rule of the form Tool or Tool(argument)' };
  const { toolsNamed, claudeRuleArgument } = require('@holic512/tool-runner') as typeof import('@holic512/tool-runner');
  const named = toolsNamed(m[1], tools as never) as unknown as NamedTool[];
  if (!named.length) return { skip: `Claude Code's tool "${m[1]}" has no counterpart here` };
  const arg = m[2]?.trim();
  if (arg === undefined || arg === '' || arg === '*') return { rules: named.map((t) => t.name) };
  const rules: string[] = [];
  let skip: string | undefined;
  for (const t of named) {
    const mapped = claudeRuleArgument(t.permission.arg, arg);
    if ('skip' in mapped) skip ??= mapped.skip;
    else rules.push(`${t.name}(${mapped.arg})`);
  }
  return rules.length ? { rules } : { skip: skip ?? 'no counterpart here' };
}
