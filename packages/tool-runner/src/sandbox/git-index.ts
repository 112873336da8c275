import fs = require('fs');
import path = require('path');

/**
 * What git already holds of a workspace, read without running git (a repository's own config can
 * make git run programs; reading its files cannot): the repository a folder is in, and which
 * paths its index lists. The sandbox never hides a file git tracks (workspace-secrets.ts).
 */

/** The repository a folder is in. */
export interface RepoInfo {
  /** The top of the work tree. */
  top: string;
  /** Its git folder (a worktree's own). */
  gitDir: string;
  /** The folder shared by every worktree (`info/exclude`, `config`): gitDir for a plain repository. */
  commonDir: string;
}

/** The file reads the index needs (replaceable in tests). */
export interface IndexFs {
  readText(p: string): string | undefined;
  isDir(p: string): boolean;
  isFile(p: string): boolean;
}

export const nodeIndexFs: IndexFs = {
  readText: (p) => {
    try {
      return fs.readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
  isDir: (p) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false,
  isFile: (p) => fs.statSync(p, { throwIfNoEntry: false })?.isFile() ?? false,
};

/** The repository `dir` is in (its `.git` folder, or a worktree's or submodule's `.git` file), found going up. */
export function findRepo(dir: string, vfs: IndexFs = nodeIndexFs): RepoInfo | undefined {
  for (let top = dir; ; top = path.dirname(top)) {
    const dotGit = path.join(top, '.git');
    if (vfs.isDir(dotGit)) return { top, gitDir: dotGit, commonDir: commonDirOf(dotGit, vfs) };
    if (vfs.isFile(dotGit)) {
      const m = vfs.readText(dotGit)?.match(/^gitdir: *(.+?)\s*$/m);
      if (!m) return undefined;
      const gitDir = path.resolve(top, m[1]);
      return { top, gitDir, commonDir: commonDirOf(gitDir, vfs) };
    }
    if (top === path.dirname(top)) return undefined;
  }
}

function commonDirOf(gitDir: string, vfs: IndexFs): string {
  const common = vfs.readText(path.join(gitDir, 'commondir'))?.trim();
  return common ? path.resolve(gitDir, common) : gitDir;
}

/** The object name length of a repository: 32 bytes for SHA-256 (`extensions.objectFormat`), else 20. */
export function hashLength(repo: RepoInfo, vfs: IndexFs = nodeIndexFs): number {
  const config = vfs.readText(path.join(repo.commonDir, 'config')) ?? '';
  return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20;
}

/** git's varint (read-cache.c decode_varint): the bytes a v4 entry drops from the previous name. */
function varint(buf: Buffer, at: number): { value: number; next: number } {
  let c = buf[at++];
  let value = c & 127;
  while (c & 128) {
    c = buf[at++];
    value = ((value + 1) << 7) + (c & 127);
  }
  return { value, next: at };
}

/**
 * Which of `targets` (paths from the top of the work tree, '/'-separated) the index lists, as a
 * file or as a folder with files under it. Entries are sorted by name, so reading stops past the
 * last target. Undefined when the index is not one this reads (the caller then treats none as
 * tracked: hiding more, never less). A split index's shared part is not read: what it alone
 * lists counts as untracked (hidden).
 */
export function indexedPaths(index: Buffer, targets: readonly string[], hashBytes: number): Set<string> | undefined {
  if (index.length < 12 || index.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = index.readUInt32BE(8);
  // Byte-wise order, as git sorts: names compared as latin1 strings (one char a byte).
  const wanted = targets.map((t) => Buffer.from(t, 'utf8').toString('latin1'));
  // Past `<target>/…` (where a folder's files sort) nothing more of that target can come.
  const past = (name: string) => wanted.every((w) => name > `${w}/` && !name.startsWith(`${w}/`));
  const found = new Set<string>();
  let at = 12;
  let previous = '';
  for (let i = 0; i < count; i++) {
    const fixed = 40 + hashBytes;
    if (at + fixed + 2 > index.length) return undefined;
    const flags = index.readUInt16BE(at + fixed);
    const nameAt = at + fixed + 2 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    let name: string;
    if (version === 4) {
      const strip = varint(index, nameAt);
      const end = index.indexOf(0, strip.next);
      if (end < 0 || strip.value > previous.length) return undefined;
      name = previous.slice(0, previous.length - strip.value) + index.toString('latin1', strip.next, end);
      at = end + 1;
    } else {
      const end = index.indexOf(0, nameAt);
      if (end < 0) return undefined;
      name = index.toString('latin1', nameAt, end);
      // Padded with 1 to 8 NULs to a multiple of 8 bytes.
      at += (nameAt - at + (end - nameAt) + 8) & ~7;
    }
    previous = name;
    for (const [k, w] of wanted.entries()) if (name === w || name.startsWith(`${w}/`)) found.add(targets[k]);
    if (past(name)) break;
  }
  return found;
}
