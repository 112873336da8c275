/**
 * Folding the conversation in steps (DESIGN §6, docs/context.md). A request's estimate is held
 * against marks of the request budget: past the fold mark, the older long messages (tool results,
 * long replies, pasted text) are shortened in one step; if the conversation is then still past the
 * summary mark, the older turns are folded into a summary, down to the target. Either way the
 * next fold is many steps away, and the prefix a model's cache holds breaks once per fold, never
 * per step. Pure: the plan says what to do; the agent asks for the summary and applies it.
 *
 * Some state must survive every fold: a tool whose definition says `pinned` (a plan) has its latest
 * result stated again right after the summary whenever the fold would take it away.
 */
import type { ContextBudgets } from '../config/config';
import { messageTokens, shortened, type ContextMessage } from './messages';

/** The marks, in estimated tokens of a whole request. */
export interface FoldMarks {
  /** What a request may take (95% of `maxRequestTokens`: the rest is left for what llm-base and the JSON encoding add). */
  budget: number;
  /** Past it, a fold happens before the request. */
  fold: number;
  /** A fold that shortened results and is still past this folds older turns into the summary too. */
  summarize: number;
  /** Where a fold with a summary brings the request. */
  target: number;
}

export function foldMarks(b: ContextBudgets): FoldMarks {
  const budget = Math.floor(b.maxRequestTokens * 0.95);
  const at = (percent: number) => Math.floor((budget * percent) / 100);
  return { budget, fold: at(b.foldAtPercent), summarize: at(b.summarizeAbovePercent), target: at(b.foldToPercent) };
}

/** What a fold does. */
export interface FoldPlan {
  /** Messages (by index) given their short form. */
  shortened: number[];
  /** How many messages from the start go into the summary (0: none, only shortening). */
  folded: number;
  /** The request's estimate before and, without the summary's own size, after. */
  before: number;
  after: number;
}

export interface FoldInput {
  messages: readonly ContextMessage[];
  /** Tokens of what is sent besides the messages: the system prompt, and the input of the next request. */
  fixedTokens: number;
  marks: FoldMarks;
  /** Whether a tool's latest result must outlive folds. */
  pinned: (tool: string) => boolean;
  /** What the summary and the pinned results will take after a fold with a summary. */
  headTokens: number;
  /** `/compact`: fold now, everything but the last two messages. */
  force?: boolean;
}

/** The latest message of each pinned tool, by index. */
export function latestPinned(messages: readonly ContextMessage[], pinned: (tool: string) => boolean): Map<string, number> {
  const latest = new Map<string, number>();
  messages.forEach((m, i) => {
    if (m.tool && (m.kind === 'tool' || m.kind === 'pinned') && pinned(m.tool)) latest.set(m.tool, i);
  });
  return latest;
}

/** Where a fold may cut: a message that starts a turn or a reply (never a result, whose call would be gone). */
function cutsAt(messages: readonly ContextMessage[], i: number): boolean {
  const m = messages[i];
  return m.kind === 'user' || m.kind === 'assistant' || m.kind === 'event';
}

/** The plan of a fold before the next request, or undefined when the request stays under the fold mark. */
export function planFold(input: FoldInput): FoldPlan | undefined {
  const { messages, fixedTokens, marks, force } = input;
  const full = messages.map(messageTokens);
  const before = fixedTokens + full.reduce((a, b) => a + b, 0);
  if (!force && before <= marks.fold) return undefined;
  // The current task (the last message the user wrote) and the latest pinned results stay whole.
  const keep = new Set<number>(latestPinned(messages, input.pinned).values());
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].kind === 'user') {
      keep.add(i);
      break;
    }
  }
  const short = messages.map((_, i) => i).filter((i) => messages[i].short !== undefined && !keep.has(i));
  const shortSet = new Set(short);
  const cost = messages.map((m, i) => (shortSet.has(i) ? messageTokens(shortened(m)) : full[i]));
  const after = fixedTokens + cost.reduce((a, b) => a + b, 0);
  if (!force && after <= marks.summarize) return { shortened: short, folded: 0, before, after };
  const folded = foldPoint(messages, cost, input, force === true);
  if (!folded) return short.length ? { shortened: short, folded: 0, before, after } : undefined;
  return { shortened: short, folded, before, after: fixedTokens + input.headTokens + cost.slice(folded).reduce((a, b) => a + b, 0) };
}

/** How many messages to fold: the fewest, at a cut point, that bring the request to the target (`/compact`: all but the last two). */
function foldPoint(messages: readonly ContextMessage[], cost: readonly number[], input: FoldInput, force: boolean): number {
  const last = messages.length - (force ? 2 : 1);
  let kept = cost.reduce((a, b) => a + b, 0);
  let best = 0;
  for (let i = 0; i < last; i++) {
    kept -= cost[i];
    if (!cutsAt(messages, i + 1)) continue;
    best = i + 1;
    if (!force && input.fixedTokens + input.headTokens + kept <= input.marks.target) return best;
  }
  return best;
}

/** The messages after a fold: the short forms in place, the folded ones replaced by `head` (the summary, the pinned results). */
export function applyFoldTo(
  messages: readonly ContextMessage[],
  plan: Pick<FoldPlan, 'shortened' | 'folded'>,
  head: readonly ContextMessage[],
): ContextMessage[] {
  const short = new Set(plan.shortened);
  const after = messages.map((m, i) => (short.has(i) ? shortened(m) : m));
  return plan.folded || head.length ? [...head, ...after.slice(plan.folded)] : after;
}

/**
 * What a fold with a summary must state again after it: the latest result of each pinned tool
 * that the fold takes away, as it was (a result stated again by an earlier fold, as it is).
 */
export function pinnedHead(messages: readonly ContextMessage[], folded: number, pinned: (tool: string) => boolean): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const [tool, i] of latestPinned(messages, pinned)) {
    if (i >= folded) continue;
    const m = messages[i];
    if (m.kind === 'pinned') {
      out.push(m);
      continue;
    }
    let result: unknown = m.content;
    try {
      result = JSON.parse(m.content);
    } catch {
      // a result cut to its budget: stated as the text it is
    }
    const content = JSON.stringify({ _event: 'pinned', tool, note: `The latest result of ${tool}, kept through the summary.`, result });
    out.push({ role: 'user', kind: 'pinned', content, tool });
  }
  return out;
}
