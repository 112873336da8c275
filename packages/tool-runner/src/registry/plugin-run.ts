import { z } from 'zod';
import type { PluginRunStep } from '../types';
import { argList, commandLine, toolInput, touches } from './common';
import { defineTool } from './define-tool';
import { pathLinksModule, pluginRulesModule, pluginRunToolModule } from '../lazy-modules';

const input = () => toolInput({ plugin: z.string().min(1), args: argList() });

export const pluginRunTool = defineTool<PluginRunStep>({
  name: 'plugin.run',
  kind: 'execute',
  description: {
    en: 'Run an installed SlothTool plugin by its alias with arguments.',
    zh: '按别名运行一个已安装的 SlothTool 插件，并传入参数。',
  },
  input,
  example: { plugin: '<installed plugin alias>', args: ['...'] },
  words: { get: (s) => [s.plugin, ...(s.args ?? [])], set: (s, words) => ({ ...s, plugin: words[0] ?? '', args: words.slice(1) }) },
  permission: { arg: 'name', subject: (s) => ({ kind: 'name', name: s.plugin }) },
  judgeContext(s, env) {
    const plugins: Record<string, { interactive?: boolean; name?: string }> = Object.create(null);
    for (const alias of Object.keys(env.registry.plugins ?? {})) plugins[alias] = { name: env.registry.plugins[alias]?.name };
    const info = pluginRunToolModule().readPluginInfo(env.registry, s.plugin, env.deps.readFileSync);
    if (info) plugins[s.plugin] = { name: info.name, interactive: info.interactive };
    // A plugin runs outside the sandbox in the runner's folder: its path arguments are judged where they lead.
    return { plugins, links: pathLinksModule().gatherLinks(s.args ?? [], env.session.resolve('.'), env.session.workspace) };
  },
  assess(s, ctx) {
    const { pluginFindings, linkedPluginFindings } = pluginRulesModule();
    const findings = [
      ...pluginFindings(s, ctx.policy, ctx),
      ...(ctx.links
        ? linkedPluginFindings(s.args ?? [], ctx.links, {
            cwd: ctx.workspace ?? ctx.cwd,
            home: ctx.home,
            slothtoolHome: ctx.slothtoolHome,
            policy: ctx.policy,
            depth: 0,
          })
        : []),
    ];
    return { findings, touches: touches({ exec: [`plugin ${s.plugin}`] }) };
  },
  approvalKey: (s) => `plugin.run ${s.plugin}`,
  digest: (s) => commandLine('plugin', [s.plugin, ...(s.args ?? [])]),
  summary: (s) => ({
    title: `plugin.run ${commandLine(s.plugin, s.args ?? [])}`,
    fields: [
      { name: 'plugin', value: s.plugin },
      { name: 'args', value: s.args ?? [] },
    ],
  }),
  alwaysConfirm: (s, env) => pluginRunToolModule().readPluginInfo(env.registry, s.plugin, env.deps.readFileSync)?.interactive === true,
  execute: (s, ctx) => pluginRunToolModule().runPluginRun(s, ctx),
});
