import * as path from 'path';
import type { ToolStep } from '../tool-steps';
import type { Policy } from '../types';
import { expandPath, type ResolvedPath } from '../workspace';
import { finding, type Finding, type JudgeCtx } from './finding';
import { fsReadFindings, fsWriteFindings, lexicalTarget } from './fs-rules';
import { httpGetFindings } from './net-rules';
import { CONTROL_RE, secretFindings } from './paths';
import { judgeCommand } from './programs';
import { INVISIBLE_RE } from './resolve-program';

/** The tools issue #10 adds. */
export const TOOL_STEP_NAMES = new Set(['fs.read', 'fs.edit', 'fs.write', 'http.get', 'proc.start', 'proc.status', 'proc.kill']);

/** What judging these tools needs beyond the policy (the runner fills it; pure callers may not). */
export interface ToolJudgeCtx {
  cwd?: string;
  home?: string;
  slothtoolHome?: string;
  /** Real path of the workspace; default `cwd`. */
  workspace?: string;
  /** fs.*: the target resolved with symlinks followed (by the runner). Default: lexical. */
  fsTarget?: ResolvedPath;
  /** fs.write: whether the session read the existing file in its current state. */
  readState?: 'read' | 'stale' | 'unread';
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isNonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isPosInt = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** Structural check of an fs/http/proc step; an error text, or undefined when valid. */
export function validateToolStep(tool: string, s: Record<string, unknown>): string | undefined {
  switch (tool) {
    case 'fs.read':
      if (!isNonEmpty(s.path)) return 'fs.read needs "path" (a non-empty string)';
      if (s.offset !== undefined && !isPosInt(s.offset)) return 'fs.read "offset" must be a positive integer (1-based line)';
      if (s.limit !== undefined && !isPosInt(s.limit)) return 'fs.read "limit" must be a positive integer';
      return undefined;
    case 'fs.edit':
      if (!isNonEmpty(s.path)) return 'fs.edit needs "path" (a non-empty string)';
      if (!isStr(s.old_string) || !isStr(s.new_string)) return 'fs.edit needs "old_string" and "new_string" (strings)';
      if (s.replace_all !== undefined && typeof s.replace_all !== 'boolean') return 'fs.edit "replace_all" must be a boolean';
      return undefined;
    case 'fs.write':
      if (!isNonEmpty(s.path)) return 'fs.write needs "path" (a non-empty string)';
      if (!isStr(s.content)) return 'fs.write needs "content" (a string)';
      return undefined;
    case 'http.get':
      if (!isNonEmpty(s.url)) return 'http.get needs "url" (a string)';
      return undefined;
    case 'proc.start':
      if (!isStr(s.program)) return 'proc.start needs "program" (a string)';
      if (!(s.args === undefined || (Array.isArray(s.args) && s.args.every(isStr)))) return 'proc.start "args" must be an array of strings';
      if (s.cwd !== undefined && s.cwd !== null && !isStr(s.cwd)) return '"cwd" must be a string or null';
      return undefined;
    case 'proc.status':
    case 'proc.kill':
      if (!isNonEmpty(s.proc_id)) return `${tool} needs "proc_id" (the id proc.start returned, e.g. "proc_1")`;
      if (tool === 'proc.status' && s.wait_ms !== undefined && !(typeof s.wait_ms === 'number' && s.wait_ms >= 0)) return 'proc.status "wait_ms" must be a number ≥ 0';
      return undefined;
    default:
      return `unknown tool "${tool}"`;
  }
}

/** What 'allow-session' allows for these tools: never wider than what was shown. */
export function toolSessionKey(step: ToolStep, execKey: (program: string, args: string[]) => string): string {
  switch (step.tool) {
    case 'fs.read':
      return `fs.read ${step.path}`;
    case 'fs.edit':
    case 'fs.write':
      return `fs.write ${step.path}`;
    case 'http.get': {
      try {
        return `http.get ${new URL(step.url).origin}`;
      } catch {
        return `http.get ${step.url}`;
      }
    }
    case 'proc.start':
      return execKey(step.program, step.args ?? []);
    default:
      return step.tool;
  }
}

/** Paths with invisible or control characters hide what is touched. */
function pathCharFindings(p: string): Finding[] {
  return INVISIBLE_RE.test(p) || CONTROL_RE.test(p) ? [finding('args.invisible', 'L2', { n: '1' })] : [];
}

/**
 * Judge an fs/http/proc step. fs.* by where the (symlink-resolved) target lies; http.get by
 * scheme and host; proc.start exactly like `exec` of the same command; proc.status and
 * proc.kill of the session's own processes are L0.
 */
export function toolFindings(step: ToolStep, policy: Policy & { allowPrivateNetwork?: boolean | string[] }, ctx: ToolJudgeCtx): Finding[] {
  const cwd = ctx.cwd ?? '/';
  switch (step.tool) {
    case 'fs.read':
    case 'fs.edit':
    case 'fs.write': {
      const target = ctx.fsTarget ?? lexicalTarget(step.path, expandPath(step.path, cwd, { home: ctx.home, slothtoolHome: ctx.slothtoolHome }));
      const jctx = { workspace: path.resolve(ctx.workspace ?? cwd), home: ctx.home, slothtoolHome: ctx.slothtoolHome, target, readState: ctx.readState };
      const found = step.tool === 'fs.read' ? fsReadFindings(jctx) : fsWriteFindings(jctx, step.tool);
      return [...pathCharFindings(step.path), ...found];
    }
    case 'http.get':
      return [...pathCharFindings(step.url), ...httpGetFindings(step.url, policy.allowPrivateNetwork)];
    case 'proc.start': {
      const stepCwd = isNonEmpty(step.cwd) ? path.resolve(cwd, step.cwd) : ctx.cwd;
      const jctx: JudgeCtx = { cwd: ctx.cwd ?? stepCwd, ...(stepCwd && stepCwd !== ctx.cwd ? { runCwd: stepCwd } : {}), home: ctx.home, policy, depth: 0 };
      const found = judgeCommand(step.program, step.args ?? [], jctx);
      if (stepCwd && stepCwd !== ctx.cwd) found.push(...secretFindings([stepCwd]));
      return [...found, finding('proc.background', 'L0')];
    }
    case 'proc.status':
      return [finding('proc.status', 'L0')];
    case 'proc.kill':
      return [finding('proc.kill', 'L0')];
  }
}
