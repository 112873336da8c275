import { createHash } from 'crypto';
import type { AiConfig } from './config';
import { ConversationContext, fitToolResult, renderSummary, renderTranscript, ruleBasedSummary, type ChatMessage, type ContextSizes } from './context';
import type { AgentEvent, AgentListener, Outcome, TurnResult, UsageTotals } from './events';
import { t, type Lang } from './i18n';
import type { LlmClient, LlmResult, Usage } from './llm-base';
import { buildRepairRequest, SUMMARY_SYSTEM } from './prompt';
import { parseReply, SummarySchema, type Reply, type Step, type Summary } from './protocol';
import * as path from 'path';
import type { ConfirmAnswer, ConfirmFn, ConfirmRequest, StepRunner, ToolResult, UndoResult } from './runner-types';
import { appendAudit, newSessionId, type AuditEntry, type SessionInfo, type SessionRecord, type SessionStore } from './sessions';
import { MessageStreamDecoder } from './stream-message';
import { estimateMessagesTokens, estimateTokens, truncateHead, truncateTail } from './tokens';

/** A confirm answer may say who gave it, for the audit log (a flag, not a person). */
export type AgentConfirmAnswer = ConfirmAnswer & { approvedBy?: 'user' | 'flag' };
export type AgentConfirmFn = (request: ConfirmRequest) => Promise<AgentConfirmAnswer>;

/** Side effects come in here, so tests pass fakes (STYLE: deps object). */
export interface AgentDeps {
  /** The model (llm-base wrapped by createLlmClient, or a fake). */
  llm: LlmClient;
  /** Builds the step runner; called once, lazily, with the agent's confirm bridge. */
  createRunner: (confirm: ConfirmFn) => StepRunner;
  /** Asked for L1 steps. Without one every L1 step is declined. */
  confirm?: AgentConfirmFn;
  /** Where sessions are appended; none = nothing is written. */
  store?: SessionStore;
  /** Audit log file; none = no audit. */
  auditFile?: string;
  /** Clock, for session ids and record times. */
  now?: () => Date;
  random?: () => number;
}

export interface AgentOptions {
  config: AiConfig;
  systemPrompt: string;
  cwd: string;
  lang: Lang;
  mode?: 'low' | 'high';
  profile?: string | null;
  /** Overrides config.maxAutoStepsPerTurn. */
  maxAutoSteps?: number;
}

export interface SendOptions {
  signal?: AbortSignal;
}

type Pending =
  | { kind: 'user'; text: string }
  | { kind: 'event'; text: string }
  | { kind: 'tool'; result: ToolResult };

type Asked =
  | { ok: true; reply: Reply; raw: boolean; repaired: boolean }
  | { ok: false; code: string; message: string };

const zeroUsage = (): UsageTotals => ({ input_tokens: 0, output_tokens: 0, calls: 0 });

const declineAll: AgentConfirmFn = async () => ({ action: 'decline', reason: 'no confirm callback' });

/**
 * One conversation with the model: the protocol loop of DESIGN §4 over a bounded context
 * (DESIGN §6). Serves `ai -p`, `ai -i` and scripts alike. Never prints; reports events.
 */
export class Agent {
  private readonly listeners = new Set<AgentListener>();
  private readonly context: ConversationContext;
  private runner?: StepRunner;
  private readonly now: () => Date;
  private id: string;
  private started = false;
  private mode: 'low' | 'high';
  private profile: string | null;
  private maxAutoSteps: number;
  private total: UsageTotals = zeroUsage();
  private stepCounter = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly queue: Array<{ text: string }> = [];
  private steering: string[] = [];
  private running?: AbortController;
  private readonly answers = new Map<string, AgentConfirmAnswer>();
  private currentStepId?: string;
  /** File-journal position at the first step of the running turn. */
  private turnMark?: number;
  /** Positions of earlier turns that changed files, newest last (`/undo` pops one). */
  private readonly undoMarks: number[] = [];

  constructor(
    private readonly options: AgentOptions,
    private readonly deps: AgentDeps,
  ) {
    this.now = deps.now ?? (() => new Date());
    this.context = new ConversationContext(options.systemPrompt, options.config.context);
    this.mode = options.mode ?? options.config.defaultMode;
    this.profile = options.profile !== undefined ? options.profile : options.config.defaultProfile;
    this.maxAutoSteps = options.maxAutoSteps ?? options.config.maxAutoStepsPerTurn;
    this.id = newSessionId(this.now(), deps.random);
  }

  // ── events ────────────────────────────────────────────────────────────────────────

  /** Subscribe to events; returns the unsubscribe function. */
  on(listener: AgentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: AgentEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  // ── state the UI reads or switches ────────────────────────────────────────────────

  get sessionId(): string {
    return this.id;
  }
  get busy(): boolean {
    return this.running !== undefined;
  }
  getMode(): 'low' | 'high' {
    return this.mode;
  }
  setMode(mode: 'low' | 'high'): void {
    this.mode = mode;
  }
  getProfile(): string | null {
    return this.profile;
  }
  setProfile(profile: string | null): void {
    this.profile = profile;
  }
  getMaxAutoSteps(): number {
    return this.maxAutoSteps;
  }
  setMaxAutoSteps(n: number): void {
    this.maxAutoSteps = Math.max(1, Math.floor(n));
  }
  /** Token sizes of what the next request would carry. */
  contextSizes(): ContextSizes {
    return this.context.sizes();
  }
  /** Usage summed over every call of this agent (all sessions it served). */
  usage(): UsageTotals {
    return { ...this.total };
  }
  /** Usage totals with their price when `pricing` is configured in ai.json (`/cost`). */
  cost(): { usage: UsageTotals; amount?: number; currency?: string } {
    const usage = this.usage();
    const pricing = this.options.config.pricing;
    if (!pricing) return { usage };
    const amount = (usage.input_tokens * pricing.inputPerMillion + usage.output_tokens * pricing.outputPerMillion) / 1e6;
    return { usage, amount, currency: pricing.currency };
  }

  /** The current summary, if compaction happened. */
  summary(): Summary | null {
    return this.context.summary;
  }
  /** Texts waiting to be sent after the running turn. */
  queued(): string[] {
    return this.queue.map((item) => item.text);
  }

  // ── conversation ──────────────────────────────────────────────────────────────────

  /** Run one turn with the user's text. Turns are serialized: calling while busy queues it. */
  send(text: string, options: SendOptions = {}): Promise<TurnResult> {
    const item = { text };
    this.queue.push(item);
    const run = this.chain.then(() => {
      const index = this.queue.indexOf(item);
      if (index < 0) return this.cancelled();
      this.queue.splice(index, 1);
      return this.turn([{ kind: 'user', text }], text, options.signal);
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Let the model go on after a step-limit stop: sends `{"_event":"continue"}`. */
  continue(options: SendOptions = {}): Promise<TurnResult> {
    const run = this.chain.then(() =>
      this.turn([{ kind: 'event', text: JSON.stringify({ _event: 'continue' }) }], 'continue', options.signal),
    );
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Queue a message for after the running turn (same as send, without awaiting). */
  enqueue(text: string): void {
    void this.send(text);
  }

  /** Drop queued messages that have not started; their send() resolves as aborted. */
  clearQueue(): string[] {
    return this.queue.splice(0).map((item) => item.text);
  }

  private cancelled(): TurnResult {
    return { outcome: 'aborted', message: t(this.options.lang, 'aborted'), steps: 0, usage: zeroUsage(), sessionId: this.id };
  }

  /** Add a note the model sees with its next call in the running turn. Returns false (and
   * does nothing) when no turn is running: use send() then. */
  steer(text: string): boolean {
    if (!this.running) return false;
    this.steering.push(text);
    return true;
  }

  /** Abort the running turn (the same as aborting the signal given to send()). */
  abort(): void {
    this.running?.abort();
  }

  /** Start a new conversation (and a new session file); step allowances stay. */
  clear(): void {
    this.context.clear();
    this.id = newSessionId(this.now(), this.deps.random);
    this.started = false;
  }

  /** Fold the history into the summary now (`/compact`). */
  async compact(options: SendOptions = {}): Promise<{ method: 'model' | 'rules'; before: number; after: number } | null> {
    return this.compactNow(true, options.signal);
  }

  listSessions(): SessionInfo[] {
    return this.deps.store?.list() ?? [];
  }

  /** Load a stored session and continue it (appending to the same file). */
  resume(id: string): { skipped: number } {
    const store = this.deps.store;
    if (!store) throw new Error('no session store');
    const { records, skipped } = store.read(id);
    this.context.clear();
    for (const r of records) this.replay(r);
    this.id = id;
    this.started = records.some((r) => r.t === 'meta');
    return { skipped };
  }

  /** Resume the last session started in this agent's cwd; false when there is none. */
  resumeLast(): boolean {
    const last = this.deps.store?.lastFor(this.options.cwd);
    if (!last) return false;
    this.resume(last.id);
    return true;
  }

  private replay(r: SessionRecord): void {
    switch (r.t) {
      case 'meta':
        if (r.mode && this.options.mode === undefined) this.mode = r.mode;
        if (r.profile !== undefined && this.options.profile === undefined) this.profile = r.profile;
        return;
      case 'user':
        return this.context.restoreMessage({ role: 'user', kind: 'user', content: r.content });
      case 'event':
        return this.context.restoreMessage({ role: 'user', kind: 'event', content: r.content });
      case 'assistant':
        return this.context.restoreMessage({ role: 'assistant', kind: 'assistant', content: r.content });
      case 'tool': {
        // Step ids continue where the session left off, so they stay unique in its files.
        const m = /"id":"cmd_(\d+)"/.exec(r.content);
        if (m) this.stepCounter = Math.max(this.stepCounter, Number(m[1]));
        this.context.restoreMessage({ role: 'user', kind: 'tool', content: r.content });
        return this.context.restoreDigest(r.digest);
      }
      case 'summary':
        return this.context.applySummary(r.summary, r.folded);
      default:
        return;
    }
  }

  // ── persistence ───────────────────────────────────────────────────────────────────

  private at(): string {
    return this.now().toISOString();
  }

  private record(record: SessionRecord): void {
    const store = this.deps.store;
    if (!store) return;
    if (!this.started) {
      this.started = true;
      store.append(this.id, {
        t: 'meta',
        v: 1,
        id: this.id,
        cwd: this.options.cwd,
        createdAt: this.at(),
        mode: this.mode,
        profile: this.profile,
      });
    }
    store.append(this.id, record);
  }

  private log(code: string, message: string): void {
    this.emit({ type: 'log', code, message });
    this.record({ t: 'log', at: this.at(), code, message });
  }

  /** Move the current input into the window (and the session file). */
  private commit(pending: Pending[]): void {
    for (const p of pending) {
      if (p.kind === 'user') {
        this.context.addUser(p.text);
        this.record({ t: 'user', at: this.at(), content: this.context.window[this.context.window.length - 1].content });
      } else if (p.kind === 'event') {
        this.context.addEvent(p.text);
        this.record({ t: 'event', at: this.at(), content: p.text });
      } else {
        const stored = this.context.addToolResult(p.result);
        this.record({ t: 'tool', at: this.at(), content: stored.content, digest: stored.digest });
      }
    }
  }

  private toMessages(pending: Pending[]): ChatMessage[] {
    const per = Math.max(50, Math.floor(this.options.config.context.inputMaxTokens / Math.max(1, pending.length)) - 4);
    return pending.map((p) => ({
      role: 'user' as const,
      content: p.kind === 'tool' ? fitToolResult(p.result, per) : p.text,
    }));
  }

  // ── the loop ──────────────────────────────────────────────────────────────────────

  private async turn(first: Pending[], input: string, external?: AbortSignal): Promise<TurnResult> {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    if (external?.aborted) controller.abort();
    external?.addEventListener('abort', onAbort, { once: true });
    this.running = controller;
    this.steering = [];
    this.turnMark = undefined;
    const signal = controller.signal;
    const turnUsage = zeroUsage();
    let pending: Pending[] = first;
    let rounds = 0;
    let last: { reply?: Reply; raw?: boolean } = {};
    this.emit({ type: 'turn_start', input, sessionId: this.id });

    const finish = (outcome: Outcome, message: string, error?: { code: string; message: string }): TurnResult => {
      const result: TurnResult = {
        outcome,
        reply: last.reply,
        raw: last.raw,
        message,
        steps: rounds,
        usage: turnUsage,
        error,
        sessionId: this.id,
      };
      if (error) this.emit({ type: 'error', ...error });
      this.emit({ type: 'final', ...result });
      return result;
    };

    try {
      for (;;) {
        if (signal.aborted) {
          this.commit([...pending, interruptedEvent('step')]);
          return finish('aborted', t(this.options.lang, 'aborted'));
        }
        for (const note of this.steering.splice(0)) pending.push({ kind: 'user', text: note });
        if (this.context.needsCompaction()) await this.compactNow(false, signal);
        const asked = await this.ask(pending, signal, turnUsage);
        if (!asked.ok) {
          if (asked.code === 'ABORTED') {
            this.commit([...pending, interruptedEvent('model_call')]);
            return finish('aborted', t(this.options.lang, 'aborted'));
          }
          this.commit(pending);
          const message =
            asked.code === 'NO_PROFILE'
              ? t(this.options.lang, 'llmErrorNoProfile', { message: asked.message })
              : t(this.options.lang, 'llmError', { code: asked.code, message: asked.message });
          return finish('error', message, { code: asked.code, message: asked.message });
        }
        const reply = asked.reply;
        last = { reply, raw: asked.raw };
        this.commit(pending);
        this.context.addAssistant(reply);
        this.record({ t: 'assistant', at: this.at(), content: this.context.window[this.context.window.length - 1].content });
        this.emit({ type: 'reply', reply, raw: asked.raw, repaired: asked.repaired });

        if (reply.type === 'chat' && this.steering.length && !signal.aborted) {
          // The user steered while this reply was being written: the model answers the note too.
          pending = [];
          continue;
        }
        if (reply.type === 'chat') {
          const text = asked.raw ? `${t(this.options.lang, 'rawReply')} ${reply.message}` : reply.message;
          return finish('answered', text);
        }
        if (reply.type === 'error') {
          return finish('model_error', t(this.options.lang, 'modelError', { message: reply.message }));
        }
        if (rounds >= this.maxAutoSteps) {
          this.emit({ type: 'step_limit', steps: rounds });
          return finish('step_limit', t(this.options.lang, 'stepLimit', { n: rounds }));
        }
        rounds++;
        const results = await this.runSteps(reply, signal);
        pending = results.map((result) => ({ kind: 'tool' as const, result }));
      }
    } finally {
      external?.removeEventListener('abort', onAbort);
      this.running = undefined;
      this.rememberChanges();
    }
  }

  private getRunner(): StepRunner {
    this.runner ??= this.deps.createRunner((request) => this.confirmBridge(request));
    return this.runner;
  }

  private async confirmBridge(request: ConfirmRequest): Promise<ConfirmAnswer> {
    this.emit({ type: 'confirm', request });
    const answer = await (this.deps.confirm ?? declineAll)(request);
    this.answers.set(this.currentStepId ?? request.id, answer);
    this.emit({ type: 'confirm_answer', id: request.id, answer });
    return answer;
  }

  private nextStepId(): string {
    this.stepCounter++;
    return `cmd_${String(this.stepCounter).padStart(3, '0')}`;
  }

  /** Judge and run each step of a cmd reply. After a blocked or declined step the rest are
   * not run and are reported as declined, so the model can choose another way. */
  private async runSteps(reply: Extract<Reply, { type: 'cmd' }>, signal: AbortSignal): Promise<ToolResult[]> {
    const runner = this.getRunner();
    if (this.turnMark === undefined) this.turnMark = runner.mark?.();
    const results: ToolResult[] = [];
    let stopped: string | undefined;
    for (const raw of reply.data.commands) {
      const step: Step =
        (raw.tool === 'exec' || raw.tool === 'proc.start') && (raw.cwd === undefined || raw.cwd === null) && reply.data.cwd
          ? { ...raw, cwd: reply.data.cwd }
          : raw;
      const id = this.nextStepId();
      const decision = runner.judge(step);
      this.emit({ type: 'step', id, step, decision });
      // A steering note skips the rest of the plan: the model replans with the note.
      if (!stopped && this.steering.length) stopped = 'skipped: the user sent a steering message; replan with it';
      let result: ToolResult;
      if (stopped || signal.aborted) {
        result = {
          _event: 'tool_result',
          id,
          tool: step.tool,
          status: 'declined',
          reason: signal.aborted ? 'aborted by the user' : stopped,
          decision: { ...decision, by: 'policy' },
        };
      } else {
        this.currentStepId = id;
        try {
          result = await runner.run(step, {
            id,
            signal,
            onOutput: (chunk, stream) => this.emit({ type: 'output', id, chunk, stream }),
          });
        } finally {
          this.currentStepId = undefined;
        }
        if (result.status === 'blocked' || result.status === 'declined') {
          stopped = `not run: ${id} before it was ${result.status}`;
        }
      }
      this.emit({ type: 'tool_result', result });
      this.audit(id, step, result);
      results.push(result);
    }
    return results;
  }

  private audit(id: string, step: Step, result: ToolResult): void {
    if (!this.deps.auditFile) return;
    const answer = this.answers.get(id);
    this.answers.delete(id);
    let approvedBy: AuditEntry['approvedBy'] = 'none';
    if (result.status !== 'blocked' && result.status !== 'declined') {
      if (answer && answer.action !== 'decline') approvedBy = answer.approvedBy ?? 'user';
      else approvedBy = result.decision.by === 'user' ? 'user' : 'policy';
    }
    const outcome = result.status ?? (result.exitCode !== undefined ? `exit ${String(result.exitCode)}` : 'ran');
    appendAudit(this.deps.auditFile, {
      at: this.at(),
      sessionId: this.id,
      id,
      step: auditStep(step),
      level: result.decision.level,
      rules: result.decision.rules.map((r) => r.id),
      approvedBy,
      answer: answer?.action,
      outcome,
    });
  }

  // ── undo and the end of the session ──────────────────────────────────────────────

  private rememberChanges(): void {
    const mark = this.turnMark;
    this.turnMark = undefined;
    if (mark !== undefined && this.runner?.changes?.(mark).length) this.undoMarks.push(mark);
  }

  /** Files the last turn that changed files changed (what `/undo` would restore), as real paths. */
  undoableChanges(): string[] {
    const mark = this.undoMarks[this.undoMarks.length - 1];
    if (mark === undefined || !this.runner?.changes) return [];
    return [...new Set(this.runner.changes(mark).map((c) => c.path))];
  }

  /**
   * `/undo`: put back the files the last turn that changed files changed (fs.edit / fs.write in
   * the workspace), deleting the files it created; files changed since by someone else are left
   * alone and reported. The model learns it from a user-role event
   * `{"_event":"undo","restored":[...],"skipped":[...]}` with the next call. Null when there is
   * nothing to undo or a turn is running.
   */
  undo(): UndoResult | null {
    if (this.running || !this.runner?.undo) return null;
    const mark = this.undoMarks.pop();
    if (mark === undefined) return null;
    const result = this.runner.undo(mark);
    const rel = (p: string): string => {
      const r = path.relative(this.options.cwd, p);
      return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
    };
    const event = JSON.stringify({
      _event: 'undo',
      restored: result.restored.map((r) => ({ path: rel(r.path), action: r.action })),
      skipped: result.skipped.map((s) => ({ path: rel(s.path), reason: s.reason })),
    });
    this.commit([{ kind: 'event', text: event }]);
    return result;
  }

  /** End the session: background processes the model started are killed. Call on exit. */
  dispose(): void {
    this.runner?.dispose?.();
  }

  // ── model calls ───────────────────────────────────────────────────────────────────

  private addUsage(usage: Usage, turn: UsageTotals): void {
    for (const u of [turn, this.total]) {
      u.input_tokens += usage.input_tokens;
      u.output_tokens += usage.output_tokens;
      u.calls++;
    }
    this.record({ t: 'usage', at: this.at(), ...usage });
    this.emit({ type: 'usage', call: usage, turn: { ...turn }, total: { ...this.total } });
  }

  private async call(
    messages: ChatMessage[],
    signal: AbortSignal,
    purpose: 'reply' | 'repair' | 'summary',
    minimal = false,
  ): Promise<LlmResult> {
    this.emit({ type: 'request', messages: messages.length, tokens: estimateMessagesTokens(messages), minimal, purpose });
    const decoder = new MessageStreamDecoder();
    const onText =
      purpose === 'summary'
        ? undefined
        : (delta: string) => {
            this.emit({ type: 'text', delta });
            const message = decoder.push(delta);
            if (message !== undefined) this.emit({ type: 'message_delta', message });
          };
    // Summaries are routine work: always the low tier.
    const mode = purpose === 'summary' ? 'low' : this.mode;
    return this.deps.llm.chat(messages, { mode, profile: this.profile, signal, onText });
  }

  /** One validated reply: 404 → one retry with a minimal context; invalid → one repair
   * request quoting the error; still invalid → the raw text as chat, marked raw. */
  private async ask(pending: Pending[], signal: AbortSignal, turn: UsageTotals): Promise<Asked> {
    const current = this.toMessages(pending);
    let messages = this.context.build(current);
    let result = await this.call(messages, signal, 'reply');
    if (!result.ok && result.notFound && !signal.aborted) {
      this.log('fallback_404', t(this.options.lang, 'fallback404'));
      messages = this.context.buildMinimal(current);
      result = await this.call(messages, signal, 'reply', true);
    }
    if (!result.ok) return { ok: false, code: result.code, message: result.message };
    this.addUsage(result.usage, turn);
    const first = parseReply(result.data);
    if (first.success) return { ok: true, reply: first.reply, raw: false, repaired: false };

    this.emit({ type: 'repair', error: first.error });
    const quoted = truncateHead(first.raw, 300);
    const repairInput: ChatMessage[] = [
      ...current,
      { role: 'assistant', content: quoted },
      { role: 'user', content: buildRepairRequest(first.error) },
    ];
    const repairMessages = this.context.build(repairInput);
    const second = await this.call(repairMessages, signal, 'repair');
    let raw = first.raw;
    if (second.ok) {
      this.addUsage(second.usage, turn);
      const parsed = parseReply(second.data);
      if (parsed.success) return { ok: true, reply: parsed.reply, raw: false, repaired: true };
      raw = parsed.raw;
    } else if (second.code === 'ABORTED') {
      return { ok: false, code: second.code, message: second.message };
    }
    return { ok: true, reply: { type: 'chat', message: raw }, raw: true, repaired: false };
  }

  /** Fold old turns into the summary: one model call, rule-based when it fails. */
  private async compactNow(
    force: boolean,
    signal?: AbortSignal,
  ): Promise<{ method: 'model' | 'rules'; before: number; after: number } | null> {
    const folded = this.context.foldCandidates(force);
    if (!folded.length) return null;
    const budgets = this.options.config.context;
    const before = this.context.sizes().total;
    const previous = this.context.summary;
    const room = Math.max(300, Math.floor(budgets.maxRequestTokens * 0.95) - estimateTokens(SUMMARY_SYSTEM) - 100);
    const prevText = previous ? truncateHead(renderSummary(previous), budgets.summaryMaxTokens) + '\n\n' : '';
    const body = truncateTail(`${prevText}Conversation to fold in:\n${renderTranscript(folded)}`, room);
    const messages: ChatMessage[] = [
      { role: 'system', content: SUMMARY_SYSTEM },
      { role: 'user', content: body },
    ];
    let summary: Summary | undefined;
    const result = await this.call(messages, signal ?? new AbortController().signal, 'summary');
    if (result.ok) {
      this.addUsage(result.usage, zeroUsage());
      const parsed = SummarySchema.safeParse(result.data);
      if (parsed.success && parsed.data.summary.trim()) summary = parsed.data;
    }
    const method: 'model' | 'rules' = summary ? 'model' : 'rules';
    if (!summary) summary = ruleBasedSummary(previous, folded, budgets.summaryMaxTokens);
    this.context.applySummary(summary, folded.length);
    this.record({ t: 'summary', at: this.at(), summary: this.context.summary!, folded: folded.length, method });
    const sizes = this.context.sizes();
    this.emit({ type: 'compaction', method, folded: folded.length, before, after: sizes.total, sizes });
    return { method, before, after: sizes.total };
  }
}

/** File contents never enter the audit log: fs.write content and fs.edit strings are kept as
 * their length and a hash, enough to tell two runs apart. */
function auditStep(step: Step): Step {
  const out: Record<string, unknown> = { ...step };
  for (const key of ['content', 'old_string', 'new_string']) {
    const v = out[key];
    if (typeof v === 'string') out[key] = { chars: v.length, sha256: createHash('sha256').update(v).digest('hex') };
  }
  return out as Step;
}

/** What the model is told when the user stopped the turn with Ctrl-C: what was produced so
 * far is kept (the tool results before it, with `aborted` on a killed command). */
function interruptedEvent(during: 'step' | 'model_call'): Pending {
  return { kind: 'event', text: JSON.stringify({ _event: 'interrupted', by: 'user', during }) };
}
