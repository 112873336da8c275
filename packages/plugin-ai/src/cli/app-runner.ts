/**
 * The step runners of the app: @holic512/tool-runner, loaded on the paths that judge or run
 * steps, and the runner the agent and its children (agent.run) are built with.
 */
import { sandboxSettings, type AiConfig } from '../config/config';
import type { Registry } from '../config/registry';
import { aiError } from '../errors';
import type { Lang } from '../i18n';
import type { ConfirmFn, Decision, Policy, StepRunner, Verdict } from '../agent/runner-types';
import type { FileAccess } from '@holic512/tool-runner';
import { toolRunner } from '../lazy-modules';

export interface ToolRunnerModule {
  createToolRunner(options: {
    policy?: Policy;
    confirm: ConfirmFn;
    registry: unknown;
    cwd: string;
    workspace?: string;
    lang?: Lang;
    env?: NodeJS.ProcessEnv;
    sandbox?: 'auto' | 'required' | 'off';
    webSearch?: AiConfig['webSearch'];
    sandboxOptions?: ReturnType<typeof sandboxSettings>['options'];
    unattended?: boolean;
    tools?: readonly unknown[];
    toolRegistry?: StepRunner['tools'];
    fileAccess?: FileAccess;
    terminal?: boolean;
  }): StepRunner;
  /** The registry on its own (tool-runner ≥ the registry): replies are parsed before a runner exists. */
  createToolRegistry?(
    extra: readonly unknown[],
    options?: { only?: (def: { name: string }) => boolean; withheldNote?: string },
  ): StepRunner['tools'];
  /** The git root holding `cwd`, or `cwd` (tool-runner ≥ issue #10). */
  findWorkspace?(cwd: string): string;
  /** A step judged without language (tool-runner ≥ the rendering at each edge, issue #38). */
  verdictOf(step: unknown, policy?: Policy, ctx?: { cwd?: string; home?: string; slothtoolHome?: string }): Verdict;
  /** A verdict worded in a language, redacted. */
  renderVerdict(verdict: Verdict, lang: Lang): Decision;
  /** Start the spawn helper ahead of the first step (tool-runner ≥ issue #37's spawn helper). */
  prepareSpawnHelper?(options: { slothtoolHome?: string }): Promise<boolean>;
}

/** Load @holic512/tool-runner (only on paths that judge or run steps), checking that it
 * exports what the caller needs. */
export function loadToolRunner(need: 'verdictOf' | 'createToolRunner' = 'createToolRunner'): ToolRunnerModule {
  let mod: Partial<ToolRunnerModule>;
  try {
    mod = toolRunner() as unknown as Partial<ToolRunnerModule>;
  } catch (err) {
    throw aiError('TOOL_RUNNER_MISSING', 'toolRunnerMissing', { detail: (err as Error).message.split('\n')[0] });
  }
  // renderVerdict too: the edges word the runner's verdicts with it (an older tool-runner has neither it nor runner.verdict).
  for (const name of [need, 'renderVerdict'] as const) {
    if (typeof mod[name] !== 'function') throw aiError('TOOL_RUNNER_MISSING', 'toolRunnerMissing', { detail: `${name} is not exported` });
  }
  return mod as ToolRunnerModule;
}

/** What building a step runner needs: the same for the agent and its children (agent.run). */
export interface RunnerContext {
  config: AiConfig;
  policy: Policy;
  unattended: boolean;
  registry: Registry;
  cwd: string;
  lang: Lang;
  env: NodeJS.ProcessEnv;
  fileAccess?: FileAccess;
  noTerminal?: boolean;
}

/** `createRunner` for a registry (or, without one, the extra tools to build it from). */
export function runnerFactory(c: RunnerContext) {
  return (toolRegistry: StepRunner['tools'] | undefined, extra: readonly unknown[]) =>
    (confirm: ConfirmFn): StepRunner => {
      const tr = loadToolRunner();
      // fs.* steps judge paths against the workspace: the git root of the cwd, or the cwd.
      const workspace = tr.findWorkspace?.(c.cwd) ?? c.cwd;
      return tr.createToolRunner({
        policy: c.policy,
        confirm,
        registry: c.registry,
        cwd: c.cwd,
        workspace,
        lang: c.lang,
        // A copy of the process's environment as it is when the runner is built (nothing in `ai`
        // changes it later): every step hardens it (tool-runner hardenedEnv), and reading node's
        // live process.env variable by variable cost about 0.1 ms a step; the copy is checked and reused.
        env: c.env === process.env ? { ...process.env } : c.env,
        sandbox: sandboxSettings(c.config.sandbox).mode,
        sandboxOptions: sandboxSettings(c.config.sandbox).options,
        // Without a person (ai -p), or with no confirm at all, nobody can answer a retry offer.
        unattended: c.unattended,
        ...(c.config.webSearch ? { webSearch: c.config.webSearch } : {}),
        ...(c.fileAccess ? { fileAccess: c.fileAccess } : {}),
        ...(c.noTerminal ? { terminal: false } : {}),
        ...(toolRegistry ? { toolRegistry } : { tools: extra }),
      });
    };
}
