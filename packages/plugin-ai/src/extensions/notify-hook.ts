/**
 * Claude Code's `Notification` hook event: fired when `ai -i` asks the person something
 * (`permission_prompt`) and when a long turn ended and the prompt waits (`idle_prompt`), with
 * Claude Code's stdin (`hook_event_name`, `message`, `notification_type` after the common fields).
 * A matcher matches the notification type, as in Claude Code. What a hook prints is only shown.
 */
import { redact } from '@holic512/shared';
import type { HookCommandConfig } from './hooks';
import { claudePermissionMode } from './claude-names';

export type NotificationType = 'permission_prompt' | 'idle_prompt';

export interface NotificationContext {
  hooks: readonly HookCommandConfig[];
  sessionId: string;
  /** The session file (hooks may read it). */
  transcriptPath?: string;
  cwd: string;
  runMode: string;
  env: NodeJS.ProcessEnv;
  projectDir: string;
}

/** Run the Notification hooks (none configured: nothing, and nothing loaded); the lines to show. */
export async function fireNotification(ctx: NotificationContext, message: string, type: NotificationType): Promise<string[]> {
  const hooks = ctx.hooks.filter((h) => h.event === 'Notification');
  if (!hooks.length) return [];
  const { runHooks } = require('./hooks') as typeof import('./hooks');
  const payload = {
    session_id: ctx.sessionId,
    ...(ctx.transcriptPath ? { transcript_path: ctx.transcriptPath } : {}),
    permission_mode: claudePermissionMode(ctx.runMode),
    message,
    notification_type: type,
  };
  const out = await runHooks('Notification', payload, hooks, {
    cwd: ctx.cwd,
    env: { ...ctx.env, CLAUDE_PROJECT_DIR: ctx.projectDir },
    redact,
    subject: type,
  });
  return out.notices;
}
