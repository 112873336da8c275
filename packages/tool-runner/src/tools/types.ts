import type { PatchFileOptions, PatchFileResult } from '@holic512/json-patch';
import type { PlanItem } from '../tool-steps';
import type { ExecOptions, ExecResult, InheritResult } from '../exec';
import type { Parsed } from '../parse-output';
import type { FsDeps } from './fs-common';
import type { FsChangeResult } from './fs-edit';
import type { FsReadResult } from './fs-read';
import type { HttpGetResult } from './http-get';
import type { FsGlobResult } from './fs-glob';
import type { FsGrepResult } from './fs-grep';
import type { WebSearchResult } from './web-search';
import type { ProcDeps } from './proc';
import type { ProcResult } from './proc-steps';
import type { ToolErrorResult, ToolSession } from './session';
import type { Resolver } from '../net-guard';
import type { ResolvedPath } from '../workspace';
import type { Lang, Level, PatchOp, Rule, Step } from '../types';

/** The decision attached to a result: who let it run (or stopped it). */
export interface ResultDecision {
  level: Level;
  by: 'policy' | 'user';
  rules: Rule[];
}

/** exec / plugin.run result (DESIGN §4). Tails and parsed are redacted. */
export interface RunToolResult {
  _event: 'tool_result';
  id: string;
  tool: 'exec' | 'plugin.run';
  cwd: string;
  program: string;
  args: string[];
  /** plugin.run: the plugin alias. */
  plugin?: string;
  exitCode: number | null;
  signal?: string;
  timedOut?: boolean;
  aborted?: boolean;
  durationMs: number;
  stdoutTail: string;
  stderrTail: string;
  truncated: boolean;
  parsed?: Parsed;
  /** Why the program could not start (ENOENT, EACCES, ...). */
  error?: { code: string; message: string };
  /** plugin.run of an interactive plugin: it used the terminal, nothing was captured. */
  interactive?: boolean;
  /** What of the repository's configuration was switched off for this run (git: `--no-ext-diff`, `filter.lfs.*`, …). */
  hardened?: string[];
  /** The OS sandbox it ran in, and what the sandbox stopped (a write, a connection). */
  sandbox?: import('../sandbox/report').SandboxReport;
  /** Run again, after the user said yes, in the L1 sandbox: the first run's sandbox stopped a write to `path` in the workspace. */
  sandboxRetry?: { after: 'write' | 'network'; path?: string; level: 'L1' };
  decision: ResultDecision;
}

/** config.json_patch result. `changes` and `summary` are masked by json-patch. */
export interface PatchToolResult {
  _event: 'tool_result';
  id: string;
  tool: 'config.json_patch';
  file: string;
  status: 'applied' | 'unchanged' | 'error';
  changes: unknown[];
  summary: string;
  backupPath?: string;
  error?: { code: string; message: string };
  decision: ResultDecision;
}

/** A step that did not run. */
export interface StoppedToolResult {
  _event: 'tool_result';
  id: string;
  tool: string;
  status: 'blocked' | 'declined';
  reason?: string;
  decision: ResultDecision;
}

/** plan.update: the plan as it now stands (no side effect). */
export interface PlanResult {
  _event: 'tool_result';
  id: string;
  tool: 'plan.update';
  plan: PlanItem[];
  /** `2/5 done: the step in progress`. */
  summary: string;
  decision: ResultDecision;
}

export type ToolResult =
  | RunToolResult
  | PlanResult
  | PatchToolResult
  | StoppedToolResult
  | FsReadResult
  | FsChangeResult
  | HttpGetResult
  | FsGlobResult
  | FsGrepResult
  | WebSearchResult
  | ProcResult
  | ToolErrorResult;

/** The parsed registry.json (DESIGN §3). */
export interface Registry {
  plugins: Record<string, { name: string; version?: string; binPath: string; installedAt?: string; updatedAt?: string }>;
}

/** Side effects of the runner, replaceable in tests. */
export interface RunnerDeps {
  exec: (options: ExecOptions) => Promise<ExecResult>;
  execInherit: (options: {
    program: string;
    args: string[];
    cwd: string;
    env?: NodeJS.ProcessEnv;
    signal?: AbortSignal;
  }) => Promise<InheritResult>;
  readFileSync: (file: string) => string;
  patchFile: (file: string, ops: PatchOp[], options: PatchFileOptions) => Promise<PatchFileResult>;
  now: () => number;
  execPath: string;
  /** fs.* file operations. */
  fs: FsDeps;
  /** http.get: resolves a host to every address (checked before connecting). */
  resolveHost: Resolver;
  /** proc.*: spawning and killing background process groups. */
  proc: ProcDeps;
}

/** What a tool handler gets from the runner for one step. */
export interface ToolContext {
  id: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  lang: Lang;
  deps: RunnerDeps;
  registry: Registry;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr', skippedBytes?: number) => void;
  decision: ResultDecision;
  allowedRoots: string[];
  /**
   * Ask the user now, with a preview (tools that confirm inside their own operation, like a
   * config patch whose masked diff is only known once the file is read). Resolves true to go on.
   * Undefined when no confirmation is needed.
   */
  ask?: (preview?: string) => Promise<boolean>;
  /** The session state of fs.*, http.get and proc.* (the runner always passes it). */
  session?: ToolSession;
  /** fs.edit / fs.write: the target as it was resolved when the step was judged. */
  judged?: ResolvedPath;
  /** No terminal to hand over (the caller's stdio carries a protocol): interactive plugins run captured. */
  noTerminal?: boolean;
  /** exec / proc.start: how to run the program inside the OS sandbox of this step's level; absent = unsandboxed. */
  sandbox?: StepSandbox;
}

/** The OS sandbox one step runs in. */
export interface StepSandbox {
  kind: 'bwrap' | 'seatbelt';
  level: 'L0' | 'L1';
  network: boolean;
  /** The resource limits the step runs under (L0), if any. */
  limits?: import('../sandbox/limits').SandboxLimits;
  /** `outlive`: the process may outlive the runner (a detached proc.start): no die-with-parent. */
  wrap(
    program: string,
    args: readonly string[],
    cwd: string,
    options?: { outlive?: boolean },
  ): import('../sandbox/bwrap').SandboxedCommand | undefined;
}

export type { Step };
