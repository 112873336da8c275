import type { Decision } from '@holic512/tool-runner';
import type { Step, StepRegistry } from './protocol';

/** The slice of @holic512/tool-runner's API plugin-ai uses (docs/contracts.md). The shapes that
 * carry a step are declared here over plugin-ai's own validated Step so the core can be driven
 * by a fake runner in tests; type imports are erased, so the real module is still only loaded
 * on paths that run steps. */
export type { Decision, Level, Rule } from '@holic512/tool-runner';

export type ConfirmAnswer =
  | { action: 'run' }
  | { action: 'allow-session' }
  /** Run it and allow what the request's `rule` names from now on (saved in ai.json by the caller). */
  | { action: 'allow-rule' }
  | { action: 'decline'; reason?: string }
  | { action: 'edit'; step: Step };

export interface ConfirmRequest {
  id: string;
  step: Step;
  decision: Decision;
  preview?: string;
  sessionKey: string;
  /** The exact permission rule for this step (tool-runner ≥ permission rules), when one can be given. */
  rule?: string;
}

export type ConfirmFn = (request: ConfirmRequest) => Promise<ConfirmAnswer>;

/** Why the agent did not run a step (the `reason` beside it is English text for the model). */
export type NotRun = 'steering' | 'after_stop' | 'aborted' | 'step_limit';

/** A tool_result as the runner returns it (DESIGN §4). Fields vary by tool and status. */
export interface ToolResult {
  _event: 'tool_result';
  id: string;
  tool: string;
  status?: 'blocked' | 'declined' | 'applied' | 'unchanged' | 'error';
  reason?: string;
  /** Set by the agent on steps it did not run; the screen words them from this, never from `reason`. */
  notRun?: NotRun;
  cwd?: string;
  program?: string;
  args?: string[];
  exitCode?: number | null;
  signal?: string | null;
  timedOut?: boolean;
  durationMs?: number;
  stdoutTail?: string;
  stderrTail?: string;
  truncated?: boolean;
  parsed?: unknown;
  /** The OS sandbox it ran in, and what the sandbox stopped or which limit the run hit (`note`: what happened, in the user's language). */
  sandbox?: { kind: string; level: string; network: boolean; denied?: 'write' | 'network'; line?: string; path?: string; limit?: string; note?: string };
  file?: string;
  changes?: unknown;
  summary?: string;
  error?: unknown;
  decision: Decision & { by?: 'policy' | 'user' };
  [key: string]: unknown;
}

export interface RunOptions {
  id?: string;
  signal?: AbortSignal;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr', skippedBytes?: number) => void;
}

/** What /undo did (tool-runner's UndoResult). */
export interface UndoResult {
  restored: { path: string; action: 'restored' | 'deleted' }[];
  skipped: { path: string; reason: 'changed_since' | 'not_kept' | 'error'; message?: string }[];
}

export interface StepRunner {
  /** The runner's tools (tool-runner ≥ the registry; absent in fakes and older runners): steps are parsed against them. */
  tools?: StepRegistry;
  judge(step: Step): Decision;
  run(step: Step, options?: RunOptions): Promise<ToolResult>;
  /** File journal position (tool-runner ≥ issue #10; absent in fakes and older runners). */
  mark?(): number;
  /** Files changed since `mark`. */
  changes?(mark?: number): Array<{ seq: number; stepId: string; tool: string; path: string }>;
  /** Restore the files changed since `mark`. */
  undo?(mark: number): UndoResult;
  /** End the session's background processes (not the detached ones). */
  dispose?(): void;
  /** The session's background processes (tool-runner ≥ detach; `/ps`). */
  processes?(): ProcessInfo[];
  /** Permission rules that could not be read (tool-runner ≥ permission rules). */
  readonly ruleProblems?: ReadonlyArray<{ text: string; source: string; error: string }>;
  /** How much runs without a question (tool-runner ≥ modes). */
  readonly mode?: RunMode;
  setMode?(mode: RunMode): { ok: true } | { ok: false; reason: string };
  /** Which OS sandbox command steps run in, or why none (tool-runner ≥ the sandbox). */
  sandboxStatus?(): { mode: 'auto' | 'required' | 'off'; kind: 'bwrap' | 'seatbelt' | 'none'; reason?: string };
}

/** Policy fields of the ai config handed to tool-runner. */
export interface Policy {
  permissions?: { allow?: string[]; ask?: string[]; deny?: string[]; source?: string };
  allowedPrograms?: string[];
  allowNetwork?: boolean;
  allowWrite?: boolean;
  allowSudo?: boolean;
  allowPrivateNetwork?: boolean | string[];
}

/** One background process of the session, as `/ps` shows it. */
export interface ProcessInfo {
  proc_id: string;
  pid?: number;
  program: string;
  args: string[];
  state: 'running' | 'exited';
  exitCode: number | null;
  runningMs: number;
  /** Detached: keeps running after the session; its output goes to this file. */
  logFile?: string;
}

/** The runner's modes (tool-runner's RunMode): plan, default, auto-edit, yolo. */
export type RunMode = 'plan' | 'default' | 'auto-edit' | 'yolo';
export const RUN_MODES: readonly RunMode[] = ['plan', 'default', 'auto-edit', 'yolo'];
