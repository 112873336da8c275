import path = require('path');
import { finding, type Finding } from '../policy/finding';
import type { PermissionSubject } from '../permission-rules';
import type { ResolvedPath } from '../workspace';
import { showWord, touches } from './common';
import type { AssessContext, Assessment, JudgeEnv, ToolDefinition } from './types';
import { fsRulesModule, pathsModule, resolveProgramModule, workspaceModule } from '../lazy-modules';

/** Paths with invisible or control characters hide what is touched. */
export function pathCharFindings(p: string): Finding[] {
  const { CONTROL_RE } = pathsModule();
  const { INVISIBLE_RE } = resolveProgramModule();
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
  const { lexicalTarget } = fsRulesModule();
  const { expandPath } = workspaceModule();
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

/** How permission rules see an fs step: by its path (default: where the step runs). */
export const pathPermission = {
  arg: 'path',
  subject: (s: { path?: string }, ctx: AssessContext): PermissionSubject => ({ kind: 'path', path: workspaceRelative(s.path ?? '.', ctx) }),
} as const;

/** fs.write and fs.edit: what writing the file means (fs-rules); fs.edit also reads it. */
export function assessFileWrite(p: string, ctx: AssessContext, tool: 'fs.write' | 'fs.edit'): Assessment {
  const { fsWriteFindings } = fsRulesModule();
  const { target, workspace } = judgedTarget(p, ctx);
  const findings = [
    ...pathCharFindings(p),
    ...fsWriteFindings(
      { workspace, home: ctx.home, slothtoolHome: ctx.slothtoolHome, target, readState: ctx.readState, pathDirs: ctx.pathDirs },
      tool,
    ),
  ];
  return { findings, touches: touches({ ...(tool === 'fs.edit' ? { read: [target.real] } : {}), write: [target.real] }) };
}

/**
 * fs.read: what reading the file means (fs-rules). fs.glob and fs.grep (`search`) read what lies
 * under a folder: judged by the same rules on that folder (L0 inside the workspace, asked outside
 * it, refused for secret stores), links resolved first; their plain read is `fs.search`.
 */
export function assessFileRead(p: string, ctx: AssessContext, search = false): Assessment {
  const { fsReadFindings } = fsRulesModule();
  const { target, workspace } = judgedTarget(p, ctx);
  const found: Finding[] = fsReadFindings({ workspace, home: ctx.home, slothtoolHome: ctx.slothtoolHome, target });
  const own = search ? found.map((f) => (f.id === 'fs.read' ? finding('fs.search', 'L0', { f: p }) : f)) : found;
  return { findings: [...pathCharFindings(p), ...own], touches: touches({ read: [target.real] }) };
}

/** The fs tools, each judged by its one path. */
type FsTool = 'fs.read' | 'fs.write' | 'fs.edit' | 'fs.glob' | 'fs.grep';

/**
 * How an fs tool is judged, by its one path (fs.glob's and fs.grep's folder defaults to where the
 * step runs): permission rules see the path; the runner resolves it first (for fs.write, with
 * whether the session read the file as it is); the rules of writing it, or of reading it (a
 * search reads a folder: `fs.search`), fire; and 'allow for this session' allows the tool on it.
 */
export function judgedByPath<S extends { path?: string }>(
  tool: FsTool,
): Pick<ToolDefinition<S>, 'permission' | 'judgeContext' | 'assess' | 'approvalKey'> {
  const where = (s: S) => s.path ?? '.';
  return {
    permission: pathPermission,
    judgeContext: (s, env) => fsJudgeContext(where(s), env, tool === 'fs.write'),
    assess: (s, ctx) =>
      tool === 'fs.write' || tool === 'fs.edit' ? assessFileWrite(where(s), ctx, tool) : assessFileRead(where(s), ctx, tool !== 'fs.read'),
    approvalKey: (s) => `${tool} ${where(s)}`,
  };
}

/** A search as one line: `grep 'TODO' in src`, the folder said when the step names one. */
export function searchLine(verb: 'glob' | 'grep', pattern: string, folder: string | undefined): string {
  return `${verb} ${showWord(pattern)}${folder ? ` in ${showWord(folder)}` : ''}`;
}
