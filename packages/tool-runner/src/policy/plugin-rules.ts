import type { ClassifyContext, PluginRunStep, Policy } from '../types';
import { finding, type Finding, type JudgeCtx } from './finding';
import { linkedArgs, linkEscapeFindings, uncheckedFindings, type PathLinks } from './links';
import { normalisePathArg, secretFindings, slothtoolHomeFindings } from './paths';
import { INVISIBLE_RE } from './resolve-program';
import { LLM_BASE_PACKAGE, llmBaseConfigWrite, selfConfig } from './self-config';

const PLUGIN_INFO_ARGS = new Set(['--help', '-h', '--version', '-v', '-V', 'help', 'version']);

/** plugin.run: the alias must be an installed plugin other than ai itself; interactive plugins always ask. */
export function pluginFindings(step: PluginRunStep, policy: Policy, ctx: ClassifyContext): Finding[] {
  const alias = step.plugin;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(alias)) return [finding('program.lookalike', 'L2', { p: alias, like: alias.normalize('NFKC') })];
  if (alias === 'ai') return [finding('plugin.self', 'L2')];
  const info = ctx.plugins && Object.prototype.hasOwnProperty.call(ctx.plugins, alias) ? ctx.plugins[alias] : undefined;
  if (ctx.plugins && !info) return [finding('plugin.missing', 'L2', { p: alias })];
  if ((info as { name?: string } | undefined)?.name === '@holic512/plugin-ai') return [finding('plugin.self', 'L2')];
  const out: Finding[] = [];
  step.args.forEach((a, i) => {
    if (INVISIBLE_RE.test(a)) out.push(finding('args.invisible', 'L2', { n: String(i + 1) }));
  });
  out.push(...secretFindings(step.args, { home: ctx.home, cwd: ctx.cwd }));
  // llm-base's config subcommands write the profiles (base URL, API key): SlothTool's own configuration.
  const isLlmBase = info
    ? (info as { name?: string }).name === LLM_BASE_PACKAGE || (!(info as { name?: string }).name && alias === 'llm-base')
    : alias === 'llm-base';
  const write = isLlmBase ? llmBaseConfigWrite(step.args) : undefined;
  if (write) return [...out, selfConfig(`${alias} ${write}`)];
  if (info?.interactive) return [...out, finding('plugin.interactive', 'L1', { p: alias })];
  if (step.args.length === 1 && PLUGIN_INFO_ARGS.has(step.args[0]))
    return [...out, finding('plugin.info', 'L0', { p: alias, a: step.args[0] })];
  if (policy.trustedPlugins?.includes(alias)) return [...out, finding('plugin.trusted', 'L0', { p: alias })];
  return [...out, finding('plugin.run', 'L1', { p: alias })];
}

/** plugin.run arguments that lead through a link: judged by their real targets (secret stores, SlothTool's own files, leaving the workspace). */
export function linkedPluginFindings(args: readonly string[], links: PathLinks, ctx: JudgeCtx): Finding[] {
  const real = linkedArgs(args, links);
  if (!real) return uncheckedFindings(links);
  const paths = real.map((a) => normalisePathArg(a, ctx)).filter((p): p is string => p !== undefined);
  return [
    ...linkEscapeFindings(links),
    ...uncheckedFindings(links),
    ...secretFindings(real, ctx),
    ...slothtoolHomeFindings(paths, ctx, false),
  ];
}
