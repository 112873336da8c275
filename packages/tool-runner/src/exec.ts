import { spawn as spawnChild, type ChildProcess } from 'child_process';
import crossSpawn from 'cross-spawn';
import { BoundedCapture } from './capture';
import { wireOutput } from './capture-stream';
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
  /** Where a sandboxed command starts in `args` (sandbox/bwrap.ts SandboxedCommand.commandAt). */
  commandAt?: number;
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
   * sandboxed commands) for the commands spawned through these deps. The helper is one per
   * process, the folder is each caller's own. Without one their commands get node's socketpairs.
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

/** End the sandbox the spawn helper prepared for a next read-only step, if any (a runner's dispose). */
export function discardPreparedSandbox(): void {
  helper?.discardPrepared();
}

export function createDefaultExecDeps(options: ExecDepsOptions = {}): ExecDeps {
  const direct = (command: string, args: string[], options: SpawnOptionsWithData) => {
    const child = crossSpawn(command, args, options);
    feedFds(child, options.fdData);
    return child;
  };
  const useHelper = process.platform !== 'win32' && process.env.SLOTHTOOL_SPAWN_HELPER !== '0';
  if (useHelper && !helper) helper = new SpawnHelper(direct);
  const pipeDir = options.slothtoolHome ? pipeFolder(options.slothtoolHome) : undefined;
  return {
    spawn: useHelper && helper ? (command, args, o) => helper!.spawn(command, args, o, pipeDir) : direct,
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

/**
 * Ending a run's process group: SIGTERM, then SIGKILL after the grace time. Its timers (and the
 * run's own) are cleared when the run settles.
 */
class GroupStop {
  child: ChildProcess | undefined;
  private killing = false;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly deps: ExecDeps,
    readonly graceMs: number,
  ) {}

  /** Run `fn` after `ms` unless the run has settled by then. */
  after(ms: number, fn: () => void): void {
    this.timers.push(setTimeout(fn, ms));
  }

  killTree(signal: NodeJS.Signals): void {
    const child = this.child;
    if (child?.pid === undefined) return;
    try {
      this.deps.killGroup(child.pid, signal);
    } catch {
      // The group may be owned by someone else now; child.kill is the last resort.
      child.kill(signal);
    }
  }

  start(): void {
    if (this.killing) return;
    this.killing = true;
    this.killTree('SIGTERM');
    this.after(this.graceMs, () => this.killTree('SIGKILL'));
  }

  /** The run has its result: no more timers, and a group being stopped is killed now. */
  settle(): void {
    for (const t of this.timers) clearTimeout(t);
    if (this.killing) this.killTree('SIGKILL');
  }
}

/** How exec starts a program: no shell, stdin closed, its own process group, extra fds if any. */
function spawnOptions(options: ExecOptions, deps: ExecDeps): SpawnOptionsWithData {
  return {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe', ...(options.fds ?? []).map(() => 'pipe' as const)],
    ...(options.fds?.length ? { fdData: options.fds } : {}),
    ...(options.commandAt !== undefined ? { commandAt: options.commandAt } : {}),
    detached: deps.platform !== 'win32',
    windowsHide: true,
    shell: false,
  };
}

/** The result of a program that could not be started: 127 when it was not found, 126 otherwise. */
function spawnFailure(e: NodeJS.ErrnoException, message: string, fallbackCode: string): Partial<ExecResult> {
  const code = e.code ?? fallbackCode;
  return { exitCode: SPAWN_EXIT_CODES[code] ?? 126, error: { code, message } };
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
  const finish = (partial: Partial<ExecResult>): ExecResult => resultOf(out, err, Math.max(0, deps.now() - started), partial);

  if (options.signal?.aborted) {
    return Promise.resolve(finish({ aborted: true, error: { code: 'ABORTED', message: 'aborted before start' } }));
  }

  return new Promise<ExecResult>((resolve) => {
    const stop = new GroupStop(deps, options.killGraceMs ?? 2000);
    let settled = false;
    let timedOut = false;
    let aborted = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    const onAbort = (): void => {
      aborted = true;
      stop.start();
    };
    const done = (result: ExecResult): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      stop.settle();
      resolve(result);
    };

    let child: ChildProcess;
    try {
      child = stop.child = deps.spawn(options.program, options.args, spawnOptions(options, deps));
    } catch (e) {
      resolve(finish(spawnFailure(e as NodeJS.ErrnoException, (e as Error).message, 'SPAWN_FAILED')));
      return;
    }

    const readers = [wireOutput(child.stdout, out, options.onStdout), wireOutput(child.stderr, err, options.onStderr)];

    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = e;
      if (child.pid === undefined) done(finish(spawnFailure(e, spawnMessage(e, options), 'SPAWN_FAILED')));
    });
    child.on('exit', () => {
      // A grandchild holding our pipes open must not keep us waiting forever: kill the group
      // (the pipes close when it dies), and stop reading if something outside the group
      // (a daemon that left it) still holds them.
      stop.after(stop.graceMs, () => stop.killTree('SIGKILL'));
      stop.after(stop.graceMs * 2, () => {
        for (const r of readers) r.destroy();
      });
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      const error = spawnError ? { error: { code: spawnError.code ?? 'ERROR', message: spawnError.message } } : {};
      done(finish({ exitCode: code, signal, timedOut, aborted, ...error }));
    });

    if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
      stop.after(options.timeoutMs, () => {
        timedOut = true;
        stop.start();
      });
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
      child = deps.spawn(options.program, options.args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: 'inherit',
        shell: false,
      });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      done({
        exitCode: SPAWN_EXIT_CODES[err.code ?? ''] ?? 126,
        signal: null,
        error: { code: err.code ?? 'SPAWN_FAILED', message: err.message },
      });
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
