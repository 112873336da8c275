/**
 * What `ai` says once when a session starts (on stderr for `-p`, on screen for `-i`): extension
 * entries that could not be used, and what an untrusted project folder brings that stays off.
 */
import type { AppAgent } from './app';
import type { ProjectFile } from '../extensions/trust';
import { t, type Lang } from '../i18n';

/** The project's files, grouped: `.mcp.json, .slothtool/settings.json, 3 skill files`. */
export function projectFilesText(files: readonly ProjectFile[]): string {
  const named = files.filter((f) => f.kind !== 'skill').map((f) => f.rel);
  const skills = files.filter((f) => f.kind === 'skill');
  const skillDirs = [...new Set(skills.map((f) => f.rel.split('/').slice(0, 3).join('/')))];
  return [...named, ...skillDirs].join(', ');
}

export function startNotices(app: Partial<Pick<AppAgent, 'hookProblems' | 'claudeProblems' | 'projectRules' | 'project' | 'mcpProblems' | 'telemetryProblem' | 'agentProblems' | 'checkProblems'>>, lang: Lang): string[] {
  const lines: string[] = [];
  if (app.telemetryProblem) lines.push(t(lang, app.telemetryProblem.key, app.telemetryProblem.vars));
  for (const p of app.checkProblems ?? []) lines.push(t(lang, 'checksIgnored', { file: p.source, error: p.error }));
  for (const p of app.agentProblems ?? []) lines.push(t(lang, p.key === 'agentUnknownTool' ? 'agentToolLeftOut' : 'agentFileIgnored', { file: p.file, error: t(lang, p.key, p.vars) }));
  for (const p of app.hookProblems ?? []) lines.push(t(lang, 'hookIgnored', { file: p.source, error: p.error }));
  for (const p of app.claudeProblems ?? []) lines.push(t(lang, 'claudeSettingIgnored', { file: p.source, error: p.error }));
  for (const p of app.mcpProblems ?? []) lines.push(t(lang, 'mcpStartProblem', { name: p.name, source: p.source, error: p.error }));
  if (app.projectRules?.problem) lines.push(t(lang, 'projectRulesBroken', { problem: app.projectRules.problem }));
  const { extras, trust } = app.project ?? {};
  if (extras && (trust === 'untrusted' || trust === 'changed')) {
    lines.push(t(lang, trust === 'changed' ? 'projectExtrasChanged' : 'projectExtrasOff', { folder: extras.workspace, what: projectFilesText(extras.files) }));
  }
  return lines;
}
