import fs = require('fs');
import { describeError } from '@holic512/json-patch';
import { isBroadWorkspace } from '../policy/fs-rules';
import { isInside } from '../workspace';
import { redact } from '../redact';
import type { JsonPatchStep } from '../types';
import type { PatchToolResult, StoppedToolResult, ToolContext } from './types';

/**
 * config.json_patch through @holic512/json-patch: allowed roots, masked plan, confirmation
 * with the masked diff as preview (asked while the file is locked, so what the user saw is
 * what gets written), backup and atomic write.
 */
export async function runJsonPatch(step: JsonPatchStep, ctx: ToolContext): Promise<PatchToolResult | StoppedToolResult> {
  const base = { _event: 'tool_result' as const, id: ctx.id, tool: 'config.json_patch' as const, decision: ctx.decision };
  const journal = journalled(step, ctx);
  try {
    const r = await ctx.deps.patchFile(step.file, step.patch, {
      allowedRoots: ctx.allowedRoots,
      env: ctx.env,
      cwd: ctx.cwd,
      lang: ctx.lang,
      ...(ctx.ask ? { confirm: (plan: { summary: string }) => ctx.ask?.(plan.summary) ?? true } : {}),
    });
    if (r.status === 'declined') return { ...base, status: 'declined', decision: { ...ctx.decision, by: 'user' } };
    if (r.status === 'applied') journal?.(r.file);
    return {
      ...base,
      file: r.file,
      status: r.status === 'applied' ? 'applied' : 'unchanged',
      changes: r.changes,
      summary: r.summary,
      ...(r.backupPath ? { backupPath: r.backupPath } : {}),
    };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    // What went wrong in the user's language (by error code), then json-patch's own detail.
    return {
      ...base,
      file: step.file,
      status: 'error',
      changes: [],
      summary: '',
      error: { code: typeof e.code === 'string' ? e.code : 'ERROR', message: redact(describeError(err, ctx.lang)) },
    };
  }
}

/**
 * A patched file inside the workspace goes into the session's file journal like an fs.write, so
 * `/undo` and `/rewind` bring it back (the json-patch backup stays as well). Returns what to call
 * once the patch is applied; undefined when the file is not one the journal keeps.
 */
function journalled(step: JsonPatchStep, ctx: ToolContext): ((file: string) => void) | undefined {
  const session = ctx.session;
  if (!session || isBroadWorkspace(session.workspace, session.home)) return undefined;
  const target = session.resolve(step.file);
  if (!isInside(target.real, session.workspace)) return undefined;
  let before: string | null;
  try {
    before = fs.readFileSync(target.real, 'utf8');
  } catch {
    before = null;
  }
  return (file) => {
    try {
      session.journal.record({
        stepId: ctx.id,
        tool: 'config.json_patch',
        path: target.real,
        before,
        after: fs.readFileSync(file, 'utf8'),
      });
    } catch {
      // The file is gone again already: nothing to put back later.
    }
  };
}
