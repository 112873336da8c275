/**
 * `/diff`: the workspace's uncommitted changes as git sees them (`git diff HEAD`, or the index and
 * the work tree before the first commit) plus its untracked files, each file marked when this
 * session's fs steps changed it (the file journal `/undo` and `/rewind` use). No model request.
 * git runs through tool-runner's hardened read (no shell; the repository's diff drivers, textconv,
 * filters, fsmonitor and pager off), never through a shell.
 */
import fs = require('fs');
import path = require('path');
import type { ExecResult } from '@holic512/tool-runner';

/** What /diff found. */
export interface WorkspaceDiff {
  /** The repository's top folder (real path). */
  root: string;
  /** `git diff` output (no colour). */
  diff: string;
  /** Files in the diff, relative to the root. */
  changed: string[];
  /** Untracked files (not ignored), relative to the root. */
  untracked: string[];
  /** The session's changed files (real paths) that git shows neither as changed nor as untracked. */
  sessionOnly: string[];
}

export type DiffOutcome = WorkspaceDiff | { error: 'not_repo' } | { error: 'git'; detail: string };

type Git = (args: string[]) => Promise<ExecResult>;

/** Collect the diff in `cwd`; `sessionFiles`: real paths this session changed. */
export async function collectDiff(cwd: string, sessionFiles: readonly string[], git: Git): Promise<DiffOutcome> {
  const top = await git(['rev-parse', '--show-toplevel']);
  if (top.error) return { error: 'git', detail: top.error.message };
  if (top.exitCode !== 0) return { error: 'not_repo' };
  const root = fs.realpathSync(top.stdoutTail.trim());
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD']);
  // Before the first commit there is no HEAD: what is staged, then what is not.
  const diffArgs = ['-c', 'core.quotePath=false', 'diff', '--no-color'];
  const parts = head.exitCode === 0 ? [await git([...diffArgs, 'HEAD'])] : [await git([...diffArgs, '--cached']), await git(diffArgs)];
  const failed = parts.find((p) => p.exitCode !== 0);
  if (failed) return { error: 'git', detail: failed.stderrTail.trim() || `exit ${String(failed.exitCode)}` };
  const diff = parts.map((p) => p.stdoutTail).join('');
  // Names as they are (core.quotePath off); one a line (NUL-separated output reads as binary).
  const others = await git(['-c', 'core.quotePath=false', 'ls-files', '--others', '--exclude-standard', '--full-name', ':/']);
  const untracked = others.exitCode === 0 ? others.stdoutTail.split('\n').filter(Boolean) : [];
  const changed = [...new Set([...diff.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)].map((m) => m[2]))];
  const shown = new Set([...changed, ...untracked].map((rel) => path.join(root, rel)));
  const sessionOnly = sessionFiles.filter((f) => !shown.has(f));
  return { root, diff, changed, untracked, sessionOnly };
}

/** Lines of a new file shown under /diff at most. */
export const NEW_FILE_LINES = 40;

/** The first lines of an untracked text file as added lines, or undefined for a binary or unreadable one. */
export function newFileLines(file: string, max = NEW_FILE_LINES): { lines: string[]; more: number } | undefined {
  let buf: Buffer;
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > 1024 * 1024) return undefined;
    buf = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (buf.includes(0)) return undefined;
  const all = buf.toString('utf8').replace(/\n$/, '').split('\n');
  return { lines: all.slice(0, max).map((l) => `+${l}`), more: Math.max(0, all.length - max) };
}
