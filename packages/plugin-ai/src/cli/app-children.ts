/**
 * The children of `agent.run`, built like the parent (same model client, policy, rules, sandbox,
 * hooks) with their own prompts: a plain child gets the parent's tools but agent.run; a named
 * agent (an agent file) gets its body as instructions, only the tools it lists that its parent may
 * use, and its model (a tier or a profile).
 */
import type { AnyToolDefinition, ToolRegistry } from '@holic512/tool-runner';
import { Agent, type AgentConfirmFn, type AgentDeps } from '../agent/agent';
import { labelledConfirm, runChildAgent, type ChildRequest, type ChildSpawner } from '../agent/agent-children';
import type { DynamicTools } from '../agent/agent-core';
import type { AiConfig } from '../config/config';
import { agentMayUse, type AgentFile, type NamedDefinition } from '../extensions/agents';
import { modelChoice } from '../extensions/command-run';

/** What a child is told beside the usual system prompt (agent.run). */
export const CHILD_NOTE =
  'You are a helper agent started by another agent for one task. You see only that task, not its conversation. Work on it with the tools (you cannot start helper agents), then answer with a concise, self-contained report of what you found or did: the other agent reads only your final answer.';

/** What building children needs of the app's wiring (createAppAgent). */
export interface ChildContext {
  parent: Agent;
  config: AiConfig;
  agentOptions: { config: AiConfig; cwd: string; lang: 'zh' | 'en' };
  /** What each child's Agent shares with its parent's: the model, the hooks, the audit log, the clock, the checks after edits. */
  shared: Pick<AgentDeps, 'llm' | 'hooks' | 'projectDir' | 'hookEnv' | 'auditFile' | 'now' | 'checks'>;
  /** The parent's extra tools but agent.run (skill.load when there are skills). */
  extraTools: readonly AnyToolDefinition[];
  /** A registry of the built-ins and `extra`, limited by `only` (undefined when a test gives the runner). */
  registryOf(extra: readonly AnyToolDefinition[], only?: Only): ToolRegistry | undefined;
  /** `createRunner` for a registry (or the extra tools to build one from). */
  runnerFor(tools: ToolRegistry | undefined, extra: readonly AnyToolDefinition[]): AgentDeps['createRunner'];
  /** The system prompts for these tools (a filter leaves out what the child may not use), with a note after them. */
  prompts(
    extra: readonly unknown[],
    note: string,
    only?: (def: NamedDefinition) => boolean,
  ): { systemPrompt: string; toolsSystemPrompt: string };
  createRunner?: AgentDeps['createRunner'];
  confirm?: AgentConfirmFn;
  mcp?: DynamicTools;
  /** The named agents (agent files of the user and of a trusted project). */
  agents: readonly AgentFile[];
  /** The llm-base profiles an agent's `model` may name. */
  profiles(): readonly string[];
  /** Traces follow each child (telemetry): the returned function stops following it. */
  follow?(child: Agent): (() => void) | undefined;
}

/** Which tools a registry keeps, with why the others are left out. */
export interface Only {
  only(def: NamedDefinition): boolean;
  note: string;
}

/**
 * What a named agent may use: what it lists (ours or Claude Code's names; every tool when it lists
 * none), and only what its parent may use — never agent.run; mcp.describe with any MCP tool it lists.
 */
export function agentTools(agent: AgentFile): Only {
  const listsMcp = (agent.tools ?? []).some((t) => /^mcp(__|\.)/.test(t));
  return {
    only: (def) => def.name !== 'agent.run' && (agentMayUse(agent, def) || (def.name === 'mcp.describe' && (listsMcp || !agent.tools))),
    note: `agent "${agent.name}" may use only the tools its file lists (${agent.file})`,
  };
}

/** A child's view of the session's MCP tools: only those it may use, and their index only when it may use one. */
function limitedTools(dynamic: DynamicTools, limit: Only): DynamicTools {
  return {
    settle: (ms, signal) => dynamic.settle(ms, signal),
    current() {
      const now = dynamic.current();
      const tools = now.tools.filter((def) => limit.only(def as NamedDefinition));
      const useful = tools.some((def) => (def as NamedDefinition).name !== 'mcp.describe');
      return { key: `${now.key}\0${tools.length}`, tools, prompt: useful ? now.prompt : '' };
    },
    ...(dynamic.failures ? { failures: () => dynamic.failures!() } : {}),
  };
}

/** The model a named agent asks: its `model` as a tier or a profile; `inherit` or none, the parent's. */
function childModel(ctx: ChildContext, agent: AgentFile | undefined): { mode: 'low' | 'high'; profile: string | null } {
  const inherited = { mode: ctx.parent.getMode(), profile: ctx.parent.getProfile() };
  if (!agent?.model || agent.model === 'inherit') return inherited;
  const choice = modelChoice(agent.model, ctx.profiles());
  if (!choice) return inherited;
  return 'mode' in choice ? { ...inherited, mode: choice.mode } : { ...inherited, profile: choice.profile };
}

/** The `run` of agent.run's spawner: a fresh child per call, disposed when it answered. */
export function childSpawner(ctx: ChildContext): ChildSpawner {
  const confirmFor = labelledConfirm(ctx.confirm);
  const plain: { tools?: ToolRegistry | null; prompts?: ReturnType<ChildContext['prompts']> } = {};
  const run: ChildSpawner['run'] = (request: ChildRequest, label, signal, onProgress) => {
    const named = request.agent ? ctx.agents.find((a) => a.name === request.agent) : undefined;
    let tools: ToolRegistry | undefined;
    let prompts: ReturnType<ChildContext['prompts']>;
    let dynamic = ctx.mcp;
    if (named) {
      const limit = agentTools(named);
      tools = ctx.registryOf(ctx.extraTools, limit);
      // Its body is its instructions: in its own requests only, never in the parent's or another child's.
      prompts = ctx.prompts(
        ctx.extraTools,
        `${CHILD_NOTE}\n\nYou are the agent "${named.name}". Your instructions:\n${named.prompt}`,
        limit.only,
      );
      if (dynamic) dynamic = limitedTools(dynamic, limit);
    } else {
      if (plain.tools === undefined) plain.tools = ctx.registryOf(ctx.extraTools) ?? null;
      plain.prompts ??= ctx.prompts(ctx.extraTools, CHILD_NOTE);
      tools = plain.tools ?? undefined;
      prompts = plain.prompts;
    }
    const child = new Agent(
      { ...ctx.agentOptions, ...prompts, ...childModel(ctx, named), maxAutoSteps: ctx.config.agents.maxSteps },
      {
        // A child's edits are checked too, with the session's answers (the shared `checks`).
        ...ctx.shared,
        createRunner: ctx.createRunner ?? ctx.runnerFor(tools, ctx.extraTools),
        ...(tools ? { tools } : {}),
        confirm: confirmFor(label),
        ...(dynamic ? { dynamicTools: dynamic } : {}),
      },
    );
    const unfollow = ctx.follow?.(child);
    return runChildAgent(ctx.parent, child, request.task, request.mode, signal, onProgress).finally(() => unfollow?.());
  };
  return { maxParallel: ctx.config.agents.maxParallel, agents: ctx.agents.map((a) => a.name), run };
}
