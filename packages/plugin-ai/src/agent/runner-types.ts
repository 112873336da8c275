import type { Decision, ResultDecision, ToolResult as RunnerToolResult, ToolRunner } from '@holic512/tool-runner';
import type { StepRegistry } from '../context/protocol';

/** The slice of @holic512/tool-runner's API plugin-ai uses (docs/contracts.md), imported from
 * tool-runner (type imports are erased, so the real module is still only loaded on paths that run
 * steps; RUN_MODES comes from its types module, which loads nothing). The runner plugin-ai drives
 * is {@link StepRunner}: tool-runner's ToolRunner with the newer members optional, so the core
 * can be driven by a fake runner in tests. */
export type {
  Decision,
  Level,
  Rule,
  ConfirmAnswer,
  ConfirmRequest,
  RunOptions,
  Policy,
  ProcInfo,
  RunMode,
  UndoResult,
  Verdict,
} from '@holic512/tool-runner';
export { RUN_MODES } from '@holic512/tool-runner/lib/types';

/** What asks the user about a step: the runner's own `confirm` option. */
export type ConfirmFn = import('@holic512/tool-runner').ToolRunnerOptions['confirm'];

/** Why the agent did not run a step (the `reason` beside it is English text for the model). */
export type NotRun = 'steering' | 'after_stop' | 'aborted' | 'step_limit';

/**
 * A tool_result as plugin-ai reads it: any of tool-runner's results (DESIGN §4), read field by
 * field (fields vary by tool and status), plus `notRun`, set by the agent on steps it did not run
 * (the screen words them from it, never from `reason`).
 */
export type ToolResult = Omit<Partial<UnionFields<RunnerToolResult>>, '_event' | 'id' | 'tool' | 'decision'> &
  Pick<RunnerToolResult, '_event' | 'id' | 'tool'> & {
    /** The runner's decision; `by` is absent on a step the agent did not run. */
    decision: Decision & { by?: ResultDecision['by'] };
    notRun?: NotRun;
    /** Set by the agent on a step a PreToolUse hook stopped (`status: 'blocked'`): not the runner's refusal. */
    blockedBy?: 'hook';
    /** What that hook said (redacted), for the screen; `reason` is the model's sentence. */
    hookReason?: string;
    [key: string]: unknown;
  };

/** A type's named fields (an index signature left out). */
type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** Every named field of every member of a union, each typed as the union of its types. */
type UnionFields<U> = {
  [K in U extends unknown ? keyof Named<U> : never]: U extends unknown ? (K extends keyof Named<U> ? Named<U>[K] : never) : never;
};

/** ToolRunner's members a fake runner may leave out. */
type Optional = 'mark' | 'changes' | 'undo' | 'dispose' | 'processes' | 'ruleProblems' | 'mode' | 'setMode' | 'sandboxStatus';

/** What plugin-ai needs of a runner: its verdict (no language: each edge renders it) and run; the rest is optional (the fake runners tests drive the core with leave it out). */
export type StepRunner = Pick<ToolRunner, 'verdict'> &
  Partial<Pick<ToolRunner, Optional>> & {
    /** The runner's tools: steps are parsed against them. */
    tools?: StepRegistry;
    run(step: Parameters<ToolRunner['run']>[0], options?: Parameters<ToolRunner['run']>[1]): Promise<ToolResult>;
  };
