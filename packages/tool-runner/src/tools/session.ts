import type { FileJournal, ReadTracker } from '../file-journal';
import type { Resolver } from '../net-guard';
import type { ResolvedPath } from '../workspace';
import type { FsDeps } from './fs-common';
import type { FileAccess } from './file-access';
import type { ProcessTable } from './proc';
import type { ResultDecision, ToolContext } from './types';
import type { WebSearchSettings } from './web-search';

/**
 * What the fs.*, http.get and proc.* tools share over a session. It lives on the runner
 * object (one per session), never at module level.
 */
export interface ToolSession {
  /** Real path of the workspace (git root or cwd). */
  workspace: string;
  home: string;
  /** Real path of the SlothTool home. */
  slothtoolHome: string;
  /** Resolve a path a model named (against the runner's cwd), following symlinks. */
  resolve(p: string): ResolvedPath;
  reads: ReadTracker;
  journal: FileJournal;
  procs: ProcessTable;
  fs: FsDeps;
  /** fs.read / fs.edit / fs.write: the caller's source of a file's text (an editor's buffers), when it has one. */
  fileAccess?: FileAccess;
  /** http.get: loopback/private/link-local hosts may be reached. */
  allowPrivateNetwork: boolean | string[];
  /** http.get settings. */
  http: HttpSettings;
  /** web.search: the provider from ai.json; absent = not configured (the tool says which setting). */
  webSearch?: WebSearchSettings;
}

/** Limits and side effects of http.get. */
export interface HttpSettings {
  /** Whole request time limit; default 20000 ms. */
  timeoutMs: number;
  /** Body bytes read at most; default 2 MiB. */
  maxBytes: number;
  /** Redirects followed at most; default 5. */
  maxRedirects: number;
  resolve: Resolver;
}

/** The context an issue-#10 tool handler gets. */
export type SessionToolContext = ToolContext & {
  session: ToolSession;
  /** The target as it was resolved when the step was judged (fs.edit / fs.write). */
  judged?: ResolvedPath;
};

/** A failed step of these tools, told to the model as a value. */
export interface ToolErrorResult {
  _event: 'tool_result';
  id: string;
  tool: string;
  status: 'error';
  error: { code: string; message: string; hint?: string };
  decision: ResultDecision;
  [key: string]: unknown;
}

export function toolError(
  ctx: ToolContext,
  tool: string,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): ToolErrorResult {
  return { _event: 'tool_result', id: ctx.id, tool, ...extra, status: 'error', error: { code, message }, decision: ctx.decision };
}
