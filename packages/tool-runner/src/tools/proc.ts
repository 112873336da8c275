import type { ChildProcess } from 'child_process';
import fs = require('fs');
import path = require('path');
import { ensurePrivateDir } from '@holic512/shared/lib/private-files';
import { OutputDecoder } from '../decode';
import { BoundedCapture } from '../capture';
import { discardPreparedSandbox, type ExecDeps } from '../exec';

/** Side effects of the process table; `ExecDeps` plus a hook on the host process's exit. */
export interface ProcDeps extends Pick<ExecDeps, 'spawn' | 'killGroup' | 'now' | 'platform'> {
  /** Run `cb` when the host process exits; returns the unsubscribe function. */
  onHostExit(cb: () => void): () => void;
}

export function createDefaultProcDeps(exec: Pick<ExecDeps, 'spawn' | 'spawnDirect' | 'killGroup' | 'now' | 'platform'>): ProcDeps {
  return {
    ...exec,
    // A background process is this process's child: it ends with it (and bubblewrap's
    // --die-with-parent means this process), never through the spawn helper. While it may run,
    // no sandbox prepared ahead is kept (it could change that sandbox's files meanwhile).
    spawn: (command, args, options) => {
      discardPreparedSandbox();
      return (exec.spawnDirect ?? exec.spawn)(command, args, options);
    },
    onHostExit: (cb) => {
      process.on('exit', cb);
      return () => void process.removeListener('exit', cb);
    },
  };
}

/** Limits of the process table. */
export interface ProcLimits {
  /** Processes running at once; default 8. */
  maxRunning: number;
  /** Bytes of new output kept per stream between two statuses (head + tail); default 16384. */
  maxOutputBytes: number;
  /** Characters of the last output kept for proc.kill; default 4000. */
  lastOutputChars: number;
  /** SIGTERM → SIGKILL grace of proc.kill; default 2000 ms. */
  killGraceMs: number;
  /** Longest wait_ms of proc.status; default 60000 ms. */
  maxWaitMs: number;
}

const DEFAULT_LIMITS: ProcLimits = { maxRunning: 8, maxOutputBytes: 16384, lastOutputChars: 4000, killGraceMs: 2000, maxWaitMs: 60000 };

/** One background process. */
interface Entry {
  id: string;
  program: string;
  args: string[];
  cwd: string;
  child: ChildProcess;
  pid?: number;
  startedAt: number;
  endedAt?: number;
  state: 'running' | 'exited';
  exitCode: number | null;
  signal: string | null;
  killed: boolean;
  error?: { code: string; message: string };
  out: BoundedCapture;
  err: BoundedCapture;
  last: string;
  closed: Promise<void>;
  /** Started with detach: its output goes to this file, and it outlives the session. */
  logFile?: string;
  /** Bytes of the log file already reported. */
  logOffset: number;
}

/** A process of the session, for `/ps`. */
export interface ProcInfo {
  proc_id: string;
  pid?: number;
  program: string;
  args: string[];
  state: 'running' | 'exited';
  exitCode: number | null;
  runningMs: number;
  /** Detached: keeps running after the session; its output is in this file. */
  logFile?: string;
}

/** What proc.status / proc.kill report (output not yet redacted): the process as /ps shows it, and more. */
export interface ProcSnapshot extends ProcInfo {
  signal?: string;
  /** Ended by proc.kill (or dispose). */
  killed?: boolean;
  /** Output since the last status. */
  stdoutTail: string;
  stderrTail: string;
  /** Some of the new output was dropped (head + tail kept). */
  truncated: boolean;
  error?: { code: string; message: string };
}

const SPAWN_EXIT_CODES: Record<string, number> = { ENOENT: 127, EACCES: 126, ENOTDIR: 126, EPERM: 126 };

/**
 * The background processes of one session. State lives on this object (the runner holds
 * one); `dispose()` ends every process still running. Each process runs without a shell,
 * stdin closed, in its own process group, so proc.kill and dispose end the whole tree.
 */
/** What proc.start is given: the command as recorded and reported, and how it really runs. */
interface StartOptions {
  program: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  spawnAs?: { program: string; args: string[]; fds?: Buffer[] };
  logFile?: string;
}

/** How a background process is spawned: its own process group, its output to pipes or to its log file. */
function spawnOptions(options: StartOptions, logFd: number | undefined, platform: NodeJS.Platform): Parameters<ProcDeps['spawn']>[2] {
  return {
    cwd: options.cwd,
    env: options.env,
    // fds 3, 4, …: a sandboxed command's seccomp filter, written by the spawner (exec.ts feedFds)
    stdio: [
      ...(logFd === undefined ? (['ignore', 'pipe', 'pipe'] as const) : (['ignore', logFd, logFd] as const)),
      ...(options.spawnAs?.fds ?? []).map(() => 'pipe' as const),
    ],
    ...(options.spawnAs?.fds?.length ? { fdData: options.spawnAs.fds } : {}),
    detached: platform !== 'win32',
    windowsHide: true,
    shell: false,
  };
}

/** Keep what `stream` brings in the entry's capture and its last `lastChars` characters. */
function keepOutput(entry: Entry, stream: NodeJS.ReadableStream | null, which: 'out' | 'err', lastChars: number): void {
  if (!stream) return;
  const decoder = new OutputDecoder();
  stream.on('data', (chunk: Buffer) => {
    const text = decoder.write(chunk);
    if (!text) return;
    // Whole characters only, so a status never shows half of one.
    entry[which].push(Buffer.from(text, 'utf8'));
    entry.last = (entry.last + text).slice(-lastChars);
  });
  stream.on('error', () => undefined);
}

export class ProcessTable {
  private readonly entries = new Map<string, Entry>();
  private counter = 0;
  private unhook?: () => void;
  private readonly limits: ProcLimits;

  constructor(
    private readonly deps: ProcDeps,
    limits: Partial<ProcLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Ids of every process of this session, oldest first. */
  ids(): string[] {
    return [...this.entries.keys()];
  }

  /** How many are still running. */
  running(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.state === 'running') n++;
    return n;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Every process of this session, oldest first (`/ps`). */
  list(): ProcInfo[] {
    return [...this.entries.values()].map((e) => this.info(e));
  }

  private info(e: Entry): ProcInfo {
    return {
      proc_id: e.id,
      ...(e.pid !== undefined ? { pid: e.pid } : {}),
      program: e.program,
      args: e.args,
      state: e.state,
      exitCode: e.exitCode,
      runningMs: Math.max(0, (e.endedAt ?? this.deps.now()) - e.startedAt),
      ...(e.logFile ? { logFile: e.logFile } : {}),
    };
  }

  /**
   * Start `program args` (recorded and reported as such); returns its id at once, or why it
   * could not be started. `spawnAs` is the command line really spawned (the sandbox around it).
   * With `logFile` the process is detached: its output goes to that file (created 0600), it is
   * not ended by dispose() or the host's exit, and proc.status reads what is new in the file.
   */
  start(options: StartOptions): { ok: true; id: string; pid?: number } | { ok: false; code: string; message: string } {
    if (this.running() >= this.limits.maxRunning) return { ok: false, code: 'TOO_MANY', message: String(this.limits.maxRunning) };
    const id = `proc_${++this.counter}`;
    let child: ChildProcess;
    let logFd: number | undefined;
    try {
      if (options.logFile) logFd = openLog(options.logFile);
      child = this.deps.spawn(
        options.spawnAs?.program ?? options.program,
        options.spawnAs?.args ?? options.args,
        spawnOptions(options, logFd, this.deps.platform),
      );
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      return { ok: false, code: err.code ?? 'SPAWN_FAILED', message: err.message };
    } finally {
      // The child has its own copy of the descriptor.
      if (logFd !== undefined) fs.closeSync(logFd);
    }
    if (options.logFile) child.unref();
    let resolveClosed!: () => void;
    const entry: Entry = {
      id,
      program: options.program,
      args: options.args,
      cwd: options.cwd,
      child,
      pid: child.pid,
      startedAt: this.deps.now(),
      state: 'running',
      exitCode: null,
      signal: null,
      killed: false,
      out: new BoundedCapture(this.limits.maxOutputBytes),
      err: new BoundedCapture(this.limits.maxOutputBytes),
      last: '',
      closed: new Promise<void>((r) => (resolveClosed = r)),
      ...(options.logFile ? { logFile: options.logFile } : {}),
      logOffset: 0,
    };
    keepOutput(entry, child.stdout, 'out', this.limits.lastOutputChars);
    keepOutput(entry, child.stderr, 'err', this.limits.lastOutputChars);
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (entry.state === 'exited') return;
      entry.state = 'exited';
      entry.exitCode = code;
      entry.signal = signal;
      entry.endedAt = this.deps.now();
      resolveClosed();
      if (this.running() === 0) this.unhookExit();
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      entry.error = { code: e.code ?? 'ERROR', message: e.message };
      if (child.pid === undefined) finish(SPAWN_EXIT_CODES[e.code ?? ''] ?? 126, null);
    });
    child.on('close', (code, signal) => finish(code, signal));
    this.entries.set(id, entry);
    this.hookExit();
    return { ok: true, id, pid: child.pid };
  }

  /**
   * Status and the output that is new since the last status (or kill). With `waitMs`, waits
   * up to that long for the process to end first (an abort ends the wait early).
   */
  async status(id: string, waitMs = 0, signal?: AbortSignal): Promise<ProcSnapshot | undefined> {
    const e = this.entries.get(id);
    if (!e) return undefined;
    const wait = Math.min(Math.max(0, Math.floor(waitMs)), this.limits.maxWaitMs);
    if (wait > 0 && e.state === 'running') await this.waitFor(e, wait, signal);
    this.readLog(e);
    return this.snapshot(e);
  }

  /** End the process group (SIGTERM, then SIGKILL after the grace period) and return the last output. */
  async kill(id: string): Promise<(ProcSnapshot & { lastOutput: string }) | undefined> {
    const e = this.entries.get(id);
    if (!e) return undefined;
    if (e.state === 'running') {
      e.killed = true;
      this.signalGroup(e, 'SIGTERM');
      await this.waitFor(e, this.limits.killGraceMs);
      if (e.state === 'running') {
        this.signalGroup(e, 'SIGKILL');
        await this.waitFor(e, this.limits.killGraceMs);
      }
    }
    // Grandchildren may outlive a leader that exited on SIGTERM: the group goes too.
    this.signalGroup(e, 'SIGKILL');
    this.readLog(e);
    const lastOutput = e.last;
    return { ...this.snapshot(e), lastOutput };
  }

  /** End every process still running, at once (SIGKILL to each group), except detached ones. For the end of a session. */
  dispose(): void {
    for (const e of this.entries.values()) {
      if (e.state !== 'running' || e.logFile) continue;
      e.killed = true;
      this.signalGroup(e, 'SIGKILL');
    }
    this.unhookExit();
  }

  /** A detached process: what is new in its log file goes into the capture (bounded like a pipe). */
  private readLog(e: Entry): void {
    if (!e.logFile) return;
    let fd: number;
    try {
      fd = fs.openSync(e.logFile, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    } catch {
      return;
    }
    try {
      const size = fs.fstatSync(fd).size;
      // More than the capture keeps: skip to the part it would keep (the tail).
      if (size - e.logOffset > this.limits.maxOutputBytes * 4) {
        e.out.push(Buffer.alloc(0));
        e.logOffset = size - this.limits.maxOutputBytes * 4;
      }
      const buf = Buffer.alloc(64 * 1024);
      const decoder = new OutputDecoder();
      while (e.logOffset < size) {
        const n = fs.readSync(fd, buf, 0, Math.min(buf.length, size - e.logOffset), e.logOffset);
        if (n <= 0) break;
        e.logOffset += n;
        const text = decoder.write(buf.subarray(0, n));
        e.out.push(Buffer.from(text, 'utf8'));
        e.last = (e.last + text).slice(-this.limits.lastOutputChars);
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  private snapshot(e: Entry): ProcSnapshot {
    const stdoutTail = e.out.render();
    const stderrTail = e.err.render();
    const truncated = e.out.truncated || e.err.truncated;
    e.out = new BoundedCapture(this.limits.maxOutputBytes);
    e.err = new BoundedCapture(this.limits.maxOutputBytes);
    return {
      ...this.info(e),
      ...(e.signal ? { signal: e.signal } : {}),
      ...(e.killed ? { killed: true } : {}),
      stdoutTail,
      stderrTail,
      truncated,
      ...(e.error ? { error: e.error } : {}),
    };
  }

  private waitFor(e: Entry, ms: number, signal?: AbortSignal): Promise<void> {
    if (e.state !== 'running' || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      void e.closed.then(done);
    });
  }

  private signalGroup(e: Entry, sig: NodeJS.Signals): void {
    if (e.pid === undefined) return;
    try {
      this.deps.killGroup(e.pid, sig);
    } catch {
      try {
        e.child.kill(sig);
      } catch {
        // Already gone.
      }
    }
  }

  private hookExit(): void {
    if (this.unhook) return;
    // If the host dies without dispose(), no detached group of ours outlives it.
    this.unhook = this.deps.onHostExit(() => this.dispose());
  }

  private unhookExit(): void {
    this.unhook?.();
    this.unhook = undefined;
  }
}

/** Create a detached process's log file: private, never through a link, in a private folder. */
function openLog(file: string): number {
  ensurePrivateDir(path.dirname(file));
  return fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
}
