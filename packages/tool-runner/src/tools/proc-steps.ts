/** The proc.start / proc.status / proc.kill steps over a session's process table (proc.ts). */
import path = require('path');
import { message } from '../i18n';
import { redact } from '../redact';
import type { ProcKillStep, ProcStartStep, ProcStatusStep } from '../tool-steps';
import { hardenedCommand, sandboxable, stepCwd } from './exec-tool';
import type { ProcSnapshot } from './proc';
import { toolError, type SessionToolContext, type ToolErrorResult } from './session';
import type { ResultDecision } from './types';

/** proc.start / proc.status / proc.kill result. Output is redacted. */
export interface ProcResult extends Omit<ProcSnapshot, 'error'> {
  _event: 'tool_result';
  id: string;
  tool: 'proc.start' | 'proc.status' | 'proc.kill';
  cwd?: string;
  /** proc.kill: the last output of the process (up to 4000 characters). */
  lastOutput?: string;
  /** One line for the user's screen: `proc_1 running`, `proc_1 exited 0`. */
  summary: string;
  error?: { code: string; message: string };
  decision: ResultDecision;
}

function toResult(tool: ProcResult['tool'], snap: ProcSnapshot & { lastOutput?: string }, ctx: SessionToolContext): ProcResult {
  return {
    _event: 'tool_result',
    id: ctx.id,
    tool,
    ...snap,
    stdoutTail: redact(snap.stdoutTail),
    stderrTail: redact(snap.stderrTail),
    ...(snap.lastOutput !== undefined ? { lastOutput: redact(snap.lastOutput) } : {}),
    ...(snap.error ? { error: { code: snap.error.code, message: redact(snap.error.message) } } : {}),
    summary: `${snap.proc_id} ${snap.state}${snap.state === 'exited' ? ` ${snap.signal ?? snap.exitCode}` : ''}`,
    decision: ctx.decision,
  };
}

function unknownProc(tool: string, procId: string, ctx: SessionToolContext): ToolErrorResult {
  const list = ctx.session.procs.ids().join(', ') || '-';
  return toolError(ctx, tool, 'UNKNOWN_PROCESS', message('proc.err.unknown', ctx.lang, { p: procId, list }).reason, { proc_id: procId });
}

/** Where a detached process's output goes: `<SlothTool home>/ai/detached/<time>-<program>.log`. */
export function detachedLogFile(slothtoolHome: string, program: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\..*$/, '');
  const name =
    path
      .basename(program)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'proc';
  return path.join(slothtoolHome, 'ai', 'detached', `${stamp}-${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.log`);
}

/** proc.start: spawn in the background and answer at once with the process id. */
export async function runProcStart(step: ProcStartStep, ctx: SessionToolContext): Promise<ProcResult | ToolErrorResult> {
  const cwd = stepCwd(step, ctx.cwd);
  const { args, env } = await hardenedCommand(step.program, step.args, cwd, ctx.env, ctx.sandbox);
  const detach = step.detach === true;
  const wrapped =
    ctx.sandbox && sandboxable(step.program, cwd, env) ? ctx.sandbox.wrap(step.program, args, cwd, { outlive: detach }) : undefined;
  const logFile = detach ? detachedLogFile(ctx.session.slothtoolHome, step.program, new Date()) : undefined;
  const started = ctx.session.procs.start({
    program: step.program,
    args: step.args,
    cwd,
    env,
    spawnAs: wrapped ?? { program: step.program, args },
    ...(logFile ? { logFile } : {}),
  });
  if (!started.ok) {
    const text =
      started.code === 'TOO_MANY' ? message('proc.err.too_many', ctx.lang, { n: started.message }).reason : redact(started.message);
    return toolError(ctx, 'proc.start', started.code, text, { program: step.program, args: step.args, cwd });
  }
  const snap = (await ctx.session.procs.status(started.id))!;
  return { ...toResult('proc.start', snap, ctx), cwd };
}

/** proc.status: running/exited, exit code, and only the output that is new since the last status. */
export async function runProcStatus(step: ProcStatusStep, ctx: SessionToolContext): Promise<ProcResult | ToolErrorResult> {
  const snap = await ctx.session.procs.status(step.proc_id, step.wait_ms ?? 0, ctx.signal);
  if (!snap) return unknownProc('proc.status', step.proc_id, ctx);
  return toResult('proc.status', snap, ctx);
}

/** proc.kill: end the process group and return the last output. */
export async function runProcKill(step: ProcKillStep, ctx: SessionToolContext): Promise<ProcResult | ToolErrorResult> {
  const snap = await ctx.session.procs.kill(step.proc_id);
  if (!snap) return unknownProc('proc.kill', step.proc_id, ctx);
  return toResult('proc.kill', snap, ctx);
}
