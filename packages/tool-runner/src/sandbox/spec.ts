import fs = require('fs');
import path = require('path');
import type { BwrapHardening } from './bwrap';
import { under, type HomeBind } from './home-view';
import type { SandboxLimits } from './limits';
import { globalNpmrcs, HOME_SECRET_STORES } from './secrets';
import { workspaceSecrets, type WorkspaceSecretsDeps } from './workspace-secrets';

export { HOME_SECRET_STORES } from './secrets';

/**
 * What a sandboxed step may do. L0 (runs without a question): the file system read-only, the
 * home folder an empty private one with only an allow-list bound back (home-view.ts), no
 * network, resource limits. L1 (the user approved it): the workspace and the temp folder
 * writable, the whole home visible except its secret stores (secrets.ts); `.git/hooks`,
 * `.git/config` and the SlothTool home stay read-only; network only when the step was judged to
 * need it and the user saw that.
 */
export interface SandboxSpec {
  level: 'L0' | 'L1';
  /** Where the command runs. */
  cwd: string;
  /** The workspace (read-only at L0, writable at L1). */
  workspace: string;
  /** The temp folder (writable at L1; a private empty one at L0). */
  tmpDir: string;
  network: boolean;
  /** With `network`: a network namespace of its own, joined to the outside by slirp4netns without the host's loopback (net-jail.ts). */
  isolatedNetwork?: boolean;
  /** L0: the home folder, mounted as an empty tmpfs, and what is bound back into it read-only. */
  privateHome?: { path: string; binds: HomeBind[] };
  /** Existing secret stores to hide: folders get an empty tmpfs, files /dev/null. */
  hide: Array<{ path: string; kind: 'dir' | 'file' }>;
  /** Existing paths inside writable places that stay read-only (L1). */
  readOnly: string[];
  /** Files shown, read-only, in place of others (`to` exists): the repository's exclude file listing the hidden env files. */
  shown?: Array<{ from: string; to: string }>;
  /** The command may outlive the runner (a detached proc.start): bubblewrap without --die-with-parent. */
  outlive?: boolean;
  /** L0: resource limits, set by `prlimit` (this path) just before the program. */
  limits?: SandboxLimits & { prlimit: string };
  /** What takes the step's privileges away (bwrap.ts; both levels alike). */
  hardening?: BwrapHardening;
}

/**
 * Where the spawn helper makes its FIFOs for a SlothTool home: `<home>/run`, hidden from every
 * command, so no sandboxed program can open one while it has a name.
 */
export function pipeFolder(slothtoolHome: string): string {
  return path.join(slothtoolHome, 'run');
}

/** What exists of `p`: a folder, a file, or nothing (a dangling or absent path is not hidden, it is not there). */
export type Probe = (p: string) => 'dir' | 'file' | undefined;

export const probeFs: Probe = (p) => {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  return st ? (st.isDirectory() ? 'dir' : 'file') : undefined;
};

export interface SpecInput {
  level: 'L0' | 'L1';
  cwd: string;
  workspace: string;
  tmpDir: string;
  home: string;
  slothtoolHome: string;
  network: boolean;
  /** Names in the workspace root (for its `.env*` files, workspace-secrets.ts). */
  workspaceEntries?: string[];
  /** L0: what the private home shows (home-view.ts homeBinds, made once per runner); absent = the home is shown as it is. */
  homeBinds?: HomeBind[];
  /** L0: the limits and the prlimit that sets them; absent = none. */
  limits?: SandboxLimits & { prlimit: string };
}

/** What a level shows, fixed for a runner: the private home, and the paths a step may need hidden (those it can see). */
export interface SpecPlan {
  privateHome?: { path: string; binds: HomeBind[] };
  /** Secret stores and the SlothTool folders a step of this level can see, to hide when they exist. */
  candidates: string[];
  /** Whether a step of this level sees `p`. */
  visible(p: string): boolean;
}

/** A folder's names, none when it cannot be read. */
function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The plan of a level (made once per runner and level: createSandbox keeps it). At L0 only what
 * the step can see needs hiding (outside the home, or inside a place bound back): nothing is made
 * in the empty home.
 */
export function specPlan(
  input: Pick<SpecInput, 'level' | 'workspace' | 'home' | 'slothtoolHome' | 'homeBinds'>,
  probe: Probe = probeFs,
  list: (dir: string) => string[] = listDir,
): SpecPlan {
  const home = input.home;
  const privateHome =
    input.level === 'L0' && input.homeBinds && home !== '/' && probe(home) === 'dir' ? { path: home, binds: input.homeBinds } : undefined;
  const wsShown = !under(home, input.workspace);
  const visible = (p: string) =>
    !privateHome || !under(p, home) || privateHome.binds.some((b) => under(p, b.to)) || (wsShown && under(p, input.workspace));
  const all = [
    ...HOME_SECRET_STORES.map((rel) => path.join(home, rel)),
    ...globalNpmrcs(home, list),
    path.join(input.slothtoolHome, 'plugin-configs'),
    pipeFolder(input.slothtoolHome),
  ];
  return { ...(privateHome ? { privateHome } : {}), candidates: [...new Set(all.filter(visible))], visible };
}

/** Without a repository to ask (tests of the plan alone): every secret env file is untracked. */
const noRepo = (probe: Probe): WorkspaceSecretsDeps => ({
  kind: probe,
  repo: () => undefined,
  tracked: () => undefined,
  exclude: () => undefined,
});

/**
 * The spec of one step: which secret stores exist to hide, which paths stay read-only, what the
 * private home shows. Reads the file system only through `probe` (one stat per candidate of the
 * plan, and at L1 the paths kept read-only) and `secrets` (the env files of the workspace and
 * what git tracks of them, workspace-secrets.ts).
 */
export function sandboxSpec(
  input: SpecInput,
  probe: Probe = probeFs,
  plan: SpecPlan = specPlan(input, probe),
  secrets: WorkspaceSecretsDeps = noRepo(probe),
): SandboxSpec {
  const hide: SandboxSpec['hide'] = [];
  for (const p of plan.candidates) {
    const kind = probe(p);
    if (kind) hide.push({ path: p, kind });
  }
  const ws = workspaceSecrets(input.workspace, input.workspaceEntries ?? [], plan.visible, secrets);
  hide.push(...ws.hide);
  const readOnly: string[] = [];
  if (input.level === 'L1') {
    for (const p of [path.join(input.workspace, '.git', 'hooks'), path.join(input.workspace, '.git', 'config'), input.slothtoolHome])
      if (probe(p)) readOnly.push(p);
  }
  return {
    level: input.level,
    cwd: input.cwd,
    workspace: input.workspace,
    tmpDir: input.tmpDir,
    network: input.network,
    ...(plan.privateHome ? { privateHome: plan.privateHome } : {}),
    hide,
    readOnly,
    ...(ws.exclude ? { shown: [ws.exclude] } : {}),
    ...(input.level === 'L0' && input.limits ? { limits: input.limits } : {}),
  };
}
