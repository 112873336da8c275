import { hardeningArgs } from './detect';
import { under } from './home-view';
import { prlimitArgv } from './limits';
import type { SandboxSpec } from './spec';

/**
 * bubblewrap arguments for a spec (pure; table-tested). Order matters: later mounts cover
 * earlier ones, so the read-only root comes first, then the private temp folder and home, then
 * what is bound back or writable, then what is hidden or forced read-only again.
 */
export function bwrapArgs(spec: SandboxSpec): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  if (spec.level === 'L1') {
    args.push('--bind', spec.tmpDir, spec.tmpDir, '--bind', spec.workspace, spec.workspace);
  } else {
    // A private, empty, writable /tmp (and temp folder) so programs that need scratch space work;
    // a workspace (or cwd) that lives under it is put back, read-only, on top.
    const tmps = spec.tmpDir === '/tmp' ? ['/tmp'] : ['/tmp', spec.tmpDir];
    const home = spec.privateHome;
    // Put back under the temp folder here, unless the private home covers it and puts it back itself.
    const inHome = (p: string) => home !== undefined && under(p, home.path) && p !== home.path;
    for (const t of tmps) if (!inHome(t)) args.push('--tmpfs', t);
    for (const p of new Set([spec.workspace, spec.cwd])) if (tmps.some((t) => under(p, t)) && !inHome(p)) args.push('--ro-bind', p, p);
    if (home) {
      // An empty, writable (and thrown away) home: programs that keep caches there still work.
      args.push('--tmpfs', home.path);
      for (const b of home.binds) args.push('--ro-bind', b.from, b.to);
      // A temp folder in the home (TMPDIR=~/tmp) is made again inside it.
      for (const t of tmps) if (inHome(t)) args.push('--tmpfs', t);
      if (inHome(spec.workspace)) args.push('--ro-bind', spec.workspace, spec.workspace);
    }
  }
  // Read-only again first, hidden last: a read-only bind of the SlothTool home must not bring
  // its plugin-configs back into view.
  for (const p of spec.readOnly) args.push('--ro-bind', p, p);
  for (const f of spec.shown ?? []) args.push('--ro-bind', f.from, f.to);
  for (const h of spec.hide) {
    if (h.kind === 'dir') args.push('--tmpfs', h.path, '--remount-ro', h.path);
    else args.push('--ro-bind', '/dev/null', h.path);
  }
  if (!spec.network || spec.isolatedNetwork) args.push('--unshare-net');
  // No --new-session: the step is spawned in a session of its own already (no terminal to inject
  // into), and staying in the spawned process group lets a group kill reach every process inside,
  // even one killed while bwrap is still setting up.
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts');
  if (!spec.outlive) args.push('--die-with-parent');
  // No capabilities, no_new_privs and the seccomp filter, whoever starts it (detect.ts).
  if (spec.hardening) args.push(...hardeningArgs(spec.hardening));
  args.push('--chdir', spec.cwd);
  return args;
}

/** bubblewrap options that take a step's privileges away (detect.ts finds which work here). */
export interface BwrapHardening {
  /** `--unshare-user`: a user namespace of its own (the user mapped to itself, so files keep their owner). */
  userns: boolean;
  /** `--disable-userns` (bubblewrap 0.8): no further user namespace inside. */
  disableUserns: boolean;
  /** `--cap-drop ALL`: no capability in any set (what makes root inside harmless). */
  capDrop: boolean;
  /** `--seccomp 3`: the filter of seccomp.ts, read from fd 3. */
  seccomp: boolean;
}

/**
 * A command line to spawn. `fds`: bytes the command reads from fds 3, 4, … (bubblewrap's seccomp
 * filter): the spawner hands each over through a pipe of its own (exec.ts, spawn-helper.ts).
 */
export interface SandboxedCommand {
  program: string;
  args: string[];
  fds?: Buffer[];
  /** Granted the network, but kept off the host's loopback (net-jail.ts). */
  isolatedNetwork?: boolean;
  /**
   * Where the command starts in `args`, after the sandbox's options and `--` (set when it starts
   * with prlimit): the spawn helper may run it in a sandbox with the same options prepared ahead
   * (spawn-helper-warm.ts).
   */
  commandAt?: number;
}

/** The command line that runs `program args` inside the sandbox (under prlimit when the spec has limits). */
export function wrapWithBwrap(
  bwrap: string,
  spec: SandboxSpec,
  program: string,
  args: readonly string[],
  filter?: Buffer,
): SandboxedCommand {
  const limit = spec.limits ? prlimitArgv(spec.limits.prlimit, spec.limits) : [];
  const options = bwrapArgs(spec);
  const command: SandboxedCommand = { program: bwrap, args: [...options, '--', ...limit, program, ...args] };
  // Started by prlimit (an absolute path): what a missing program says is the same in a prepared sandbox.
  if (limit.length) command.commandAt = options.length + 1;
  if (!spec.hardening?.seccomp) return command;
  if (!filter) throw new Error('the sandbox spec asks for a seccomp filter but none was given');
  return { ...command, fds: [filter] };
}
