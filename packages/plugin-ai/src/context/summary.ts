import { parseJsonObject } from '@holic512/shared/lib/json-object';
import type { Summary } from './protocol';
import { estimateTokens, truncateHead, truncateTail } from './tokens';

/** What a summary is made from: a message of the conversation as text, with what it is. */
export interface FoldedMessage {
  kind: string;
  content: string;
}

/** Summary as the system message the model sees. */
export function renderSummary(summary: Summary): string {
  const parts = [`Conversation summary so far:\n${summary.summary}`];
  if (summary.keyFacts.length) parts.push(`Key facts:\n- ${summary.keyFacts.join('\n- ')}`);
  if (summary.openTasks.length) parts.push(`Open tasks:\n- ${summary.openTasks.join('\n- ')}`);
  return parts.join('\n');
}

/** Messages as plain text, for the summary request and the rule-based fallback. */
export function renderTranscript(messages: readonly FoldedMessage[]): string {
  return messages.map((m) => `${m.kind}: ${m.content}`).join('\n');
}

/** Rule-based compaction, used when the summary call fails: keep the previous summary and
 * append one short line per folded message, then cap (the newest lines survive). */
export function ruleBasedSummary(previous: Summary | null, folded: readonly FoldedMessage[], maxTokens: number): Summary {
  const lines: string[] = [];
  for (const m of folded) {
    let line: string;
    if (m.kind === 'assistant') {
      const parsed = parseJsonObject(m.content);
      // `ran` is the form of sessions written before a step's outcome was its result's.
      const key = Array.isArray(parsed?.asked) ? 'asked' : 'ran';
      const ran = Array.isArray(parsed?.[key]) ? ` (${key}: ${(parsed[key] as unknown[]).join('; ')})` : '';
      line = `assistant ${String(parsed?.type ?? '')}: ${String(parsed?.message ?? m.content)}${ran}`;
    } else if (m.kind === 'tool') {
      const parsed = parseJsonObject(m.content);
      line = `result ${String(parsed?.step ?? '')}: ${parsed?.outcome ?? parsed?.status ?? `exit ${String(parsed?.exitCode ?? '?')}`}`;
    } else {
      line = `${m.kind}: ${m.content}`;
    }
    lines.push(truncateHead(line.replace(/\s+/g, ' '), 40));
  }
  const text = [previous?.summary ?? '', ...lines].filter(Boolean).join('\n');
  return {
    summary: truncateTail(text, Math.floor(maxTokens * 0.6)),
    keyFacts: (previous?.keyFacts ?? []).slice(-8),
    openTasks: (previous?.openTasks ?? []).slice(-5),
  };
}

/** Cap a summary so that its rendered form fits `maxTokens`. */
export function capSummary(summary: Summary, maxTokens: number): Summary {
  let s: Summary = {
    summary: summary.summary,
    keyFacts: summary.keyFacts.slice(0, 12).map((f) => truncateHead(f, 60)),
    openTasks: summary.openTasks.slice(0, 8).map((f) => truncateHead(f, 60)),
  };
  const fixed = estimateTokens(renderSummary({ ...s, summary: '' }));
  s = { ...s, summary: truncateTail(s.summary, Math.max(20, maxTokens - fixed)) };
  while (estimateTokens(renderSummary(s)) > maxTokens && (s.keyFacts.length || s.openTasks.length)) {
    s = s.keyFacts.length >= s.openTasks.length ? { ...s, keyFacts: s.keyFacts.slice(1) } : { ...s, openTasks: s.openTasks.slice(1) };
  }
  return s;
}
