import type { ToolResult } from './runner-types';

/**
 * What happened to a step, in one word, the same in every record of it: the model's observation,
 * the session file, the audit log and the screen.
 * - `ran`: it ran (whatever its exit code); `failed`: its tool could not do it (a patch that did
 *   not apply, an MCP tool's error);
 * - `declined`: the person (or nobody, without a person) said no; `not_run`: the agent skipped it
 *   (a step before it stopped, a steering note, Ctrl-C, the step limit);
 * - `blocked_by_hook`: a PreToolUse hook stopped it; `refused`: the runner refused it (L2, plan mode);
 * - `sandbox_stopped`: it ran, and the OS sandbox stopped a write or a connection it tried.
 */
export type StepOutcome = 'ran' | 'failed' | 'declined' | 'not_run' | 'blocked_by_hook' | 'refused' | 'sandbox_stopped';

export function stepOutcome(result: ToolResult): StepOutcome {
  if (result.status === 'blocked') return result.blockedBy === 'hook' ? 'blocked_by_hook' : 'refused';
  if (result.status === 'declined') return result.notRun ? 'not_run' : 'declined';
  if (result.status === 'error') return 'failed';
  if (result.sandbox?.denied) return 'sandbox_stopped';
  return 'ran';
}
