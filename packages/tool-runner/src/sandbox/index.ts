import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { wrapWithBwrap } from './bwrap';
import { seatbeltProfile } from './seatbelt';
import { homeBinds, linkedGitDirs, nodeHomeViewFs, type HomeBind, type HomeViewFs } from './home-view';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits';
import { pipeFolder, probeFs, sandboxSpec, specPlan, type Probe, type SandboxSpec, type SpecPlan } from './spec';

export { bwrapArgs, wrapWithBwrap } from './bwrap';
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
  /** Test seams: the platform, the PATH to find bwrap on, how a trial run is made, what exists. */
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  trial?: (program: string, args: string[]) => { status: number | null; stderr: string; error?: string };
  probe?: Probe;
  homeFs?: HomeViewFs;
  /** Running as root (the process limit is then not in force). */
  root?: boolean;
}

/** The sandbox of one runner: found once, asked per step. */
export interface Sandbox {
  status(): SandboxStatus;
  /** The command line of a step at this level, or undefined when it runs unsandboxed. `outlive`: may outlive the runner (no die-with-parent). */
  wrap(level: 'L0' | 'L1', network: boolean, cwd: string, program: string, args: readonly string[], options?: { outlive?: boolean }): { program: string; args: string[] } | undefined;
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

const defaultTrial = (program: string, args: string[]) => {
  const r = spawnSync(program, args, { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'ignore', 'pipe'] });
  return { status: r.status, stderr: r.stderr ?? '', ...(r.error ? { error: r.error.message } : {}) };
};

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
        const r = trial(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid', '--die-with-parent', '--', 'true']);
        found =
          r.status === 0
            ? withLimits({ mode, kind: 'bwrap' }, bwrap)
            : { status: { mode, kind: 'none', reason: `bwrap does not work here (${(r.error ?? r.stderr.trim().split('\n')[0]) || `exit ${String(r.status)}`}); user namespaces may be off` } };
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
    return sandboxSpec({ level, cwd, workspace: options.workspace, tmpDir, home, slothtoolHome, network, workspaceEntries: entries, ...(limits ? { limits } : {}) }, probe, planOf(level));
  };
  return {
    status: () => detect().status,
    spec,
    wrap(level, network, cwd, program, args, options = {}) {
      const d = detect();
      if (!d.program) return undefined;
      const s = { ...spec(level, network, cwd), ...(options.outlive ? { outlive: true } : {}) };
      if (d.status.kind === 'seatbelt') return { program: d.program, args: ['-p', seatbeltProfile(s), program, ...args] };
      return wrapWithBwrap(d.program, s, program, args);
    },
  };
}
