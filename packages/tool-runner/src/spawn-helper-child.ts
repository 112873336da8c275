/**
 * The spawn helper (spawn-helper.ts): a small node process that starts commands for its parent.
 * It receives `{id, program, args, cwd, env, detached}` over IPC, spawns with piped stdout and
 * stderr, hands both pipes back as handles, and reports the pid, spawn errors and the exit. It
 * ends with its parent (IPC disconnect). Never reads the pipes itself.
 *
 * The pipes are real pipes (FIFOs) where it can make them: node's own `'pipe'` stdio is a
 * socketpair, which moves bulk output at about half a pipe's speed even when read off the event
 * loop (capture-offload.ts; bench: 1 GiB through exec). Pairs are made in batches of 16 (one
 * `mkfifo` in a fresh 0700 folder under `<SlothTool home>/run`, which the OS sandbox hides, every
 * end opened at once, then the names removed, so only these descriptors reach them); without
 * them a command gets node's socketpairs as before. Bytes a command reads from fd 3, 4, … (a
 * sandbox's seccomp filter) come once per content (`data`) and are kept the same way: written,
 * opened, the name removed; each command gets a fresh descriptor of that file (keepData).
 */
import { execFileSync, spawn, type ChildProcess } from 'child_process';
import fs = require('fs');
import net = require('net');
import os = require('os');
import path = require('path');
import { discard, launcherInput, pathIdentity, warmCommandLine, warmKey, type WarmBox } from './spawn-helper-warm';

interface SpawnMessage {
  type: 'spawn';
  id: number;
  program: string;
  args: string[];
  cwd?: string;
  /** The command's environment as changes to the base one (spawn-helper.ts envChanges). */
  env: { set: Record<string, string>; unset: string[] };
  detached?: boolean;
  /** The bytes for the command's fds 3, 4, … (a sandbox's seccomp filter), by the key of a `data` message. */
  fdKeys?: string[];
  /** Where FIFOs for it may be made (`<its runner's SlothTool home>/run`); default: the base message's. */
  pipeDir?: string;
  /** Where its command starts after a sandbox's options and `--`: it may run in a sandbox prepared ahead (spawn-helper-warm.ts). */
  commandAt?: number;
}

/**
 * Bytes a command reads from fd 3, 4, …, sent once (`data`) and named by key in each spawn. Kept
 * as an unlinked file where /proc can reopen it: each command gets a fresh descriptor of its own
 * (its own offset), with no pipe or stream to feed; else the bytes, fed through a pipe.
 */
const fdData = new Map<string, { fd?: number; bytes: Buffer }>();

function keepData(key: string, bytes: Buffer, pipeDir: string | undefined): void {
  let fd: number | undefined;
  let dir: string | undefined;
  try {
    // A folder of its own, named like the pipe batches so a killed helper's is removed as theirs are.
    dir = fs.mkdtempSync(path.join(pipeDir && fs.existsSync(pipeDir) ? pipeDir : os.tmpdir(), 'pipes-data-'));
    const file = path.join(dir, 'data');
    fs.writeFileSync(file, bytes, { mode: 0o600 });
    fd = fs.openSync(file, 'r');
    // Reopened by each command below: it must work here, or the bytes go through pipes.
    fs.closeSync(fs.openSync(`/proc/self/fd/${fd}`, 'r'));
  } catch {
    if (fd !== undefined) closeAll([fd]);
    fd = undefined;
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
  fdData.set(key, { ...(fd !== undefined ? { fd } : {}), bytes });
}

/** The stdio entries of fds 3, 4, …, what to do once spawned (close the fresh descriptors, feed the pipes), and how to let go of them when the spawn failed. */
function dataStdio(keys: readonly string[]): { stdio: Array<number | 'pipe'>; after(child: ChildProcess): void; release(): void } {
  const entries = keys.map((k) => fdData.get(k) ?? { bytes: Buffer.alloc(0) });
  const opened: number[] = [];
  const stdio = entries.map((e) => {
    if (e.fd === undefined) return 'pipe' as const;
    const fd = fs.openSync(`/proc/self/fd/${e.fd}`, 'r');
    opened.push(fd);
    return fd;
  });
  return {
    stdio,
    release: () => closeAll(opened),
    after(child) {
      closeAll(opened);
      entries.forEach((e, i) => {
        if (e.fd !== undefined) return;
        const pipe = child.stdio[3 + i] as NodeJS.WritableStream | null;
        // The command may end (or fail to start) before it reads them.
        pipe?.on('error', () => undefined);
        pipe?.end(e.bytes);
      });
    },
  };
}

/** The parent's environment when it started this helper (its first message), not this
 * process's own, which node has added its IPC variables to. */
let baseEnv: NodeJS.ProcessEnv = {};
/** Where FIFOs are made for a command that names no folder (`<SlothTool home>/run`, hidden from sandboxed commands). */
let basePipeDir: string | undefined;

function commandEnv(changes: SpawnMessage['env']): NodeJS.ProcessEnv {
  const env = { ...baseEnv, ...changes.set };
  for (const k of changes.unset) delete env[k];
  return env;
}

function send(message: Record<string, unknown>, handle?: unknown): void {
  try {
    process.send?.(message, handle as never);
  } catch {
    // the parent is gone: 'disconnect' ends this process
  }
}

/** Both ends of one FIFO, opened; its name is gone. */
interface Fifo {
  read: number;
  write: number;
}

/** Ready pairs (stdout, stderr), made in batches so one `mkfifo` serves many commands. */
const spares: Array<{ out: Fifo; err: Fifo }> = [];
const BATCH = 16;
/** mkfifo is missing or failing: socketpairs from now on (a missing folder only fails that command's batch). */
let fifosFailed = process.platform === 'win32' || process.env.SLOTHTOOL_SPAWN_FIFO === '0';
/** A pipe folder left by a helper that was killed while making one is removed after this long. */
const STALE_MS = 10 * 60 * 1000;

function closeAll(fds: number[]): void {
  for (const fd of fds) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
  }
}

/**
 * Make a batch of FIFO pairs, synchronously, when a command finds none left: the helper only
 * touches the SlothTool home while its parent waits for a command (after `ai` exits, a folder
 * made in the background would race whoever removes that home).
 */
const cleaned = new Set<string>();

function makeSpares(pipeDir: string | undefined): void {
  if (fifosFailed || !pipeDir) return;
  if (!cleaned.has(pipeDir)) {
    cleaned.add(pipeDir);
    removeStale(pipeDir);
  }
  let dir: string;
  try {
    // Only inside an existing SlothTool home (never made up along the way): without one, this
    // command gets socketpairs; a later one, of a runner whose home exists, FIFOs again.
    if (!fs.existsSync(pipeDir)) fs.mkdirSync(pipeDir, { mode: 0o700 });
    dir = fs.mkdtempSync(path.join(pipeDir, 'pipes-'));
  } catch {
    return;
  }
  const names = Array.from({ length: BATCH * 2 }, (_, i) => path.join(dir, String(i)));
  const opened: number[] = [];
  try {
    execFileSync('mkfifo', ['-m', '600', ...names], { stdio: 'ignore' });
    // The read end first (non-blocking, so it does not wait for a writer), then the write end.
    const fifos = names.map((name) => {
      const read = fs.openSync(name, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      opened.push(read);
      const write = fs.openSync(name, fs.constants.O_WRONLY);
      opened.push(write);
      return { read, write };
    });
    for (let i = 0; i < fifos.length; i += 2) spares.push({ out: fifos[i], err: fifos[i + 1] });
  } catch {
    closeAll(opened);
    fifosFailed = true;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Remove pipe folders a killed helper left behind (others' are gone within milliseconds). */
function removeStale(pipeDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(pipeDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith('pipes-')) continue;
    const p = path.join(pipeDir, name);
    try {
      if (Date.now() - fs.lstatSync(p).mtimeMs > STALE_MS) fs.rmSync(p, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/** A paused socket on a FIFO's read end, to hand to the parent. */
function readSocket(fd: number): net.Socket {
  return new net.Socket({ fd, readable: true, writable: false, pauseOnCreate: true } as net.SocketConstructorOpts);
}

/** The sandbox prepared for the next step like the last one (spawn-helper-warm.ts), if any. */
let warm: WarmBox | undefined;

/** Nothing may be read here: the pipes go to the parent, which reads them from the start. */
function quiet(stream: net.Socket | null): void {
  stream?.pause();
  (stream as unknown as { _handle?: { readStop?: () => void } })?._handle?.readStop?.();
}

/** Hand a started command to the parent: its pid, then its stdout and stderr read ends. */
function report(id: number, child: ChildProcess, stdout: net.Socket | null, stderr: net.Socket | null): void {
  for (const stream of [stdout, stderr]) quiet(stream);
  send({ type: 'pid', id, pid: child.pid });
  send({ type: 'stdout', id }, stdout);
  send({ type: 'stderr', id }, stderr);
}

/** A spawned process with its stdout and stderr read ends (paused). */
interface Piped {
  child: ChildProcess;
  stdout: net.Socket | null;
  stderr: net.Socket | null;
}

/**
 * Spawn `program args` as `m` says (folder, process group, the bytes of fds 3, 4, …, then `extra`
 * stdio entries), stdout and stderr on a spare FIFO pair (node's pipes without one). Throws what
 * spawn throws, its descriptors released.
 */
function spawnPiped(m: SpawnMessage, program: string, args: string[], env: NodeJS.ProcessEnv, extra: Array<'pipe'>): Piped {
  const fifos = spares.shift();
  let data: ReturnType<typeof dataStdio> | undefined;
  let child: ChildProcess;
  try {
    const stdio = fifos ? (['ignore', fifos.out.write, fifos.err.write] as const) : (['ignore', 'pipe', 'pipe'] as const);
    data = dataStdio(m.fdKeys ?? []);
    child = spawn(program, args, {
      cwd: m.cwd,
      env,
      stdio: [...stdio, ...data.stdio, ...extra],
      detached: m.detached,
      shell: false,
      windowsHide: true,
    });
  } catch (err) {
    if (fifos) closeAll([fifos.out.read, fifos.out.write, fifos.err.read, fifos.err.write]);
    data?.release();
    throw err;
  }
  // The command holds the write ends now; ours would keep its readers from ever seeing the end.
  if (fifos) closeAll([fifos.out.write, fifos.err.write]);
  data.after(child);
  const [stdout, stderr] = fifos
    ? [readSocket(fifos.out.read), readSocket(fifos.err.read)]
    : [child.stdout as net.Socket | null, child.stderr as net.Socket | null];
  for (const stream of [stdout, stderr]) quiet(stream);
  return { child, stdout, stderr };
}

function start(m: SpawnMessage, key: string | undefined): void {
  if (!spares.length) makeSpares(m.pipeDir ?? basePipeDir);
  let piped: Piped;
  try {
    piped = spawnPiped(m, m.program, m.args, commandEnv(m.env), []);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    send({ type: 'error', id: m.id, code: e.code ?? 'SPAWN_FAILED', message: e.message, errno: e.errno, syscall: e.syscall, path: e.path });
    return;
  }
  const { child, stdout, stderr } = piped;
  child.on('error', (e: NodeJS.ErrnoException) =>
    send({ type: 'error', id: m.id, code: e.code ?? 'ERROR', message: e.message, errno: e.errno, syscall: e.syscall, path: e.path }),
  );
  if (child.pid === undefined) {
    // 'error' follows; the read ends have no writer left and nobody to read them.
    stdout?.destroy();
    stderr?.destroy();
    return;
  }
  report(m.id, child, stdout, stderr);
  child.on('exit', (code, signal) => {
    send({ type: 'exit', id: m.id, code, signal });
    if (key) prepare(m, key);
  });
}

/**
 * Start the sandbox of `m` again with the launcher waiting in it, for a next step like it, on the
 * pipes a fresh start would get: FIFOs already made (none are made while the parent is not
 * waiting for a command: with none left, nothing is prepared), node's pipes where there are none.
 */
function prepare(m: SpawnMessage, key: string): void {
  const launcherFd = 3 + (m.fdKeys?.length ?? 0);
  const line = warmCommandLine({ ...m, commandAt: m.commandAt! }, launcherFd);
  const pipeDir = m.pipeDir ?? basePipeDir;
  const fifosHere = !fifosFailed && pipeDir !== undefined && fs.existsSync(pipeDir);
  if (warm || !line || (fifosHere && !spares.length)) return;
  // The paths as they are before bubblewrap mounts them: a change after this is seen at use.
  const identity = pathIdentity(m.args, m.commandAt!);
  let piped: Piped;
  try {
    piped = spawnPiped(m, line.program, line.args, {}, ['pipe']);
  } catch {
    return;
  }
  const { child, stdout, stderr } = piped;
  child.on('error', () => undefined);
  if (child.pid === undefined) {
    stdout?.destroy();
    stderr?.destroy();
    return;
  }
  const box: WarmBox = {
    key,
    identity,
    child,
    out: stdout,
    err: stderr,
    launcher: child.stdio[launcherFd] as NodeJS.WritableStream,
    group: m.detached === true,
    ended: false,
  };
  child.on('exit', (code, signal) => {
    if (box.onExit) return box.onExit(code, signal);
    // Ended before any step used it: thrown away.
    box.ended = true;
    if (warm === box) warm = undefined;
    discard(box);
  });
  warm = box;
}

/** Run a step: in the prepared sandbox when it is the same one, its paths unchanged; else started afresh. */
function run(m: SpawnMessage): void {
  const key = m.commandAt !== undefined ? warmKey({ ...m, commandAt: m.commandAt }) : undefined;
  const box = warm;
  warm = undefined;
  // Anything else (an L1 step, a command outside the sandbox) may change what the prepared one
  // holds in ways its paths' files do not show (a hidden file unlinked and linked back): it ends.
  if (!key) {
    if (box) discard(box);
    return start(m, undefined);
  }
  const input = box && box.key === key && !box.ended ? launcherInput(m.args, m.commandAt!, commandEnv(m.env)) : undefined;
  if (box && input && box.identity === pathIdentity(m.args, m.commandAt!)) {
    box.launcher.on('error', () => undefined);
    box.launcher.end(input);
    box.child.removeAllListeners('error');
    box.child.on('error', (e: NodeJS.ErrnoException) =>
      send({ type: 'error', id: m.id, code: e.code ?? 'ERROR', message: e.message, errno: e.errno, syscall: e.syscall, path: e.path }),
    );
    box.onExit = (code, signal) => {
      send({ type: 'exit', id: m.id, code, signal });
      prepare(m, key);
    };
    report(m.id, box.child, box.out, box.err);
    return;
  }
  if (box) discard(box);
  start(m, key);
}

process.on(
  'message',
  (
    m:
      | SpawnMessage
      | { type: 'base'; env: NodeJS.ProcessEnv; pipeDir?: string }
      | { type: 'data'; key: string; b64: string; pipeDir?: string }
      | { type: 'discard' },
  ) => {
    if (m && m.type === 'base') {
      baseEnv = m.env;
      basePipeDir = m.pipeDir;
      // The first pipes are made for the first command: a helper whose parent is already gone
      // (it started on the parent's last spawn) never touches the SlothTool home.
      send({ type: 'ready' });
    } else if (m && m.type === 'data') keepData(m.key, Buffer.from(m.b64, 'base64'), m.pipeDir ?? basePipeDir);
    else if (m && m.type === 'spawn') run(m);
    else if (m && m.type === 'discard' && warm) {
      discard(warm);
      warm = undefined;
    }
  },
);
process.on('disconnect', () => process.exit(0));
