import path = require('path');
import type { JsonPatchStep } from '../types';
import { finding, type Finding } from './finding';

/** What judging a config patch needs. */
export interface PatchJudgeCtx {
  cwd?: string;
  home?: string;
  /** Where `~/.slothtool` points (SLOTHTOOL_HOME). */
  slothtoolHome?: string;
  /** Folders, files or `*` patterns a patched file must match (the runner's: the workspace by default). */
  allowedRoots?: string[];
}

function expandHome(file: string, home?: string, slothtoolHome?: string): string {
  if (slothtoolHome && (file === '~/.slothtool' || file.startsWith('~/.slothtool/')))
    return path.join(slothtoolHome, file.slice('~/.slothtool'.length));
  if (home && (file === '~' || file.startsWith('~/'))) return path.join(home, file.slice(1));
  return file;
}

/** Whether `abs` lies inside `root`: a folder, an exact file, or a pattern whose `*` and `?` match within one segment. */
function insideRoot(abs: string, root: string, ctx: PatchJudgeCtx): boolean {
  const r = path.resolve(expandHome(root, ctx.home, ctx.slothtoolHome));
  if (/[*?]/.test(r)) {
    const re = new RegExp(
      '^' +
        r
          .split('')
          .map((ch) => (ch === '*' ? '[^/\\\\]*' : ch === '?' ? '[^/\\\\]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
          .join('') +
        '$',
    );
    return re.test(abs);
  }
  if (abs === r) return true;
  const rel = path.relative(r, abs);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The file a patch writes, absolute (`~` and `~/.slothtool` expanded, relative to the workspace). */
export function patchTarget(file: string, ctx: PatchJudgeCtx): string {
  return path.resolve(ctx.cwd ?? '/', expandHome(file, ctx.home, ctx.slothtoolHome));
}

/** config.json_patch: outside the allowed roots is refused; inside, the user sees the masked diff first. */
export function patchFindings(step: JsonPatchStep, ctx: PatchJudgeCtx): Finding[] {
  const file = expandHome(step.file, ctx.home, ctx.slothtoolHome);
  // The assistant's own policy and keys are the user's to change, never the model's: a patch that
  // moved base_url would send the API key elsewhere.
  const own = ctx.slothtoolHome ?? (ctx.home ? path.join(ctx.home, '.slothtool') : undefined);
  if (own) {
    const rel = path.relative(path.resolve(own), path.resolve(ctx.cwd ?? '/', file));
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return [finding('write.slothtool', 'L2', { a: step.file })];
  }
  if (ctx.allowedRoots) {
    const abs = path.resolve(ctx.cwd ?? '/', file);
    if (!ctx.allowedRoots.some((root) => insideRoot(abs, root, ctx))) return [finding('config.outside', 'L2', { f: step.file })];
  }
  return [finding('config.patch', 'L1', { f: step.file })];
}
