/**
 * Checks after edits (issue #46), as opencode feeds back diagnostics and aider runs lint: `checks`
 * in ai.json or a trusted project's `.slothtool/settings.json` — `[{"match": "<glob>", "run":
 * ["program", "arg", …]}]`. After a reply's steps, each check whose glob matches a file the reply
 * changed runs once (agent/checks-run.ts), and a trimmed digest of what it printed — its exit code
 * and first errors — joins the result of the last matching edit. Pure, but for reading the file.
 */
import path = require('path');
import { redact } from '@holic512/shared';
import type { ToolResult } from '../agent/runner-types';
import { configSchemas, picomatchModule } from '../lazy-modules';

/** One check, with the file it comes from. */
export interface Check {
  match: string;
  run: string[];
  /** ai.json or the project's `.slothtool/settings.json`. */
  source: string;
}

/** A `checks` entry that could not be used, with why. */
export interface CheckProblem {
  source: string;
  error: string;
}

/** `checks` of a settings file, checked with ai.json's schema (the one schema of a check): those that can be used, and why not the others. */
export function readChecks(value: unknown, source: string): { checks: Check[]; problems: CheckProblem[] } {
  if (value === undefined) return { checks: [], problems: [] };
  const parsed = configSchemas().ChecksSchema.safeParse(value);
  if (parsed.success) return { checks: parsed.data.map((c) => ({ ...c, source })), problems: [] };
  const error = parsed.error.issues
    .slice(0, 3)
    .map((i) => `checks${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`)
    .join('; ');
  return { checks: [], problems: [{ source, error }] };
}

type Matcher = (rel: string) => boolean;
const matchers = new Map<string, Matcher>();

/** Whether a path (relative to the workspace, with `/`) is one a check's glob covers; a glob without `/` matches the file's name anywhere. */
export function checkMatches(match: string, rel: string): boolean {
  let m = matchers.get(match);
  if (!m) {
    m = picomatchModule()(match, { dot: true, basename: !match.includes('/') });
    matchers.set(match, m);
  }
  return m(rel);
}

/** A check in one line, as it runs: `npx tsc --noEmit`. */
export function checkLine(check: Pick<Check, 'run'>): string {
  return check.run.map((w) => (w === '' || /[\s'"\\$`*?[\]{}()<>|;&#~]/.test(w) ? `'${w.replace(/'/g, `'\\''`)}'` : w)).join(' ');
}

/** The file a reply's step changed (the runner's journal), by the step's id. */
export interface Change {
  stepId: string;
  path: string;
}

/** What a reply's changes call for: each check once, with the files it matched and the step whose result gets its digest (the last matching one). */
export function checksFor(
  changes: readonly Change[],
  checks: readonly Check[],
  workspace: string,
): Array<{ check: Check; stepId: string; files: string[] }> {
  const out: Array<{ check: Check; stepId: string; files: string[] }> = [];
  for (const check of checks) {
    const hits = changes.filter((c) => {
      const rel = path.relative(workspace, c.path);
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) && checkMatches(check.match, rel.split(path.sep).join('/'));
    });
    if (hits.length)
      out.push({
        check,
        stepId: hits[hits.length - 1].stepId,
        files: [...new Set(hits.map((h) => path.relative(workspace, h.path).split(path.sep).join('/')))],
      });
  }
  return out;
}

/** A check's outcome as the model reads it beside the edit. */
export interface CheckDigest {
  /** The check as it runs. */
  run: string;
  /** `passed` (exit 0), `failed` (another exit code), `not_run` (declined, refused, or declined earlier this session), `error` (it could not start or ran out of time). */
  status: 'passed' | 'failed' | 'not_run' | 'error';
  exitCode?: number | null;
  /** The first error lines it printed (at most 12 lines, 2,000 characters), redacted. */
  errors?: string[];
  /** More lines matched than are shown. */
  more?: number;
  /** Why it did not run, or what else to know. */
  note?: string;
}

const MAX_LINES = 12;
const MAX_CHARS = 2000;
const MAX_LINE = 300;

/** A line a compiler or linter prints about a problem: `file:line`, `file(line,col)`, `error`, `warning`, cargo's `-->`. */
const PROBLEM = /^\s*\S+?(?::\d+(?::\d+)?|\(\d+,\d+\))|\berror\b|\bwarning\b|^\s*-->\s|\bFAIL(ED)?\b|\u2716/i;

/** The first problem lines of what a check printed (or, when none look like one, its first lines), cut to the caps. */
export function firstErrors(text: string): { errors: string[]; more: number } {
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l.trim() !== '');
  const problems = lines.filter((l) => PROBLEM.test(l));
  const pick = problems.length ? problems : lines;
  const errors: string[] = [];
  let size = 0;
  for (const line of pick) {
    const cut = line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
    if (errors.length >= MAX_LINES || size + cut.length > MAX_CHARS) break;
    errors.push(cut);
    size += cut.length;
  }
  return { errors, more: pick.length - errors.length };
}

/** The digest of one check run: its result (redacted by the runner), and the head of its output when it was captured (redacted here). */
export function checkDigest(check: Pick<Check, 'run'>, result: ToolResult, head?: string): CheckDigest {
  const run = checkLine(check);
  if (result.status === 'blocked' || result.status === 'declined')
    return { run, status: 'not_run', note: String(result.reason ?? result.decision.rules[0]?.reason ?? result.status) };
  if (result.status === 'error')
    return { run, status: 'error', note: String((result.error as { message?: string } | undefined)?.message ?? 'it could not run') };
  const exitCode = typeof result.exitCode === 'number' ? result.exitCode : null;
  if (exitCode === 0) return { run, status: 'passed', exitCode };
  // The head of the output holds the first errors; the runner keeps only the tail when it is long.
  const text = head !== undefined ? redact(head) : `${String(result.stderrTail ?? '')}\n${String(result.stdoutTail ?? '')}`;
  const { errors, more } = firstErrors(text);
  const why = result.timedOut
    ? 'it ran out of time'
    : result.sandbox?.denied
      ? `the sandbox stopped it (${String(result.sandbox.line ?? result.sandbox.denied)})`
      : undefined;
  return {
    run,
    status: exitCode === null ? 'error' : 'failed',
    exitCode,
    ...(errors.length ? { errors } : {}),
    ...(more > 0 ? { more } : {}),
    ...(why ? { note: why } : {}),
  };
}
