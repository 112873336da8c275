/**
 * A fold of the conversation (context/fold.ts decides; this does it): the short forms in place of
 * older long messages, and past the summary mark the older turns folded into a summary by one
 * model call returning `{summary, keyFacts, openTasks}` (rule-based when that call fails), the
 * latest result of each pinned tool stated again after it. The session file records what the fold
 * did, as sent, so a resumed session has the very same messages.
 */
import { at, emit, zeroUsage, type AgentCore } from './agent-core';
import { addUsage, call } from './agent-model';
import { record } from './agent-session';
import type { AppliedFold } from '../context/context';
import { applyFoldTo, foldMarks, latestPinned, pinnedHead, planFold } from '../context/fold';
import { messagesTokens, messageTokens, type ChatMessage, type ContextMessage } from '../context/messages';
import { SUMMARY_SYSTEM } from '../context/prompt';
import { summarySchema, type Summary } from '../context/protocol';
import { renderSummary, renderTranscript, ruleBasedSummary } from '../context/summary';
import { estimateTokens, truncateHead, truncateTail } from '../context/tokens';

/** What a fold (automatic, or `/compact`) did. */
export interface Compacted {
  /** `shortened`: older results were shortened; `model` / `rules`: older turns were folded into a summary by the model or by rules. */
  method: 'shortened' | 'model' | 'rules';
  before: number;
  after: number;
}

/** Whether a tool's latest result outlives folds (its definition says `pinned`). The tools are
 * those already known: a pinned result exists only once its step ran. */
function pinnedTools(core: AgentCore): (tool: string) => boolean {
  const registry = core.deps.tools ?? core.runner?.tools;
  return (tool) => registry?.get(tool)?.pinned === true;
}

/**
 * Fold before the request that will carry `current`, when it is past the fold mark (`force`:
 * `/compact`, now). Null when there was nothing to fold.
 */
export async function foldNow(
  core: AgentCore,
  current: readonly ContextMessage[],
  force: boolean,
  signal?: AbortSignal,
): Promise<Compacted | null> {
  const context = core.context;
  const budgets = core.options.config.context;
  const pinned = pinnedTools(core);
  const pinnedTokens = [...latestPinned(context.messages, pinned).values()].reduce(
    (n, i) => n + messageTokens(context.messages[i]) + 40,
    0,
  );
  const plan = planFold({
    messages: context.messages,
    fixedTokens: estimateTokens(context.systemPrompt()) + 4 + messagesTokens(current),
    marks: foldMarks(budgets),
    pinned,
    headTokens: budgets.summaryMaxTokens + pinnedTokens,
    force,
  });
  if (!plan) return null;
  let fold: AppliedFold = { shortened: plan.shortened, folded: 0, head: [] };
  let method: Compacted['method'] = 'shortened';
  if (plan.folded) {
    const folded = applyFoldTo(context.messages, { shortened: plan.shortened, folded: 0 }, []).slice(0, plan.folded);
    const made = await summarize(core, folded, signal);
    const { message, summary } = context.summaryMessage(made.summary);
    method = made.method;
    fold = {
      shortened: plan.shortened,
      folded: plan.folded,
      head: [message, ...pinnedHead(context.messages, plan.folded, pinned)],
      summary,
    };
  }
  context.applyFold(fold);
  record(core, {
    t: 'fold',
    at: at(core),
    method,
    shortened: fold.shortened,
    folded: fold.folded,
    head: fold.head.map(({ role, kind, content, tool }) => ({
      role: role === 'system' ? 'system' : 'user',
      kind: kind === 'summary' ? 'summary' : 'pinned',
      content,
      ...(tool ? { tool } : {}),
    })),
    ...(fold.summary ? { summary: fold.summary } : {}),
  });
  const sizes = context.sizes();
  emit(core, { type: 'compaction', method, folded: fold.folded, before: plan.before, after: sizes.total, sizes });
  return { method, before: plan.before, after: sizes.total };
}

/** The summary of the folded messages (the previous summary among them): the model's, else the rules'. */
async function summarize(
  core: AgentCore,
  folded: readonly ContextMessage[],
  signal?: AbortSignal,
): Promise<{ summary: Summary; method: 'model' | 'rules' }> {
  const budgets = core.options.config.context;
  const previous = core.context.summary;
  // The previous summary is folded as a message too; its structured form goes first.
  const rest = folded.filter((m) => m.kind !== 'summary');
  const room = Math.max(300, Math.floor(budgets.maxRequestTokens * 0.95) - estimateTokens(SUMMARY_SYSTEM) - 100);
  const prevText = previous ? truncateHead(renderSummary(previous), budgets.summaryMaxTokens) + '\n\n' : '';
  const body = truncateTail(`${prevText}Conversation to fold in:\n${renderTranscript(rest)}`, room);
  const messages: ChatMessage[] = [
    { role: 'system', content: SUMMARY_SYSTEM },
    { role: 'user', content: body },
  ];
  const result = await call(core, messages, signal ?? new AbortController().signal, 'summary');
  if (result.ok) {
    addUsage(core, result.usage, zeroUsage(), result.model);
    const parsed = summarySchema().safeParse(result.data);
    if (parsed.success && parsed.data.summary.trim()) return { summary: parsed.data, method: 'model' };
  }
  return { summary: ruleBasedSummary(previous, rest, budgets.summaryMaxTokens), method: 'rules' };
}
