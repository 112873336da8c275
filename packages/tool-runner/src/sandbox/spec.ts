import * as fs from 'fs';
import * as path from 'path';

/**
 * What a sandboxed step may do. L0 (runs without a question): the whole file system read-only,
 * no network, secret stores hidden. L1 (the user approved it): the workspace and the temp folder
 * writable; `.git/hooks`, `.git/config` and the SlothTool home stay read-only; network only when
 * the step was judged to need it and the user saw that.
 */
export interface SandboxSpec {
  level: 'L0' | 'L1';
  /** Where the command runs. */
  cwd: string;
  /** The workspace (writable at L1). */
  workspace: string;
  /** The temp folder (writable at L1; a private empty one at L0). */
  tmpDir: string;
  network: boolean;
  /** Existing secret stores to hide: folders get an empty tmpfs, files /dev/null. */
  hide: Array<{ path: string; kind: 'dir' | 'file' }>;
  /** Existing paths inside writable places that stay read-only (L1). */
  readOnly: string[];
  /** The command may outlive the runner (a detached proc.start): bubblewrap without --die-with-parent. */
  outlive?: boolean;
}

/** Secret stores under the home folder that a sandboxed step never sees. */
export const HOME_SECRET_STORES = ['.ssh', '.aws', '.gnupg', '.config/gh', '.docker/config.json', '.npmrc', '.netrc', '.git-credentials', '.kube', '.pypirc', '.config/gcloud', '.azure'];

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
  /** Names in the workspace root (for its `.env*` files). */
  workspaceEntries?: string[];
}

/** The spec of one step: which secret stores exist to hide, which paths stay read-only. Reads the file system only through `probe`. */
export function sandboxSpec(input: SpecInput, probe: Probe = probeFs): SandboxSpec {
  const hide: SandboxSpec['hide'] = [];
  const add = (p: string) => {
    const kind = probe(p);
    if (kind && !hide.some((h) => h.path === p)) hide.push({ path: p, kind });
  };
  for (const rel of HOME_SECRET_STORES) add(path.join(input.home, rel));
  add(path.join(input.slothtoolHome, 'plugin-configs'));
  add(pipeFolder(input.slothtoolHome));
  for (const name of input.workspaceEntries ?? []) if (/^\.env(\..*)?$/.test(name)) add(path.join(input.workspace, name));
  const readOnly: string[] = [];
  if (input.level === 'L1') {
    for (const p of [path.join(input.workspace, '.git', 'hooks'), path.join(input.workspace, '.git', 'config'), input.slothtoolHome]) if (probe(p)) readOnly.push(p);
  }
  return { level: input.level, cwd: input.cwd, workspace: input.workspace, tmpDir: input.tmpDir, network: input.network, hide, readOnly };
}
