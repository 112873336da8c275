import type { Requires } from './types';

/** Read a text file: numbered lines, 2000 from `offset` (1-based) by default. */
export interface FsReadStep {
  tool: 'fs.read';
  path: string;
  /** First line to show, 1-based; default 1. */
  offset?: number;
  /** Lines to show; default 2000. */
  limit?: number;
  requires?: Requires;
}

/** One exact replacement of an fs.edit step. */
export interface FsEditOne {
  old_string: string;
  new_string: string;
  /** Replace every occurrence; without it `old_string` must occur exactly once. */
  replace_all?: boolean;
}

/**
 * Exact string replacement in a text file: one (`old_string` / `new_string`) or several in order
 * (`edits`, each applied to the text the previous one left), all or nothing, one diff and one question.
 */
export interface FsEditStep {
  tool: 'fs.edit';
  path: string;
  old_string?: string;
  new_string?: string;
  /** Replace every occurrence; without it `old_string` must occur exactly once. */
  replace_all?: boolean;
  /** Several replacements in one file, in order (instead of old_string / new_string). */
  edits?: FsEditOne[];
  requires?: Requires;
}

/** Create or overwrite a text file. */
export interface FsWriteStep {
  tool: 'fs.write';
  path: string;
  content: string;
  requires?: Requires;
}

/** GET a URL: text (extracted from HTML), time-out, size cap, redirect limit. */
export interface HttpGetStep {
  tool: 'http.get';
  url: string;
  requires?: Requires;
}

/** Start a program in the background; returns a process id at once. */
export interface ProcStartStep {
  tool: 'proc.start';
  program: string;
  args: string[];
  cwd?: string | null;
  /** Keep it running after the session ends (always asked; output goes to a log file). */
  detach?: boolean;
  requires?: Requires;
}

/** Status of a background process and the output that is new since the last status. */
export interface ProcStatusStep {
  tool: 'proc.status';
  proc_id: string;
  /** Wait up to this long (ms, at most 60000) for the process to end before answering. */
  wait_ms?: number;
  requires?: Requires;
}

/** End a background process (its whole process group) and return its last output. */
export interface ProcKillStep {
  tool: 'proc.kill';
  proc_id: string;
  requires?: Requires;
}

/** Files under a folder whose path matches a glob, newest first (issue #35). */
export interface FsGlobStep {
  tool: 'fs.glob';
  pattern: string;
  /** The folder to search; default where the step runs. */
  path?: string;
  requires?: Requires;
}

/** Lines matching a regular expression in the files under a folder, ripgrep-style (issue #35). */
export interface FsGrepStep {
  tool: 'fs.grep';
  pattern: string;
  /** A folder or one file; default where the step runs. */
  path?: string;
  /** Only files whose name (or path, with a `/`) matches this glob. */
  glob?: string;
  ignoreCase?: boolean;
  /** Lines shown before and after each match (0–10). */
  context?: number;
  /** Matches shown at most (default 50, at most 500). */
  maxResults?: number;
  requires?: Requires;
}

/** Search the web through the provider configured in ai.json (issue #35). */
export interface WebSearchStep {
  tool: 'web.search';
  query: string;
  /** Results at most (default 8, at most 20). */
  maxResults?: number;
  requires?: Requires;
}

/** One step of a plan and where it stands. */
export interface PlanItem {
  step: string;
  status: 'pending' | 'in_progress' | 'done';
}

/** The model's plan of a multi-step task (issue #46): shown to the user, kept in the context. */
export interface PlanUpdateStep {
  tool: 'plan.update';
  /** The whole plan, in order (it replaces the previous one; an empty list clears it). */
  items: PlanItem[];
  requires?: Requires;
}

export type FsStep = FsReadStep | FsEditStep | FsWriteStep;
export type SearchStep = FsGlobStep | FsGrepStep | WebSearchStep;
export type ProcStep = ProcStartStep | ProcStatusStep | ProcKillStep;
/** The steps issue #10 adds. */
export type ToolStep = FsStep | HttpGetStep | ProcStep | SearchStep | PlanUpdateStep;
