/**
 * `/agents`: the named agents of the session (agent files of the user and of a trusted project),
 * each with the folder it comes from, the tools it may use and its model; then the files that
 * could not be used, each with why.
 */
import type { AgentFile, AgentProblem } from '../extensions/agents';
import { t, type Lang } from '../i18n';
import type { Theme } from './theme';

export function agentsText(agents: readonly AgentFile[], problems: readonly AgentProblem[], theme: Theme, lang: Lang): string {
  const lines = agents.length ? [t(lang, 'agentsHead')] : [t(lang, 'agentsNone')];
  for (const a of agents) {
    lines.push(`  ${theme.bold(a.name)}  ${theme.dim(`(${a.origin})`)}  ${a.description}`);
    const tools = a.tools ? t(lang, 'agentTools', { tools: a.tools.join(', ') }) : t(lang, 'agentAllTools');
    lines.push(theme.dim(`      ${[tools, ...(a.model ? [t(lang, 'agentModel', { model: a.model })] : [])].join(' · ')}`));
  }
  if (problems.length)
    lines.push(t(lang, 'agentsProblems'), ...problems.map((p) => theme.yellow(`  ${p.file}: ${t(lang, p.key, p.vars)}`)));
  return lines.join('\n');
}
