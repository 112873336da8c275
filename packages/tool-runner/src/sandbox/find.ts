import { spawnSync } from 'child_process';
import fs = require('fs');
import os = require('os');
import path = require('path');
import { detectBwrap, type Trial } from './detect';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits';
import { probeFs, type Probe } from './spec';
import type { SandboxOptions, SandboxStatus } from './index';

/** The sandbox found for a runner: its status, the program that runs it, the L0 limits and the prlimit that sets them. */
export interface Found {
  status: SandboxStatus;
  program?: string;
  limits?: SandboxLimits & { prlimit: string };
}

/**
 * One trial run; `fds` go to fds 3, 4, … from files that are unlinked at once (a synchronous
 * spawn cannot feed a pipe).
 */
export const defaultTrial: Trial = (program, args, fds = []) => {
  const opened: number[] = [];
  let dir: string | undefined;
  try {
    if (fds.length) dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slothtool-sandbox-'));
    fds.forEach((data, i) => {
      const file = path.join(dir!, String(i));
      fs.writeFileSync(file, data, { mode: 0o600 });
      opened.push(fs.openSync(file, 'r'));
    });
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    const r = spawnSync(program, args, {
      encoding: 'utf8',
      timeout: 5000,
      maxBuffer: 1 << 20,
      stdio: ['ignore', 'pipe', 'pipe', ...opened],
    });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ...(r.error ? { error: r.error.message } : {}) };
  } catch (err) {
    return { status: null, stderr: '', error: err instanceof Error ? err.message : String(err) };
  } finally {
    for (const fd of opened) fs.closeSync(fd);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
};

/** What prints /proc/self/status inside the trial sandbox: cat from a system folder, else the shell. */
function statusReader(probe: Probe): string[] {
  const cat = ['/usr/bin/cat', '/bin/cat'].find((p) => probe(p) === 'file');
  return cat ? [cat, '/proc/self/status'] : ['/bin/sh', '-c', 'while IFS= read -r l; do printf "%s\\n" "$l"; done < /proc/self/status'];
}

/** The prlimit of util-linux: only from a system folder, so the program that sets the limits is not one the home or workspace ships. */
function findPrlimit(probe: Probe): string | undefined {
  return ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'].find((p) => probe(p) === 'file');
}

/** The first absolute PATH entry holding an executable `name`. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // not here: the next folder
    }
  }
  return undefined;
}

/** What the L0 limits are, once the sandbox is known. */
function withLimits(options: SandboxOptions, probe: Probe, status: SandboxStatus, program: string): Found {
  if (options.limits === false) return { status: { ...status, limitsOff: 'off' }, program };
  if (status.kind === 'seatbelt') return { status: { ...status, limitsOff: 'seatbelt' }, program };
  const prlimit = findPrlimit(probe);
  if (!prlimit) return { status: { ...status, limitsOff: 'no-prlimit' }, program };
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const root = options.root ?? process.getuid?.() === 0;
  return {
    status: { ...status, limits, ...(root && limits.processes > 0 ? { limitsOff: 'root' as const } : {}) },
    program,
    limits: { ...limits, prlimit },
  };
}

/**
 * The sandbox of this platform, tried for real (once per runner): bubblewrap with the strongest
 * hardening that works (detect.ts), Seatbelt on macOS, or none with why.
 */
export function findSandbox(options: SandboxOptions, filter: () => Buffer | undefined): Found {
  const mode = options.mode ?? 'auto';
  const platform = options.platform ?? process.platform;
  const probe = options.probe ?? probeFs;
  if (mode === 'off') return { status: { mode, kind: 'none', reason: 'sandbox is "off" in ai.json' } };
  if (platform === 'linux') {
    const bwrap = onPath('bwrap', options.env ?? process.env);
    if (!bwrap) return { status: { mode, kind: 'none', reason: 'bubblewrap (bwrap) is not installed' } };
    const base = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid', '--die-with-parent'];
    const d = detectBwrap(bwrap, base, statusReader(probe), options.trial ?? defaultTrial, filter());
    if (!d.ok) return { status: { mode, kind: 'none', reason: `bwrap does not work here (${d.reason}); user namespaces may be off` } };
    return withLimits(
      options,
      probe,
      {
        mode,
        kind: 'bwrap',
        hardening: d.hardening,
        ...(d.inside ? { inside: d.inside } : {}),
        ...(d.degraded.length ? { degraded: d.degraded } : {}),
      },
      bwrap,
    );
  }
  if (platform === 'darwin') {
    const sb = '/usr/bin/sandbox-exec';
    return probe(sb)
      ? withLimits(options, probe, { mode, kind: 'seatbelt' }, sb)
      : { status: { mode, kind: 'none', reason: 'sandbox-exec is missing' } };
  }
  return { status: { mode, kind: 'none', reason: `no sandbox for ${platform}` } };
}
