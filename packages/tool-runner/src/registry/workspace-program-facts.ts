/** Live facts for policy/workspace-programs.ts: workspace files that name programs a step would run. */
import fs = require('fs');
import path = require('path');
import { RUSTUP_PROXIES, type WorkspaceProgramFacts } from '../policy/workspace-programs';
import { isInside } from '../workspace';

/** Bytes of a toolchain file read at most (they are a few lines). */
const MAX_TOOLCHAIN_FILE = 64 * 1024;

/** Whether a rust-toolchain file names its toolchain by a path (the `path` key, or a legacy one-line file holding a path). */
export function namesToolchainPath(text: string, legacy: boolean): boolean {
  if (/^\s*path\s*=/m.test(text)) return true;
  if (!legacy) return false;
  const first =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return !first.startsWith('[') && /[/\\]/.test(first);
}

/**
 * The toolchain file rustup would use for a step in `dir` (it looks in the folder and each
 * parent), when it lies inside the workspace and names a path. Files outside the workspace are
 * the user's, not the repository's.
 */
function rustToolchainPath(dir: string, workspace: string): string | undefined {
  for (let d = dir; isInside(d, workspace); d = path.dirname(d)) {
    for (const [name, legacy] of [
      ['rust-toolchain', true],
      ['rust-toolchain.toml', false],
    ] as const) {
      const file = path.join(d, name);
      let text: string;
      try {
        const fd = fs.openSync(file, 'r');
        try {
          const buf = Buffer.alloc(MAX_TOOLCHAIN_FILE);
          text = buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
        } finally {
          fs.closeSync(fd);
        }
      } catch {
        continue;
      }
      // rustup stops at the first toolchain file it finds.
      return namesToolchainPath(text, legacy) ? path.relative(workspace, file) || name : undefined;
    }
    if (d === workspace || path.dirname(d) === d) break;
  }
  return undefined;
}

/** What of the workspace names programs `program` (the one a command really runs) would run; undefined when nothing does. */
export function gatherWorkspacePrograms(program: string, runDir: string, workspace: string): WorkspaceProgramFacts | undefined {
  if (!RUSTUP_PROXIES.has(path.basename(program))) return undefined;
  const found = rustToolchainPath(runDir, workspace);
  return found ? { rustToolchainPath: found } : undefined;
}
