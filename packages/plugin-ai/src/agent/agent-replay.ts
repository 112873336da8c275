/**
 * `--continue` and `/resume`: a stored session replayed into the conversation, record by record,
 * to the very messages its last request held (the system prompts it was sent with, each message
 * as sent, each fold as it was applied), nothing rendered again. A session written by a version
 * that kept a digest of recent results (meta `v: 1`) is converted as it is read: its messages in
 * the short form that version stored, said once; its later requests then extend that form.
 */
import { checkpoint, flushAllWrites, log, modeOf } from './agent-session';
import type { AgentCore } from './agent-core';
import { eventMessage } from '../context/messages';
import { t } from '../i18n';
import type { SessionRecord } from '../sessions/sessions';

/** Load a stored session into the conversation and continue it (appending to the same file). */
export function resumeSession(core: AgentCore, id: string): { skipped: number } {
  const store = core.deps.store;
  if (!store) throw new Error('no session store');
  flushAllWrites();
  const { records, skipped } = store.read(id);
  core.context.clear();
  core.checkpoints.splice(0);
  core.notes.splice(0);
  core.toolsKey = undefined;
  for (const r of records) replay(core, r);
  core.id = id;
  core.started = records.some((r) => r.t === 'meta');
  store.markLast(core.options.cwd, id);
  const meta = records.find((r) => r.t === 'meta');
  const stored = records.some((r) => r.t === 'system');
  if (meta?.t === 'meta' && meta.v === 1 && !stored && core.context.messages.length)
    log(core, 'session_converted', t(core.options.lang, 'sessionConverted'));
  if (stored) noteChangedInstructions(core, core.context.basePrompts().json);
  return { skipped };
}

function replay(core: AgentCore, r: SessionRecord): void {
  const context = core.context;
  switch (r.t) {
    case 'meta':
      if (r.mode && core.options.mode === undefined) core.mode = r.mode;
      if (r.profile !== undefined && core.options.profile === undefined) core.profile = r.profile;
      return;
    case 'system':
      context.restorePrompts({ json: r.json, ...(r.tools !== undefined ? { tools: r.tools } : {}) });
      if (r.toolsKey !== undefined) core.toolsKey = r.toolsKey;
      return;
    case 'user':
      checkpoint(core, r.content, r.at);
      return context.append([{ role: 'user', kind: 'user', content: r.content, ...(r.short !== undefined ? { short: r.short } : {}) }]);
    case 'event':
      if (r.toolsKey !== undefined) core.toolsKey = r.toolsKey;
      context.mode = modeOf(r.content) ?? context.mode;
      return context.append([eventMessage(r.content, r.toolsKey)]);
    case 'assistant':
      return context.append([
        {
          role: 'assistant',
          kind: 'assistant',
          content: r.content,
          ...(r.calls?.length ? { calls: r.calls } : {}),
          ...(r.alt !== undefined ? { alt: r.alt } : {}),
          ...(r.short !== undefined ? { short: r.short } : {}),
        },
      ]);
    case 'tool':
      return replayTool(core, r);
    case 'fold':
      return context.applyFold({
        shortened: r.shortened,
        folded: r.folded,
        head: r.head.map((h) => ({ ...h })),
        ...(r.summary ? { summary: r.summary } : {}),
      });
    case 'summary': {
      // Version 1 kept its summary apart from the messages it counted: the one before goes too.
      const { message, summary } = context.summaryMessage(r.summary);
      const before = context.messages[0]?.kind === 'summary' ? 1 : 0;
      return context.applyFold({ shortened: [], folded: r.folded + before, head: [message], summary });
    }
    case 'rewind': {
      const index = core.checkpoints.findIndex((c) => c.turn === r.turn);
      if (index < 0) return;
      context.restore(core.checkpoints[index].context);
      core.checkpoints.splice(index);
      return;
    }
    default:
      return;
  }
}

function replayTool(core: AgentCore, r: Extract<SessionRecord, { t: 'tool' }>): void {
  // Step ids continue where the session left off, so they stay unique in its files.
  const m = /"id":"cmd_(\d+)"/.exec(r.content);
  if (m) core.stepCounter = Math.max(core.stepCounter, Number(m[1]));
  core.context.append([
    {
      role: r.call_id ? 'tool' : 'user',
      kind: 'tool',
      content: r.content,
      ...(r.tool ? { tool: r.tool } : {}),
      ...(r.call_id ? { callId: r.call_id } : {}),
      ...(r.short !== undefined ? { short: r.short } : {}),
    },
  ]);
}

/**
 * The system prompt stays as the session was sent it; what changed in the instructions since
 * (AGENTS.md, skills, memory, installed plugins) goes, once, as its own message with the next
 * call, so the model reads it after the cached prefix instead of the prefix being rewritten.
 */
export function noteChangedInstructions(core: AgentCore, fresh: string): void {
  const stored = new Set(core.context.systemPrompt('json').split('\n\n'));
  const changed = fresh.split('\n\n').filter((part) => part.trim() && !stored.has(part));
  if (!changed.length) return;
  const text = JSON.stringify({
    _event: 'instructions',
    note: 'These parts of your instructions changed since this session started; they take precedence over the system prompt.',
    changed: changed.join('\n\n'),
  });
  core.notes.push({ kind: 'event', text });
}
