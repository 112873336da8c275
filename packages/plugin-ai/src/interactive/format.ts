/** How steps, results and command answers look on the screen. Pure: data in, lines out. */
import type { ContextSizes } from '../context/context';
import type { Step } from '../context/protocol';
import type { Decision, Level, ProcInfo, Rule, ToolResult } from '../agent/runner-types';
import type { SessionInfo, SessionRecord } from '../sessions/sessions';
import { t, type Lang } from '../i18n';
import { NOT_RUN, sandboxNote } from '../cli/render';
import type { Theme } from './theme';
import { stripAnsi, truncateWidth } from './width';

import { describeStep } from '../agent/step-label';

export { describeStep };

/** Lines of command output shown once a step is done (its tail). */
export const TAIL_LINES = 5;

export function levelBadge(level: Level, theme: Theme): string {
  const paint = level === 'L0' ? theme.green : level === 'L1' ? theme.yellow : theme.red;
  return paint(`[${level}]`);
}

/** The rules that decided the level (those at the decision's level), at most `max`. */
export function decidingRules(decision: Decision, max = 2): Rule[] {
  const at = decision.rules.filter((r) => r.level === decision.level);
  return (at.length ? at : decision.rules).slice(0, max);
}

/** A step as shown before it runs: the command, its level, and the rule that decided it. */
export function formatStep(step: Step, decision: Decision, theme: Theme, lang: Lang, label?: string): string[] {
  const lines = [`${theme.bold('●')} ${levelBadge(decision.level, theme)} ${theme.bold(label ?? describeStep(step))}`];
  for (const rule of decidingRules(decision)) lines.push(theme.dim(`  ${t(lang, 'rule', { id: rule.id, reason: rule.reason })}`));
  return lines;
}

/** Output text → display lines (control sequences removed, trailing newline ignored). */
export function outputLines(text: string): string[] {
  const clean = stripAnsi(text)
    .replace(/\r\n/g, '\n')
    .replace(/[^\n]*\r/g, '')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
  if (!clean) return [];
  const lines = clean.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The last `n` lines and how many were hidden above them. */
export function tail(lines: string[], n: number): { shown: string[]; hidden: number } {
  return { shown: lines.slice(-n), hidden: Math.max(0, lines.length - n) };
}

/** A finished step: the collapsed tail of its output, then how it ended. `output` is what
 * streamed live (the runner's tails are used when nothing streamed). */
export function formatResult(
  result: ToolResult,
  output: string,
  theme: Theme,
  lang: Lang,
  configFile: string,
  /** Lines printed in all, when `output` was cut to its tail while streaming. */
  totalLines?: number,
  /** Lines of output shown at most (a command the person ran shows far more than a step's tail). */
  tailLines = TAIL_LINES,
): string[] {
  const lines: string[] = [];
  if (result.blockedBy === 'hook') {
    lines.push(
      `  ${theme.red('⎿')} ${theme.red(t(lang, 'stepBlockedByHook'))}${result.hookReason ? theme.dim(` — ${result.hookReason}`) : ''}`,
    );
    return lines;
  }
  if (result.status === 'blocked') {
    lines.push(`  ${theme.red('⎿')} ${theme.red(t(lang, 'blocked', { level: result.decision.level }))}`);
    // The deciding rule was shown with the step; here: the other reasons, and how to allow it.
    const shown = new Set(decidingRules(result.decision).map((r) => r.id));
    for (const rule of decidingRules(result.decision, 3)) {
      if (!shown.has(rule.id)) lines.push(`    ${t(lang, 'rule', { id: rule.id, reason: rule.reason })}`);
      if (rule.hint) lines.push(`    ${theme.cyan(t(lang, 'howToAllow', { hint: rule.hint }))}`);
    }
    lines.push(theme.dim(`    ${t(lang, 'configAt', { file: configFile })}`));
    return lines;
  }
  if (result.status === 'declined') {
    const notRun = result.notRun ? NOT_RUN[result.notRun] : undefined;
    const word = t(lang, notRun ? 'skipped' : 'declined');
    const detail = notRun ? t(lang, notRun) : result.reason;
    lines.push(`  ${theme.yellow('⎿')} ${theme.yellow(word)}${detail ? theme.dim(` — ${detail}`) : ''}`);
    return lines;
  }
  if (result.status === 'applied' || result.status === 'unchanged' || result.status === 'error') {
    const word = t(lang, result.status === 'error' ? 'patchError' : result.status);
    const paint = result.status === 'error' ? theme.red : theme.green;
    const detail = result.status === 'error' ? errorText(result.error) : result.summary;
    lines.push(`  ${paint('⎿')} ${paint(word)}${detail ? theme.dim(` — ${detail}`) : ''}`);
    if (result.backupPath) lines.push(theme.dim(`    ${t(lang, 'backup', { file: String(result.backupPath) })}`));
    return lines;
  }
  const text = output || [result.stdoutTail, result.stderrTail].filter((t) => typeof t === 'string').join('');
  if (typeof result.summary === 'string') {
    // fs.read, http.get, proc.*: what they read is for the model; the user gets the runner's
    // one-line summary (and a background process's output tail).
    const { shown, hidden } = tail(typeof result.state === 'string' ? outputLines(text) : [], TAIL_LINES);
    if (hidden) lines.push(theme.dim(`  │ ${t(lang, 'moreLines', { n: hidden })}`));
    for (const line of shown) lines.push(theme.dim(`  │ ${line}`));
    lines.push(`  ${theme.green('⎿')} ${result.summary}`);
    return lines;
  }
  const all = outputLines(text);
  const { shown } = tail(all, tailLines);
  const hidden = Math.max(all.length, totalLines ?? 0) - shown.length;
  if (hidden) lines.push(theme.dim(`  │ ${t(lang, 'moreLines', { n: hidden })}`));
  for (const line of shown) lines.push(theme.dim(`  │ ${line}`));
  let end: string;
  if (result.timedOut) end = theme.red(t(lang, 'timedOut'));
  else if (result.signal) end = theme.yellow(t(lang, 'signalLine', { signal: String(result.signal) }));
  else if (result.exitCode === undefined) end = theme.green(typeof result.summary === 'string' ? result.summary : t(lang, 'done'));
  else end = (result.exitCode === 0 ? theme.green : theme.red)(t(lang, 'exitLine', { code: String(result.exitCode) }));
  const ms = typeof result.durationMs === 'number' ? theme.dim(` · ${formatDuration(result.durationMs)}`) : '';
  lines.push(`  ${theme.dim('⎿')} ${end}${ms}`);
  const sandbox = sandboxNote(result, lang, '');
  if (sandbox) lines.push(`    ${theme.yellow(sandbox)}`);
  return lines;
}

function errorText(error: unknown): string {
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return error === undefined ? '' : String(error);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** Elapsed seconds for the spinner: `7s`, `1m 05s`. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** `1234` → `1.2k`. */
export function formatTokens(n: number): string {
  return n < 1000 ? String(n) : `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
}

/** `/context`: each part against the request budget, with a bar; then the fold marks and how far the next fold is. */
export function formatContext(sizes: ContextSizes, theme: Theme, lang: Lang): string[] {
  const rows: Array<[string, number, string?]> = [
    [t(lang, 'contextSystem'), sizes.system],
    [t(lang, 'contextSummary'), sizes.summary],
    [t(lang, 'contextWindow'), sizes.window, t(lang, 'contextMessages', { n: sizes.windowMessages })],
    [t(lang, 'contextTotal'), sizes.total],
  ];
  const nameWidth = Math.max(...rows.map((r) => r[0].length));
  const lines = [theme.bold(t(lang, 'contextTitle', { budget: sizes.budget }))];
  for (const [name, value, extra] of rows) {
    const pct = sizes.budget > 0 ? Math.min(100, Math.round((value / sizes.budget) * 100)) : 0;
    const filled = Math.round(pct / 5);
    const bar = theme.cyan('█'.repeat(filled)) + theme.dim('░'.repeat(20 - filled));
    lines.push(
      `  ${name.padEnd(nameWidth)}  ${bar} ${String(value).padStart(6)}  ${String(pct).padStart(3)}%${extra ? theme.dim(`  ${extra}`) : ''}`,
    );
  }
  lines.push(
    theme.dim(`  ${t(lang, 'contextMarks', { fold: sizes.marks.fold, summarize: sizes.marks.summarize, target: sizes.marks.target })}`),
  );
  lines.push(theme.dim(`  ${t(lang, 'contextNextFold', { left: sizes.nextFold, folds: sizes.folds })}`));
  return lines;
}

/** `/ps`: the session's background processes, oldest first; detached ones name their log file. */
export function formatProcesses(list: ReadonlyArray<ProcInfo>, theme: Theme, lang: Lang): string[] {
  if (!list.length) return [t(lang, 'psNone')];
  const lines = list.map((p) => {
    const time = formatDuration(p.runningMs);
    const state =
      p.state === 'running'
        ? theme.green(t(lang, 'psRunning', { time }))
        : theme.dim(t(lang, 'psExited', { code: String(p.exitCode ?? '-'), time }));
    const detached = p.logFile ? `  ${theme.yellow(t(lang, 'psDetached', { file: p.logFile }))}` : '';
    return `  ${theme.bold(p.proc_id)}  ${p.pid ?? '-'}  ${[p.program, ...p.args].join(' ')}  ${state}${detached}`;
  });
  lines.push(theme.dim(t(lang, 'psHint')));
  return lines;
}

/** `/sessions`: newest first, the current one marked. */
export function formatSessions(list: SessionInfo[], current: string, theme: Theme, lang: Lang, max = 20): string[] {
  if (!list.length) return [t(lang, 'screenSessionsNone')];
  const lines = list.slice(0, max).map((s) => {
    const mark = s.id === current ? theme.green('*') : ' ';
    const when = s.updatedAt.replace('T', ' ').slice(0, 16);
    return `${mark} ${theme.bold(s.id)}  ${theme.dim(when)}  ${s.title || theme.dim('—')}  ${theme.dim(s.cwd)}`;
  });
  lines.push(theme.dim(t(lang, 'sessionsHint')));
  return lines;
}

/** What `/resume` and `-c` say: the session, and its last exchanges (dim, one line each),
 * so the user sees where the conversation was. */
export function formatResumed(id: string, records: SessionRecord[], skipped: number, theme: Theme, lang: Lang, width: number): string[] {
  const lines = [theme.green(t(lang, 'screenResumed', { id, messages: records.length }))];
  if (skipped) lines.push(theme.yellow(t(lang, 'resumedSkipped', { n: skipped })));
  const turns = records.filter((r): r is Extract<SessionRecord, { t: 'user' | 'assistant' }> => r.t === 'user' || r.t === 'assistant');
  for (const r of turns.slice(-4)) {
    const text = r.t === 'assistant' ? assistantMessage(r.content) : r.content;
    const first = truncateWidth(text.split('\n')[0], width - 4);
    lines.push(theme.dim(r.t === 'user' ? `› ${first}` : `  ${first}`));
  }
  return lines;
}

/** An assistant turn is stored compactly as JSON `{type, message, ran?}`; its message. */
function assistantMessage(content: string): string {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return content; // an older record stored as plain text
  }
  const message = value && typeof value === 'object' ? (value as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : content;
}
