import { withChildSignal } from './abort';
import { toolsOf } from './agent-approvals';
import { at, emit, zeroUsage, type AgentCore, type Pending } from './agent-core';
import { holdWrites, log, record } from './agent-session';
import { fitToolResult, renderSummary, renderTranscript, ruleBasedSummary, type ChatMessage } from '../context/context';
import type { UsageTotals } from './events';
import { t } from '../i18n';
import type { LlmResult, LlmWait, Usage } from '../config/llm-base';
import { buildRepairRequest, SUMMARY_SYSTEM } from '../context/prompt';
import { parseReply, replyJsonSchema, summarySchema, type Reply, type Summary } from '../context/protocol';
import { MessageStreamDecoder } from '../context/stream-message';
import { estimateMessagesTokens, estimateTokens, truncateHead, truncateTail } from '../context/tokens';

/** Tokens of room for the model's answer beyond the request budget. */
export const REPLY_ROOM_TOKENS = 4096;

/** A validated reply, or why there is none. */
export type Asked =
  | { ok: true; reply: Reply; raw: boolean; repaired: boolean }
  | { ok: false; code: string; message: string };

/** What `/compact` (and automatic compaction) did. */
export interface Compacted {
  method: 'model' | 'rules';
  before: number;
  after: number;
}

export function toMessages(core: AgentCore, pending: Pending[]): ChatMessage[] {
  const per = Math.max(50, Math.floor(core.options.config.context.inputMaxTokens / Math.max(1, pending.length)) - 4);
  return pending.map((p) => ({
    role: 'user' as const,
    content: p.kind === 'tool' ? fitToolResult(p.result, per) : p.text,
    ...(p.kind === 'user' && p.images?.length ? { images: p.images } : {}),
  }));
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
  let plain = '';
  let head = core.deps.prepareSteps && !shape.tools ? '' : undefined;
  const onText =
    purpose === 'summary'
      ? undefined
      : (delta: string) => {
          emit(core, { type: 'text', delta });
          if (head !== undefined) head = watchForSteps(core, head + delta);
          // With native tools the answer is plain text: it is the message as it comes.
          const message = shape.tools ? (plain += delta) : decoder.push(delta);
          if (message !== undefined) emit(core, { type: 'message_delta', message });
        };
  // Summaries are routine work: always the low tier.
  const mode = purpose === 'summary' ? 'low' : core.mode;
  let release = (): void => undefined;
  const onWait = (wait: LlmWait) => {
    if (wait.phase !== 'connect') release();
    emit(core, { type: 'wait', ...wait });
  };
  // An Ollama profile sizes its context from this: the request budget plus room for the answer.
  const minContext = core.options.config.context.maxRequestTokens + REPLY_ROOM_TOKENS;
  const withImages = messages.some((m) => m.images?.length);
  // An llm-base that cannot carry images (the original 1.0.x) would drop them silently: say so instead.
  if (withImages && !core.deps.llm.features.images) return { ok: false, code: 'IMAGES_UNSUPPORTED', message: t(core.options.lang, 'imagesNeedLlmBase'), notFound: false };
  // images.ts is loaded only for a request that carries some.
  const contentParts = withImages ? (require('../context/images') as typeof import('../context/images')).contentParts : undefined;
  const wire = contentParts ? messages.map((m) => (m.images?.length ? ({ role: m.role, content: contentParts(m.content, m.images) } as unknown as ChatMessage) : m)) : messages;
  // Queued session and audit lines are written once the request is out (llm-base says so with
  // its first wait after connecting) or the call ended, not while the request is built and sent.
  release = holdWrites(core);
  let result: LlmResult;
  try {
    result = await withChildSignal(signal, (own) => core.deps.llm.chat(wire, { mode, profile: core.profile, signal: own, onText, onWait, minContext, ...shape }));
  } finally {
    release();
  }
  if (result.ok && result.fallback && !core.fellBack) {
    core.fellBack = true; // said once per session
    log(core, 'model_fallback', t(core.options.lang, 'modelFallback', result.fallback));
  }
  return result;
}

/** One validated reply: 404 → one retry with a minimal context; invalid → one repair
 * request quoting the error; still invalid → the raw text as chat, marked raw. */
export async function ask(core: AgentCore, pending: Pending[], signal: AbortSignal, turn: UsageTotals): Promise<Asked> {
  const transport = core.deps.llm.transport?.(core.profile) ?? 'json';
  if (transport === 'tools' && toolsOf(core)) return (require('./agent-tools') as typeof import('./agent-tools')).askWithTools(core, pending, signal, turn);
  const current = toMessages(core, pending);
  // json_schema: the reply's JSON Schema (from the registry's tools) constrains the answer.
  const shape: CallShape = transport === 'json_schema' ? { jsonSchema: { name: 'reply', schema: replyJsonSchema(toolsOf(core)) } } : {};
  let messages = core.context.build(current);
  let result = await call(core, messages, signal, 'reply', false, shape);
  if (!result.ok && result.notFound && !signal.aborted) {
    log(core, 'fallback_404', t(core.options.lang, 'fallback404'));
    messages = core.context.buildMinimal(current);
    result = await call(core, messages, signal, 'reply', true, shape);
  }
  if (!result.ok) return { ok: false, code: result.code, message: result.message };
  addUsage(core, result.usage, turn, result.model);
  const first = parseReply(result.data, toolsOf(core));
  if (first.success) return { ok: true, reply: first.reply, raw: false, repaired: false };

  emit(core, { type: 'repair', error: first.error });
  const quoted = truncateHead(first.raw, 300);
  const repairInput: ChatMessage[] = [
    ...current,
    { role: 'assistant', content: quoted },
    { role: 'user', content: buildRepairRequest(first.error) },
  ];
  const repairMessages = core.context.build(repairInput);
  const second = await call(core, repairMessages, signal, 'repair', false, shape);
  let raw = first.raw;
  if (second.ok) {
    addUsage(core, second.usage, turn, second.model);
    const parsed = parseReply(second.data, toolsOf(core));
    if (parsed.success) return { ok: true, reply: parsed.reply, raw: false, repaired: true };
    raw = parsed.raw;
  } else if (second.code === 'ABORTED') {
    return { ok: false, code: second.code, message: second.message };
  }
  return { ok: true, reply: { type: 'chat', message: raw }, raw: true, repaired: false };
}

/** Fold old turns into the summary: one model call, rule-based when it fails. */
export async function compactNow(core: AgentCore, force: boolean, signal?: AbortSignal): Promise<Compacted | null> {
  const folded = core.context.foldCandidates(force);
  if (!folded.length) return null;
  const budgets = core.options.config.context;
  const before = core.context.sizes().total;
  const previous = core.context.summary;
  const room = Math.max(300, Math.floor(budgets.maxRequestTokens * 0.95) - estimateTokens(SUMMARY_SYSTEM) - 100);
  const prevText = previous ? truncateHead(renderSummary(previous), budgets.summaryMaxTokens) + '\n\n' : '';
  const body = truncateTail(`${prevText}Conversation to fold in:\n${renderTranscript(folded)}`, room);
  const messages: ChatMessage[] = [
    { role: 'system', content: SUMMARY_SYSTEM },
    { role: 'user', content: body },
  ];
  let summary: Summary | undefined;
  const result = await call(core, messages, signal ?? new AbortController().signal, 'summary');
  if (result.ok) {
    addUsage(core, result.usage, zeroUsage(), result.model);
    const parsed = summarySchema().safeParse(result.data);
    if (parsed.success && parsed.data.summary.trim()) summary = parsed.data;
  }
  const method: 'model' | 'rules' = summary ? 'model' : 'rules';
  if (!summary) summary = ruleBasedSummary(previous, folded, budgets.summaryMaxTokens);
  core.context.applySummary(summary, folded.length);
  record(core, { t: 'summary', at: at(core), summary: core.context.summary!, folded: folded.length, method });
  const sizes = core.context.sizes();
  emit(core, { type: 'compaction', method, folded: folded.length, before, after: sizes.total, sizes });
  return { method, before, after: sizes.total };
}
