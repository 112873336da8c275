/**
 * What `ai` says once when a session starts (on stderr for `-p`, on screen for `-i`): memory that
 * was cut or not read, extension entries that could not be used, and what an untrusted project
 * folder brings that stays off.
 */
import os = require('os');
import path = require('path');
import type { AppAgent } from './app';
import { MAX_IMPORT_DEPTH } from '../context/project-context';
import type { ProjectFile } from '../extensions/trust';
import { t, type Lang } from '../i18n';

/** The project's files, grouped: `.mcp.json, .slothtool/settings.json, 3 skill files`. */
export function projectFilesText(files: readonly ProjectFile[]): string {
  const named = files.filter((f) => f.kind !== 'skill').map((f) => f.rel);
  const skills = files.filter((f) => f.kind === 'skill');
  const skillDirs = [...new Set(skills.map((f) => f.rel.split('/').slice(0, 3).join('/')))];
  return [...named, ...skillDirs].join(', ');
}

/** A path as the user reads it: relative to `cwd` inside it, `~/…` in the home, else as it is. */
function shown(file: string, cwd: string | undefined): string {
  const rel = cwd ? path.relative(cwd, file) : '';
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
  const home = os.homedir();
  return file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

/** Memory files cut to fit the budget, and imports that were not read: never silently. */
export function memoryNotices(app: Partial<Pick<AppAgent, 'memory' | 'memoryProblems' | 'config'>>, lang: Lang, cwd?: string): string[] {
  const lines: string[] = [];
  const cap = app.config?.context.projectContextMaxTokens ?? 0;
  for (const m of app.memory ?? []) {
    if (m.truncated)
      lines.push(t(lang, 'memoryCutNotice', { file: shown(m.file, cwd), kept: m.tokens, full: m.fullTokens ?? m.tokens, cap }));
  }
  for (const p of app.memoryProblems ?? []) {
    const why = p.reason === 'refused' ? (p.detail ?? '') : t(lang, `memoryImport_${p.reason}`, { depth: MAX_IMPORT_DEPTH });
    lines.push(t(lang, 'memoryImportSkipped', { from: shown(p.from, cwd), file: shown(p.file, cwd), why }));
  }
  return lines;
}

export function startNotices(
  app: Partial<
    Pick<
      AppAgent,
      | 'hookProblems'
      | 'claudeProblems'
      | 'projectRules'
      | 'project'
      | 'mcpProblems'
      | 'telemetryProblem'
      | 'memory'
      | 'memoryProblems'
      | 'config'
      | 'agentProblems'
      | 'checkProblems'
      | 'knownSecretsDropped'
    >
  >,
  lang: Lang,
  cwd?: string,
): string[] {
  const lines: string[] = [...memoryNotices(app, lang, cwd)];
  if (app.telemetryProblem) lines.push(t(lang, app.telemetryProblem.key, app.telemetryProblem.vars));
  if (app.knownSecretsDropped) lines.push(t(lang, 'knownSecretsDropped', { count: app.knownSecretsDropped }));
  for (const p of app.checkProblems ?? []) lines.push(t(lang, 'checksIgnored', { file: p.source, error: p.error }));
  for (const p of app.agentProblems ?? [])
    lines.push(
      t(lang, p.key === 'agentUnknownTool' ? 'agentToolLeftOut' : 'agentFileIgnored', { file: p.file, error: t(lang, p.key, p.vars) }),
    );
  for (const p of app.hookProblems ?? []) lines.push(t(lang, 'hookIgnored', { file: p.source, error: p.error }));
  for (const p of app.claudeProblems ?? []) lines.push(t(lang, 'claudeSettingIgnored', { file: p.source, error: p.error }));
  for (const p of app.mcpProblems ?? []) lines.push(t(lang, 'mcpStartProblem', { name: p.name, source: p.source, error: p.error }));
  if (app.projectRules?.problem) lines.push(t(lang, 'projectRulesBroken', { problem: app.projectRules.problem }));
  const { extras, trust } = app.project ?? {};
  if (extras && (trust === 'untrusted' || trust === 'changed')) {
    lines.push(
      t(lang, trust === 'changed' ? 'projectExtrasChanged' : 'projectExtrasOff', {
        folder: extras.workspace,
        what: projectFilesText(extras.files),
      }),
    );
  }
  return lines;
}
