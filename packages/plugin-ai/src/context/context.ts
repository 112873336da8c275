/**
 * The conversation a model reads, laid out so its prefix cache can keep it (DESIGN §6,
 * docs/context.md): a system prompt fixed for the session, then the messages, append-only, each
 * stored once as it was sent. A request is the system prompt, the messages and the new input; the
 * next request extends it. Only a fold (fold.ts) changes what was sent, once, at its marks.
 */
import type { ContextBudgets } from '../config/config';
import type { Summary } from './protocol';
import { foldMarks, applyFoldTo, type FoldMarks } from './fold';
import { messagesTokens, wireOf, type ChatMessage, type ContextMessage, type Wire } from './messages';
import { capSummary, renderSummary } from './summary';
import { estimateTokens, truncateHead } from './tokens';

export type { ChatMessage } from './messages';

/** A message of the conversation (its former name). */
export type WindowMessage = ContextMessage;

/** Sizes in estimated tokens, for `/context` and tests. */
export interface ContextSizes {
  system: number;
  /** The summary and the results stated again after it (since the last fold with a summary). */
  summary: number;
  /** @deprecated always 0: the conversation has no digest of recent results. */
  digest: number;
  /** The conversation's messages after the summary. */
  window: number;
  windowMessages: number;
  total: number;
  budget: number;
  /** The marks a fold is held against (fold.ts), in tokens of a whole request. */
  marks: FoldMarks;
  /** Tokens the conversation may grow before the next fold. */
  nextFold: number;
  /** Folds so far in this session. */
  folds: number;
}

/** The conversation state `/rewind` goes back to (messages are never changed; the array is a copy). */
export interface ContextSnapshot {
  messages: ContextMessage[];
  summary: Summary | null;
  mode: string;
}

/** What one fold did, as the session file records it and replay applies it. */
export interface AppliedFold {
  /** Messages (by index before the fold) given their short form. */
  shortened: number[];
  /** Messages from the start replaced by `head`. */
  folded: number;
  /** The summary and the pinned results, as sent. */
  head: ContextMessage[];
  summary?: Summary;
}

/** The system prompts of a session: for the JSON protocol, and for native tool calls. */
export interface SystemPrompts {
  json: string;
  tools?: string;
}

export class ConversationContext {
  /** The messages after the system prompt, oldest first. */
  messages: ContextMessage[] = [];
  /** The latest summary a fold wrote (what `/compact` shows; the next fold starts from it). */
  summary: Summary | null = null;
  /** The run mode the model was last told (`{"_event":"mode"}`); told again only when it changes. */
  mode = 'default';
  /** The first request went out: the system prompt stays as it was for the rest of the session. */
  sealed = false;
  folds = 0;
  private prompts: SystemPrompts;
  /** The section of tools that joined before the session's first request (agent-extensions syncTools). */
  private joined?: string;

  private base: SystemPrompts;

  constructor(
    base: SystemPrompts | string,
    readonly budgets: ContextBudgets,
  ) {
    this.base = typeof base === 'string' ? { json: base } : { ...base };
    this.prompts = { ...this.base };
  }

  /** The prompts a new session starts from (the tools that joined not included). */
  basePrompts(): SystemPrompts {
    return { ...this.base };
  }

  /** New instructions (memory, skills changed): the prompts of the next session, and of this one while it has sent nothing. */
  rebase(prompts: SystemPrompts): void {
    this.base = { ...prompts };
    if (!this.sealed) {
      this.prompts = { ...this.base };
      this.setJoinedTools(this.joined);
    }
  }

  /** The system prompt a request of transport `wire` starts with. */
  systemPrompt(wire: Wire = 'json'): string {
    return (wire === 'tools' ? this.prompts.tools : undefined) ?? this.prompts.json;
  }

  /** The former reader of the JSON-protocol system prompt. */
  getSystemPrompt(): string {
    return this.prompts.json;
  }

  allPrompts(): SystemPrompts {
    return { ...this.prompts };
  }

  /** A section of tools that joined (MCP): part of the system prompt while nothing was sent; false once sealed (append it as a message instead). */
  setJoinedTools(section: string | undefined): boolean {
    if (this.sealed) return false;
    this.joined = section;
    const json = this.base.json;
    this.prompts = { ...this.prompts, json: section ? `${json}\n\n${section}` : json };
    return true;
  }

  /** The prompts a stored session was sent with (replay): they stay for the session. */
  restorePrompts(prompts: SystemPrompts): void {
    this.prompts = { ...prompts };
    this.sealed = true;
  }

  /** The first request goes out; true the first time (the prompts are then recorded). */
  seal(): boolean {
    if (this.sealed) return false;
    this.sealed = true;
    return true;
  }

  snapshot(): ContextSnapshot {
    return { messages: [...this.messages], summary: this.summary, mode: this.mode };
  }

  restore(snapshot: ContextSnapshot): void {
    this.messages = [...snapshot.messages];
    this.summary = snapshot.summary;
    this.mode = snapshot.mode;
  }

  /** Forget the conversation (`/clear`): a new session, whose system prompt is made anew. */
  clear(): void {
    this.messages = [];
    this.summary = null;
    this.mode = 'default';
    this.sealed = false;
    this.folds = 0;
    this.prompts = { ...this.base };
    this.setJoinedTools(this.joined);
  }

  append(messages: readonly ContextMessage[]): void {
    this.messages.push(...messages);
  }

  /** Apply a fold: its short forms, its summary and pinned results in place of the folded messages. */
  applyFold(fold: AppliedFold): void {
    this.messages = applyFoldTo(this.messages, fold, fold.head);
    if (fold.summary) this.summary = fold.summary;
    this.folds++;
  }

  /** The summary message a fold puts first: capped, rendered once. */
  summaryMessage(summary: Summary): { message: ContextMessage; summary: Summary } {
    const capped = capSummary(summary, this.budgets.summaryMaxTokens);
    return {
      message: { role: 'system', kind: 'summary', content: truncateHead(renderSummary(capped), this.budgets.summaryMaxTokens) },
      summary: capped,
    };
  }

  /** Estimated tokens of the request that would carry `current` next. */
  requestTokens(current: readonly ContextMessage[], wire: Wire = 'json'): number {
    return estimateTokens(this.systemPrompt(wire)) + 4 + tokensOf(this.messages) + tokensOf(current);
  }

  /**
   * One request: the system prompt, the conversation as sent, the new input, in the shape of
   * transport `wire`. Only a request past the whole budget even after a fold (a system prompt
   * or an input larger than the budget) is cut here: its input first, then the system prompt.
   */
  request(current: readonly ContextMessage[], wire: Wire = 'json'): ChatMessage[] {
    const messages = [...this.messages, ...current];
    const system = this.systemPrompt(wire);
    const out: ChatMessage[] = [{ role: 'system', content: system }, ...messages.map((m) => wireOf(m, wire))];
    const budget = foldMarks(this.budgets).budget;
    let over = estimateTokens(system) + 4 + tokensOf(messages) - budget;
    if (over <= 0) return out;
    for (let i = out.length - 1; i > out.length - 1 - current.length && over > 0; i--) {
      const cut = truncateHead(out[i].content, Math.max(10, estimateTokens(out[i].content) - over));
      over -= estimateTokens(out[i].content) - estimateTokens(cut);
      out[i] = { ...out[i], content: cut };
    }
    if (over > 0) out[0] = { role: 'system', content: truncateHead(system, Math.max(50, estimateTokens(system) - over)) };
    return out;
  }

  /** The minimal request used after a 404: system prompt + the new input. */
  buildMinimal(current: readonly ContextMessage[], wire: Wire = 'json'): ChatMessage[] {
    const per = Math.max(20, Math.floor(this.budgets.inputMaxTokens / Math.max(1, current.length)));
    return [
      { role: 'system', content: this.systemPrompt(wire) },
      ...current.map((m) => ({ ...wireOf(m, 'json'), content: truncateHead(m.content, per) })),
    ];
  }

  sizes(): ContextSizes {
    const marks = foldMarks(this.budgets);
    const system = estimateTokens(this.systemPrompt()) + 4;
    const head = this.messages.filter((m) => m.kind === 'summary' || m.kind === 'pinned');
    const summary = tokensOf(head);
    const window = tokensOf(this.messages) - summary;
    const total = system + summary + window;
    return {
      system,
      summary,
      digest: 0,
      window,
      windowMessages: this.messages.length - head.length,
      total,
      budget: this.budgets.maxRequestTokens,
      marks,
      nextFold: Math.max(0, marks.fold - total),
      folds: this.folds,
    };
  }
}

const tokensOf = messagesTokens;
