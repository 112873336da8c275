/**
 * What createAppAgent reads for named agents and checks after edits (issue #46), and the system
 * prompts of the agent and its children: the user's files always, a project's only when the
 * folder is trusted.
 */
import { redact } from '@holic512/shared';
import type { SessionChecks } from '../agent/checks-run';
import type { AiConfig } from '../config/config';
import type { ProjectRules } from '../config/project-rules';
import { buildSystemPrompt, builtinTools, type Environment } from '../context/prompt';
import {
  agentIndex,
  discoverAgents,
  unknownAgentTools,
  type AgentFile,
  type AgentProblem,
  type NamedDefinition,
} from '../extensions/agents';
import { readChecks, type Check, type CheckProblem } from '../extensions/checks';
import { extensionRoots } from '../extensions/folders';
import { claudeNamedTools } from '../extensions/claude-names';
import { withUserPrompt, type UserPrompt } from './system-prompt';

export interface AgentsAndChecks {
  agents: AgentFile[];
  /** Files that could not be used, and tools an agent lists that no tool here answers to (it goes on without them). */
  agentProblems: AgentProblem[];
  checks: Check[];
  checkProblems: CheckProblem[];
  /** The Agent's `checks` dependency (absent without checks), its answers shared with the children. */
  sessionChecks: { checks?: SessionChecks };
}

/** The named agents and the checks of a session in `projectRoot`. */
export function readAgentsAndChecks(a: {
  slothtoolHome: string;
  userHome: string;
  projectRoot: string;
  ownHome: boolean;
  trusted: boolean;
  config: AiConfig;
  configFile: string;
  projectRules: ProjectRules;
}): AgentsAndChecks {
  const found = discoverAgents(
    extensionRoots('agents', a.slothtoolHome, a.projectRoot, a.userHome, a.ownHome).filter((r) => r.scope === 'user' || a.trusted),
  );
  const agentProblems = [
    ...found.problems,
    ...(found.agents.some((x) => x.tools) ? unknownAgentTools(found.agents, claudeNamedTools()) : []),
  ];
  // ai.json's checks were checked with it; a trusted project's settings file's are checked here.
  const project =
    a.projectRules.checks !== undefined ? readChecks(a.projectRules.checks, a.projectRules.file ?? '') : { checks: [], problems: [] };
  const checks: Check[] = [...(a.config.checks ?? []).map((c) => ({ ...c, source: a.configFile })), ...project.checks];
  const sessionChecks = checks.length
    ? { checks: { list: checks, workspace: a.projectRoot, answers: new Map<string, 'yes' | 'no'>() } }
    : {};
  return { agents: found.agents, agentProblems, checks, checkProblems: project.problems, sessionChecks };
}

/**
 * The system prompts for a set of tools (the built-ins and `extra`), with a note after them: the
 * parent's lists the agents; a child's (a note, or a filter of what it may use) does not, nor the
 * skills when it may not load them. The user's system prompt file and appended text go in each.
 * They carry the user's text (memory files, skills, agents, a system prompt file, appended text),
 * which leaves the process with every request: each prompt passes the redaction gate as it is made,
 * so what is sent, recorded and compared on `--continue` is the same masked text.
 */
export function promptsFor(environment: Environment, agents: readonly AgentFile[], user: UserPrompt = {}) {
  return (
    extra: readonly unknown[],
    note?: string,
    only?: (def: NamedDefinition) => boolean,
  ): { systemPrompt: string; toolsSystemPrompt: string } => {
    const tools = [...builtinTools(), ...(extra as unknown as ReturnType<typeof builtinTools>)].filter((def) => !only || only(def));
    const env: Environment = only
      ? { ...environment, ...(tools.some((d) => d.name === 'skill.load') ? {} : { skills: undefined }) }
      : { ...environment, ...(note ? {} : { agents: agentIndex(agents) }) };
    const withNote = (p: string) => redact(withUserPrompt(note ? `${p}\n\n${note}` : p, user));
    // With native tool calls (llm-base transport `tools`) the tools travel as definitions instead.
    return { systemPrompt: withNote(buildSystemPrompt(env, tools)), toolsSystemPrompt: withNote(buildSystemPrompt(env, tools, 'tools')) };
  };
}
