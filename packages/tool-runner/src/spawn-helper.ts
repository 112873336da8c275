/**
 * Spawning through a small helper process. libuv starts a program with fork(), and fork copies
 * the page tables of the whole process, so the larger `ai` grows the more every step pays, with
 * the event loop blocked meanwhile (the figures: bench/measured-once.md). The helper is a small
 * fresh node process that forks for us; the command's stdout and stderr pipes come back as
 * handles over IPC, so output is read here directly, with no copy in between.
 *
 * `spawn()` returns at once a ChildProcess-like object (the streams start delivering when their
 * handles arrive). Until the helper is up, and on Windows, or when it fails, spawning is direct.
 * SLOTHTOOL_SPAWN_HELPER=0 turns it off.
 */
import { EventEmitter } from 'events';
import path = require('path');
import type { ChildProcess } from 'child_process';
import type { Socket } from 'net';
import type { SpawnOptionsWithData } from './spawn-fds';
import { childProcessModule, cryptoModule } from './lazy-modules';

type Direct = (command: string, args: string[], options: SpawnOptionsWithData) => ChildProcess;

/** A stream whose source arrives later: listeners and destroy() wait for it. */
class LateStream extends EventEmitter {
  private source?: Socket;
  private destroyed = false;

  /** The pipe, once it arrived (capture-offload.ts reads its descriptor). */
  get socket(): Socket | undefined {
    return this.source;
  }

  attach(socket: Socket): void {
    this.source = socket;
    if (this.destroyed) return void socket.destroy();
    socket.on('data', (chunk: Buffer) => this.emit('data', chunk));
    socket.on('error', (err: Error) => this.emit('error', err));
    socket.on('close', () => this.emit('close'));
  }

  destroy(): void {
    this.destroyed = true;
    this.source?.destroy();
  }
}

/** The child as the caller sees it: stdout, stderr, pid, kill, 'error' / 'exit' / 'close'. */
class RemoteChild extends EventEmitter {
  readonly stdout = new LateStream();
  readonly stderr = new LateStream();
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  private open = 2;
  private exited = false;
  private pendingKill?: NodeJS.Signals;

  constructor() {
    super();
    const closed = () => {
      this.open--;
      this.maybeClose();
    };
    this.stdout.on('close', closed);
    this.stderr.on('close', closed);
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.pid === undefined) {
      this.pendingKill = signal;
      return true;
    }
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  started(pid: number): void {
    this.pid = pid;
    if (this.pendingKill) this.kill(this.pendingKill);
  }

  ended(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
    this.maybeClose();
  }

  /** The helper went away: streams that never came are closed so 'close' still happens. */
  orphaned(): void {
    for (const s of [this.stdout, this.stderr]) if (!s.socket) s.emit('close');
    if (!this.exited) this.ended(null, 'SIGKILL');
  }

  private maybeClose(): void {
    if (this.exited && this.open <= 0) this.emit('close', this.exitCode, this.signalCode);
  }
}

interface HelperMessage {
  type: 'ready' | 'pid' | 'stdout' | 'stderr' | 'exit' | 'error';
  id?: number;
  pid?: number;
  code?: number | string | null;
  signal?: NodeJS.Signals | null;
  message?: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

/** What turns `base` into `env`: values set or changed, and names removed. */
export function envChanges(base: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv): { set: Record<string, string>; unset: string[] } {
  const set: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && base[k] !== v) set[k] = v;
  const unset = Object.keys(base).filter((k) => env[k] === undefined);
  return { set, unset };
}

/**
 * The helper's node runs without V8's and node's worker threads: it runs little JavaScript, and a
 * process with fewer threads forks faster (fork write-protects the parent's pages, which every
 * running thread of it must be told of) and leaves the cores to the commands it starts.
 */
const HELPER_NODE_FLAGS = ['--single-threaded', '--v8-pool-size=0'];

export class SpawnHelper {
  private child?: ChildProcess;
  private ready = false;
  private failed = false;
  private nextId = 1;
  private readonly active = new Map<number, RemoteChild>();
  private readonly waiting: Array<(ready: boolean) => void> = [];
  /** The environment the helper was given at start: commands' environments go as changes to it
   * (an environment rarely changes between commands, so the whole of it is sent once). */
  private baseEnv: NodeJS.ProcessEnv = {};
  private readonly frozenChanges = new WeakMap<NodeJS.ProcessEnv, ReturnType<typeof envChanges>>();
  /** Keys of the fd bytes the helper holds (dataKey). */
  private readonly sentData = new Set<string>();
  /** The bytes of the last {@link dataKey} (a copy) and their key. */
  private lastData?: { bytes: Buffer; key: string };

  /**
   * `childScript`: the helper's program (default: spawn-helper-child.js next to this file).
   * `pipeDir`: where it may make FIFOs for commands that name no folder of their own (a folder
   * the OS sandbox hides from commands, see sandbox/spec.ts pipeFolder); without one they get
   * node's socketpairs.
   */
  constructor(
    private readonly direct: Direct,
    private readonly childScript: string = path.join(__dirname, 'spawn-helper-child.js'),
    private readonly pipeDir?: string,
  ) {}

  /**
   * Start a command through the helper. `pipeDir`: where FIFOs for it may be made, the `run`
   * folder of the SlothTool home of the runner that starts it (one helper serves every runner of
   * the process, each with its own home); default: the one given at construction.
   */
  spawn(command: string, args: string[], options: SpawnOptionsWithData, pipeDir: string | undefined = this.pipeDir): ChildProcess {
    // stdout and stderr piped back; fds from 3 on only as pipes the helper feeds (fdData).
    const stdio = options.stdio;
    const fds = options.fdData ?? [];
    const simple =
      Array.isArray(stdio) &&
      stdio[0] === 'ignore' &&
      stdio[1] === 'pipe' &&
      stdio[2] === 'pipe' &&
      stdio.length === 3 + fds.length &&
      stdio.slice(3).every((s) => s === 'pipe') &&
      !options.shell;
    if (!simple || this.failed) return this.direct(command, args, options);
    if (!this.ready) {
      this.boot();
      return this.direct(command, args, options);
    }
    const id = this.nextId++;
    const remote = new RemoteChild();
    this.active.set(id, remote);
    this.child!.channel?.ref();
    const fdKeys = fds.map((bytes) => this.dataKey(bytes, pipeDir));
    this.child!.send({
      type: 'spawn',
      id,
      program: command,
      args,
      cwd: options.cwd,
      env: this.changesOf(options.env ?? process.env),
      detached: options.detached,
      ...(fdKeys.length ? { fdKeys } : {}),
      ...(pipeDir ? { pipeDir } : {}),
      ...(options.commandAt !== undefined ? { commandAt: options.commandAt } : {}),
    });
    return remote as unknown as ChildProcess;
  }

  /**
   * The helper's key for bytes a command reads from fd 3, 4, … (a sandbox's seccomp filter, the
   * same for every step): sent once, then named by key (by content, so a changed buffer is new).
   */
  private dataKey(bytes: Buffer, pipeDir: string | undefined): string {
    // The same bytes as the last step's (compared whole, against a copy): no hash of them again.
    const last = this.lastData;
    if (last && last.bytes.equals(bytes)) return last.key;
    const { createHash } = cryptoModule();
    const key = createHash('sha256').update(bytes).digest('hex');
    this.lastData = { bytes: Buffer.from(bytes), key };
    if (!this.sentData.has(key)) {
      this.sentData.add(key);
      this.child!.send({ type: 'data', key, b64: bytes.toString('base64'), ...(pipeDir ? { pipeDir } : {}) });
    }
    return key;
  }

  /** The changes that turn the helper's base environment into `env`; kept for an environment
   * that cannot change (frozen: the runner's hardened one, tools/exec-tool.ts hardenedEnv). */
  private changesOf(env: NodeJS.ProcessEnv): ReturnType<typeof envChanges> {
    const kept = this.frozenChanges.get(env);
    if (kept) return kept;
    const changes = envChanges(this.baseEnv, env);
    if (Object.isFrozen(env)) this.frozenChanges.set(env, changes);
    return changes;
  }

  /** Start the helper now if it is not up; true once it takes commands, false when it cannot. */
  whenReady(): Promise<boolean> {
    if (this.ready || this.failed) return Promise.resolve(this.ready);
    this.boot();
    // Waiting keeps the process up (the helper's channel is otherwise unreferenced).
    this.child?.channel?.ref();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** End the sandbox the helper prepared for a next step (spawn-helper-warm.ts): a runner that is done leaves nothing running. */
  discardPrepared(): void {
    if (this.ready && this.child?.connected) this.child.send({ type: 'discard' });
  }

  /** Stop the helper (its commands are the caller's to end first). */
  close(): void {
    this.failed = true;
    this.child?.disconnect?.();
  }

  private boot(): void {
    if (this.child || this.failed) return;
    const { fork } = childProcessModule();
    try {
      this.child = fork(this.childScript, [], {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        execArgv: HELPER_NODE_FLAGS,
        serialization: 'json',
        env: process.env,
      });
    } catch {
      this.failed = true;
      this.settleWaiting();
      return;
    }
    const child = this.child;
    this.baseEnv = { ...process.env };
    child.send({ type: 'base', env: this.baseEnv, pipeDir: this.pipeDir });
    child.unref();
    child.channel?.unref();
    child.on('message', (m: HelperMessage, handle?: Socket) => this.onMessage(m, handle));
    child.on('error', () => this.lost());
    child.on('exit', () => this.lost());
  }

  private onMessage(m: HelperMessage, handle?: Socket): void {
    if (m.type === 'ready') {
      this.ready = true;
      this.settleWaiting();
      return;
    }
    const remote = m.id === undefined ? undefined : this.active.get(m.id);
    if (!remote) {
      handle?.destroy();
      return;
    }
    if (m.type === 'pid' && m.pid !== undefined) remote.started(m.pid);
    else if (m.type === 'stdout' && handle) remote.stdout.attach(handle);
    else if (m.type === 'stderr' && handle) remote.stderr.attach(handle);
    else if (m.type === 'error') {
      const err = Object.assign(new Error(m.message ?? 'spawn failed'), { code: m.code, errno: m.errno, syscall: m.syscall, path: m.path });
      remote.emit('error', err);
      if (remote.pid === undefined) this.finish(m.id!);
    } else if (m.type === 'exit') {
      remote.ended(typeof m.code === 'number' ? m.code : null, m.signal ?? null);
      this.finish(m.id!);
    }
  }

  private finish(id: number): void {
    this.active.delete(id);
    if (!this.active.size) this.child?.channel?.unref();
  }

  private settleWaiting(): void {
    if (!this.waiting.length) return;
    if (!this.active.size) this.child?.channel?.unref();
    for (const resolve of this.waiting.splice(0)) resolve(this.ready);
  }

  /** The helper died: what it started is reported ended; later spawns are direct. */
  private lost(): void {
    this.failed = true;
    this.ready = false;
    this.settleWaiting();
    for (const [id, remote] of this.active) {
      if (remote.pid !== undefined) remote.kill('SIGKILL');
      remote.orphaned();
      this.active.delete(id);
    }
  }
}
