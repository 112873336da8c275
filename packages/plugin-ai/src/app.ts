import * as fs from 'fs';
import * as os from 'os';
import { Agent, type AgentConfirmFn, type AgentDeps } from './agent';
import { loadConfig, sandboxSettings, type AiConfig } from './config';
import { aiError } from './errors';
import { aiPaths, slothtoolHome, type AiPaths } from './home';
import type { Lang } from './i18n';
import { loadLlmBase, type LlmClient } from './llm-base';
import { findGitRoot, readProjectContext, type LoadedInstructions } from './project-context';
import { readProjectRules, type ProjectRules } from './project-rules';
import { buildSystemPrompt, builtinTools } from './prompt';
import { readRegistry, type Registry } from './registry';
import type { ConfirmFn, Policy, StepRunner } from './runner-types';
import { SessionStore } from './sessions';
import { registerKnownSecrets } from './known-secrets';
import { discoverSkills, skillIndex, skillRoots, type Skill } from './extensions/skills';
import { skillLoadTool } from './extensions/skill-tool';
import { readHooks, type HookProblem } from './extensions/hooks';
import { discoverCommands, type CustomCommand } from './extensions/commands';
import { COMMANDS } from './interactive/commands';
import { isOwnHome, projectExtras, TrustStore, type ProjectExtras, type TrustState } from './extensions/trust';
import type { McpSession } from './mcp/session';
import type { McpConfigProblem } from './mcp/config';
import { VERSION } from './version';
import * as path from 'path';

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
  /** The project instruction files in the system prompt (`/memory` lists them). */
  memory: LoadedInstructions[];
  /** The project's own permission rules and whether its folder is trusted. */
  projectRules: ProjectRules;
  /** The skills found (`/skills`); their index is in the system prompt. */
  skills: Skill[];
  /** Hook entries that could not be used, with why (said at start). */
  hookProblems: HookProblem[];
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
}

/** The tool-runner policy from the ai config. */
export function policyOf(config: AiConfig, file?: string, project?: ProjectRules['set'], workspace?: string): Policy {
  const mine = workspace ? config.projectPermissions?.[workspace] : undefined;
  const extra = [...(mine ? [{ ...mine, source: `${file ?? 'ai.json'} (projectPermissions ${workspace})` }] : []), ...(project ? [project] : [])];
  // trustedPlugins (the original SlothTool's setting): their plugin.run steps need no question
  // (tool-runner's plugin.trusted). allowedPrograms: an unknown program asks instead of being refused.
  return {
    ...(config.permissions ? { permissions: { ...config.permissions, ...(file ? { source: file } : {}) } } : {}),
    ...(config.trustedPlugins ? { trustedPlugins: config.trustedPlugins } : {}),
    ...(extra.length ? { extraPermissions: extra } : {}),
    allowedPrograms: config.allowedPrograms,
    allowNetwork: config.allowNetwork,
    allowWrite: config.allowWrite,
    allowSudo: config.allowSudo,
    allowPrivateNetwork: config.allowPrivateNetwork,
  };
}

interface ToolRunnerModule {
  createToolRunner(options: {
    policy?: Policy;
    confirm: ConfirmFn;
    registry: unknown;
    cwd: string;
    workspace?: string;
    lang?: Lang;
    env?: NodeJS.ProcessEnv;
    sandbox?: 'auto' | 'required' | 'off';
    sandboxOptions?: ReturnType<typeof sandboxSettings>['options'];
    unattended?: boolean;
    tools?: readonly unknown[];
    toolRegistry?: StepRunner['tools'];
  }): StepRunner;
  /** The registry on its own (tool-runner ≥ the registry): replies are parsed before a runner exists. */
  createToolRegistry?(extra: readonly unknown[]): StepRunner['tools'];
  /** The git root holding `cwd`, or `cwd` (tool-runner ≥ issue #10). */
  findWorkspace?(cwd: string): string;
  classify(step: unknown, policy?: Policy, ctx?: { cwd?: string; home?: string; lang?: Lang }): {
    level: 'L0' | 'L1' | 'L2';
    rules: { id: string; level: string; reason: string; hint?: string }[];
  };
}

/** Load @holic512/tool-runner (only on paths that judge or run steps), checking that it
 * exports what the caller needs. */
export function loadToolRunner(need: 'classify' | 'createToolRunner' = 'createToolRunner'): ToolRunnerModule {
  let mod: Partial<ToolRunnerModule>;
  try {
    mod = require('@holic512/tool-runner') as Partial<ToolRunnerModule>;
  } catch (err) {
    throw aiError('TOOL_RUNNER_MISSING', 'toolRunnerMissing', { detail: (err as Error).message.split('\n')[0] });
  }
  if (typeof mod[need] !== 'function') {
    throw aiError('TOOL_RUNNER_MISSING', 'toolRunnerMissing', { detail: `${need} is not exported` });
  }
  return mod as ToolRunnerModule;
}

/** Build an Agent with the real dependencies. Throws AiError (config, registry, llm-base). */
export function createAppAgent(options: AppAgentOptions): AppAgent {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const paths = aiPaths(slothtoolHome(env));
  registerKnownSecrets(slothtoolHome(env), env, cwd);
  const config = loadConfig(paths.config);
  const registry = readRegistry(paths.registry);
  const llm = options.llm ?? loadLlmBase(registry).client;
  const projectContext = readProjectContext(cwd, config.context.projectContextMaxTokens);
  // A project's permission rules: deny always, allow / ask once the folder is trusted (/trust).
  const projectRoot = findGitRoot(cwd) ?? cwd;
  const extras = projectExtras(projectRoot, paths.home);
  const trust = new TrustStore(paths.trust).state(extras);
  const projectRules = readProjectRules(projectRoot, paths.trust, trust, paths.home);
  // Hooks: the user's (ai.json), and a trusted project's (.slothtool/settings.json).
  const userHooks = readHooks(config.hooks, paths.config);
  const projectHooks = projectRules.hooks ? readHooks(projectRules.hooks, projectRules.file ?? '') : { hooks: [], problems: [] };
  const hooks = [...userHooks.hooks, ...projectHooks.hooks];
  // Skills: the index goes into the prompt, a body only when the model loads one (skill.load).
  // A project's own skills only in a trusted folder (their scripts are the project's code).
  const { skills } = discoverSkills(skillRoots(slothtoolHome(env), projectRoot).filter((r) => r.scope === 'user' || trust === 'trusted'));
  const extraTools = skills.length ? [skillLoadTool(skills)] : [];
  // MCP servers: the user's, and a trusted project's `.mcp.json`; they connect in the background.
  const mcp = startMcp(config.mcpServers, paths.config, projectRoot, trust === 'trusted', env, cwd);
  const environment = {
    cwd,
    os: `${os.platform()} ${os.release()} (${os.arch()})`,
    plugins: Object.keys(registry.plugins).sort(),
    lang: options.lang,
    projectContext,
    ...(skills.length ? { skills: skillIndex(skills) } : {}),
  };
  const promptTools = [...builtinTools(), ...(extraTools as unknown as ReturnType<typeof builtinTools>)];
  const systemPrompt = buildSystemPrompt(environment, promptTools);
  // With native tool calls (llm-base transport `tools`) the tools travel as definitions instead.
  const toolsSystemPrompt = buildSystemPrompt(environment, promptTools, 'tools');
  // The tools replies are parsed against exist before the runner, which a turn that only talks
  // never builds (nor loads: tool-runner's runner, exec and sandbox load on first use).
  const tools = options.createRunner ? undefined : loadToolRunner().createToolRegistry?.(extraTools);
  const createRunner =
    options.createRunner ??
    ((confirm: ConfirmFn) => {
      const tr = loadToolRunner();
      // fs.* steps judge paths against the workspace: the git root of the cwd, or the cwd.
      const workspace = tr.findWorkspace?.(cwd) ?? cwd;
      return tr.createToolRunner({
        policy: policyOf(config, paths.config, projectRules.set, projectRoot),
        confirm,
        registry,
        cwd,
        workspace,
        lang: options.lang,
        env,
        sandbox: sandboxSettings(config.sandbox).mode,
        sandboxOptions: sandboxSettings(config.sandbox).options,
        // Without a person (ai -p), or with no confirm at all, nobody can answer a retry offer.
        unattended: options.unattended === true || !options.confirm,
        ...(tools ? { toolRegistry: tools } : { tools: extraTools }),
      });
    });
  const agent = new Agent(
    {
      config,
      systemPrompt,
      toolsSystemPrompt,
      cwd,
      lang: options.lang,
      mode: options.mode,
      profile: options.profile,
      maxAutoSteps: options.maxAutoSteps,
    },
    {
      llm,
      createRunner,
      ...(tools ? { tools } : {}),
      confirm: options.confirm,
      store: new SessionStore(paths.sessionsDir),
      ...(hooks.length ? { hooks } : {}),
      ...(mcp && !mcp.empty ? { dynamicTools: mcp, onDispose: () => void mcp.close() } : {}),
      auditFile: paths.auditLog,
      now: options.now,
    },
  );
  const { commands } = discoverCommands(
    [
      { dir: path.join(slothtoolHome(env), 'commands'), scope: 'user' },
      ...(isOwnHome(projectRoot, paths.home) ? [] : [{ dir: path.join(projectRoot, '.slothtool', 'commands'), scope: 'project' as const }]),
    ],
    new Set(COMMANDS),
  );
  return {
    agent,
    config,
    paths,
    registry,
    memory: projectContext?.files ?? [],
    projectRules,
    skills,
    hookProblems: [...userHooks.problems, ...projectHooks.problems],
    commands,
    project: { extras, trust },
    ...(mcp && !mcp.empty ? { mcp } : {}),
    mcpProblems: mcp?.problems ?? [],
    llm,
  };
}

/** The session's MCP servers, started in the background; undefined when nothing is configured
 * (then the SDK is never loaded). */
function startMcp(user: unknown, userFile: string, projectRoot: string, projectTrusted: boolean, env: NodeJS.ProcessEnv, cwd: string): McpSession | undefined {
  const hasUser = !!user && typeof user === 'object' && Object.keys(user).length > 0;
  const hasProject = projectTrusted && fs.existsSync(path.join(projectRoot, '.mcp.json'));
  if (!hasUser && !hasProject) return undefined;
  const { McpSession } = require('./mcp/session') as typeof import('./mcp/session');
  const session = new McpSession({ user, userFile, projectRoot, projectTrusted, env, cwd, clientVersion: VERSION });
  session.start();
  return session;
}
