import { spawn as spawnChild, type ChildProcess, type SpawnOptions } from 'child_process';
import crossSpawn from 'cross-spawn';
import { BoundedCapture, cutEndUtf8, cutStartUtf8 } from './capture';
import { OFFLOAD_AFTER_BYTES, OFFLOAD_START_BYTES, startOffloadWorker, type OffloadWorker } from './capture-offload';
import { OutputDecoder } from './decode';
import { pipeFolder } from './sandbox/spec';
import { feedFds, type SpawnOptionsWithData } from './spawn-fds';
import { SpawnHelper } from './spawn-helper';
import { DEFAULT_MAX_OUTPUT_BYTES } from './types';

/** Options of {@link exec}. */
export interface ExecOptions {
  /** Program to run, found on PATH or given as a path. Never run through a shell. */
  program: string;
  /** Argument vector, passed as is. */
  args: string[];
  /** Working directory. */
  cwd: string;
  /** Environment; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Kill the process group after this many milliseconds. No limit when absent. */
  timeoutMs?: number;
  /** Abort kills the process group. */
  signal?: AbortSignal;
  /** Bytes of each stream kept (head + tail); default 65536. */
  maxOutputBytes?: number;
  /**
   * Live output, decoded on character boundaries. `skippedBytes`: output before this chunk that
   * was never passed here (past 8 MiB the display gets samples, capture-offload.ts).
   */
  onStdout?: (chunk: string, skippedBytes?: number) => void;
  /** Live error output, as onStdout. */
  onStderr?: (chunk: string, skippedBytes?: number) => void;
  /** Time between SIGTERM and SIGKILL of the group; default 2000 ms. */
  killGraceMs?: number;
  /** Bytes the program reads from fds 3, 4, … (a sandboxed command's seccomp filter: spawn-fds.ts). */
  fds?: readonly Buffer[];
}

/** What came of running a program. Spawn failures, time-outs and aborts are results too. */
export interface ExecResult {
  /** Exit code; null when killed by a signal. 127 when the program was not found, 126 when it could not be executed. */
  exitCode: number | null;
  /** Signal that ended the process, if any. */
  signal: string | null;
  /** Killed because `timeoutMs` passed. */
  timedOut: boolean;
  /** Killed because the abort signal fired. */
  aborted: boolean;
  durationMs: number;
  /** Head and tail of stdout within maxOutputBytes. */
  stdoutTail: string;
  /** Head and tail of stderr within maxOutputBytes. */
  stderrTail: string;
  /** Some output was dropped. */
  truncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  /** Output contained NUL bytes; the tails are a placeholder. */
  binary?: boolean;
  /** Why the program could not be started (ENOENT, EACCES, ...). */
  error?: { code: string; message: string };
}

/** Side effects of exec, replaceable in tests. */
export interface ExecDeps {
  spawn: (command: string, args: string[], options: SpawnOptionsWithData) => ChildProcess;
  /** Spawn as a child of this process (background processes: they live as long as it does and
   * end with it); `spawn` may go through the spawn helper. */
  spawnDirect?: (command: string, args: string[], options: SpawnOptionsWithData) => ChildProcess;
  now: () => number;
  /** Send a signal to the whole process group led by `pid`. */
  killGroup: (pid: number, signal: NodeJS.Signals) => void;
  platform: NodeJS.Platform;
}

export { DEFAULT_MAX_OUTPUT_BYTES, feedFds, type SpawnOptionsWithData };

/** One spawn helper per process (spawn-helper.ts): steps stop paying fork() of a large process. */
let helper: SpawnHelper | undefined;

/** Options of the default exec deps. */
export interface ExecDepsOptions {
  /**
   * The SlothTool home whose `run` folder the spawn helper may make its FIFOs in (hidden from
   * sandboxed commands). The helper is one per process: the first caller's home counts. Without
   * one its commands get node's socketpairs.
   */
  slothtoolHome?: string;
}

/**
 * Start the spawn helper ahead of the first step (it boots on the first spawn otherwise, and
 * that step goes direct). Resolves true once it takes commands; false when it is off or cannot.
 */
export function prepareSpawnHelper(options: ExecDepsOptions = {}): Promise<boolean> {
  createDefaultExecDeps(options);
  return helper ? helper.whenReady() : Promise.resolve(false);
}

export function createDefaultExecDeps(options: ExecDepsOptions = {}): ExecDeps {
  const direct = (command: string, args: string[], options: SpawnOptionsWithData) => {
    const child = crossSpawn(command, args, options);
    feedFds(child, options.fdData);
    return child;
  };
  const useHelper = process.platform !== 'win32' && process.env.SLOTHTOOL_SPAWN_HELPER !== '0';
  if (useHelper && !helper) {
    helper = new SpawnHelper(direct, undefined, options.slothtoolHome ? pipeFolder(options.slothtoolHome) : undefined);
  }
  return {
    spawn: useHelper && helper ? (command, args, options) => helper!.spawn(command, args, options) : direct,
    spawnDirect: direct,
    now: () => Date.now(),
    killGroup: (pid, signal) => {
      if (process.platform === 'win32') {
        spawnChild('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' }).on('error', () => undefined);
        return;
      }
      try {
        process.kill(-pid, signal);
      } catch (err) {
        // ESRCH: the group is already gone, which is what we wanted.
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    },
    platform: process.platform,
  };
}

const SPAWN_EXIT_CODES: Record<string, number> = { ENOENT: 127, EACCES: 126, ENOTDIR: 126, EPERM: 126 };

/** Node says `spawn x ENOENT` both for a missing program and a missing cwd: say which it may be. */
function spawnMessage(e: NodeJS.ErrnoException, options: Pick<ExecOptions, 'program' | 'cwd'>): string {
  if (e.code === 'ENOENT') return `${e.message}: "${options.program}" was not found on PATH, or the folder "${options.cwd}" does not exist`;
  if (e.code === 'EACCES') return `${e.message}: "${options.program}" is not executable`;
  return e.message;
}

/** The result of a run from its two captures; `partial` says how it ended. */
function resultOf(out: BoundedCapture, err: BoundedCapture, durationMs: number, partial: Partial<ExecResult>): ExecResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs,
    stdoutTail: out.render(),
    stderrTail: err.render(),
    truncated: out.truncated || err.truncated,
    stdoutBytes: out.total,
    stderrBytes: err.total,
    ...(out.sawNul || err.sawNul ? { binary: true } : {}),
    ...partial,
  };
}

/** How a captured stream is stopped early (a destroy, or a stop of its worker). */
interface OutputReader {
  destroy(): void;
}

/**
 * Capture a child's output stream, and hand its text to `cb` (UTF-8 decoded across chunks) for
 * display. Past OFFLOAD_START_BYTES a worker starts, and past OFFLOAD_AFTER_BYTES, once it runs,
 * the reading moves to it (capture-offload.ts); the display then gets the newest output every
 * 100 ms and, at the end, its last bytes.
 */
function wireOutput(stream: NodeJS.ReadableStream | null, cap: BoundedCapture, cb?: (s: string, skippedBytes?: number) => void): OutputReader {
  if (!stream) return { destroy: () => undefined };
  const decoder = cb ? new OutputDecoder() : undefined;
  const show = (chunk: Buffer): void => {
    if (!cb || !decoder) return;
    const text = decoder.write(chunk);
    try {
      if (text) cb(text);
    } catch {
      // A failing display callback must not take the process down or stop the capture.
    }
  };
  let worker: OffloadWorker | undefined;
  let tried = process.platform === 'win32';
  // Samples start and end anywhere: each is decoded on its own, between character boundaries,
  // and says how many bytes before it were not shown (offsets count what the worker read).
  let shownUpTo = 0;
  // The incomplete character the event loop's decoder held back when the worker took over.
  let heldBack = 0;
  // Paused once, until the starting worker runs (or is gone).
  let held = false;
  const sample = (bytes: Buffer, end: number): void => {
    const from = cutStartUtf8(bytes);
    const whole = cutEndUtf8(from);
    const start = end - from.length;
    const text = new OutputDecoder().write(whole);
    if (!text) return;
    cb?.(text, Math.max(0, start - shownUpTo) + heldBack);
    heldBack = 0;
    shownUpTo = start + whole.length;
  };
  const onData = (chunk: Buffer): void => {
    cap.push(chunk);
    show(chunk);
    if (!tried && cap.total >= OFFLOAD_START_BYTES) {
      tried = true;
      worker = startOffloadWorker(cap, cb ? sample : undefined);
    }
    if (!worker || cap.total < OFFLOAD_AFTER_BYTES) return;
    if (worker.ready) {
      if (worker.handOver(stream)) {
        stream.removeListener('data', onData);
        heldBack = decoder?.pendingBytes ?? 0;
      }
    } else if (!held) {
      // The worker is still starting (a first step): wait for it rather than read on. Every
      // chunk read here is a new 64 KiB buffer that stays in memory until a collection, and
      // V8 collects for outside memory only past 64 MB: reading on while a worker starts held
      // 10–20 MB more at the peak (bench "Output capture", runner.run() of 1 GiB).
      held = worker.hold(stream) || true;
    }
  };
  // Ended before the hand-over: the worker is not needed.
  const unneeded = (): void => {
    if (!worker?.handedOver) worker?.stop();
  };
  stream.on('end', unneeded);
  stream.on('close', unneeded);
  stream.on('data', onData);
  stream.on('error', () => undefined);
  return {
    destroy: () => {
      if (worker?.handedOver) return worker.stop();
      worker?.stop();
      (stream as unknown as { destroy?: () => void }).destroy?.();
    },
  };
}

/**
 * Run a program with an argument vector, no shell, stdin closed, in its own process group.
 * Never rejects: spawn failures, time-outs and aborts come back as an {@link ExecResult}.
 */
export function exec(options: ExecOptions, deps: ExecDeps = createDefaultExecDeps()): Promise<ExecResult> {
  const started = deps.now();
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const out = new BoundedCapture(maxBytes);
  const err = new BoundedCapture(maxBytes);
  const grace = options.killGraceMs ?? 2000;

  const finish = (partial: Partial<ExecResult>): ExecResult => resultOf(out, err, Math.max(0, deps.now() - started), partial);

  if (options.signal?.aborted) {
    return Promise.resolve(finish({ aborted: true, error: { code: 'ABORTED', message: 'aborted before start' } }));
  }

  return new Promise<ExecResult>((resolve) => {
    let child: ChildProcess;
    let settled = false;
    let timedOut = false;
    let aborted = false;
    let killing = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    const timers: NodeJS.Timeout[] = [];

    const killTree = (signal: NodeJS.Signals): void => {
      if (child?.pid === undefined) return;
      try {
        deps.killGroup(child.pid, signal);
      } catch {
        // The group may be owned by someone else now; child.kill is the last resort.
        child.kill(signal);
      }
    };
    const startKilling = (): void => {
      if (killing) return;
      killing = true;
      killTree('SIGTERM');
      timers.push(setTimeout(() => killTree('SIGKILL'), grace));
    };
    const onAbort = (): void => {
      aborted = true;
      startKilling();
    };
    const done = (result: ExecResult): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      options.signal?.removeEventListener('abort', onAbort);
      if (killing) killTree('SIGKILL');
      resolve(result);
    };

    try {
      child = deps.spawn(options.program, options.args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe', ...(options.fds ?? []).map(() => 'pipe' as const)],
        ...(options.fds?.length ? { fdData: options.fds } : {}),
        detached: deps.platform !== 'win32',
        windowsHide: true,
        shell: false,
      });
    } catch (e) {
      const error = e as NodeJS.ErrnoException;
      const code = error.code ?? 'SPAWN_FAILED';
      resolve(finish({ exitCode: SPAWN_EXIT_CODES[code] ?? 126, error: { code, message: error.message } }));
      return;
    }

    const readers = [wireOutput(child.stdout, out, options.onStdout), wireOutput(child.stderr, err, options.onStderr)];

    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = e;
      if (child.pid === undefined) {
        const code = e.code ?? 'SPAWN_FAILED';
        done(finish({ exitCode: SPAWN_EXIT_CODES[code] ?? 126, error: { code, message: spawnMessage(e, options) } }));
      }
    });
    child.on('exit', () => {
      // A grandchild holding our pipes open must not keep us waiting forever: kill the group
      // (the pipes close when it dies), and stop reading if something outside the group
      // (a daemon that left it) still holds them.
      timers.push(setTimeout(() => killTree('SIGKILL'), grace));
      timers.push(
        setTimeout(() => {
          for (const r of readers) r.destroy();
        }, grace * 2),
      );
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      done(
        finish({
          exitCode: code,
          signal,
          timedOut,
          aborted,
          ...(spawnError ? { error: { code: spawnError.code ?? 'ERROR', message: spawnError.message } } : {}),
        }),
      );
    });

    if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          startKilling();
        }, options.timeoutMs),
      );
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Result of {@link execInherit}: the program owned the terminal, so there is no output to keep. */
export interface InheritResult {
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  error?: { code: string; message: string };
}

/**
 * Run a program with the caller's terminal (stdio inherited), for interactive plugins.
 * Never rejects. Abort sends SIGTERM to the program.
 */
export function execInherit(
  options: { program: string; args: string[]; cwd: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal },
  deps: ExecDeps = createDefaultExecDeps(),
): Promise<InheritResult> {
  const started = deps.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    const done = (r: Omit<InheritResult, 'durationMs'>): void => resolve({ ...r, durationMs: Math.max(0, deps.now() - started) });
    try {
      child = deps.spawn(options.program, options.args, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'inherit', shell: false });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      done({ exitCode: SPAWN_EXIT_CODES[err.code ?? ''] ?? 126, signal: null, error: { code: err.code ?? 'SPAWN_FAILED', message: err.message } });
      return;
    }
    const onAbort = (): void => {
      child.kill('SIGTERM');
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err: NodeJS.ErrnoException) => {
      options.signal?.removeEventListener('abort', onAbort);
      done({ exitCode: SPAWN_EXIT_CODES[err.code ?? ''] ?? 126, signal: null, error: { code: err.code ?? 'ERROR', message: err.message } });
    });
    child.on('close', (code, signal) => {
      options.signal?.removeEventListener('abort', onAbort);
      done({ exitCode: code, signal });
    });
  });
}
