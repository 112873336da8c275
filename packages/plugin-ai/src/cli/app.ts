import fs = require('fs');
import os = require('os');
import { Agent, type AgentConfirmFn, type AgentDeps } from '../agent/agent';
import { loadConfig, type AiConfig } from '../config/config';
import { aiPaths, slothtoolHome, type AiPaths } from '../home';
import type { Lang } from '../i18n';
import { loadLlmBase, type LlmClient } from '../config/llm-base';
import { readProjectContext, type LoadedInstructions, type MemoryProblem, type ProjectContext } from '../context/project-context';
import type { ProjectRules } from '../config/project-rules';
import { readRegistry, type Registry } from '../config/registry';
import type { Policy, StepRunner } from '../agent/runner-types';
import { SessionStore } from '../sessions/sessions';
import { knownSecretsDropped, registerKnownSecrets } from '../config/known-secrets';
import { discoverSkills, skillIndex, skillRoots, type Skill } from '../extensions/skills';
import { skillLoadTool } from '../extensions/skill-tool';
import { profileNames } from '../extensions/command-run';
import { readHooks, type HookCommandConfig, type HookProblem } from '../extensions/hooks';
import { discoverCommands, type CustomCommand } from '../extensions/commands';
import { extensionRoots } from '../extensions/folders';
import { claudeJsonServers } from '../extensions/claude-settings';
import { sessionRules, type SessionRules } from '../config/session-policy';
import { COMMANDS, OVERRIDABLE } from '../interactive/commands';
import { isOwnHome, type ProjectExtras, type TrustState } from '../extensions/trust';
import type { McpSession } from '../mcp/session';
import type { McpConfigProblem } from '../mcp/config';
import { VERSION } from '../version';
import { agentRunTool, type ChildSpawner } from '../agent/agent-children';
import type { AgentFile, AgentProblem } from '../extensions/agents';
import { childSpawner, type Only } from './app-children';
import { promptsFor, readAgentsAndChecks } from './app-extensions';
import type { Check, CheckProblem } from '../extensions/checks';
import path = require('path');
import { readUserPrompt, type UserPrompt } from './system-prompt';
import { loadToolRunner, runnerFactory } from './app-runner';

export { loadToolRunner } from './app-runner';
import { startTelemetry, type AppTelemetry } from '../telemetry';
import { mcpSession } from '../lazy-modules';
import type { TelemetryProblem } from '../telemetry/settings';
import type { AnyToolDefinition, FileAccess } from '@holic512/tool-runner';

/** Options of createAppAgent: the real wiring of config, registry, llm-base and tool-runner. */
export interface AppAgentOptions {
  /** Environment (SLOTHTOOL_HOME / HOME); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  lang: Lang;
  mode?: 'low' | 'high';
  profile?: string | null;
  maxAutoSteps?: number;
  /** Asked for L1 steps (decline everything when absent). */
  confirm?: AgentConfirmFn;
  /** No person answers `confirm` (`ai -p`): a step the sandbox stopped is never offered again. */
  unattended?: boolean;
  /** `--system-prompt-file`: its text in place of the project's instructions (cli/system-prompt.ts). */
  systemPromptFile?: string;
  /** `--append-system-prompt`: text after the system prompt. */
  appendSystemPrompt?: string;
  /** MCP servers the caller brings (an editor's, over ACP), in Claude Code's `mcpServers` shape:
   * started as the user's own, after ai.json's (a name ai.json has keeps ai.json's). */
  mcpServers?: { raw: unknown; source: string };
  /** fs.read / fs.edit / fs.write through the caller (an editor's buffers over ACP). */
  fileAccess?: FileAccess;
  /** stdin and stdout carry a protocol (ACP): no step may take them over as a terminal. */
  noTerminal?: boolean;
  /** For tests: replace the model or the runner. */
  llm?: LlmClient;
  createRunner?: AgentDeps['createRunner'];
  now?: () => Date;
}

export interface AppAgent {
  agent: Agent;
  config: AiConfig;
  paths: AiPaths;
  registry: Registry;
  /** The memory files in the system prompt, the user's then the project's (`/memory` lists them). */
  memory: LoadedInstructions[];
  /** `@path` imports of memory files that were not read, with why (said at start). */
  memoryProblems: MemoryProblem[];
  /** The environment hooks run with (Claude Code's settings' `env` applied), and their `CLAUDE_PROJECT_DIR`. */
  hookEnv: NodeJS.ProcessEnv;
  projectDir: string;
  /** The project's own permission rules and whether its folder is trusted. */
  projectRules: ProjectRules;
  /** The rule sets of files other than ai.json (the project's, Claude Code's), each with its file (`/permissions`). */
  otherRules: SessionRules['otherRules'];
  /** The skills found (`/skills`); their index is in the system prompt. */
  skills: Skill[];
  /** The named agents (`/agents`): the user's, and a trusted project's; their index is in the system prompt. */
  agents: AgentFile[];
  /** Agent files that could not be used, each naming its file (said at start). */
  agentProblems: AgentProblem[];
  /** Checks after edits (`/checks`): ai.json's, then a trusted project's. */
  checks: Check[];
  /** `checks` entries that could not be used, with why (said at start). */
  checkProblems: CheckProblem[];
  /** The session's hooks, each with the file it came from (`/hooks`). */
  hooks: HookCommandConfig[];
  /** Hook entries that could not be used, with why (said at start). */
  hookProblems: HookProblem[];
  /** What of Claude Code's settings could not be used (a rule without a counterpart, an env a project may not set), with why. */
  claudeProblems: Array<{ source: string; error: string }>;
  /** Custom slash commands (`~/.slothtool/commands`, `.slothtool/commands`) for `ai -i`. */
  commands: CustomCommand[];
  /** What the project folder brings that runs code or changes policy, and whether it is trusted. */
  project: { extras: ProjectExtras; trust: TrustState };
  /** The session's MCP servers (starting in the background); undefined when none is configured. */
  mcp?: McpSession;
  /** MCP entries that could not be used, with why (said at start). */
  mcpProblems: McpConfigProblem[];
  /** The model client (its `service` manages a local Ollama: health, warm-up, pull). */
  llm: LlmClient;
  /** The tools replies are parsed against and steps judged with (MCP tools join it): an edge shows steps by them. */
  tools?: StepRunner['tools'];
  /** OpenTelemetry of the run, when it is on (telemetry/index.ts); the mode awaits its shutdown() at the end. */
  telemetry?: AppTelemetry;
  /** Telemetry asked for but not possible (said at start). */
  telemetryProblem?: TelemetryProblem;
  /** Secret values the redaction gate could not take to look for by value (said at start); absent when none. */
  knownSecretsDropped?: number;
}

export { policyOf } from '../config/session-policy';

/** Build an Agent with the real dependencies. Throws AiError (config, registry, llm-base). */
export function createAppAgent(options: AppAgentOptions): AppAgent {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const paths = aiPaths(slothtoolHome(env));
  registerKnownSecrets(slothtoolHome(env), env, cwd);
  const config = loadConfig(paths.config);
  const registry = readRegistry(paths.registry);
  const llm = options.llm ?? loadLlmBase(registry).client;
  const brought = readSessionExtensions(options, { env, cwd, paths, config });
  const { agent, tools, otel } = wireAgent(options, { env, cwd, paths, config, registry, llm }, brought);
  const { rules, projectContext, hookReads, claudeServers, mcp } = brought;
  const { projectRoot, userHome, claude } = rules;
  return {
    agent,
    config,
    paths,
    registry,
    memory: projectContext?.files ?? [],
    memoryProblems: projectContext?.problems ?? [],
    hookEnv: brought.runEnv,
    projectDir: projectRoot,
    projectRules: rules.projectRules,
    otherRules: rules.otherRules,
    skills: brought.skills,
    agents: brought.agents,
    agentProblems: brought.agentProblems,
    checks: brought.checks,
    checkProblems: brought.checkProblems,
    hooks: brought.hooks,
    hookProblems: hookReads.flatMap((r) => r.problems),
    claudeProblems: claude.problems,
    commands: customCommands(slothtoolHome(env), projectRoot, userHome, paths.home, brought.skills),
    project: rules.project,
    ...(mcp && !mcp.empty ? { mcp } : {}),
    mcpProblems: [...(mcp?.problems ?? []), ...claudeServers.problems.map((p) => ({ name: '*', ...p }))],
    llm,
    ...edgeParts(tools, otel),
    ...knownSecretsDropped(),
  };
}

/** Where a session starts: its environment, folders, ai.json. */
interface SessionBase {
  env: NodeJS.ProcessEnv;
  cwd: string;
  paths: AiPaths;
  config: AiConfig;
}

/** What the session brings beside the agent: rules, memory, hooks, skills, MCP servers, named agents and checks. */
type SessionExtensions = ReturnType<typeof readSessionExtensions>;

/**
 * The user's files always, a trusted project's too, Claude Code's where it keeps them: permission
 * rules (deny always, allow / ask once the folder is trusted), memory, hooks, skills, MCP servers
 * (connecting in the background), named agents and checks after edits.
 */
function readSessionExtensions(options: AppAgentOptions, { env, cwd, paths, config }: SessionBase) {
  // Claude Code's files where it keeps them (user < project < local), the project's under trust.
  const rules = sessionRules(config, paths, cwd, env);
  const { projectRoot, userHome, projectRules, claude } = rules;
  const trusted = rules.project.trust === 'trusted';
  const projectContext = readMemory(config, paths.home, userHome, cwd, rules.policy);
  const claudeServers = claudeJsonServers(userHome, projectRoot, cwd, path.join(paths.home, 'ai', 'claude-json-cache.json'));
  const runEnv = Object.keys(claude.env).length ? { ...env, ...claude.env } : env;
  // Claude Code's `env` reaches every step, hook and server: its secret values are known values too.
  if (runEnv !== env) registerKnownSecrets(slothtoolHome(env), claude.env);
  // Hooks: the user's (ai.json, ~/.claude/settings.json), and a trusted project's (.slothtool/settings.json, .claude/settings*.json);
  // those of Claude Code's files read Claude Code's stdin exactly.
  const hookReads = [
    readHooks(config.hooks, paths.config),
    ...(projectRules.hooks ? [readHooks(projectRules.hooks, projectRules.file ?? '')] : []),
    ...claude.hooks.map((h) => readHooks(h.raw, h.source, 'claude')),
  ];
  // Skills: the index goes into the prompt, a body only when the model loads one (skill.load).
  // A project's own skills only in a trusted folder (their scripts are the project's code).
  const { skills } = discoverSkills(skillRoots(slothtoolHome(env), projectRoot, userHome).filter((r) => r.scope === 'user' || trusted));
  // MCP servers: the user's (ai.json, ~/.claude.json), and a trusted project's `.mcp.json`; they connect in the background.
  const mcp = startMcp({
    user: config.mcpServers,
    userFile: paths.config,
    more: [...(options.mcpServers ? [options.mcpServers] : []), ...claudeServers.sources],
    projectRoot,
    projectTrusted: trusted,
    env: runEnv,
    serverEnv: claude.env,
    cwd,
  });
  // Named agents (agent files; only their index is in the prompt) and checks after edits: the user's, and a trusted project's.
  const agentsAndChecks = readAgentsAndChecks({
    slothtoolHome: slothtoolHome(env),
    userHome,
    projectRoot,
    ownHome: isOwnHome(projectRoot, paths.home),
    trusted,
    config,
    configFile: paths.config,
    projectRules,
  });
  const hooks = hookReads.flatMap((r) => r.hooks);
  return { rules, projectContext, claudeServers, runEnv, hookReads, hooks, skills, mcp, ...agentsAndChecks };
}

/** The system prompts' environment block: where, on what, with which plugins and memory. */
function promptEnvironment(options: AppAgentOptions, cwd: string, registry: Registry, brought: SessionExtensions, userPrompt: UserPrompt) {
  return {
    cwd,
    os: `${os.platform()} ${os.release()} (${os.arch()})`,
    plugins: Object.keys(registry.plugins).sort(),
    lang: options.lang,
    projectContext: userPrompt.file ? undefined : brought.projectContext, // a system prompt file takes its place
    ...(brought.skills.length ? { skills: skillIndex(brought.skills) } : {}),
  };
}

/**
 * The agent with its tools, runner, store, MCP tools and telemetry, and its children (agent.run):
 * a child gets the same tools but agent.run (a named agent, those it lists), and its own prompts.
 */
function wireAgent(
  options: AppAgentOptions,
  base: SessionBase & { registry: Registry; llm: LlmClient },
  brought: SessionExtensions,
): { agent: Agent; tools: StepRunner['tools'] | undefined; otel: ReturnType<typeof startTelemetry> } {
  const { env, cwd, paths, config, registry, llm } = base;
  const { rules, runEnv, hooks, skills, mcp, agents } = brought;
  const extraTools = skills.length ? [skillLoadTool(skills)] : [];
  // The spawner exists before the children's wiring, which needs the agent it belongs to.
  const spawned: { children?: ChildSpawner } = {};
  const spawner: ChildSpawner = {
    maxParallel: config.agents.maxParallel,
    agents: agents.map((a) => a.name),
    run: (...a) => spawned.children!.run(...a),
  };
  const parentExtra = [...extraTools, agentRunTool(spawner)];
  const userPrompt = readUserPrompt(options, cwd);
  const prompts = promptsFor(promptEnvironment(options, cwd, registry, brought, userPrompt), agents, userPrompt);
  // The tools replies are parsed against exist before the runner, which a turn that only talks
  // never builds (nor loads: tool-runner's runner, exec and sandbox load on first use).
  const registryOf = (extra: readonly AnyToolDefinition[], limit?: Only) =>
    options.createRunner
      ? undefined
      : loadToolRunner().createToolRegistry(extra, limit ? { only: limit.only, withheldNote: limit.note } : undefined);
  const tools = registryOf(parentExtra);
  const runnerFor = sessionRunners(options, base, brought);
  // What the agent's children share with it: the model, the hooks, the audit log, the clock, the checks.
  const shared = {
    llm,
    ...(hooks.length ? { hooks, projectDir: rules.projectRoot, hookEnv: runEnv } : {}),
    auditFile: paths.auditLog,
    now: options.now,
    ...brought.sessionChecks,
  };
  const agentOptions = {
    config,
    cwd,
    lang: options.lang,
    mode: options.mode,
    profile: options.profile,
    maxAutoSteps: options.maxAutoSteps,
  };
  const agent = new Agent(
    { ...agentOptions, ...prompts(parentExtra) },
    {
      ...shared,
      createRunner: options.createRunner ?? runnerFor(tools, parentExtra),
      ...(tools ? { tools } : {}),
      confirm: options.confirm,
      store: new SessionStore(paths.sessionsDir),
      ...(mcp && !mcp.empty ? { dynamicTools: mcp, onDispose: () => void mcp.close() } : {}),
      // The first step otherwise starts the helper and goes without it (node's fork of this
      // process, socketpairs instead of pipes): start it while a reply asking for steps streams in.
      ...(options.createRunner
        ? {}
        : { prepareSteps: () => void loadToolRunner().prepareSpawnHelper({ slothtoolHome: slothtoolHome(runEnv) }) }),
    },
  );
  const otel = startTelemetry(env, config.telemetry, VERSION);
  otel.telemetry?.follow(agent);
  spawned.children = childSpawner({
    parent: agent,
    config,
    agentOptions: { config, cwd, lang: options.lang },
    shared,
    extraTools,
    registryOf,
    runnerFor,
    prompts,
    ...(options.createRunner ? { createRunner: options.createRunner } : {}),
    ...(options.confirm ? { confirm: options.confirm } : {}),
    ...(mcp && !mcp.empty ? { mcp } : {}),
    agents,
    profiles: () => profileNames(paths.home),
    ...(otel.telemetry ? { follow: (child: Agent) => otel.telemetry!.follow(child) } : {}),
  });
  return { agent, tools, otel };
}

/** `createRunner` for the agent and its children: the session's policy (skill folders as project code), sandbox and file access. */
function sessionRunners(options: AppAgentOptions, base: SessionBase & { registry: Registry }, brought: SessionExtensions) {
  const { config, registry, cwd } = base;
  // Scripts inside skill folders are asked about (L1) as project code, not refused as unknown.
  const skillDirs = brought.skills.map((s) => s.dir);
  return runnerFactory({
    config,
    policy: { ...brought.rules.policy, ...(skillDirs.length ? { trustedCodeRoots: skillDirs } : {}) },
    unattended: options.unattended === true || !options.confirm,
    registry,
    cwd,
    lang: options.lang,
    env: brought.runEnv,
    fileAccess: options.fileAccess,
    noTerminal: options.noTerminal,
  });
}

/** The custom slash commands (skills among them); one may take the name of a built-in that is only a prompt (`/init`). */
function customCommands(home: string, projectRoot: string, userHome: string, aiHome: string, skills: Skill[]): CustomCommand[] {
  const reserved = new Set<string>(COMMANDS.filter((c) => !OVERRIDABLE.includes(c)));
  return discoverCommands(extensionRoots('commands', home, projectRoot, userHome, isOwnHome(projectRoot, aiHome)), reserved, skills)
    .commands;
}

/**
 * Memory for the system prompt: the user's files and the project's, with `@path` imports read as
 * fs.read would read them for the model (only what it would read without a question: inside the
 * workspace, no secret file, no deny rule).
 */
function readMemory(config: AiConfig, home: string, userHome: string, cwd: string, policy: Policy): ProjectContext | undefined {
  const mayImport = (file: string): true | string => {
    const tr = loadToolRunner();
    const verdict = tr.verdictOf({ tool: 'fs.read', path: file }, policy, {
      cwd: tr.findWorkspace(cwd),
      home: userHome,
      slothtoolHome: home,
    });
    return verdict.level === 'L0' ? true : (tr.renderVerdict(verdict, 'en').rules[0]?.reason ?? verdict.level);
  };
  return readProjectContext(cwd, config.context.projectContextMaxTokens, { slothtoolHome: home, userHome, mayImport });
}

/** What the edges read beside the agent: the registry steps are shown by, and the run's telemetry. */
function edgeParts(
  tools: StepRunner['tools'] | undefined,
  otel: ReturnType<typeof startTelemetry>,
): Pick<AppAgent, 'tools' | 'telemetry' | 'telemetryProblem'> {
  return {
    ...(tools ? { tools } : {}),
    ...(otel.telemetry ? { telemetry: otel.telemetry } : {}),
    ...(otel.problem ? { telemetryProblem: otel.problem } : {}),
  };
}

/** The session's MCP servers, started in the background; undefined when nothing is configured
 * (then the SDK is never loaded). */
function startMcp(setup: Omit<import('../mcp/session').McpSetup, 'clientVersion'>): McpSession | undefined {
  const some = (raw: unknown) => !!raw && typeof raw === 'object' && Object.keys(raw).length > 0;
  const hasUser = some(setup.user) || (setup.more ?? []).some((m) => some(m.raw));
  const hasProject = setup.projectTrusted && fs.existsSync(path.join(setup.projectRoot, '.mcp.json'));
  if (!hasUser && !hasProject) return undefined;
  const session = new (mcpSession().McpSession)({ ...setup, clientVersion: VERSION });
  session.start();
  return session;
}
