/**
 * The trust question when `ai -i` starts in a folder whose `.mcp.json`, settings files
 * (`.slothtool/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`) or project
 * skills are not trusted (or changed since): it names each file as it is, lists exactly what would
 * be turned on, says once what of Claude Code's files is ignored, and is asked before the agent
 * loads them. Only on a terminal; without one they stay off and the start notice says so.
 */
import type { Lang } from '../i18n';
import { describeExtras } from '../extensions/trust-describe';
import { hookShell } from '../extensions/hook-process';
import { projectExtras, TrustStore, type ProjectExtras } from '../extensions/trust';
import { findGitRoot } from '../context/project-context';
import { createPromptsUi } from '../setup/ui';
import { t } from '../i18n';

export interface TrustQuestionIo {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Hand the terminal to the question, and take it back. */
  pause(): void;
  resume(): void;
}

/** What the question shows: the folder, then each thing that would be turned on. */
export function trustQuestionLines(
  workspace: string,
  changed: boolean,
  lang: Lang,
  extras: ProjectExtras = projectExtras(workspace),
): string[] {
  const d = describeExtras(extras);
  const lines = [t(lang, changed ? 'trustAskChanged' : 'trustAsk', { folder: workspace })];
  if (d.servers.length) lines.push(t(lang, 'trustServers'), ...d.servers.map((s) => `    ${s}`));
  for (const f of d.settings) {
    lines.push(t(lang, 'trustSettingsFile', { file: f.file }));
    if (f.hooks.length) lines.push(t(lang, 'trustHooks', { shell: hookShell().name }), ...f.hooks.map((h) => `      ${h}`));
    if (f.rules.allow + f.rules.ask) lines.push(t(lang, 'trustRules', f.rules));
    if (f.env.length) lines.push(t(lang, 'trustEnv', { names: f.env.join(', ') }));
    if (f.checks?.length) lines.push(t(lang, 'trustChecks'), ...f.checks.map((c) => `      ${c}`));
  }
  if (d.skills.length) lines.push(t(lang, 'trustSkills'), ...d.skills.map((s) => `    ${s}`));
  if (d.code.length) lines.push(t(lang, 'trustCode'), ...d.code.map((f) => `    ${f}`));
  if (d.commands.length) lines.push(t(lang, 'trustCommands'), ...d.commands.map((f) => `    ${f}`));
  if (d.agents.length) lines.push(t(lang, 'trustAgents'), ...d.agents.map((f) => `    ${f}`));
  if (d.ignored.length) lines.push(t(lang, 'trustIgnored', { what: d.ignored.join(', ') }));
  if (d.unreadable.length) lines.push(t(lang, 'trustUnreadable', { what: d.unreadable.join('; ') }));
  return lines;
}

/** Ask when the folder brings untrusted extras; remembers a yes (folder path + content hash). */
export async function askProjectTrust(cwd: string, trustFile: string, lang: Lang, io: TrustQuestionIo): Promise<void> {
  const workspace = findGitRoot(cwd) ?? cwd;
  const extras = projectExtras(workspace);
  const store = new TrustStore(trustFile);
  const state = store.state(extras);
  if (state !== 'untrusted' && state !== 'changed') return;
  io.pause();
  let yes: boolean | undefined;
  try {
    io.output.write('\n' + trustQuestionLines(workspace, state === 'changed', lang).join('\n') + '\n');
    yes = await createPromptsUi({ input: io.input, output: io.output, lang }).confirm(t(lang, 'trustQuestion'), false);
  } finally {
    io.resume();
  }
  if (yes) {
    store.trust(extras);
    io.output.write(t(lang, 'trustOn') + '\n');
  }
}
