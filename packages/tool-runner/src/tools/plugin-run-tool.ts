import path = require('path');
import { parseOutput } from '../parse-output';
import { redactOutput, runFields } from './exec-tool';
import { redactValue } from '../redact';
import type { PluginRunStep } from '../types';
import type { Registry, RunToolResult, RunnerDeps, ToolContext } from './types';

/** What the runner knows about an installed plugin. */
export interface PluginInfo {
  alias: string;
  name: string;
  binPath: string;
  interactive: boolean;
  interactiveFlag?: string;
}

/** The registry entry of `alias`, or undefined. Own properties only (no `__proto__` tricks). */
export function registryEntry(registry: Registry, alias: string): Registry['plugins'][string] | undefined {
  const plugins = registry?.plugins;
  if (!plugins || typeof plugins !== 'object' || !Object.prototype.hasOwnProperty.call(plugins, alias)) return undefined;
  const e = plugins[alias];
  return e && typeof e === 'object' && typeof e.binPath === 'string' && typeof e.name === 'string' ? e : undefined;
}

/**
 * Read a plugin's package.json (walking up from its bin to the folder whose package.json has
 * the registered name) for `slothtool.interactive`. A plugin whose package.json cannot be read
 * counts as not interactive: it then runs with stdin closed, which is the safe side.
 */
export function readPluginInfo(registry: Registry, alias: string, readFileSync: RunnerDeps['readFileSync']): PluginInfo | undefined {
  const entry = registryEntry(registry, alias);
  if (!entry) return undefined;
  let dir = path.dirname(entry.binPath);
  for (let i = 0; i < 8; i++) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(path.join(dir, 'package.json')));
      if (pkg && typeof pkg === 'object' && (pkg as { name?: unknown }).name === entry.name) {
        const st = (pkg as { slothtool?: { interactive?: unknown; interactiveFlag?: unknown } }).slothtool;
        return {
          alias,
          name: entry.name,
          binPath: entry.binPath,
          interactive: st?.interactive === true,
          ...(typeof st?.interactiveFlag === 'string' ? { interactiveFlag: st.interactiveFlag } : {}),
        };
      }
    } catch {
      // No (readable) package.json at this level: keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { alias, name: entry.name, binPath: entry.binPath, interactive: false };
}

/** Run an installed plugin: captured, or on the terminal when the plugin is interactive. */
export async function runPluginRun(step: PluginRunStep, ctx: ToolContext): Promise<RunToolResult> {
  const info = readPluginInfo(ctx.registry, step.plugin, ctx.deps.readFileSync);
  const base = {
    _event: 'tool_result' as const,
    id: ctx.id,
    tool: 'plugin.run' as const,
    cwd: ctx.cwd,
    program: step.plugin,
    plugin: step.plugin,
    args: redactValue(step.args),
    decision: ctx.decision,
  };
  if (!info) {
    return {
      ...base,
      exitCode: 127,
      durationMs: 0,
      stdoutTail: '',
      stderrTail: '',
      truncated: false,
      error: { code: 'PLUGIN_NOT_FOUND', message: `no plugin "${step.plugin}" in registry.json` },
    };
  }
  const argv = [info.binPath, ...step.args];
  // Without a terminal to hand over (stdio carries a protocol) it runs captured like any plugin.
  if (info.interactive && !ctx.noTerminal) {
    const r = await ctx.deps.execInherit({ program: ctx.deps.execPath, args: argv, cwd: ctx.cwd, env: ctx.env, signal: ctx.signal });
    return {
      ...base,
      exitCode: r.exitCode,
      ...(r.signal ? { signal: r.signal } : {}),
      durationMs: r.durationMs,
      stdoutTail: '',
      stderrTail: '',
      truncated: false,
      interactive: true,
      ...(r.error ? { error: r.error } : {}),
    };
  }
  const r = await ctx.deps.exec({
    program: ctx.deps.execPath,
    args: argv,
    cwd: ctx.cwd,
    env: ctx.env,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    maxOutputBytes: ctx.maxOutputBytes,
    onStdout: ctx.onOutput ? (s, skipped) => ctx.onOutput?.(s, 'stdout', skipped) : undefined,
    onStderr: ctx.onOutput ? (s, skipped) => ctx.onOutput?.(s, 'stderr', skipped) : undefined,
  });
  const parsed = parseOutput(step, redactOutput(r));
  return {
    ...base,
    ...runFields(r, parsed),
  };
}
