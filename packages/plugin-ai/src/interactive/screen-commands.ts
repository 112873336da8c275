/**
 * The slash commands of `ai -i` (the ScreenCommands layer of the screen), and what `/diff` and
 * `/export` print, from the agent and the workspace (no model request).
 */
import fs = require('fs');
import path = require('path');
import { RUN_MODES, type RunMode } from '../agent/runner-types';
import { findGitRoot } from '../context/project-context';
import { initPrompt } from '../extensions/init-prompt';
import { sessionsModule } from '../lazy-modules';
import type { CommandName } from './commands';
import { formatContext, formatProcesses, formatResumed, formatSessions } from './format';
import { mcpCommand } from './mcp-view';
import { ScreenExtras } from './screen-extras';
import { helpText, memoryText } from './screen-help';
import {
  formatCheckpoints,
  formatCost,
  formatModels,
  formatRewind,
  formatUndo,
  modelOf,
  parseModelArg,
  parseRewindArg,
} from './session-views';
import { permissionsText, trustCommand } from './trust-view';
import type { AppAgent } from '../cli/app';
import type { Lang } from '../i18n';
import type { Step } from '../context/protocol';
import { collectDiff, newFileLines } from './diff-view';
import { exportTarget, transcriptMarkdown, writeExport } from './export';
import { colorDiff } from './screen-text';
import { toolRunner } from '../lazy-modules';
import type { Theme } from './theme';
import { t } from '../i18n';

/** Diff lines printed at most; the rest is counted (`git diff` shows all). */
export const DIFF_MAX_LINES = 1500;

/** `/diff`: the files (marked when this session changed them), the diff, new files' first lines. */
export async function diffText(
  app: Pick<AppAgent, 'agent'>,
  cwd: string,
  env: NodeJS.ProcessEnv,
  theme: Theme,
  lang: Lang,
): Promise<string> {
  const { gitRead } = toolRunner();
  const session = app.agent.changedFiles();
  const found = await collectDiff(cwd, session, (args) => gitRead(args, { cwd, env }));
  if ('error' in found)
    return theme.yellow(found.error === 'not_repo' ? t(lang, 'diffNotRepo', { cwd }) : t(lang, 'diffGitFailed', { detail: found.detail }));
  const mine = new Set(session);
  const mark = (rel: string) => (mine.has(path.join(found.root, rel)) ? theme.cyan(' ●') : '  ');
  const out: string[] = [];
  if (!found.changed.length && !found.untracked.length) out.push(t(lang, 'diffClean', { root: found.root }));
  else out.push(theme.bold(t(lang, 'diffHead', { root: found.root, changed: found.changed.length, untracked: found.untracked.length })));
  for (const rel of found.changed) out.push(`  ${theme.yellow('M')}${mark(rel)} ${rel}`);
  for (const rel of found.untracked) out.push(`  ${theme.green('?')}${mark(rel)} ${rel}`);
  if (session.some((f) => found.changed.concat(found.untracked).some((rel) => path.join(found.root, rel) === f)))
    out.push(theme.dim(t(lang, 'diffLegend')));
  const lines = found.diff
    .replace(/\n$/, '')
    .split('\n')
    .filter((l, i, all) => l || all.length > 1);
  const body: string[] = [...(found.diff ? lines : [])];
  for (const rel of found.untracked) {
    const file = path.join(found.root, rel);
    // A new file's text only where the model could read it without a question (never a secret file).
    const secret = app.agent.verdictOf({ tool: 'fs.read', path: file } as Step).level !== 'L0';
    const shown = secret ? undefined : newFileLines(file);
    body.push(`+++ ${rel} ${t(lang, 'diffNewFile')}`);
    if (secret) body.push(t(lang, 'diffSecret'));
    else if (!shown) body.push(t(lang, 'diffNotText'));
    else body.push(...shown.lines, ...(shown.more ? [t(lang, 'diffMoreLines', { n: shown.more })] : []));
  }
  if (body.length) {
    out.push('', ...colorDiff(body.slice(0, DIFF_MAX_LINES).join('\n'), theme));
    if (body.length > DIFF_MAX_LINES) out.push(theme.dim(t(lang, 'diffCut', { n: body.length - DIFF_MAX_LINES })));
  }
  const rel = (f: string) => path.relative(cwd, f) || f;
  if (found.sessionOnly.length) out.push(theme.dim(t(lang, 'diffSessionOnly', { files: found.sessionOnly.map(rel).join(', ') })));
  return out.join('\n');
}

/** `/export [file] [--force]`: write the conversation as Markdown; what to say. */
export function exportText(app: Pick<AppAgent, 'agent'>, arg: string, cwd: string, at: Date, theme: Theme, lang: Lang): string {
  const records = app.agent.transcript();
  if (!records.some((r) => r.t === 'user')) return theme.yellow(t(lang, 'exportEmpty'));
  const target = exportTarget(arg, cwd, app.agent.sessionId);
  if ('error' in target) return theme.yellow(t(lang, target.error === 'exists' ? 'exportExists' : 'exportFolder', { file: target.file }));
  try {
    writeExport(target.file, transcriptMarkdown(records, { id: app.agent.sessionId, cwd, at: at.toISOString(), lang }));
  } catch (err) {
    return theme.red(t(lang, 'exportFailed', { file: target.file, why: (err as Error).message.split('\n')[0] }));
  }
  const messages = records.filter((r) => r.t === 'user').length;
  return theme.green(t(lang, target.replaced ? 'exportReplaced' : 'exportWritten', { file: target.file, n: messages }));
}

/** The slash commands of `ai -i`: `command` routes each to what answers it. */
export abstract class ScreenCommands extends ScreenExtras {
  protected async command(name: CommandName, arg: string): Promise<void> {
    const { agent } = this.app!;
    if (this.extensionCommand(name, arg)) return;
    switch (name) {
      case 'help':
        return this.print(helpText(this.app?.commands ?? [], this.theme, this.lang));
      case 'exit':
        return this.exit();
      case 'clear':
        return this.clearCommand(name);
      case 'compact':
        if (this.busyOnly(name)) return;
        return this.compact();
      case 'context':
        return this.print(formatContext(agent.contextSizes(), this.theme, this.lang).join('\n'));
      case 'cost':
        return this.print(formatCost(agent.cost(), this.lastTurnUsage && agent.cost(this.lastTurnUsage), this.lang).join('\n'));
      case 'mode':
        return this.print(this.modeCommand(arg));
      case 'profile':
        return this.print(this.profileCommand(arg));
      case 'sessions':
        return this.print(formatSessions(agent.listSessions(), agent.sessionId, this.theme, this.lang).join('\n'));
      case 'resume':
        return this.resumeCommand(name, arg);
      case 'steer':
        return this.steerCommand(arg);
      case 'ps':
        return this.print(formatProcesses(agent.processes(), this.theme, this.lang).join('\n'));
      case 'memory':
        return this.print(
          memoryText(this.app!.memory, this.app!.config.context.projectContextMaxTokens, this.options.cwd, this.theme, this.lang),
        );
      case 'model':
        return this.print(this.modelCommand(arg));
      case 'permissions':
        return this.print(this.permissionsCommand(arg));
      case 'mcp':
        return this.print(await mcpCommand(arg, this.app!.mcp, this.theme, this.lang, (text) => this.print(text)));
      case 'pull':
        return this.print((await this.modelService?.pull(arg, agent.getProfile())) ?? t(this.lang, 'pullNoService'));
      case 'trust':
        return this.print(trustCommand(arg, this.options.cwd, this.app!.paths.trust, this.lang));
      case 'rewind':
        return this.rewindCommand(name, arg);
      case 'init':
        if (this.task) return void this.queue.push(`/init ${arg}`.trim());
        return this.startTurn(initPrompt(this.projectRoot, arg, this.options.cwd));
      case 'diff':
        return this.print(await diffText(this.app!, this.options.cwd, this.env, this.theme, this.lang));
      case 'export':
        return this.print(exportText(this.app!, arg, this.options.cwd, new Date(this.now()), this.theme, this.lang));
      case 'edit':
        return this.editPrompt(arg || this.editor.text);
      case 'undo':
        if (this.busyOnly(name)) return;
        return this.print(formatUndo(agent.undo(), this.options.cwd, this.theme, this.lang));
      case 'next':
        return this.nextCommand(arg);
    }
  }

  /** A command that cannot run during a turn says so; true when a turn runs. */
  private busyOnly(name: CommandName): boolean {
    if (!this.task) return false;
    this.print(this.theme.yellow(t(this.lang, 'busyCommand', { command: `/${name}` })));
    return true;
  }

  /** `/clear`: a new conversation; what was queued goes too. */
  private clearCommand(name: CommandName): void {
    if (this.busyOnly(name)) return;
    const { agent } = this.app!;
    agent.clear();
    this.queue.length = 0;
    this.print(t(this.lang, 'screenCleared', { id: agent.sessionId }));
  }

  /** `/mode [low|high|<run mode>]`: the tier or the run mode set, or both shown. */
  private modeCommand(arg: string): string {
    const { agent } = this.app!;
    if (arg === 'low' || arg === 'high') {
      agent.setMode(arg);
      return t(this.lang, 'screenModeSet', { mode: arg });
    }
    if ((RUN_MODES as readonly string[]).includes(arg)) {
      const r = agent.setRunMode(arg as RunMode);
      return r.ok
        ? t(this.lang, 'runModeNow', { mode: arg })
        : this.theme.yellow(t(this.lang, 'runModeSkipped', { mode: arg, reason: r.reason }));
    }
    return t(this.lang, 'modeNow', { mode: agent.getMode() }) + '\n' + t(this.lang, 'runModeNow', { mode: agent.getRunMode() });
  }

  /** `/profile [name]`: switch to a profile llm-base knows, or show the current one. */
  private profileCommand(arg: string): string {
    const { agent } = this.app!;
    if (!arg) return t(this.lang, 'profileNow', { profile: agent.getProfile() ?? this.llmDefault ?? t(this.lang, 'defaultProfile') });
    const names = this.llmProfiles?.names;
    if (names && !names.includes(arg)) {
      return this.theme.yellow(t(this.lang, 'profileMissing', { profile: arg, list: names.join(', ') || '-' }));
    }
    agent.setProfile(arg);
    return t(this.lang, 'screenProfileSet', { profile: arg });
  }

  /** `/resume <id>`: a session of this folder, by its id. */
  private resumeCommand(name: CommandName, arg: string): void {
    if (this.busyOnly(name)) return;
    if (!arg) return this.print(t(this.lang, 'resumeUsage'));
    const file = path.join(this.app!.paths.sessionsDir, `${arg}.jsonl`);
    if (!/^[\w.-]+$/.test(arg) || !fs.existsSync(file)) return this.print(this.theme.yellow(t(this.lang, 'resumeMissing', { id: arg })));
    const { skipped } = this.app!.agent.resume(arg);
    this.print(this.resumedText(arg, skipped));
  }

  /** `/steer <text>`: into the running turn; first in the queue when it cannot take it; idle, a turn of its own. */
  private steerCommand(arg: string): void {
    if (!arg) return this.print(t(this.lang, 'steerUsage'));
    if (this.task && this.app!.agent.steer(arg)) return this.print(this.theme.dim(`↳ ${t(this.lang, 'steered')}`));
    if (this.task) {
      this.queue.unshift(arg);
      return;
    }
    this.print(this.theme.dim(t(this.lang, 'steerIdle')));
    this.startTurn(arg);
  }

  /** `/rewind [turn]`: the checkpoints, or back to one. */
  private rewindCommand(name: CommandName, arg: string): void {
    const { agent } = this.app!;
    if (!arg) return this.print(formatCheckpoints(agent.checkpoints(), this.theme, this.lang).join('\n'));
    if (this.busyOnly(name)) return;
    const pick = parseRewindArg(arg);
    const done = pick && agent.rewind(pick.turn, pick);
    if (!done) return this.print(this.theme.yellow(t(this.lang, pick ? 'rewindMissing' : 'rewindUsage', { turn: pick?.turn ?? 0 })));
    this.refreshContextFill();
    this.print(formatRewind(done, this.options.cwd, this.theme, this.lang).join('\n'));
  }

  /** `/next <text>`: queued after the running turn, or sent now. */
  private nextCommand(arg: string): void {
    if (!arg) return this.print(t(this.lang, 'nextUsage'));
    if (this.task) {
      this.queue.push(arg);
      return this.print(this.theme.dim(t(this.lang, 'nextQueued')));
    }
    this.startTurn(arg);
  }

  /** `/permissions [args]`: the rules in force, or one added (in the project when asked). */
  private permissionsCommand(arg: string): string {
    const cwd = this.options.cwd;
    return permissionsText(arg, this.app!.paths.config, findGitRoot(cwd) ?? cwd, this.theme, this.lang, this.app!.otherRules);
  }

  /** `/model`: list the profiles' models, or switch profile and/or tier; the conversation stays. */
  private modelCommand(arg: string): string {
    const agent = this.app!.agent;
    if (!arg)
      return formatModels(this.llmProfiles, { profile: agent.getProfile(), tier: agent.getMode() }, this.theme, this.lang).join('\n');
    const pick = parseModelArg(arg, this.llmProfiles);
    if ('error' in pick)
      return this.theme.yellow(
        t(this.lang, pick.error === 'tier' ? 'modelUsage' : 'profileMissing', {
          profile: arg.split(':')[0],
          list: this.llmProfiles?.names.join(', ') || '-',
        }),
      );
    if (pick.profile) agent.setProfile(pick.profile);
    if (pick.tier) agent.setMode(pick.tier);
    const tier = agent.getMode();
    const profile = agent.getProfile() ?? this.llmDefault ?? t(this.lang, 'defaultProfile');
    return t(this.lang, 'modelNow', { profile, tier, model: modelOf(this.llmProfiles, agent.getProfile(), tier) ?? '?' });
  }

  /** What `/resume` (and `-c`) says: the id, and the last exchanges so the user sees where
   * the conversation was. */
  resumedText(id: string, skipped: number): string {
    const { records } = new (sessionsModule().SessionStore)(this.app!.paths.sessionsDir).read(id);
    return formatResumed(id, records, skipped, this.theme, this.lang, this.surface.columns).join('\n');
  }
}
