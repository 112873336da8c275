import type { FsEditStep, FsReadStep, FsWriteStep, HttpGetStep, ProcKillStep, ProcStartStep, ProcStatusStep } from '../tool-steps';
import { runFsEdit, runFsWrite } from './fs-edit';
import { runFsRead } from './fs-read';
import { runHttpGet } from './http-get';
import { runProcKill, runProcStart, runProcStatus } from './proc';
import type { SessionToolContext } from './session';
import type { ToolContext, ToolHandler, ToolResult } from './types';

/** Adapt a session tool to the runner's handler shape (the runner always passes `session`). */
function handler<S>(tool: string, run: (step: S, ctx: SessionToolContext) => Promise<unknown>, confirmsInside = false): ToolHandler {
  return {
    tool: tool as ToolHandler['tool'],
    ...(confirmsInside ? { confirmsInside: true } : {}),
    run: (step, ctx: ToolContext) => run(step as unknown as S, ctx as SessionToolContext) as Promise<ToolResult>,
  };
}

/** Handlers of the issue-#10 tools, by tool name. fs.edit and fs.write ask inside, with the diff as preview. */
export const SESSION_TOOL_HANDLERS: Record<string, ToolHandler> = {
  'fs.read': handler<FsReadStep>('fs.read', runFsRead),
  'fs.edit': handler<FsEditStep>('fs.edit', runFsEdit, true),
  'fs.write': handler<FsWriteStep>('fs.write', runFsWrite, true),
  'http.get': handler<HttpGetStep>('http.get', runHttpGet),
  'proc.start': handler<ProcStartStep>('proc.start', runProcStart),
  'proc.status': handler<ProcStatusStep>('proc.status', runProcStatus),
  'proc.kill': handler<ProcKillStep>('proc.kill', runProcKill),
};
