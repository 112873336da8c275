/**
 * Sandboxes prepared ahead (part of the spawn helper, spawn-helper-child.ts). Starting bubblewrap
 * (namespaces, mounts, the seccomp filter) is most of what a read-only step costs; between two
 * steps the model is thinking. So once a step whose command line the runner marked
 * (`commandAt`: where its command starts after the sandbox's options and `--`) has ended, the
 * helper starts the same sandbox again with a waiting launcher in place of the command: bash,
 * with an empty environment, reading the command as NUL-separated words from a pipe (no word is
 * parsed as shell code) and exec'ing it through `env -i`, so the program gets exactly the step's
 * environment. The next step uses it when its sandbox's options are the same words, and every
 * path they name (any absolute word among them: what is bound, shown, hidden or covered) is still
 * the same file (device and inode): a hidden file replaced since, or a folder swapped for another,
 * makes the helper throw the prepared one away and start afresh. Otherwise the step is started
 * as before. One sandbox is kept prepared, the last step's; it ends with the helper.
 */
import type { ChildProcess } from 'child_process';
import fs = require('fs');

/** The launcher: the command's words from fd `fd`, NUL-separated; that fd is not handed on. */
function launcherScript(fd: number): string {
  return `builtin mapfile -d '' -t a <&${fd} && [ "\${#a[@]}" -gt 0 ] || exit 125; exec -- "\${a[@]}" ${fd}<&-`;
}

/** bash and env where every Linux has them, or undefined (then nothing is prepared). */
function launcherPrograms(): { bash: string; env: string } | undefined {
  const bash = ['/bin/bash', '/usr/bin/bash'].find((p) => fs.existsSync(p));
  const env = ['/usr/bin/env', '/bin/env'].find((p) => fs.existsSync(p));
  return bash && env ? { bash, env } : undefined;
}

let programs: { bash: string; env: string } | null | undefined;
function found(): { bash: string; env: string } | undefined {
  if (programs === undefined) programs = process.platform === 'linux' ? (launcherPrograms() ?? null) : null;
  return programs ?? undefined;
}

/** What a prepared sandbox must match: the program, its options up to `--`, the bytes of its fds, how it is spawned. */
export interface WarmRequest {
  program: string;
  args: string[];
  commandAt: number;
  cwd?: string;
  detached?: boolean;
  fdKeys?: string[];
}

/** The words a prepared sandbox stands for, or undefined when this command cannot use one. */
export function warmKey(m: WarmRequest): string | undefined {
  const at = m.commandAt;
  if (!Number.isInteger(at) || at < 1 || at >= m.args.length || m.args[at - 1] !== '--' || !found()) return undefined;
  return JSON.stringify([m.program, m.args.slice(0, at), m.cwd ?? '', m.detached === true, m.fdKeys ?? []]);
}

/** Every absolute path among the sandbox's options, as the file each is now (device:inode, `-` when missing, the error code when it cannot be looked up). */
export function pathIdentity(args: readonly string[], commandAt: number): string {
  const paths = new Set(args.slice(0, Math.max(0, commandAt - 1)).filter((a) => a.startsWith('/')));
  return [...paths]
    .map((p) => {
      try {
        const s = fs.statSync(p, { throwIfNoEntry: false, bigint: true });
        return s ? `${s.dev}:${s.ino}` : '-';
      } catch (e) {
        // Unreadable on the way (EACCES, ELOOP, …): the same answer twice is the same state.
        return (e as NodeJS.ErrnoException).code ?? '?';
      }
    })
    .join(' ');
}

/** The command line that starts the sandbox with the launcher (reading fd `fd`) in place of the command. */
export function warmCommandLine(m: WarmRequest, fd: number): { program: string; args: string[] } | undefined {
  const p = found();
  if (!p) return undefined;
  return { program: m.program, args: [...m.args.slice(0, m.commandAt), p.bash, '--posix', '-c', launcherScript(fd), 'slothtool-step'] };
}

/**
 * What the launcher reads: `env -i -- NAME=VALUE… command args…`, NUL-separated. The environment
 * is the step's with PWD set to the sandbox's folder (`--chdir`), as bubblewrap sets it when it
 * starts a command itself. Undefined when a word holds a NUL (it would split in two; a fresh
 * start refuses such a word).
 */
export function launcherInput(args: readonly string[], commandAt: number, env: NodeJS.ProcessEnv): Buffer | undefined {
  const p = found();
  if (!p) return undefined;
  const chdir = args.lastIndexOf('--chdir', commandAt - 1);
  const withPwd = chdir >= 0 && chdir + 1 < commandAt ? Object.assign({}, env, { PWD: args[chdir + 1] }) : env;
  const assigns = Object.entries(withPwd).flatMap(([k, v]) => (v === undefined || k === '' || k.includes('=') ? [] : [`${k}=${v}`]));
  const words = [p.env, '-i', '--', ...assigns, ...args.slice(commandAt)];
  if (words.some((w) => w.includes('\0'))) return undefined;
  return Buffer.from(words.join('\0') + '\0', 'utf8');
}

/** A sandbox started ahead, waiting for its command. */
export interface WarmBox {
  key: string;
  identity: string;
  child: ChildProcess;
  /** Read ends of its stdout and stderr, paused (nothing is read here). */
  out: import('net').Socket | null;
  err: import('net').Socket | null;
  /** Where its command is written. */
  launcher: NodeJS.WritableStream;
  /** Spawned as a process group of its own (detached): ended as a group. */
  group: boolean;
  /** Set once it ended (before it was used: it is thrown away). */
  ended: boolean;
  /** Called with its exit once a step uses it. */
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/** End a prepared sandbox that will not be used: its whole process group, and our ends of its pipes. */
export function discard(box: WarmBox): void {
  const pid = box.child.pid;
  try {
    if (box.group && pid !== undefined) process.kill(-pid, 'SIGKILL');
    else box.child.kill('SIGKILL');
  } catch {
    box.child.kill('SIGKILL');
  }
  box.launcher.on('error', () => undefined);
  box.launcher.end();
  box.out?.destroy();
  box.err?.destroy();
}
