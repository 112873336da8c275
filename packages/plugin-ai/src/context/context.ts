import { parseJsonObject } from '@holic512/shared/lib/json-object';
import type { ContextBudgets } from '../config/config';
import type { ImageAttachment } from './images';
import type { Reply, Summary } from './protocol';
import { describeStep } from '../agent/step-label';
import type { ToolResult } from '../agent/runner-types';
import { stepOutcome } from '../agent/step-outcome';
import { estimateMessagesTokens, estimateTokens, truncateHead, truncateTail } from './tokens';

/** One chat message as llm-base takes it. `images` go with a user message as content parts
 * (agent-model `call`); they count in the budget and fold out of the window with their message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  images?: ImageAttachment[];
}

/** A stored message of the recent window. `kind` tells how it was compacted. */
export interface WindowMessage extends ChatMessage {
  role: 'user' | 'assistant';
  kind: 'user' | 'assistant' | 'tool' | 'event';
}

/** Sizes in estimated tokens, for `/context` and tests. */
export interface ContextSizes {
  system: number;
  summary: number;
  digest: number;
  window: number;
  windowMessages: number;
  total: number;
  budget: number;
}

/**
 * Assistant turns are stored compactly: type + message + the steps it asked for (DESIGN §6),
 * stored when the reply comes, before they run: what happened to each (`ran`, `declined`,
 * `blocked_by_hook`, `refused`, …: step-outcome.ts) is its tool result's `outcome`, the same in
 * the window the model reads and in the session file. Sessions written before said `ran`.
 */
export function compactAssistant(reply: Reply, maxTokens: number): string {
  const message = truncateHead(reply.message, maxTokens);
  if (reply.type === 'cmd') {
    return JSON.stringify({ type: 'cmd', message, asked: reply.data.commands.map((step) => describeStep(step)) });
  }
  return JSON.stringify({ type: reply.type, message });
}

function stepLabel(result: ToolResult): string {
  if (result.program) return [result.program, ...(result.args ?? [])].join(' ');
  if (typeof result.plugin === 'string') return `plugin ${result.plugin}`;
  if (result.file) return `json_patch ${result.file}`;
  // fs.glob / fs.grep: what was looked for, then where.
  if (typeof result.pattern === 'string') return `${result.tool} ${result.pattern}${typeof result.path === 'string' ? ` in ${result.path}` : ''}`;
  if (typeof result.path === 'string') return `${result.tool} ${result.path}`;
  if (typeof result.url === 'string') return `${result.tool} ${result.url}`;
  if (typeof result.query === 'string') return `${result.tool} ${result.query}`;
  if (typeof result.proc_id === 'string') return `${result.tool} ${result.proc_id}`;
  return result.tool;
}

/** The short form of a tool result kept in the recent window. */
export function compactToolResult(result: ToolResult, maxTokens = 80): string {
  const out: Record<string, unknown> = { _event: 'tool_result', id: result.id, step: truncateHead(stepLabel(result), 40) };
  if (result.status) out.status = result.status;
  out.outcome = stepOutcome(result);
  if (result.exitCode !== undefined) out.exitCode = result.exitCode;
  out.level = result.decision?.level;
  const tail = result.stdoutTail || result.stderrTail || result.summary || '';
  if (tail) out.out = truncateTail(String(tail), maxTokens);
  return JSON.stringify(out);
}

/**
 * fs.read content cut to whole numbered lines within `maxTokens`, with `endLine`, `nextOffset`
 * and the note saying where to read on, so the model never skips the lines that did not fit.
 */
function fitFileLines(result: ToolResult, maxTokens: number): Record<string, unknown> {
  const lines = String(result.content).split('\n');
  const kept: string[] = [];
  let cost = 0;
  for (const line of lines) {
    const c = estimateTokens(line) + 1;
    if (kept.length && cost + c > maxTokens) break;
    kept.push(cost + c > maxTokens ? truncateHead(line, maxTokens) : line);
    cost += c;
  }
  if (kept.length === lines.length) return {};
  const last = /^\s*(\d+)\t/.exec(kept[kept.length - 1] ?? '');
  const endLine = last ? Number(last[1]) : Number(result.endLine ?? 0);
  return {
    content: kept.join('\n'),
    endLine,
    nextOffset: endLine + 1,
    truncated: true,
    note: `showing lines ${String(result.startLine)}–${endLine} of ${String(result.totalLines)} (context budget); read on with "offset": ${endLine + 1}, or a smaller "limit"`,
  };
}

/** The leading items of a list whose JSON fits `maxTokens` (at least one, itself cut when it is alone too large). */
function fitList(list: unknown[], maxTokens: number): unknown[] {
  const kept: unknown[] = [];
  let cost = 0;
  for (const item of list) {
    const c = estimateTokens(JSON.stringify(item)) + 1;
    if (cost + c > maxTokens) {
      if (!kept.length) kept.push(typeof item === 'string' ? truncateHead(item, maxTokens) : truncateHead(JSON.stringify(item), maxTokens));
      break;
    }
    kept.push(item);
    cost += c;
  }
  return kept;
}

/** A tool result as JSON within `maxTokens`: tails and parsed structure are shortened first,
 * so the result stays valid JSON whenever possible. */
export function fitToolResult(result: ToolResult, maxTokens: number): string {
  // Every character costs at least a quarter token, in its JSON too: a result whose strings alone
  // are over the budget is cut without being serialised and estimated whole first (64 KiB tails:
  // 0.15–0.25 ms a call, and a step's result is fitted for the window and for the request).
  if (stringChars(result) / 4 <= maxTokens) {
    const full = JSON.stringify(result);
    if (estimateTokens(full) <= maxTokens) return full;
  }
  for (let share = Math.floor(maxTokens / 3); share >= 8; share = Math.floor(share / 2)) {
    const copy: Record<string, unknown> = { ...result };
    for (const key of ['stdoutTail', 'stderrTail', 'lastOutput'] as const) {
      if (typeof copy[key] === 'string') copy[key] = truncateTail(copy[key] as string, share);
    }
    // Page text and snippets: the beginning matters.
    // Numbered file lines (a result with totalLines) are cut on whole lines instead.
    const fileLines = typeof result.totalLines === 'number';
    for (const key of ['snippet', ...(fileLines ? [] : ['content'])]) {
      if (typeof copy[key] === 'string') copy[key] = truncateHead(copy[key] as string, share);
    }
    if (fileLines && typeof copy.content === 'string') Object.assign(copy, fitFileLines(result, share));
    // Lists of results (fs.grep matches, fs.glob files, web.search results): whole items from the start.
    for (const key of ['matches', 'files', 'results']) {
      const list = copy[key];
      if (!Array.isArray(list)) continue;
      const kept = fitList(list, share);
      if (kept.length < list.length) {
        copy[key] = kept;
        copy.note = `${kept.length} of ${list.length} ${key} shown (context budget)${typeof copy.note === 'string' ? `; ${copy.note}` : ''}`;
      }
    }
    if (copy.parsed !== undefined) {
      const parsed = JSON.stringify(copy.parsed);
      if (estimateTokens(parsed) > share) copy.parsed = truncateHead(parsed, share);
    }
    if (copy.changes !== undefined) {
      const changes = JSON.stringify(copy.changes);
      if (estimateTokens(changes) > share) copy.changes = truncateHead(changes, share);
    }
    if (copy.decision && estimateTokens(JSON.stringify(copy.decision)) > share) {
      const d = result.decision;
      copy.decision = { level: d.level, by: d.by, rules: d.rules.map((r) => r.id) };
    }
    copy.truncated = true;
    const text = JSON.stringify(copy);
    if (estimateTokens(text) <= maxTokens) return text;
  }
  return truncateHead(compactToolResult(result), maxTokens);
}

/** The characters of a result's own string fields (a lower bound of its JSON's length). */
function stringChars(result: ToolResult): number {
  let n = 0;
  for (const v of Object.values(result)) if (typeof v === 'string') n += v.length;
  return n;
}

/** Summary as the system message the model sees. */
export function renderSummary(summary: Summary): string {
  const parts = [`Conversation summary so far:\n${summary.summary}`];
  if (summary.keyFacts.length) parts.push(`Key facts:\n- ${summary.keyFacts.join('\n- ')}`);
  if (summary.openTasks.length) parts.push(`Open tasks:\n- ${summary.openTasks.join('\n- ')}`);
  return parts.join('\n');
}

/** Messages as plain text, for the summary request and the rule-based fallback. */
export function renderTranscript(messages: WindowMessage[]): string {
  return messages.map((m) => `${m.kind}: ${m.content}`).join('\n');
}

/** Rule-based compaction, used when the summary call fails: keep the previous summary and
 * append one short line per folded message, then cap (the newest lines survive). */
export function ruleBasedSummary(previous: Summary | null, folded: WindowMessage[], maxTokens: number): Summary {
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

/**
 * The conversation state that is sent to the model, kept the same size however long the
 * session runs (DESIGN §6): system prompt; summary (capped); tool digest (last N results,
 * truncated); recent window (capped); the current input.
 */
/** The conversation state `/rewind` goes back to (messages are immutable; the arrays are copies). */
export interface ContextSnapshot {
  summary: Summary | null;
  window: WindowMessage[];
  digest: string[];
}

export class ConversationContext {
  summary: Summary | null = null;
  window: WindowMessage[] = [];
  digest: string[] = [];

  constructor(
    private systemPrompt: string,
    readonly budgets: ContextBudgets,
  ) {}

  setSystemPrompt(text: string): void {
    this.systemPrompt = text;
  }

  getSystemPrompt(): string {
    return this.systemPrompt;
  }

  snapshot(): ContextSnapshot {
    return { summary: this.summary, window: [...this.window], digest: [...this.digest] };
  }

  restore(snapshot: ContextSnapshot): void {
    this.summary = snapshot.summary;
    this.window = [...snapshot.window];
    this.digest = [...snapshot.digest];
  }

  /** Forget everything but the system prompt (`/clear`). */
  clear(): void {
    this.summary = null;
    this.window = [];
    this.digest = [];
  }

  /** The user's text as stored in the window: at most a third of the window, so one pasted
   * file does not force a fold on every turn (it was sent in full as the current input). */
  addUser(text: string, images?: ImageAttachment[]): void {
    const cap = Math.min(this.budgets.inputMaxTokens, Math.floor(this.budgets.recentWindowMaxTokens / 3));
    this.window.push({ role: 'user', kind: 'user', content: truncateHead(text, cap), ...(images?.length ? { images } : {}) });
  }

  /** A runner event such as `{"_event":"continue"}`. */
  addEvent(text: string): void {
    this.window.push({ role: 'user', kind: 'event', content: truncateHead(text, 100) });
  }

  addAssistant(reply: Reply): void {
    this.window.push({
      role: 'assistant',
      kind: 'assistant',
      content: compactAssistant(reply, Math.floor(this.budgets.recentWindowMaxTokens / 6)),
    });
  }

  /** A tool result: compact in the window, fuller in the digest. Returns both forms. */
  addToolResult(result: ToolResult): { content: string; digest: string } {
    const content = compactToolResult(result);
    this.window.push({ role: 'user', kind: 'tool', content });
    const count = this.budgets.toolDigestCount;
    const per = Math.floor(this.budgets.toolDigestMaxTokens / Math.max(1, count)) - 4;
    const digest = fitToolResult(result, Math.max(20, per));
    if (count > 0) {
      this.digest.push(digest);
      if (this.digest.length > count) this.digest.splice(0, this.digest.length - count);
    }
    return { content, digest };
  }

  /** A stored message, as replayed from a session file. */
  restoreMessage(message: WindowMessage): void {
    this.window.push(message);
  }

  restoreDigest(entry: string): void {
    const count = this.budgets.toolDigestCount;
    if (count === 0) return;
    this.digest.push(truncateHead(entry, Math.floor(this.budgets.toolDigestMaxTokens / count) - 4));
    if (this.digest.length > count) this.digest.splice(0, this.digest.length - count);
  }

  windowTokens(): number {
    return estimateMessagesTokens(this.window);
  }

  /** True when the recent window passed its cap and older turns should be folded. */
  needsCompaction(): boolean {
    return (
      this.window.length > this.budgets.recentWindowMaxMessages ||
      this.windowTokens() > this.budgets.recentWindowMaxTokens
    );
  }

  /** The oldest messages to fold so the window drops to about half its caps (`force` folds
   * all but the last two messages, for `/compact`). Does not change the window. */
  foldCandidates(force = false): WindowMessage[] {
    const keep = 2;
    if (this.window.length <= keep) return [];
    if (force) return this.window.slice(0, this.window.length - keep);
    const targetTokens = this.budgets.recentWindowMaxTokens / 2;
    const targetCount = Math.floor(this.budgets.recentWindowMaxMessages / 2);
    let tokens = this.windowTokens();
    let count = this.window.length;
    let n = 0;
    while (count - n > keep && (tokens > targetTokens || count - n > targetCount)) {
      tokens -= estimateMessagesTokens([this.window[n]]);
      n++;
    }
    return this.window.slice(0, n);
  }

  /** Replace the folded oldest messages by the new summary. */
  applySummary(summary: Summary, foldedCount: number): void {
    this.summary = capSummary(summary, this.budgets.summaryMaxTokens);
    this.window.splice(0, foldedCount);
  }

  private fixedMessages(): ChatMessage[] {
    const out: ChatMessage[] = [{ role: 'system', content: this.systemPrompt }];
    if (this.summary) {
      out.push({ role: 'system', content: truncateHead(renderSummary(this.summary), this.budgets.summaryMaxTokens) });
    }
    if (this.digest.length) {
      out.push({
        role: 'system',
        content: truncateHead(`Recent tool results (newest last):\n${this.digest.join('\n')}`, this.budgets.toolDigestMaxTokens),
      });
    }
    return out;
  }

  /**
   * Assemble one request. Guarantees the estimate stays within `maxRequestTokens`: the
   * oldest window messages are left out first, then the current input is shortened.
   */
  build(current: ChatMessage[]): ChatMessage[] {
    // 5% is kept back for what is added on the way (llm-base's own system message, JSON
    // escaping, role fields), so the request on the wire stays under the budget too.
    const max = Math.floor(this.budgets.maxRequestTokens * 0.95);
    const fixed = this.fixedMessages();
    const fixedTokens = estimateMessagesTokens(fixed);
    const costs = this.window.map((m) => estimateMessagesTokens([m]));
    let windowTokens = costs.reduce((a, b) => a + b, 0);
    // The current input gets its cap, or more when the request has room to spare (a piped
    // diff on a fresh session may use what the empty window and summary leave free).
    const spare = max - fixedTokens - windowTokens - 8 * current.length;
    const perInput = Math.max(20, Math.floor(Math.max(this.budgets.inputMaxTokens, spare) / Math.max(1, current.length)));
    let input = current.map((m) => ({ ...m, content: truncateHead(m.content, perInput) }));
    let start = 0;
    const inputTokens = estimateMessagesTokens(input);
    while (fixedTokens + windowTokens + inputTokens > max && start < costs.length) windowTokens -= costs[start++];
    const window: ChatMessage[] = this.window.slice(start).map(({ role, content, images }) => ({ role, content, ...(images ? { images } : {}) }));
    const total = () => estimateMessagesTokens(fixed) + windowTokens + estimateMessagesTokens(input);
    if (total() > max) {
      const room = Math.max(20, max - estimateMessagesTokens(fixed) - 8 * input.length);
      const each = Math.max(10, Math.floor(room / Math.max(1, input.length)) - 4);
      input = input.map((m) => ({ ...m, content: truncateHead(m.content, each) }));
    }
    if (total() > max) {
      // Only an oversized system prompt gets here (a huge AGENTS.md cap): shorten it last.
      const rest = total() - estimateTokens(fixed[0].content);
      fixed.splice(1);
      fixed[0] = { role: 'system', content: truncateHead(this.systemPrompt, Math.max(50, max - rest)) };
    }
    return [...fixed, ...window, ...input];
  }

  /** The minimal request used after a 404: system prompt + the current input. */
  buildMinimal(current: ChatMessage[]): ChatMessage[] {
    const perInput = Math.max(20, Math.floor(this.budgets.inputMaxTokens / Math.max(1, current.length)));
    return [
      { role: 'system', content: this.systemPrompt },
      ...current.map((m) => ({ ...m, content: truncateHead(m.content, perInput) })),
    ];
  }

  sizes(): ContextSizes {
    const fixed = this.fixedMessages();
    const system = estimateMessagesTokens([fixed[0]]);
    const summary = this.summary ? estimateMessagesTokens([{ content: renderSummary(this.summary) }]) : 0;
    const digest = this.digest.length ? estimateMessagesTokens([fixed[fixed.length - 1]]) : 0;
    const window = this.windowTokens();
    return {
      system,
      summary,
      digest,
      window,
      windowMessages: this.window.length,
      total: system + summary + digest + window,
      budget: this.budgets.maxRequestTokens,
    };
  }
}
