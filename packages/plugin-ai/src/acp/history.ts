/**
 * A stored session (sessions/sessions.ts records) replayed as ACP `session/update`s for
 * `session/load`: each user message, each answer's message, each step as a finished tool call
 * (its one-line label, how it ended, the start of its output). A `/rewind` record takes back what
 * came after the message it went back to, as the conversation did. Pure.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { SessionRecord } from '../sessions/sessions';
import { textContent } from './updates';

function parsed(content: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(content);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // an older record stored as plain text
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A stored step as a finished tool call. */
function toolCall(content: string, index: number): SessionUpdate {
  const r = parsed(content) ?? {};
  const id = str(r.id) ?? `replayed_${index}`;
  const outcome = str(r.outcome);
  const ok = outcome === undefined ? r.status === undefined : outcome === 'ran' || outcome === 'sandbox_stopped';
  const failed = !ok || (typeof r.exitCode === 'number' && r.exitCode !== 0);
  const out = str(r.out);
  return {
    sessionUpdate: 'tool_call',
    toolCallId: id,
    title: str(r.step) ?? str(r.tool) ?? id,
    kind: 'other',
    status: failed ? 'failed' : 'completed',
    ...(out ? { content: [textContent(out)] } : {}),
  };
}

/** The updates that show `records` (in order) to an editor. */
export function replayUpdates(records: readonly SessionRecord[]): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  /** Where each user message's updates begin (the n-th user message, 1-based, at index n-1). */
  const starts: number[] = [];
  records.forEach((r, index) => {
    if (r.t === 'user') {
      starts.push(out.length);
      out.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: r.content } });
    } else if (r.t === 'assistant') {
      const message = str(parsed(r.content)?.message) ?? (parsed(r.content) ? undefined : r.content);
      if (message) out.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: message } });
    } else if (r.t === 'tool') {
      // The one-line form a fold would leave (step, outcome, output's end); a short result is its own.
      out.push(toolCall(r.short ?? r.content, index));
    } else if (r.t === 'rewind') {
      const at = starts[r.turn - 1];
      if (at === undefined) return;
      out.length = at;
      starts.length = r.turn - 1;
    }
  });
  return out;
}
