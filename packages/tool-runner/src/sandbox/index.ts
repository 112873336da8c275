import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { wrapWithBwrap } from './bwrap';
import { seatbeltProfile } from './seatbelt';
import { pipeFolder, probeFs, sandboxSpec, type Probe, type SandboxSpec } from './spec';

export { bwrapArgs, wrapWithBwrap } from './bwrap';
export { seatbeltProfile } from './seatbelt';
export { sandboxDenial, type SandboxDenial } from './denial';
export { sandboxSpec, HOME_SECRET_STORES, type SandboxSpec, type SpecInput } from './spec';

/** `auto`: use it when it works, else run without it and say so; `required`: refuse command steps without it; `off`. */
export type SandboxMode = 'auto' | 'required' | 'off';

export interface SandboxStatus {
  mode: SandboxMode;
  /** The sandbox command steps run in: bubblewrap (Linux), Seatbelt (macOS), or none. */
  kind: 'bwrap' | 'seatbelt' | 'none';
  /** Why there is none (not installed, user namespaces off, not Linux or macOS, turned off). */
  reason?: string;
}

export interface SandboxOptions {
  mode?: SandboxMode;
  workspace: string;
  home: string;
  slothtoolHome: string;
  tmpDir?: string;
  /** Test seams: the platform, the PATH to find bwrap on, how a trial run is made, what exists. */
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  trial?: (program: string, args: string[]) => { status: number | null; stderr: string; error?: string };
  probe?: Probe;
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

export function createSandbox(options: SandboxOptions): Sandbox {
  const mode = options.mode ?? 'auto';
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const tmpDir = options.tmpDir ?? os.tmpdir();
  const probe = options.probe ?? probeFs;
  let found: { status: SandboxStatus; program?: string } | undefined;
  const detect = (): { status: SandboxStatus; program?: string } => {
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
            ? { status: { mode, kind: 'bwrap' }, program: bwrap }
            : { status: { mode, kind: 'none', reason: `bwrap does not work here (${(r.error ?? r.stderr.trim().split('\n')[0]) || `exit ${String(r.status)}`}); user namespaces may be off` } };
      }
    } else if (platform === 'darwin') {
      const sb = '/usr/bin/sandbox-exec';
      found = probe(sb) ? { status: { mode, kind: 'seatbelt' }, program: sb } : { status: { mode, kind: 'none', reason: 'sandbox-exec is missing' } };
    } else found = { status: { mode, kind: 'none', reason: `no sandbox for ${platform}` } };
    return found;
  };
  let runMade = false;
  const spec = (level: 'L0' | 'L1', network: boolean, cwd: string): SandboxSpec => {
    // The spawn helper's pipe folder exists before the first command, so it is hidden from every
    // command, also one started before the helper made its first pipes (a background process).
    if (!runMade && !options.probe) {
      runMade = true;
      try {
        if (fs.statSync(options.slothtoolHome).isDirectory()) fs.mkdirSync(pipeFolder(options.slothtoolHome), { mode: 0o700 });
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
    return sandboxSpec({ level, cwd, workspace: options.workspace, tmpDir, home: options.home, slothtoolHome: options.slothtoolHome, network, workspaceEntries: entries }, probe);
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
