import fs = require('fs');
import os = require('os');
import path = require('path');
import { wrapWithBwrap, type BwrapHardening, type SandboxedCommand } from './bwrap';
import type { Degradation, InsideStatus, Trial } from './detect';
import { defaultTrial, findSandbox, onPath, type Found } from './find';
import { jailCommand, launcherPath, namesThisMachine, NetJail, tunAccess, type LoopbackStatus } from './net-jail';
import { hostSeccompFilter } from './seccomp';
import { nodeWorkspaceSecretsDeps } from './workspace-secrets';
import { seatbeltProfile } from './seatbelt';
import { homeBinds, linkedGitDirs, nodeHomeViewFs, type HomeBind, type HomeViewFs } from './home-view';
import type { SandboxLimits } from './limits';
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
   * never holds root of the machine to the process limit, also inside the sandbox's user
   * namespace: limits.ts; memory and CPU are in force).
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
  /**
   * bubblewrap: whether a step granted the network is kept off this machine's loopback (its own
   * network namespace, joined to the outside by slirp4netns: net-jail.ts), and why not. Steps that
   * name this machine and servers (`proc.start`) keep the host's network either way.
   */
  loopback?: LoopbackStatus;
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
  /** slirp4netns for steps granted the network (net-jail.ts): found in a system folder by default; `false`: none (they share the host's network). */
  slirp?: string | false;
  /** The launcher of those steps (net-jail-launcher.js beside this code by default; a test seam: under ts-jest there is none in src/). */
  launcher?: string;
  /** Whether /dev/net/tun can be opened here (net-jail.ts tunAccess by default; a test seam). */
  tunAccess?: typeof tunAccess;
}

/** The sandbox of one runner: found once, asked per step. */
export interface Sandbox {
  status(): SandboxStatus;
  /** The command line of a step at this level, or undefined when it runs unsandboxed. `outlive`: may outlive the runner (no die-with-parent). */
  wrap(
    level: 'L0' | 'L1',
    network: boolean,
    cwd: string,
    program: string,
    args: readonly string[],
    options?: { outlive?: boolean; hostNetwork?: boolean },
  ): SandboxedCommand | undefined;
  /** The spec a step would get (for `ai sandbox` and tests). */
  spec(level: 'L0' | 'L1', network: boolean, cwd: string): SandboxSpec;
}

/** The executable a program name runs: a path as given, else the first match on PATH (absolute entries only). */
export function findProgram(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes('/')) return fs.statSync(name, { throwIfNoEntry: false })?.isFile() ? name : undefined;
  return onPath(name, env);
}

/**
 * The spawn helper's pipe folder, made before the first command so that it is hidden from every
 * command, also one started before the helper made its first pipes (a background process).
 */
function makePipeFolder(slothtoolHome: string): void {
  try {
    if (fs.statSync(slothtoolHome).isDirectory()) fs.mkdirSync(pipeFolder(slothtoolHome), { mode: 0o700 });
  } catch {
    // there already, or no home to put it in
  }
}

/** The names in the workspace (its .env files are hidden); none when it cannot be listed. */
function workspaceEntries(workspace: string): string[] {
  try {
    return fs.readdirSync(workspace);
  } catch {
    // no workspace listing: no .env files to hide
    return [];
  }
}

/**
 * What each level shows and may need hidden, worked out once per runner (each step only probes):
 * the private home's binds (a toolchain installed meanwhile shows from the next session) and
 * each level's spec plan.
 */
class SpecPlans {
  private binds: HomeBind[] | undefined;
  private readonly plans = new Map<'L0' | 'L1', SpecPlan>();

  constructor(
    private readonly options: SandboxOptions,
    private readonly home: string,
    private readonly homeFs: HomeViewFs,
    private readonly probe: Probe,
  ) {}

  /**
   * What the private home shows. A worktree's or submodule's git folders are shown with it (they
   * may live elsewhere in the home). The SlothTool registry and settings are no secret (`slothtool
   * list` is an L0 step); its plugin configs and pipes are, and are hidden after whatever brings
   * them into view.
   */
  private homeView(): HomeBind[] {
    const { options, home, homeFs } = this;
    const slothtoolHome = options.slothtoolHome;
    const slothtoolShown = ['registry.json', 'settings.json'].map((f) => path.join(slothtoolHome, f));
    const shown = [...(options.allowRead ?? []), ...slothtoolShown, ...linkedGitDirs(options.workspace)];
    return (this.binds ??= homeBinds(home, shown, homeFs, [path.join(slothtoolHome, 'plugin-configs'), pipeFolder(slothtoolHome)]));
  }

  planOf(level: 'L0' | 'L1'): SpecPlan {
    let plan = this.plans.get(level);
    if (!plan) {
      const { options, home } = this;
      const input = { level, workspace: options.workspace, home, slothtoolHome: options.slothtoolHome };
      plan = specPlan({ ...input, ...(level === 'L0' ? { homeBinds: this.homeView() } : {}) }, this.probe);
      this.plans.set(level, plan);
    }
    return plan;
  }

  /**
   * A bound name that leads elsewhere now than when the home view was made (a link planted
   * since) is judged again, so the link rule holds for every step, not only the first.
   */
  recheckLinks(): void {
    if (this.binds?.some((b) => this.homeFs.realpath(b.to) !== b.from)) {
      this.binds = undefined;
      this.plans.delete('L0');
    }
  }
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const tmpDir = options.tmpDir ?? os.tmpdir();
  const probe = options.probe ?? probeFs;
  const homeFs = options.homeFs ?? nodeHomeViewFs;
  const home = homeFs.realpath(options.home) ?? options.home;
  let found: Found | undefined;
  // The seccomp filter, built when bubblewrap is first asked for (never on macOS or with the sandbox off).
  let built: Buffer | null | undefined = options.seccompFilter;
  const filter = (): Buffer | undefined => {
    if (built === undefined) built = hostSeccompFilter() ?? null;
    return built ?? undefined;
  };
  const detect = (): Found => (found ??= findSandbox(options, filter));
  const slothtoolHome = options.slothtoolHome;
  const plans = new SpecPlans(options, home, homeFs, probe);
  // What git tracks of the workspace's env files, and the exclude files that list the hidden ones.
  const secretsDeps = nodeWorkspaceSecretsDeps(pipeFolder(slothtoolHome), probe);
  let runMade = false;
  const spec = (level: 'L0' | 'L1', network: boolean, cwd: string): SandboxSpec => {
    if (!runMade && !options.probe) {
      runMade = true;
      makePipeFolder(slothtoolHome);
    }
    const entries = workspaceEntries(options.workspace);
    if (level === 'L0') plans.recheckLinks();
    const limits = level === 'L0' ? detect().limits : undefined;
    const hardening = detect().status.hardening;
    const input = { level, cwd, workspace: options.workspace, tmpDir, home, slothtoolHome, network, workspaceEntries: entries };
    const s = sandboxSpec({ ...input, ...(limits ? { limits } : {}) }, probe, plans.planOf(level), secretsDeps);
    return hardening ? { ...s, hardening } : s;
  };
  // Steps granted the network kept off the host's loopback (net-jail.ts): tried on the first one.
  const launcher = options.launcher ?? launcherPath();
  const jail = new NetJail(
    { slirp: options.slirp, launcher, probe, exists: fs.existsSync, tun: options.tunAccess ?? tunAccess },
    (slirp) => {
      const d = detect();
      const s = { ...spec('L1', true, options.workspace), isolatedNetwork: true };
      const cmd = wrapWithBwrap(d.program!, s, 'true', [], s.hardening?.seccomp ? filter() : undefined);
      const jailed = jailCommand(cmd, { node: process.execPath, launcher, slirp });
      const r = (options.trial ?? defaultTrial)(jailed.program, jailed.args, jailed.fds);
      return r.status === 0 ? undefined : (r.error ?? r.stderr.trim().split('\n')[0]) || `exit ${String(r.status)}`;
    },
  );
  const status = (): SandboxStatus => {
    const s = detect().status;
    return s.kind === 'bwrap' ? { ...s, loopback: jail.status() } : s;
  };
  return {
    status,
    spec,
    wrap(level, network, cwd, program, args, opts = {}) {
      const d = detect();
      if (!d.program) return undefined;
      // A step granted the network that names no local service gets a network without the host's loopback.
      const slirp4netns = d.status.kind === 'bwrap' && network && !opts.outlive && !opts.hostNetwork ? jail.slirp() : false;
      // Jailed or not, the step's own sandbox has the same hardening: the network namespace is held
      // by an outer sandbox (net-jail.ts, holderArgs).
      const isolated = slirp4netns !== false && !namesThisMachine(program, args);
      const s = {
        ...spec(level, network, cwd),
        ...(opts.outlive ? { outlive: true } : {}),
        ...(isolated ? { isolatedNetwork: true } : {}),
      };
      if (d.status.kind === 'seatbelt') return { program: d.program, args: ['-p', seatbeltProfile(s), program, ...args] };
      const cmd = wrapWithBwrap(d.program, s, program, args, s.hardening?.seccomp ? filter() : undefined);
      return isolated ? jailCommand(cmd, { node: process.execPath, launcher, slirp: slirp4netns }) : cmd;
    },
  };
}
