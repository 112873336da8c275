/**
 * Agent files: named helper agents, as Claude Code, gemini-cli and opencode define them — a
 * Markdown file whose front matter says `name`, `description`, `tools` and `model`, and whose body
 * is the agent's system prompt. Read from the user's `~/.slothtool/agents/` and `~/.claude/agents/`,
 * and from a trusted project's `.slothtool/agents/` and `.claude/agents/`. The parent's prompt
 * carries only the index (name + description); `agent.run` with `agent: "<name>"` starts a child
 * whose requests carry that body, limited to the tools it lists (never more than its parent's).
 */
import fs = require('fs');
import path = require('path');
import { folderEntries, type ExtensionRoot } from './folders';
import { frontMatterIndex, parseFrontMatter } from './front-matter';
import type { MessageKey } from '../i18n';

/** One agent of an agent file. */
export interface AgentFile {
  name: string;
  description: string;
  /** The tools it may use, as written (ours or Claude Code's names); undefined: every tool its parent may use. */
  tools?: string[];
  /** `low` / `high`, an llm-base profile, or Claude Code's `haiku` / `sonnet` / `opus` / `inherit`, as written. */
  model?: string;
  /** The body: its system prompt. */
  prompt: string;
  file: string;
  scope: 'user' | 'project';
  /** The folder it came from, as `/agents` shows it (`~/.claude/agents`, `.slothtool/agents`). */
  origin: string;
}

/** Why an agent file, or a part of one, cannot be used: a message of ai.json and its values. */
export interface AgentFault {
  key: MessageKey;
  vars?: Record<string, string | number>;
}

/** An agent file that could not be used, or a part of one that was left out, with why. */
export interface AgentProblem extends AgentFault {
  file: string;
}

/** A folder of agent files. */
export type AgentRoot = ExtensionRoot;

/** The project's agent folders, relative to it (hashed into its trust). */
export const PROJECT_AGENT_DIRS = ['.claude/agents', '.slothtool/agents'];

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MAX_BYTES = 256 * 1024;
const MAX_DESCRIPTION = 1024;
const MAX_TOOLS = 64;

/** `tools` as written: a comma-separated list, or a YAML list of strings. */
function toolList(value: unknown): { tools?: string[] } | AgentFault {
  if (value === undefined || value === null) return {};
  const words =
    typeof value === 'string'
      ? value.split(/[,\n]+/)
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? (value as string[])
        : undefined;
  if (!words) return { key: 'agentBadTools' };
  const tools = [...new Set(words.map((w) => w.trim()).filter(Boolean))];
  if (tools.length > MAX_TOOLS) return { key: 'agentTooManyTools', vars: { n: MAX_TOOLS } };
  // `*` is every tool, as leaving it out is.
  return tools.includes('*') ? {} : { tools };
}

/** One agent file read, or why it cannot be used. */
export function readAgentFile(file: string, root: AgentRoot): AgentFile | AgentFault {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st || !st.isFile()) return { key: 'agentNotFile' };
  if (st.size > MAX_BYTES) return { key: 'agentTooLarge', vars: { kb: MAX_BYTES / 1024 } };
  const doc = parseFrontMatter(fs.readFileSync(file, 'utf8'));
  if (doc.error) return { key: 'agentFrontMatter', vars: { detail: doc.error } };
  const d = doc.data;
  if (!Object.keys(d).length) return { key: 'agentNoFrontMatter' };
  const name = typeof d.name === 'string' ? d.name.trim() : '';
  if (!NAME.test(name)) return { key: 'agentBadName', vars: { found: JSON.stringify(d.name ?? null) } };
  const description = typeof d.description === 'string' ? d.description.replace(/\s+/g, ' ').trim() : '';
  if (!description) return { key: 'agentNoDescription' };
  const tools = toolList(d.tools);
  if ('key' in tools) return tools;
  if (d.model !== undefined && (typeof d.model !== 'string' || !d.model.trim())) return { key: 'agentBadModel' };
  const prompt = doc.body.trim();
  if (!prompt) return { key: 'agentNoBody' };
  return {
    name,
    description: description.slice(0, MAX_DESCRIPTION),
    ...tools,
    ...(typeof d.model === 'string' ? { model: d.model.trim() } : {}),
    prompt,
    file,
    scope: root.scope,
    origin: root.origin,
  };
}

/** Every agent under the roots (a later root wins a name). Never throws: what cannot be used comes back as a problem naming its file. */
export function discoverAgents(roots: readonly AgentRoot[]): { agents: AgentFile[]; problems: AgentProblem[] } {
  const byName = new Map<string, AgentFile>();
  const problems: AgentProblem[] = [];
  for (const root of roots) {
    for (const e of folderEntries(root.dir)) {
      if (!e.name.toLowerCase().endsWith('.md') || e.isDirectory()) continue;
      const file = path.join(root.dir, e.name);
      let read: AgentFile | AgentFault;
      try {
        read = readAgentFile(file, root);
      } catch (err) {
        read = { key: 'agentUnreadable', vars: { detail: err instanceof Error ? err.message.split('\n')[0] : String(err) } };
      }
      if ('key' in read) problems.push({ file, ...read });
      else byName.set(read.name, read);
    }
  }
  return { agents: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}

/** The index the parent's system prompt carries: one line per agent (never a body). */
export function agentIndex(agents: readonly AgentFile[]): string {
  return frontMatterIndex(
    'Agents (start one with {"tool":"agent.run","agent":"<name>","task":"<the whole task>"} when the task matches its description; it sees only the task; "mode":"default" if it must change files):',
    agents,
  );
}

/** What a tool is known by, for matching an agent's `tools`: its own name and its Claude Code names. */
export interface NamedDefinition {
  name: string;
  claude?: { names: readonly string[] };
}

/**
 * Whether an agent may use a tool: it is one of the tools the agent lists (by our name or a Claude
 * Code name the definition declares), or the agent lists none (every tool). The caller also
 * requires that its parent may use it: the child gets the intersection, never more.
 */
export function agentMayUse(agent: Pick<AgentFile, 'tools'>, def: NamedDefinition): boolean {
  if (!agent.tools) return true;
  return agent.tools.includes(def.name) || (def.claude?.names ?? []).some((n) => agent.tools!.includes(n));
}

/** The names in agents' `tools` that no tool here answers to, each a problem naming its file (said at start; the agent goes on without them). */
export function unknownAgentTools(agents: readonly AgentFile[], defs: readonly NamedDefinition[]): AgentProblem[] {
  // MCP tools join later: a name in their form is not checked here.
  return agents.flatMap((a) =>
    (a.tools ?? [])
      .filter((t) => !/^mcp(__|\.)/.test(t) && !defs.some((d) => agentMayUse({ tools: [t] }, d)))
      .map((tool) => ({ file: a.file, key: 'agentUnknownTool' as const, vars: { tool } })),
  );
}
