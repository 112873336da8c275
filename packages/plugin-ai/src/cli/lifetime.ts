/** The signals that end `ai` (a second Ctrl+C counts as SIGINT). */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** Exit code after a stop signal: 128 + the signal number, as shells report it. */
export const SIGNAL_EXIT: Record<StopSignal, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** How long the CLI entry waits after a stop signal before it exits regardless. */
export const STOP_GRACE_MS = 1500;

/**
 * The end of the process, told to the parts that hold something open: a mode registers what
 * to do when `ai` is told to stop (abort the model request, kill the background processes the
 * model started, end the session), and the CLI entry, the only part that exits, learns when
 * the stop began. Library code never exits; it calls stop() (a second Ctrl+C) or reacts.
 */
export class Lifetime {
  private readonly hooks = new Set<(signal: StopSignal) => void>();
  /** Set by the CLI entry: told once when a stop begins (it arms the exit). */
  onStopping?: (signal: StopSignal) => void;
  private stopped?: StopSignal;
  /** Set by a mode whose run left nothing going (no process, server or connection it started):
   * the CLI entry may then exit as soon as the output is written. */
  nothingLeft = false;

  /** The signal that stopped the process, if one did. */
  get signal(): StopSignal | undefined {
    return this.stopped;
  }

  /** Run `hook` when a stop begins; returns the function that removes it. */
  onStop(hook: (signal: StopSignal) => void): () => void {
    this.hooks.add(hook);
    return () => void this.hooks.delete(hook);
  }

  /** Begin the stop: every hook runs once, right away (a failing hook does not stop the rest). */
  stop(signal: StopSignal): void {
    if (this.stopped) return;
    this.stopped = signal;
    this.onStopping?.(signal);
    for (const hook of [...this.hooks]) {
      try {
        hook(signal);
      } catch {
        // The other hooks still have to run: the process is leaving either way.
      }
    }
  }
}
