/** A one-line progress display for long npm runs on a terminal: elapsed time and npm's last line. */

/** What the progress line is drawn with; replaceable in tests. */
export interface ProgressDeps {
  write: (text: string) => void;
  /** Columns of the terminal (the line is cut to fit). */
  columns: () => number;
  now: () => number;
  setInterval: (fn: () => void, ms: number) => { unref?: () => void };
  clearInterval: (timer: unknown) => void;
}

export interface Progress {
  /** Feed npm's output; its last non-empty line is shown. */
  output(chunk: string): void;
  /** Clear the line (call before printing the result). */
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
// Escape sequences and other control characters npm may print; the line stays one line.
// eslint-disable-next-line no-control-regex
const CONTROL = /\u001b\[[0-9;?]*[ -/]*[@-~]|[\u0000-\u001f\u007f]/g;

/** The text of one progress frame, cut to `columns - 1` characters. Pure. */
export function progressText(label: string, elapsedMs: number, last: string, frame: number, columns: number): string {
  const seconds = Math.floor(elapsedMs / 1000);
  const head = `${FRAMES[frame % FRAMES.length]} ${label} ${seconds} s`;
  const line = last ? `${head} · ${last}` : head;
  const max = Math.max(10, columns - 1);
  const chars = [...line];
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : line;
}

/** The last non-empty line of `chunk`, without control characters; '' when it has none. */
export function lastLine(chunk: string): string {
  const lines = chunk.split(/\r?\n|\r/).map((l) => l.replace(CONTROL, '').trim());
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]) return lines[i];
  return '';
}

/** Start redrawing `label` with its elapsed time every 200 ms until `stop()`. */
export function startProgress(label: string, deps: ProgressDeps): Progress {
  const started = deps.now();
  let last = '';
  let frame = 0;
  let drawn = false;
  const draw = (): void => {
    deps.write(`\r\u001b[K${progressText(label, deps.now() - started, last, frame++, deps.columns())}`);
    drawn = true;
  };
  const timer = deps.setInterval(draw, 200);
  timer.unref?.();
  draw();
  return {
    output(chunk) {
      const line = lastLine(chunk);
      if (line) last = line;
    },
    stop() {
      deps.clearInterval(timer);
      if (drawn) deps.write('\r\u001b[K');
      drawn = false;
    },
  };
}

/** Progress on stderr when it is a terminal; undefined otherwise (plain logs stay plain). */
export function terminalProgress(label: string): Progress | undefined {
  if (!process.stderr.isTTY) return undefined;
  return startProgress(label, {
    write: (text) => void process.stderr.write(text),
    columns: () => process.stderr.columns || 80,
    now: () => Date.now(),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (timer) => clearInterval(timer as NodeJS.Timeout),
  });
}
