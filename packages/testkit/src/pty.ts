// A real pseudo-terminal around a program: type keys, read what it drew. No sleeps: waitFor
// resolves when the text shows up (escape sequences removed) and fails, with the screen's
// tail, after a bound or when the program exits first. node-pty is the repository's dev
// dependency, loaded when a test starts a terminal.

import { nodePty } from './lazy-modules';

// Terminal escape sequences are what this strips: control characters are the point.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>]/g;

export interface PtyTerminal {
  /** Everything written to the terminal, escape sequences included. */
  raw(): string;
  /** Everything written, escape sequences removed. */
  text(): string;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Wait until `what` appears after the point the previous wait matched. */
  waitFor(what: string | RegExp, timeoutMs?: number): Promise<void>;
  /** `waitFor` each of `whats` in turn (each after the one before). */
  waitForAll(whats: Array<string | RegExp>, timeoutMs?: number): Promise<void>;
  /** Answer a question: wait until `question` appears (as `waitFor`), then type `keys`. */
  answer(question: string | RegExp, keys: string, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  /** The pid of the process. */
  pid: number;
  kill(): void;
}

export interface PtyOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  cols?: number;
  rows?: number;
}

/** Start `file args` in a pseudo-terminal (TERM=xterm-256color, 100×30 unless told). */
export function startPty(file: string, args: string[], options: PtyOptions): PtyTerminal {
  const pty = nodePty();
  const term = pty.spawn(file, args, {
    cols: options.cols ?? 100,
    rows: options.rows ?? 30,
    cwd: options.cwd,
    env: { ...options.env, TERM: 'xterm-256color' } as Record<string, string>,
  });
  let raw = '';
  let seen = 0;
  let alive = true;
  const waiters = new Set<() => void>();
  term.onData((d) => {
    raw += d;
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<number>((resolve) =>
    term.onExit(({ exitCode }) => {
      alive = false;
      for (const w of [...waiters]) w();
      resolve(exitCode);
    }),
  );
  const text = () => raw.replace(ANSI, '');
  const terminal: PtyTerminal = {
    raw: () => raw,
    text,
    write: (data) => term.write(data),
    resize: (cols, rows) => term.resize(cols, rows),
    exited,
    pid: term.pid,
    kill: () => {
      if (alive) term.kill();
    },
    waitFor(what, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const all = text();
          let end = -1;
          if (typeof what === 'string') {
            const at = all.indexOf(what, seen);
            if (at >= 0) end = at + what.length;
          } else {
            const re = new RegExp(what.source, what.flags.replace('g', '') + 'g');
            re.lastIndex = seen;
            const m = re.exec(all);
            if (m) end = m.index + m[0].length;
          }
          if (end >= 0) {
            waiters.delete(check);
            clearTimeout(timer);
            seen = end;
            resolve();
            return true;
          }
          if (!alive) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`process exited before ${String(what)} appeared. Screen tail:\n${all.slice(-1500)}`));
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${String(what)}. Screen tail:\n${text().slice(-1500)}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    async waitForAll(whats, timeoutMs) {
      for (const what of whats) await terminal.waitFor(what, timeoutMs);
    },
    async answer(question, keys, timeoutMs) {
      await terminal.waitFor(question, timeoutMs);
      term.write(keys);
    },
  };
  return terminal;
}
