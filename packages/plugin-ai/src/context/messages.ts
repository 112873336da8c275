/**
 * The messages of a conversation, made once and kept as those exact bytes (DESIGN §6, docs/context.md):
 * a user message fitted once to its budget, the model's reply as it was received, each tool
 * result fitted once to a per-result budget when it is added. What a fold may put in a long
 * message's place later (`short`) is made at the same time, so a fold is a choice, never a
 * re-rendering. `wireOf` gives a message in the shape of the transport a request uses.
 */
import { redact } from '@holic512/shared';
import type { ImageAttachment } from './images';
import type { Reply } from './protocol';
import type { ToolResult } from '../agent/runner-types';
import { compactAssistant, compactToolResult, fitToolResult } from './fit';
import { estimateTokens, truncateHead } from './tokens';

/** How a request travels (llm-base transport): JSON-protocol text, or native tool calls. */
export type Wire = 'json' | 'tools';

/** One native tool call as the model made it (the arguments: the model's JSON text). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One chat message as llm-base takes it. `images` go with a user message as content parts
 * (agent-model `call`); a `tool` message answers the call `tool_call_id` of the assistant
 * message before it, whose `tool_calls` are OpenAI's wire shape. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  images?: ImageAttachment[];
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** What a message of the conversation is. */
export type MessageKind = 'user' | 'assistant' | 'tool' | 'event' | 'summary' | 'pinned';

/** A message of the conversation, stored once. */
export interface ContextMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  kind: MessageKind;
  /** What the model read (or wrote), byte for byte. */
  content: string;
  images?: ImageAttachment[];
  /** An assistant message's native tool calls (made through transport `tools`). */
  calls?: ToolCall[];
  /** A tool result's call, when it answers a native tool call. */
  callId?: string;
  /** A tool result's tool (`fs.read`): a pinned tool's latest result outlives a fold. */
  tool?: string;
  /** The shorter form a fold may put in its place (a long result, reply or pasted text). */
  short?: string;
  /** A tools-transport reply as the JSON protocol says it: what a JSON-protocol request sends instead. */
  alt?: string;
  /** An event that said which tools joined: their key (agent-extensions syncTools), for a resumed session. */
  toolsKey?: string;
}

/** A shorter form only when it saves something. */
function shorter(content: string, short: string): { short?: string } {
  return short.length < content.length ? { short } : {};
}

/** The user's text, fitted once to `maxTokens`; a fold may leave its head (`keepTokens`). */
export function userMessage(text: string, maxTokens: number, keepTokens: number, images?: ImageAttachment[]): ContextMessage {
  const content = truncateHead(text, maxTokens);
  return {
    role: 'user',
    kind: 'user',
    content,
    ...(images?.length ? { images } : {}),
    ...shorter(content, truncateHead(content, keepTokens)),
  };
}

/** A runner event such as `{"_event":"continue"}`, as it is. */
export function eventMessage(text: string, toolsKey?: string): ContextMessage {
  return { role: 'user', kind: 'event', content: text, ...(toolsKey !== undefined ? { toolsKey } : {}) };
}

/** A step's result, fitted once to `maxTokens`; its one-line form is what a fold leaves. A result
 * that answers a native tool call is a `tool` message of that call. */
export function toolMessage(result: ToolResult, maxTokens: number, callId?: string): ContextMessage {
  const content = fitToolResult(result, maxTokens);
  const tool = String(result.tool ?? 'exec');
  return {
    role: callId ? 'tool' : 'user',
    kind: 'tool',
    content,
    tool,
    ...(callId ? { callId } : {}),
    ...shorter(content, compactToolResult(result)),
  };
}

/**
 * A reply without the reasoning block it opens with (`<think>…</think>`, or the rest of one whose
 * opening tag the server already took): chat templates leave it out of earlier turns, and it would
 * fill the context with what the model no longer needs.
 */
export function withoutReasoning(raw: string): string {
  const m = /^\s*(?:<(think|thinking|reasoning)>[\s\S]*?<\/\1>|[^{<]*?<\/(think|thinking|reasoning)>)\s*/i.exec(raw);
  return m ? raw.slice(m[0].length) : raw;
}

/**
 * The model's reply as it was received: `raw`, the text the model wrote (the JSON object, or with
 * native tool calls the answer's text and its `calls`) less a leading reasoning block, through the
 * redaction gate like every byte that leaves (a secret the model repeats is not sent back). A fold
 * may leave its compact form.
 */
export function assistantMessage(reply: Reply, raw: string, maxTokens: number, calls?: readonly ToolCall[]): ContextMessage {
  const short = redact(compactAssistant(reply, Math.min(maxTokens, 200)));
  const content = redact(withoutReasoning(raw));
  if (!calls?.length) return { role: 'assistant', kind: 'assistant', content, ...shorter(content, short) };
  const kept = calls.map((c) => ({ id: c.id, name: c.name, arguments: redact(c.arguments) }));
  return {
    role: 'assistant',
    kind: 'assistant',
    content,
    calls: kept,
    alt: redact(JSON.stringify(reply)),
    ...shorter(content + JSON.stringify(kept), short),
  };
}

/** A message as a request of transport `wire` carries it. One made for the other transport is
 * said the way this one can (a tool message as the user's, native calls as the JSON reply). */
export function wireOf(m: ContextMessage, wire: Wire): ChatMessage {
  if (m.role === 'assistant' && m.calls?.length) {
    if (wire === 'json') return { role: 'assistant', content: m.alt ?? m.content };
    return {
      role: 'assistant',
      content: m.content,
      tool_calls: m.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
  }
  if (m.role === 'tool')
    return wire === 'tools' && m.callId
      ? { role: 'tool', tool_call_id: m.callId, content: m.content }
      : { role: 'user', content: m.content };
  return { role: m.role, content: m.content, ...(m.images?.length ? { images: m.images } : {}) };
}

/** Estimated tokens of a message as sent (its calls count too; images with their estimate). */
export function messageTokens(m: ContextMessage): number {
  let n = estimateTokens(m.content) + 4;
  for (const c of m.calls ?? []) n += estimateTokens(c.name) + estimateTokens(c.arguments) + 8;
  for (const image of m.images ?? []) n += image.tokens;
  return n;
}

/** Estimated tokens of messages as sent. */
export function messagesTokens(messages: readonly ContextMessage[]): number {
  let n = 0;
  for (const m of messages) n += messageTokens(m);
  return n;
}

/** Arguments of a native call longer than this are left out when a fold shortens its reply. */
const SHORT_ARGUMENTS = 200;

/** The message a fold leaves: its short form in place of its content (its calls kept). */
export function shortened(m: ContextMessage): ContextMessage {
  if (m.short === undefined) return m;
  const { short, ...rest } = m;
  if (!m.calls?.length) return { ...rest, content: short };
  // A reply with native calls keeps them (their results answer them): its text and long arguments give way.
  const calls = m.calls.map((c) => (c.arguments.length > SHORT_ARGUMENTS ? { ...c, arguments: '{"_shortened":true}' } : c));
  return { ...rest, content: '', alt: short, calls };
}
