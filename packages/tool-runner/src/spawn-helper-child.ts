/**
 * The spawn helper (spawn-helper.ts): a small node process that starts commands for its parent.
 * It receives `{id, program, args, cwd, env, detached}` over IPC, spawns with piped stdout and
 * stderr, hands both pipes back as handles, and reports the pid, spawn errors and the exit. It
 * ends with its parent (IPC disconnect). Never reads the pipes itself.
 */
import { spawn, type ChildProcess } from 'child_process';

interface SpawnMessage {
  type: 'spawn';
  id: number;
  program: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  detached?: boolean;
}

function send(message: Record<string, unknown>, handle?: unknown): void {
  try {
    process.send?.(message, handle as never);
  } catch {
    // the parent is gone: 'disconnect' ends this process
  }
}

function start(m: SpawnMessage): void {
  let child: ChildProcess;
  try {
    child = spawn(m.program, m.args, { cwd: m.cwd, env: m.env, stdio: ['ignore', 'pipe', 'pipe'], detached: m.detached, shell: false, windowsHide: true });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    send({ type: 'error', id: m.id, code: e.code ?? 'SPAWN_FAILED', message: e.message, errno: e.errno, syscall: e.syscall, path: e.path });
    return;
  }
  // Nothing may be read here: the pipes go to the parent, which reads them from the start.
  for (const stream of [child.stdout, child.stderr]) {
    stream?.pause();
    (stream as unknown as { _handle?: { readStop?: () => void } })?._handle?.readStop?.();
  }
  child.on('error', (e: NodeJS.ErrnoException) => send({ type: 'error', id: m.id, code: e.code ?? 'ERROR', message: e.message, errno: e.errno, syscall: e.syscall, path: e.path }));
  if (child.pid === undefined) return; // 'error' follows
  send({ type: 'pid', id: m.id, pid: child.pid });
  send({ type: 'stdout', id: m.id }, child.stdout);
  send({ type: 'stderr', id: m.id }, child.stderr);
  child.on('exit', (code, signal) => send({ type: 'exit', id: m.id, code, signal }));
}

process.on('message', (m: SpawnMessage) => {
  if (m && m.type === 'spawn') start(m);
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
