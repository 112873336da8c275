import * as path from 'path';
import { finding, type Finding } from '../policy/finding';
import type { ResolvedPath } from '../workspace';
import type { AssessContext, JudgeEnv } from './types';
import { lazy } from '../lazy';

const modPaths = lazy(() => require('../policy/paths') as typeof import('../policy/paths'));
const modResolveProgram = lazy(() => require('../policy/resolve-program') as typeof import('../policy/resolve-program'));
const modFsRules = lazy(() => require('../policy/fs-rules') as typeof import('../policy/fs-rules'));
const modWorkspace = lazy(() => require('../workspace') as typeof import('../workspace'));

/** Paths with invisible or control characters hide what is touched. */
export function pathCharFindings(p: string): Finding[] {
  const { CONTROL_RE } = modPaths();
  const { INVISIBLE_RE } = modResolveProgram();
  return INVISIBLE_RE.test(p) || CONTROL_RE.test(p) ? [finding('args.invisible', 'L2', { n: '1' })] : [];
}

/** Where an fs step's path really points (symlinks followed) and, for fs.write, whether the session read it as it is. */
export function fsJudgeContext(p: string, env: JudgeEnv, withReadState: boolean): Partial<AssessContext> {
  const { session } = env;
  const fsTarget = session.resolve(p);
  const base = { workspace: session.workspace, slothtoolHome: session.slothtoolHome, fsTarget };
  if (!withReadState || !fsTarget.exists) return base;
  return { ...base, readState: session.reads.state(fsTarget.real, session.fs.stat(fsTarget.real)) };
}

/** The target as judged: the runner's resolved one, or the lexical one for pure callers. */
export function judgedTarget(p: string, ctx: AssessContext): { target: ResolvedPath; workspace: string } {
  const { lexicalTarget } = modFsRules();
  const { expandPath } = modWorkspace();
  const cwd = ctx.cwd ?? '/';
  const target = ctx.fsTarget ?? lexicalTarget(p, expandPath(p, cwd, { home: ctx.home, slothtoolHome: ctx.slothtoolHome }));
  return { target, workspace: path.resolve(ctx.workspace ?? cwd) };
}

/** A path as permission rules see it: relative to the workspace with `/`, or absolute outside it. */
export function workspaceRelative(p: string, ctx: AssessContext): string {
  const { target, workspace } = judgedTarget(p, ctx);
  const rel = path.relative(workspace, target.abs);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : target.abs;
}
