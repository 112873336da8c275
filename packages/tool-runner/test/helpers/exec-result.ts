import type { ExecResult } from '../../src/exec';

/** What a fake `deps.exec` returns: a run that exited 0, printed `stdout` and nothing on stderr. */
export const okResult = (stdout = '', extra: Partial<ExecResult> = {}): ExecResult => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 1,
  stdoutTail: stdout,
  stderrTail: '',
  truncated: false,
  stdoutBytes: stdout.length,
  stderrBytes: 0,
  ...extra,
});

/** A fake `deps.exec` for tests of judging and asking: every step runs, exits 0 and prints nothing. */
export const okExec = async (): Promise<ExecResult> => okResult();
