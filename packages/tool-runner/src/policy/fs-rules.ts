import path = require('path');
import { isInside, type ResolvedPath } from '../workspace';
import { finding, type Finding } from './finding';
import { BLOCK_DEVICE_RE, isSystemPath, runsLaterFindings, secretFindings } from './paths';

/** What judging an fs step needs: the resolved target and where the workspace is. */
export interface FsJudgeCtx {
  /** Real path of the workspace (git root or cwd). */
  workspace: string;
  home?: string;
  /** Real path of the SlothTool home. */
  slothtoolHome?: string;
  /** The target with symlinks followed (the runner resolves it; pure callers pass a lexical one). */
  target: ResolvedPath;
  /** fs.write: whether the session read the existing file in its current state. */
  readState?: 'read' | 'stale' | 'unread';
  /** The absolute folders of the steps' PATH (a write there changes what runs later). */
  pathDirs?: readonly string[];
}

/**
 * A workspace that is the file-system root or the home folder itself (ai started in `~` or
 * `/` outside any repository) would make every file "inside": nothing is, then.
 */
export function isBroadWorkspace(workspace: string, home?: string): boolean {
  return workspace === path.parse(workspace).root || (home !== undefined && path.resolve(home) === workspace);
}

/** Where a target lies relative to the workspace. */
function location(ctx: FsJudgeCtx): 'inside' | 'outside' | 'escape' {
  const { abs, real } = ctx.target;
  if (isBroadWorkspace(ctx.workspace, ctx.home)) return 'outside';
  if (isInside(real, ctx.workspace)) return 'inside';
  return isInside(abs, ctx.workspace) ? 'escape' : 'outside';
}

/** Secret-store findings for both the written and the real path; L1 ones become L2 outside the workspace. */
function secretRules(ctx: FsJudgeCtx, where: 'inside' | 'outside' | 'escape'): Finding[] {
  const { abs, real, input } = ctx.target;
  // Lower-cased too: on case-insensitive file systems `~/.SSH/ID_RSA` is the key.
  const found = secretFindings([...new Set([abs, real, abs.toLowerCase(), real.toLowerCase()])], { home: ctx.home });
  if (!found.length) return [];
  // A finding by name (secret.private_key, …) says more than the store it lies in; either refuses.
  const strict = found.find((f) => f.level === 'L2' && f.id !== 'secret.store') ?? found.find((f) => f.level === 'L2');
  if (strict) return [{ ...strict, params: { a: input } }];
  if (where !== 'inside') return [finding('fs.secret_outside', 'L2', { f: input })];
  return [{ ...found[0], params: { a: input } }];
}

function placeRule(ctx: FsJudgeCtx, where: 'inside' | 'outside' | 'escape', write: boolean): Finding[] {
  const f = ctx.target.input;
  if (where === 'escape') return [finding('fs.symlink_escape', 'L1', { f, r: ctx.target.real })];
  if (where === 'outside') {
    const broad = isBroadWorkspace(ctx.workspace, ctx.home) ? [finding('fs.broad_workspace', 'L1', { w: ctx.workspace })] : [];
    return [...broad, finding(write ? 'fs.outside_write' : 'fs.outside', 'L1', { f, w: ctx.workspace })];
  }
  return [];
}

/** fs.read: L0 inside the workspace, L1 outside it, L2 for private keys and secret stores outside it. */
export function fsReadFindings(ctx: FsJudgeCtx): Finding[] {
  const where = location(ctx);
  const out = [...secretRules(ctx, where), ...placeRule(ctx, where, false)];
  if (where === 'inside' && !out.length) out.push(finding('fs.read', 'L0', { f: ctx.target.input }));
  return out;
}

/**
 * fs.edit / fs.write: L1 (the diff is shown first). L2 for secret stores, files whose contents
 * decide what runs later (runs-later.ts: start-up files, git, tool configs, lookup folders such
 * as PATH's), system locations and SlothTool's own files.
 * Outside the workspace or through a symlink that leaves it: asked every time.
 */
export function fsWriteFindings(ctx: FsJudgeCtx, tool: 'fs.edit' | 'fs.write'): Finding[] {
  const where = location(ctx);
  const { abs, real, input } = ctx.target;
  const out: Finding[] = [...secretRules(ctx, where)];
  // Lower-cased too: on case-insensitive file systems `.GIT/hooks/x` is `.git/hooks/x`.
  const candidates = [...new Set([abs, real, abs.toLowerCase(), real.toLowerCase()])];
  out.push(...runsLaterFindings(candidates, { home: ctx.home, pathDirs: ctx.pathDirs }, input));
  for (const c of candidates) {
    if (!BLOCK_DEVICE_RE.test(c)) continue;
    out.push(finding('system.change', 'L2', { p: input }));
    break;
  }
  const jctx = { home: ctx.home, policy: {}, depth: 0 };
  if (isSystemPath(real, jctx) || isSystemPath(abs, jctx)) out.push(finding('write.system_path', 'L2', { a: input }));
  if (ctx.slothtoolHome && (isInside(real, ctx.slothtoolHome) || isInside(abs, ctx.slothtoolHome))) {
    out.push(finding('fs.slothtool_home', 'L2', { f: input }));
  }
  out.push(...placeRule(ctx, where, true));
  if (tool === 'fs.write' && ctx.target.exists && ctx.readState && ctx.readState !== 'read') {
    out.push(finding(ctx.readState === 'stale' ? 'fs.stale_overwrite' : 'fs.unread_overwrite', 'L1', { f: input }));
  }
  const verb = tool === 'fs.edit' ? 'edit' : ctx.target.exists ? 'overwrite' : 'create';
  out.push(finding(`fs.${verb}`, 'L1', { f: input }, where === 'inside' ? { cat: ['write'] } : {}));
  return out;
}

/** A lexical stand-in for the runner's resolution, for pure callers of classify. */
export function lexicalTarget(input: string, abs: string): ResolvedPath {
  return { input, abs: path.resolve(abs), real: path.resolve(abs), exists: false };
}
