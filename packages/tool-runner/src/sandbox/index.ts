import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { wrapWithBwrap, type BwrapHardening, type SandboxedCommand } from './bwrap';
import { detectBwrap, type Degradation, type InsideStatus, type Trial } from './detect';
import { hostSeccompFilter } from './seccomp';
import { nodeWorkspaceSecretsDeps } from './workspace-secrets';
import { seatbeltProfile } from './seatbelt';
import { homeBinds, linkedGitDirs, nodeHomeViewFs, type HomeBind, type HomeViewFs } from './home-view';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits';
import { pipeFolder, probeFs, sandboxSpec, specPlan, type Probe, type SandboxSpec, type SpecPlan } from './spec';

export { bwrapArgs, wrapWithBwrap, type BwrapHardening, type SandboxedCommand } from './bwrap';
export { parseInside, noCapabilities, type Degradation, type InsideStatus } from './detect';
export { SECCOMP_RULES, hostSeccompFilter } from './seccomp';
export { seatbeltProfile } from './seatbelt';
export { sandboxDenial, type SandboxDenial } from './denial';
export { sandboxSpec, HOME_SECRET_STORES, type SandboxSpec, type SpecInput } from './spec';
export { SECRET_CLASSES } from './secrets';
export { DEFAULT_ALLOW_READ, homeBinds, type HomeBind } from './home-view';
export { DEFAULT_LIMITS, limitHit, type LimitHit, type SandboxLimits } from './limits';

/** `auto`: use it when it works, else run without it and say so; `required`: refuse command steps without it; `off`. */
export type SandboxMode = 'auto' | 'required' | 'off';

export interface SandboxStatus {
  mode: SandboxMode;
  /** The sandbox command steps run in: bubblewrap (Linux), Seatbelt (macOS), or none. */
  kind: 'bwrap' | 'seatbelt' | 'none';
  /** Why there is none (not installed, user namespaces off, not Linux or macOS, turned off). */
  reason?: string;
  /** The resource limits of read-only (L0) steps, when in force. */
  limits?: SandboxLimits;
  /**
   * Why limits are not (all) in force: `no-prlimit` (util-linux's prlimit is not installed),
   * `seatbelt` (macOS has no prlimit), `off` (ai.json turned them off), `root` (the kernel
   * does not apply the process limit to root; memory and CPU are in force).
   */
  limitsOff?: 'no-prlimit' | 'seatbelt' | 'off' | 'root';
  /** bubblewrap: what takes a step's privileges away here (user namespace, `--cap-drop ALL`, the seccomp filter). */
  hardening?: BwrapHardening;
  /** bubblewrap: what a step holds, read from /proc/self/status inside it when the sandbox was found. */
  inside?: InsideStatus;
  /**
   * What the sandbox could not take away (capabilities, no_new_privs, the seccomp filter), with
   * why: it runs weakened, and says so (`ai sandbox`, once per session, every L1 question).
   */
  degraded?: Degradation[];
}

export interface SandboxOptions {
  mode?: SandboxMode;
  workspace: string;
  home: string;
  slothtoolHome: string;
  tmpDir?: string;
  /** More of the home shown to read-only (L0) steps (ai.json `sandbox.allowRead`; `~` expanded). */
  allowRead?: readonly string[];
  /** Limits of read-only (L0) steps (ai.json `sandbox.limits`): default DEFAULT_LIMITS; `false` = none. */
  limits?: Partial<SandboxLimits> | false;
  /** Test seams: the platform, the PATH to find bwrap on, how a trial run is made, what exists, the seccomp filter (null: none for this host). */
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  trial?: Trial;
  seccompFilter?: Buffer | null;
  probe?: Probe;
  homeFs?: HomeViewFs;
  /** Running as root (the process limit is then not in force). */
  root?: boolean;
}

/** The sandbox of one runner: found once, asked per step. */
export interface Sandbox {
  status(): SandboxStatus;
  /** The command line of a step at this level, or undefined when it runs unsandboxed. `outlive`: may outlive the runner (no die-with-parent). */
  wrap(level: 'L0' | 'L1', network: boolean, cwd: string, program: string, args: readonly string[], options?: { outlive?: boolean }): SandboxedCommand | undefined;
  /** The spec a step would get (for `ai sandbox` and tests). */
  spec(level: 'L0' | 'L1', network: boolean, cwd: string): SandboxSpec;
}

/** The executable a program name runs: a path as given, else the first match on PATH (absolute entries only). */
export function findProgram(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes('/')) return fs.statSync(name, { throwIfNoEntry: false })?.isFile() ? name : undefined;
  return onPath(name, env);
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
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

/**
 * One trial run; `fds` go to fds 3, 4, … from files that are unlinked at once (a synchronous
 * spawn cannot feed a pipe).
 */
const defaultTrial: Trial = (program, args, fds = []) => {
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
    const r = spawnSync(program, args, { encoding: 'utf8', timeout: 5000, maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'pipe', ...opened] });
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

export function createSandbox(options: SandboxOptions): Sandbox {
  const mode = options.mode ?? 'auto';
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const tmpDir = options.tmpDir ?? os.tmpdir();
  const probe = options.probe ?? probeFs;
  const homeFs = options.homeFs ?? nodeHomeViewFs;
  const home = homeFs.realpath(options.home) ?? options.home;
  let found: { status: SandboxStatus; program?: string; limits?: SandboxLimits & { prlimit: string } } | undefined;
  const filter = options.seccompFilter === undefined ? hostSeccompFilter() : (options.seccompFilter ?? undefined);
  /** What the L0 limits are, once the sandbox is known. */
  const withLimits = (status: SandboxStatus, program: string): NonNullable<typeof found> => {
    if (options.limits === false) return { status: { ...status, limitsOff: 'off' }, program };
    if (status.kind === 'seatbelt') return { status: { ...status, limitsOff: 'seatbelt' }, program };
    const prlimit = findPrlimit(probe);
    if (!prlimit) return { status: { ...status, limitsOff: 'no-prlimit' }, program };
    const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...options.limits };
    const root = options.root ?? process.getuid?.() === 0;
    return { status: { ...status, limits, ...(root && limits.processes > 0 ? { limitsOff: 'root' as const } : {}) }, program, limits: { ...limits, prlimit } };
  };
  const detect = (): NonNullable<typeof found> => {
    if (found) return found;
    const trial = options.trial ?? defaultTrial;
    if (mode === 'off') found = { status: { mode, kind: 'none', reason: 'sandbox is "off" in ai.json' } };
    else if (platform === 'linux') {
      const bwrap = onPath('bwrap', env);
      if (!bwrap) found = { status: { mode, kind: 'none', reason: 'bubblewrap (bwrap) is not installed' } };
      else {
        const base = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid', '--die-with-parent'];
        const d = detectBwrap(bwrap, base, statusReader(probe), trial, filter);
        found = d.ok
          ? withLimits({ mode, kind: 'bwrap', hardening: d.hardening, ...(d.inside ? { inside: d.inside } : {}), ...(d.degraded.length ? { degraded: d.degraded } : {}) }, bwrap)
          : { status: { mode, kind: 'none', reason: `bwrap does not work here (${d.reason}); user namespaces may be off` } };
      }
    } else if (platform === 'darwin') {
      const sb = '/usr/bin/sandbox-exec';
      found = probe(sb) ? withLimits({ mode, kind: 'seatbelt' }, sb) : { status: { mode, kind: 'none', reason: 'sandbox-exec is missing' } };
    } else found = { status: { mode, kind: 'none', reason: `no sandbox for ${platform}` } };
    return found;
  };
  // What the private home shows: worked out once per runner (a toolchain installed meanwhile shows
  // from the next session); each step checks that what it binds still leads where it did.
  let binds: HomeBind[] | undefined;
  const slothtoolHome = options.slothtoolHome;
  // A worktree's or submodule's git folders are shown with it (they may live elsewhere in the home).
  // The SlothTool registry and settings are no secret (`slothtool list` is an L0 step); its
  // plugin configs and pipes are, and are hidden after whatever brings them into view.
  const slothtoolShown = ['registry.json', 'settings.json'].map((f) => path.join(slothtoolHome, f));
  const homeView = (): HomeBind[] =>
    (binds ??= homeBinds(home, [...(options.allowRead ?? []), ...slothtoolShown, ...linkedGitDirs(options.workspace)], homeFs, [path.join(slothtoolHome, 'plugin-configs'), pipeFolder(slothtoolHome)]));
  // What each level shows and may need hidden: worked out once per runner; each step only probes.
  const plans = new Map<'L0' | 'L1', SpecPlan>();
  const planOf = (level: 'L0' | 'L1'): SpecPlan => {
    let plan = plans.get(level);
    if (!plan) plans.set(level, (plan = specPlan({ level, workspace: options.workspace, home, slothtoolHome, ...(level === 'L0' ? { homeBinds: homeView() } : {}) }, probe)));
    return plan;
  };
  // What git tracks of the workspace's env files, and the exclude files that list the hidden ones.
  const secretsDeps = nodeWorkspaceSecretsDeps(pipeFolder(slothtoolHome), probe);
  let runMade = false;
  const spec = (level: 'L0' | 'L1', network: boolean, cwd: string): SandboxSpec => {
    // The spawn helper's pipe folder exists before the first command, so it is hidden from every
    // command, also one started before the helper made its first pipes (a background process).
    if (!runMade && !options.probe) {
      runMade = true;
      try {
        if (fs.statSync(slothtoolHome).isDirectory()) fs.mkdirSync(pipeFolder(slothtoolHome), { mode: 0o700 });
      } catch {
        // there already, or no home to put it in
      }
    }
    let entries: string[] = [];
    try {
      entries = fs.readdirSync(options.workspace);
    } catch {
      // no workspace listing: no .env files to hide
    }
    // A bound name that leads elsewhere now than when the home view was made (a link planted
    // since) is judged again, so the link rule holds for every step, not only the first.
    if (level === 'L0' && binds?.some((b) => homeFs.realpath(b.to) !== b.from)) {
      binds = undefined;
      plans.delete('L0');
    }
    const limits = level === 'L0' ? detect().limits : undefined;
    const hardening = detect().status.hardening;
    const s = sandboxSpec({ level, cwd, workspace: options.workspace, tmpDir, home, slothtoolHome, network, workspaceEntries: entries, ...(limits ? { limits } : {}) }, probe, planOf(level), secretsDeps);
    return hardening ? { ...s, hardening } : s;
  };
  return {
    status: () => detect().status,
    spec,
    wrap(level, network, cwd, program, args, options = {}) {
      const d = detect();
      if (!d.program) return undefined;
      const s = { ...spec(level, network, cwd), ...(options.outlive ? { outlive: true } : {}) };
      if (d.status.kind === 'seatbelt') return { program: d.program, args: ['-p', seatbeltProfile(s), program, ...args] };
      return wrapWithBwrap(d.program, s, program, args, filter);
    },
  };
}
