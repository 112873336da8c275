/**
 * `!cmd` in `ai -i`: a command the person runs. The line is split without a shell exactly as a
 * custom command's `` !`cmd` `` is (extensions/command-run.ts claudeStep: whichever tool takes
 * Claude Code's `Bash`), so a line that needs a shell is refused with what it needed. What the
 * model learns of it is one event, redacted and capped, sent in front of the next message.
 */
import { redact } from '@holic512/shared';
import type { ToolResult } from '../agent/runner-types';
import type { Step } from '../context/protocol';
import { truncateTail } from '../context/tokens';
import { claudeStep } from '../extensions/command-run';

/** Tokens of a command's output the model gets at most (stdout; stderr gets a quarter). */
export const USER_RAN_MAX_TOKENS = 1500;

/** The step a `!` line stands for, or why it cannot run without a shell. */
export function shellStep(line: string): { step: Step } | { error: string } {
  return claudeStep('Bash', { command: line });
}

/** What the model reads about a command the person ran: marked as theirs, output redacted and capped. Pure. */
export function userRanEvent(line: string, result: ToolResult): string {
  const tail = (text: unknown, max: number) => (typeof text === 'string' && text ? truncateTail(redact(text), max) : undefined);
  const ran = result.status !== 'blocked' && result.status !== 'declined';
  const event: Record<string, unknown> = {
    _event: 'user_ran',
    command: redact(line),
    note: 'The user ran this command themselves (a "!" line), not you; it is context for their next message, not a request.',
  };
  if (!ran) {
    event.status = result.status;
    if (result.reason) event.reason = redact(String(result.reason));
    event.level = result.decision.level;
    return JSON.stringify(event);
  }
  if (result.exitCode !== undefined) event.exitCode = result.exitCode;
  if (result.timedOut) event.timedOut = true;
  if (result.signal) event.signal = result.signal;
  const stdout = tail(result.stdoutTail, USER_RAN_MAX_TOKENS);
  const stderr = tail(result.stderrTail, Math.floor(USER_RAN_MAX_TOKENS / 4));
  if (stdout) event.stdout = stdout;
  if (stderr) event.stderr = stderr;
  if (result.truncated || (stdout && stdout !== redact(String(result.stdoutTail)))) event.truncated = true;
  return JSON.stringify(event);
}
