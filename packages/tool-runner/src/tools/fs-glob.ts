import fs = require('fs');
import path = require('path');
import { message } from '../i18n';
import type { FsGlobStep } from '../tool-steps';
import { walkFiles, type WalkStop } from './fs-walk';
import { withTimeLimit } from './time-limit';
import { toolError, type SessionToolContext, type ToolErrorResult } from './session';
import type { ResultDecision } from './types';
import { picomatch } from '../lazy-modules';

/** fs.glob result: matching files, newest first. */
export interface FsGlobResult {
  _event: 'tool_result';
  id: string;
  tool: 'fs.glob';
  pattern: string;
  path: string;
  /** Paths as fs.read takes them (the step's `path` joined with the match), newest first. */
  files: string[];
  /** Files that matched, shown or not. */
  total: number;
  /** More matched than are shown, or the walk stopped early (`note` says why). */
  truncated: boolean;
  note?: string;
  summary: string;
  decision: ResultDecision;
}

/** Files listed at most by default, and at all. */
export const GLOB_DEFAULT_LIMIT = 200;
/** Whole walk time limit of fs.glob and fs.grep's own walk. */
export const WALK_TIME_MS = 10_000;

/** A pattern as matched against paths below the searched folder: `./` dropped; undefined when it would leave that folder. */
export function relativePattern(pattern: string): string | undefined {
  const p = pattern.trim().replace(/^(\.\/)+/, '');
  if (!p || p.startsWith('/') || p.split('/').includes('..')) return undefined;
  return p;
}

/** Whether a folder (relative, `/`) may hold a match of a pattern whose fixed start is `base`. */
export function mayHold(base: string, relDir: string): boolean {
  if (!base) return true;
  return base === relDir || base.startsWith(`${relDir}/`) || relDir.startsWith(`${base}/`);
}

/** A path under the searched folder as the model names it next time: the step's own path joined with it. */
export function shownPath(stepPath: string | undefined, rel: string): string {
  if (!stepPath || stepPath === '.' || stepPath === './') return rel;
  return `${stepPath.replace(/\/+$/, '')}/${rel}`;
}

/** The searched folder as judged (links followed), or the error result saying why it cannot be searched. */
export function searchRoot(tool: string, p: string, ctx: SessionToolContext): { real: string; kind: 'file' | 'dir' } | ToolErrorResult {
  const target = ctx.judged ?? ctx.session.resolve(p);
  const f = p;
  if (!target.exists) return toolError(ctx, tool, 'NOT_FOUND', message('search.err.not_found', ctx.lang, { f }).reason, { path: f });
  if (target.kind !== 'dir' && target.kind !== 'file')
    return toolError(ctx, tool, 'NOT_A_FILE', message('fs.err.not_file', ctx.lang, { f }).reason, { path: f });
  return { real: target.real, kind: target.kind };
}

/** A stop of the walk told to the model. */
export function stopNote(stop: WalkStop | undefined, lang: SessionToolContext['lang'], limitMs = WALK_TIME_MS): string | undefined {
  if (!stop || stop === 'aborted') return undefined;
  return message(stop === 'time' ? 'search.note.time' : 'search.note.entries', lang, { s: Math.round(limitMs / 100) / 10 }).reason;
}

/**
 * fs.glob: the files under `path` (default: where the step runs) whose path relative to it
 * matches `pattern` (`**` any folders, `*` within a name, `{a,b}`, `[ab]`; dot files included),
 * `.gitignore` respected, `.git` skipped, links not followed; newest first, at most 200.
 */
export async function runFsGlob(step: FsGlobStep, ctx: SessionToolContext): Promise<FsGlobResult | ToolErrorResult> {
  const { lang, session } = ctx;
  const stepPath = step.path ?? '.';
  const pattern = relativePattern(step.pattern);
  if (!pattern)
    return toolError(ctx, 'fs.glob', 'INVALID_PATTERN', message('glob.err.pattern', lang, { p: step.pattern }).reason, {
      pattern: step.pattern,
    });
  const root = searchRoot('fs.glob', stepPath, ctx);
  if ('status' in root) return root;
  if (root.kind !== 'dir')
    return toolError(ctx, 'fs.glob', 'NOT_A_DIRECTORY', message('search.err.not_dir', lang, { f: stepPath }).reason, { path: stepPath });
  const found: Array<{ rel: string; mtime: number }> = [];
  // Under a hard time limit: the pattern and the repository's ignore lines become regular expressions.
  const limitMs = Math.min(WALK_TIME_MS, ctx.timeoutMs);
  const timed = withTimeLimit(limitMs, () => {
    const pm = picomatch();
    const match = pm(pattern, { dot: true, noextglob: true });
    const base = pm.scan(pattern).base;
    return walkFiles(
      {
        workspace: session.workspace,
        root: root.real,
        enter: (rel) => mayHold(base, rel),
        shouldStop: () => (ctx.signal?.aborted ? 'aborted' : undefined),
      },
      (file) => {
        if (!match(file.rel)) return;
        let mtime = 0;
        try {
          mtime = fs.lstatSync(file.abs).mtimeMs;
        } catch {
          // gone since it was listed: sorts last
        }
        found.push({ rel: file.rel, mtime });
      },
    );
  });
  const walked: { stopped?: WalkStop } = timed.done ? timed.value : { stopped: 'time' };
  // Newest first; equal times by name, so the order is stable.
  found.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const files = found.slice(0, GLOB_DEFAULT_LIMIT).map((f) => shownPath(step.path, f.rel));
  const notes = [
    stopNote(walked.stopped, lang, limitMs),
    found.length > files.length ? message('glob.note.more', lang, { n: found.length, shown: files.length }).reason : undefined,
  ].filter((n): n is string => !!n);
  return {
    _event: 'tool_result',
    id: ctx.id,
    tool: 'fs.glob',
    pattern: step.pattern,
    path: stepPath,
    files,
    total: found.length,
    truncated: found.length > files.length || !!walked.stopped,
    ...(notes.length ? { note: notes.join('; ') } : {}),
    summary: message('glob.summary', lang, { n: found.length, p: path.posix.join(stepPath, pattern) }).reason,
    decision: ctx.decision,
  };
}
