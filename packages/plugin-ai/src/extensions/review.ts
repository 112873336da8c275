/**
 * `/review [focus]`, built in (a user's or a project's `review` command replaces it): the
 * workspace's changes — `git diff HEAD` and the untracked files — reviewed by a read-only helper
 * agent (agent.run in plan mode), its findings listed by file and line. Every step is one the
 * runner judges like any other (git runs hardened and sandboxed, the child plans), taken by Claude
 * Code's names as a command's `` !`…` `` is (`Bash`, `Task`); no tool is named here.
 */
import type { ToolResult } from '../agent/runner-types';
import type { Step } from '../context/protocol';
import type { CommandTurn } from './command-run';

/** How much of the diff goes into the reviewer's task (agent.run takes 20,000 characters). */
const MAX_DIFF_CHARS = 14_000;
const MAX_UNTRACKED = 50;
const MAX_STAT_CHARS = 3000;

/** One finding of the reviewer, where it is. */
export interface Finding {
  file: string;
  line: number;
  severity?: string;
  text: string;
}

/** The reviewer's answer read as findings (`path:line: [severity] text`), by file and line; what else it said, as it is. */
export function parseFindings(answer: string): { findings: Finding[]; other: string[] } {
  const findings: Finding[] = [];
  const other: string[] = [];
  for (const raw of answer.split('\n')) {
    const line = raw
      .trim()
      .replace(/^[-*\u2022]\s+|^\d+\.\s+/, '')
      .replace(/`/g, '');
    if (!line || /^no findings\.?$/i.test(line)) continue;
    const m = /^([^\s:][^:\n]*?):(\d+)(?:[-\u2013]\d+)?:?\s*(?:\[(\w+)\]|\((\w+)\))?\s*[:\u2014-]?\s*(.+)$/.exec(line);
    if (m)
      findings.push({
        file: m[1],
        line: Number(m[2]),
        ...(m[3] || m[4] ? { severity: (m[3] ?? m[4]).toLowerCase() } : {}),
        text: m[5].trim(),
      });
    else other.push(line);
  }
  findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return { findings, other };
}

/** Findings as the list the parent presents: `- file:line [severity] text`, by file and line. */
export function findingsText(findings: readonly Finding[]): string {
  return findings.map((f) => `- ${f.file}:${f.line}${f.severity ? ` [${f.severity}]` : ''} ${f.text}`).join('\n');
}

/** What a step printed, or why it gave nothing (not run, an error). */
function output(result: ToolResult): { text: string; ok: boolean; cut: boolean } {
  if (result.status === 'blocked' || result.status === 'declined' || result.status === 'error') return { text: '', ok: false, cut: false };
  const ok = typeof result.exitCode !== 'number' || result.exitCode === 0;
  return { text: String(result.stdoutTail ?? ''), ok, cut: result.truncated === true };
}

/** The reviewer's task: what to look for, how to answer, and the changes. */
export function reviewTask(parts: { focus: string; stat: string; diff: string; diffCut: boolean; untracked: string[] }): string {
  const diff = parts.diff.length > MAX_DIFF_CHARS || parts.diffCut ? undefined : parts.diff;
  return [
    'Review the uncommitted changes of this git repository (git diff HEAD, and the untracked files) for bugs, security problems, missing error handling and tests that should change.',
    ...(parts.focus ? [`Focus on: ${parts.focus}`] : []),
    'Read the code around a change with fs.read where the diff is not enough; change nothing.',
    'Answer with one finding per line, in this form and nothing else:',
    'path/to/file:LINE: [high|medium|low] what is wrong, and how to fix it',
    '(the path relative to the repository root, LINE a line of the file as it is now). With nothing to report, answer exactly: No findings.',
    '',
    'Changed files (git diff HEAD --stat):',
    parts.stat.trim().slice(0, MAX_STAT_CHARS) || '(none)',
    ...(parts.untracked.length
      ? ['', 'Untracked files (read them with fs.read):', ...parts.untracked.slice(0, MAX_UNTRACKED).map((f) => `- ${f}`)]
      : []),
    ...(parts.untracked.length > MAX_UNTRACKED ? [`- … and ${parts.untracked.length - MAX_UNTRACKED} more`] : []),
    '',
    ...(diff !== undefined
      ? ['The diff:', '```diff', diff.trimEnd(), '```']
      : [
          'The diff is too long to quote: read each changed file\'s with {"tool":"exec","program":"git","args":["diff","HEAD","--","<file>"]}.',
        ]),
  ].join('\n');
}

/** The message the parent gets: the reviewer's findings by file and line, and how to present them. */
function parentMessage(focus: string, agentResult: ToolResult): string {
  const head = `/review${focus ? ` ${focus}` : ''}: a read-only reviewer agent reviewed the workspace's uncommitted changes (git diff HEAD and the untracked files).`;
  const answer = typeof agentResult.answer === 'string' ? agentResult.answer : '';
  if (agentResult.outcome !== 'answered' || !answer) {
    const why =
      (agentResult.error as { message?: string } | undefined)?.message ??
      agentResult.reason ??
      agentResult.outcome ??
      agentResult.status ??
      'no answer';
    return `${head}\nThe review did not finish (${String(why)}). Tell the user, in one or two sentences, and offer to try again.`;
  }
  const { findings, other } = parseFindings(answer);
  if (!findings.length && !other.length) return `${head}\nIt found nothing to report. Tell the user so in one sentence.`;
  return [
    head,
    ...(findings.length ? ['Its findings, by file and line:', findingsText(findings)] : []),
    ...(other.length ? ['It also said:', ...other.map((l) => `  ${l}`)] : []),
    '',
    'Present these findings to the user grouped by file, in order of line, each with its file:line and severity; check any you doubt with fs.read first and say which you could not confirm. Do not change any file.',
  ].join('\n');
}

/** The steps of a review, as Claude Code names them (the tools that declare those names take them). */
type MakeStep = (name: string, input: Record<string, unknown>) => { step: Step } | { error: string };

/** Collect the changes, have a plan-mode child review them, and say what it found: the parent's message. */
export async function runReview(focus: string, run: (step: Step) => Promise<ToolResult>, make: MakeStep): Promise<string> {
  const bash = async (command: string) => {
    const made = make('Bash', { command });
    return 'error' in made ? { text: '', ok: false, cut: false } : output(await run(made.step));
  };
  let stat = await bash('git diff HEAD --stat --no-color');
  let diff = await bash('git diff HEAD --no-color --no-ext-diff');
  // A repository without a commit yet: what is staged is the change.
  if (!stat.ok) {
    stat = await bash('git diff --cached --stat --no-color');
    diff = await bash('git diff --cached --no-color --no-ext-diff');
  }
  const untracked = (await bash('git ls-files --others --exclude-standard')).text.split('\n').filter(Boolean);
  if (!stat.text.trim() && !diff.text.trim() && !untracked.length) {
    return `/review${focus ? ` ${focus}` : ''}: there is nothing to review — no changes against HEAD and no untracked files. Tell the user so in one sentence.`;
  }
  const task = reviewTask({ focus, stat: stat.text, diff: diff.text, diffCut: diff.cut, untracked });
  const child = make('Task', { prompt: task, subagent_type: 'Plan', description: 'review the workspace changes' });
  if ('error' in child) return `/review could not start a reviewer: ${child.error}. Tell the user.`;
  return parentMessage(focus, await run(child.step));
}

/** The turn of the built-in `/review`: its prompt is made by the review itself, step by step. */
export function reviewTurn(focus: string, make: MakeStep, gitRoot: string | undefined, cwd: string): CommandTurn {
  const message = `/review ${focus}`.trim();
  if (!gitRoot) return { message, options: {}, notes: [], refused: { key: 'reviewNotGit', vars: { folder: cwd } } };
  return { message, options: { prepare: (run) => runReview(focus.trim(), run, make) }, notes: [] };
}
