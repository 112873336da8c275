import { withChildSignal } from './abort';
import { toolsOf } from './agent-approvals';
import { at, emit, type AgentCore, type Pending } from './agent-core';
import { holdWrites, log, record } from './agent-session';
import { foldMarks } from '../context/fold';
import { eventMessage, toolMessage, userMessage, type ChatMessage, type ContextMessage, type ToolCall } from '../context/messages';
import type { UsageTotals } from './events';
import { t } from '../i18n';
import type { LlmResult, LlmWait, Usage } from '../config/llm-base';
import { buildRepairRequest } from '../context/prompt';
import { parseReply, replyJsonSchema, type Reply } from '../context/protocol';
import { MessageStreamDecoder } from '../context/stream-message';
import { estimateMessagesTokens, truncateHead } from '../context/tokens';

/** Tokens of room for the model's answer beyond the request budget. */
export const REPLY_ROOM_TOKENS = 4096;

/** A validated reply, or why there is none. */
export type Asked =
  | {
      ok: true;
      reply: Reply;
      /** The reply is the model's unvalidated text shown as chat (the repair failed). */
      raw: boolean;
      repaired: boolean;
      /** What the model wrote, as received: the conversation keeps these bytes. */
      text: string;
      /** Its native tool calls (transport `tools`). */
      calls?: ToolCall[];
    }
  | { ok: false; code: string; message: string };

/**
 * The messages of a round's new input, made once: they are the bytes this request and every later
 * one carry. A user message gets its budget, or the room the conversation leaves below the summary
 * mark when that is more (a piped diff on a fresh session); the round's tool results share theirs,
 * and answer the native tool calls of the reply that asked for them, in order.
 */
export function toMessages(core: AgentCore, pending: Pending[]): ContextMessage[] {
  const budgets = core.options.config.context;
  const results = pending.filter((p) => p.kind === 'tool').length;
  const per = Math.max(50, Math.floor(budgets.inputMaxTokens / Math.max(1, results)) - 4);
  const room = foldMarks(budgets).summarize - core.context.requestTokens([]);
  const userMax = Math.max(budgets.inputMaxTokens, room);
  const calls = openCalls(core.context.messages, results);
  let n = 0;
  return pending.map((p) => {
    if (p.kind === 'user') return userMessage(p.text, userMax, Math.floor((budgets.inputMaxTokens * 2) / 3), p.images);
    if (p.kind === 'event') return eventMessage(p.text, p.toolsKey);
    return toolMessage(p.result, per, calls?.[n++]);
  });
}

/** The ids of the native calls `count` results answer: those of the last message, when it made exactly that many. */
function openCalls(messages: readonly ContextMessage[], count: number): string[] | undefined {
  const last = messages[messages.length - 1];
  return count && last?.role === 'assistant' && last.calls?.length === count ? last.calls.map((c) => c.id) : undefined;
}

/** Before a session's first request: its system prompts are fixed from now on, and recorded. */
export function sealPrompts(core: AgentCore): void {
  if (!core.context.seal()) return;
  record(core, {
    t: 'system',
    at: at(core),
    ...core.context.allPrompts(),
    ...(core.toolsKey !== undefined ? { toolsKey: core.toolsKey } : {}),
  });
}

/** Add `usage` (of `calls` model calls) to the totals `u`; money only in one currency. */
export function sumUsage(u: UsageTotals, usage: Usage, calls: number): void {
  u.input_tokens += usage.input_tokens;
  u.output_tokens += usage.output_tokens;
  if (usage.cached_tokens) u.cached_tokens = (u.cached_tokens ?? 0) + usage.cached_tokens;
  if (usage.cost !== undefined && (!u.currency || u.currency === usage.currency)) {
    u.cost = (u.cost ?? 0) + usage.cost;
    u.currency = usage.currency;
  }
  u.calls += calls;
}

/** `model`: the model that answered, when llm-base says (the `usage` event carries it). */
export function addUsage(core: AgentCore, usage: Usage, turn: UsageTotals, model?: string): void {
  for (const u of [turn, core.total]) sumUsage(u, usage, 1);
  record(core, { t: 'usage', at: at(core), ...usage });
  emit(core, { type: 'usage', call: usage, turn: { ...turn }, total: { ...core.total }, ...(model ? { model } : {}) });
}

/** How a request is shaped beyond its messages: native tools (the answer is plain text and tool
 * calls) or a JSON Schema for the answer (agent-tools.ts). */
export interface CallShape {
  tools?: unknown[];
  jsonSchema?: { name: string; schema: Record<string, unknown>; strict?: boolean };
}

/** A reply's start (its first 200 characters) says `"type": "cmd"`: start what steps need, once.
 * Returns what to keep watching, or undefined once decided. */
function watchForSteps(core: AgentCore, head: string): string | undefined {
  if (!STEP_REPLY.test(head)) return head.length < 200 ? head : undefined;
  core.deps.prepareSteps?.();
  core.deps.prepareSteps = undefined;
  return undefined;
}

const STEP_REPLY = /"type"\s*:\s*"cmd"/;

export async function call(
  core: AgentCore,
  messages: ChatMessage[],
  signal: AbortSignal,
  purpose: 'reply' | 'repair' | 'summary',
  minimal = false,
  shape: CallShape = {},
): Promise<LlmResult> {
  emit(core, { type: 'request', messages: messages.length, tokens: estimateMessagesTokens(messages), minimal, purpose });
  const decoder = new MessageStreamDecoder();
  // The answer's text as it streams: what the model wrote, kept as the conversation's bytes.
  let streamed = '';
  let head = core.deps.prepareSteps && !shape.tools ? '' : undefined;
  const onText =
    purpose === 'summary'
      ? undefined
      : (delta: string) => {
          emit(core, { type: 'text', delta });
          streamed += delta;
          if (head !== undefined) head = watchForSteps(core, head + delta);
          // With native tools the answer is plain text: it is the message as it comes.
          const message = shape.tools ? streamed : decoder.push(delta);
          if (message !== undefined) emit(core, { type: 'message_delta', message });
        };
  // Summaries are routine work: always the low tier.
  const mode = purpose === 'summary' ? 'low' : core.mode;
  let release = (): void => undefined;
  const onWait = (wait: LlmWait) => {
    if (wait.phase !== 'connect') release();
    emit(core, { type: 'wait', ...wait });
  };
  // The session's requests share one prompt-cache key (a summary request has a prefix of its own).
  const cacheKey = purpose === 'summary' ? {} : { cacheKey: core.id };
  // An Ollama profile sizes its context from this: the request budget plus room for the answer.
  const minContext = core.options.config.context.maxRequestTokens + REPLY_ROOM_TOKENS;
  const withImages = messages.some((m) => m.images?.length);
  // An llm-base that cannot carry images (the original 1.0.x) would drop them silently: say so instead.
  if (withImages && !core.deps.llm.features.images)
    return { ok: false, code: 'IMAGES_UNSUPPORTED', message: t(core.options.lang, 'imagesNeedLlmBase'), notFound: false };
  // images.ts is loaded only for a request that carries some.
  const contentParts = withImages ? (require('../context/images') as typeof import('../context/images')).contentParts : undefined;
  const wire = contentParts
    ? messages.map((m) => (m.images?.length ? ({ role: m.role, content: contentParts(m.content, m.images) } as unknown as ChatMessage) : m))
    : messages;
  // Queued session and audit lines are written once the request is out (llm-base says so with
  // its first wait after connecting) or the call ended, not while the request is built and sent.
  release = holdWrites(core);
  let result: LlmResult;
  try {
    result = await withChildSignal(signal, (own) =>
      core.deps.llm.chat(wire, { mode, profile: core.profile, signal: own, onText, onWait, minContext, ...cacheKey, ...shape }),
    );
  } finally {
    release();
  }
  if (result.ok && result.fallback && !core.fellBack) {
    core.fellBack = true; // said once per session
    log(core, 'model_fallback', t(core.options.lang, 'modelFallback', result.fallback));
  }
  return result.ok && result.text === undefined && streamed ? { ...result, text: streamed } : result;
}

/** What the model wrote: the streamed text, else (an llm-base that does not stream) its answer as JSON. */
function replyText(result: Extract<LlmResult, { ok: true }>): string {
  if (result.text !== undefined) return result.text;
  const data = result.data as { _fallback?: unknown; result?: unknown } | null;
  return data && data._fallback === true && typeof data.result === 'string' ? data.result : JSON.stringify(result.data);
}

/** One validated reply: 404 → one retry with a minimal context; invalid → one repair
 * request quoting the error; still invalid → the raw text as chat, marked raw. */
export async function ask(core: AgentCore, current: ContextMessage[], signal: AbortSignal, turn: UsageTotals): Promise<Asked> {
  const transport = core.deps.llm.transport?.(core.profile) ?? 'json';
  if (transport === 'tools' && toolsOf(core))
    return (require('./agent-tools') as typeof import('./agent-tools')).askWithTools(core, current, signal, turn);
  // json_schema: the reply's JSON Schema (from the registry's tools) constrains the answer.
  const shape: CallShape = transport === 'json_schema' ? { jsonSchema: { name: 'reply', schema: replyJsonSchema(toolsOf(core)) } } : {};
  sealPrompts(core);
  let result = await call(core, core.context.request(current), signal, 'reply', false, shape);
  if (!result.ok && result.notFound && !signal.aborted) {
    log(core, 'fallback_404', t(core.options.lang, 'fallback404'));
    result = await call(core, core.context.buildMinimal(current), signal, 'reply', true, shape);
  }
  if (!result.ok) return { ok: false, code: result.code, message: result.message };
  addUsage(core, result.usage, turn, result.model);
  const first = parseReply(result.data, toolsOf(core));
  if (first.success) return { ok: true, reply: first.reply, raw: false, repaired: false, text: replyText(result) };

  emit(core, { type: 'repair', error: first.error });
  // The invalid reply quoted back and the request to answer again: this call only, never kept.
  const repair: ContextMessage[] = [
    ...current,
    { role: 'assistant', kind: 'assistant', content: truncateHead(first.raw, 300) },
    { role: 'user', kind: 'event', content: buildRepairRequest(first.error) },
  ];
  const second = await call(core, core.context.request(repair), signal, 'repair', false, shape);
  let raw = first.raw;
  if (second.ok) {
    addUsage(core, second.usage, turn, second.model);
    const parsed = parseReply(second.data, toolsOf(core));
    if (parsed.success) return { ok: true, reply: parsed.reply, raw: false, repaired: true, text: replyText(second) };
    raw = parsed.raw;
  } else if (second.code === 'ABORTED') {
    return { ok: false, code: second.code, message: second.message };
  }
  return { ok: true, reply: { type: 'chat', message: raw }, raw: true, repaired: false, text: raw };
}
