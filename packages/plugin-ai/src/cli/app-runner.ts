/**
 * The step runners of the app: @holic512/tool-runner, loaded on the paths that judge or run
 * steps, and the runner the agent and its children (agent.run) are built with.
 */
import { sandboxSettings, type AiConfig } from '../config/config';
import type { Registry } from '../config/registry';
import { aiError } from '../errors';
import type { Lang } from '../i18n';
import type { ConfirmFn, Policy, StepRunner } from '../agent/runner-types';
import type { AnyToolDefinition, FileAccess, ToolRegistry } from '@holic512/tool-runner';
import { toolRunner } from '../lazy-modules';

/** @holic512/tool-runner as plugin-ai loads it: its own types (a type import loads nothing). */
export type ToolRunnerModule = typeof import('@holic512/tool-runner');

/** Load @holic512/tool-runner (only on paths that judge or run steps); a broken install is said as such. */
export function loadToolRunner(): ToolRunnerModule {
  try {
    return toolRunner();
  } catch (err) {
    throw aiError('TOOL_RUNNER_MISSING', 'toolRunnerMissing', { detail: (err as Error).message.split('\n')[0] });
  }
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
  return (toolRegistry: ToolRegistry | undefined, extra: readonly AnyToolDefinition[]) =>
    (confirm: ConfirmFn): StepRunner => {
      const tr = loadToolRunner();
      // fs.* steps judge paths against the workspace: the git root of the cwd, or the cwd.
      const workspace = tr.findWorkspace(c.cwd);
      const runner = tr.createToolRunner({
        policy: c.policy,
        confirm,
        registry: c.registry,
        cwd: c.cwd,
        workspace,
        lang: c.lang,
        // A copy of the process's environment as it is when the runner is built (nothing in `ai`
        // changes it later): every step hardens it (tool-runner hardenedEnv), and a plain object is
        // read without going through node's live process.env accessors; the copy is checked and reused.
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
      // The agent reads a result field by field (runner-types ToolResult: any of the runner's results).
      return runner as StepRunner;
    };
}
