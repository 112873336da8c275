import { commitPending, flushAllWrites, flushWrites } from './agent-session';
import { noteChangedInstructions, resumeSession } from './agent-replay';
import { foldNow, type Compacted } from './agent-fold';
import { sumUsage } from './agent-model';
import type { RewindOptions, RewindResult } from './agent-rewind';
import { getRunner } from './agent-approvals';
import { runUserStep } from './agent-steps';
import { runTurn } from './agent-turn';
import { zeroUsage, type AgentCore, type AgentDeps, type AgentOptions, type SendOptions } from './agent-core';
import { ConversationContext, type ContextSizes } from '../context/context';
import type { AgentListener, TurnResult, UsageTotals } from './events';
import { t } from '../i18n';
import type { Step, Summary } from '../context/protocol';
import type { ProcInfo, RunMode, ToolResult, UndoResult, Verdict } from './runner-types';
import { newSessionId, type SessionInfo, type SessionRecord } from '../sessions/sessions';
import { latestPlan, restorePlan } from './plan-state';
import { rewind, undoLastChanges } from './agent-rewind';
import type { PlanItem } from '@holic512/tool-runner';

export type { AgentConfirmAnswer, AgentConfirmFn, AgentDeps, AgentOptions, SendOptions } from './agent-core';

/**
 * One conversation with the model: the protocol loop of DESIGN §4 over a bounded context
 * (DESIGN §6). Serves `ai -p`, `ai -i` and scripts alike. Never prints; reports events.
 * The work is done in agent-turn (turn loop), agent-approvals (confirm bridge, audit),
 * agent-model (requests, repair, compaction) and agent-session (session file); this class
 * owns their shared state and is the public face.
 */
export class Agent {
  private readonly core: AgentCore;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly queue: Array<{ text: string }> = [];

  constructor(options: AgentOptions, deps: AgentDeps) {
    const now = deps.now ?? (() => new Date());
    this.core = {
      options,
      deps,
      now,
      context: new ConversationContext(
        { json: options.systemPrompt, ...(options.toolsSystemPrompt ? { tools: options.toolsSystemPrompt } : {}) },
        options.config.context,
      ),
      listeners: new Set(),
      undoMarks: [],
      checkpoints: [],
      unwritable: new Set(),
      pendingWrites: [],
      notes: [],
      id: newSessionId(now(), deps.random),
      started: false,
      mode: options.mode ?? options.config.defaultMode,
      runMode: 'default',
      profile: options.profile !== undefined ? options.profile : options.config.defaultProfile,
      maxAutoSteps: options.maxAutoSteps ?? options.config.maxAutoStepsPerTurn,
      total: zeroUsage(),
      stepCounter: 0,
    };
  }

  // ── events ────────────────────────────────────────────────────────────────────────

  /** Subscribe to events; returns the unsubscribe function. */
  on(listener: AgentListener): () => void {
    this.core.listeners.add(listener);
    return () => this.core.listeners.delete(listener);
  }

  // ── state the UI reads or switches ────────────────────────────────────────────────

  get sessionId(): string {
    return this.core.id;
  }
  get busy(): boolean {
    return this.core.turn !== undefined;
  }
  getMode(): 'low' | 'high' {
    return this.core.mode;
  }
  setMode(mode: 'low' | 'high'): void {
    this.core.mode = mode;
  }
  /** How much runs without a question: plan, default, auto-edit, yolo. */
  getRunMode(): RunMode {
    return this.core.runMode;
  }
  /**
   * Switch the run mode. `yolo` needs the OS sandbox: refused with why when command steps would
   * run without it (the runner is built now to know). A runner without modes keeps `default`.
   */
  setRunMode(mode: RunMode): { ok: true } | { ok: false; reason: string } {
    const runner = getRunner(this.core);
    if (!runner.setMode) return mode === 'default' ? { ok: true } : { ok: false, reason: t(this.core.options.lang, 'modesUnsupported') };
    const r = runner.setMode(mode);
    if (r.ok) this.core.runMode = mode;
    return r;
  }
  getProfile(): string | null {
    return this.core.profile;
  }
  setProfile(profile: string | null): void {
    this.core.profile = profile;
  }
  getMaxAutoSteps(): number {
    return this.core.maxAutoSteps;
  }
  setMaxAutoSteps(n: number): void {
    this.core.maxAutoSteps = Math.max(1, Math.floor(n));
  }
  /** Token sizes of what the next request would carry. */
  contextSizes(): ContextSizes {
    return this.core.context.sizes();
  }
  /** Usage summed over every call of this agent (all sessions it served), its children's included. */
  usage(): UsageTotals {
    return { ...this.core.total };
  }
  /** Count a child's usage (agent.run) into this agent's totals (`/cost`). */
  countUsage(usage: UsageTotals): void {
    sumUsage(this.core.total, usage, usage.calls);
  }
  /** Usage totals with their price: from `pricing` in ai.json when set, else as llm-base priced
   * each call from the profile's prices (`/cost`). */
  cost(usage: UsageTotals = this.usage()): { usage: UsageTotals; amount?: number; currency?: string } {
    const pricing = this.core.options.config.pricing;
    if (!pricing) return usage.cost !== undefined && usage.currency ? { usage, amount: usage.cost, currency: usage.currency } : { usage };
    const cached = Math.min(usage.cached_tokens ?? 0, usage.input_tokens);
    const cachedPrice = pricing.cachedInputPerMillion ?? pricing.inputPerMillion;
    const amount =
      ((usage.input_tokens - cached) * pricing.inputPerMillion + cached * cachedPrice + usage.output_tokens * pricing.outputPerMillion) /
      1e6;
    return { usage, amount, currency: pricing.currency };
  }

  /** The current summary, if compaction happened. */
  summary(): Summary | null {
    return this.core.context.summary;
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
      const restore = this.overrideForTurn(options);
      return runTurn(
        this.core,
        [{ kind: 'user', text, ...(options.images?.length ? { images: options.images } : {}) }],
        text,
        options.signal,
        options,
      ).finally(restore);
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Switch profile and tier for one turn; the returned function switches back (unless the
   * user switched them meanwhile). */
  private overrideForTurn(options: SendOptions): () => void {
    const core = this.core;
    const before = { profile: core.profile, mode: core.mode };
    if (options.profile !== undefined) core.profile = options.profile;
    if (options.mode !== undefined) core.mode = options.mode;
    const during = { profile: core.profile, mode: core.mode };
    return () => {
      if (core.profile === during.profile) core.profile = before.profile;
      if (core.mode === during.mode) core.mode = before.mode;
    };
  }

  /** Let the model go on after a step-limit stop: sends `{"_event":"continue"}`. */
  continue(options: SendOptions = {}): Promise<TurnResult> {
    const run = this.chain.then(() =>
      runTurn(this.core, [{ kind: 'event', text: JSON.stringify({ _event: 'continue' }) }], 'continue', options.signal),
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
    return { outcome: 'aborted', message: t(this.core.options.lang, 'aborted'), steps: 0, usage: zeroUsage(), sessionId: this.core.id };
  }

  /** Add a note the model sees with its next call in the running turn. Returns false (and
   * does nothing) when no turn is running: use send() then. */
  steer(text: string): boolean {
    const turn = this.core.turn;
    if (!turn) return false;
    turn.steering.push(text);
    return true;
  }

  /** Abort the running turn (the same as aborting the signal given to send()). */
  abort(): void {
    this.core.turn?.controller.abort();
  }

  /**
   * The instructions changed during the session (memory, skills, AGENTS.md): a new session starts
   * from these prompts; this one, once it has sent its first request, keeps its system prompt as
   * sent (a model's prefix cache holds it) and gets the changed parts as one message with its next
   * call (`{"_event":"instructions"}`).
   */
  updateSystemPrompt(systemPrompt: string, toolsSystemPrompt?: string): void {
    const context = this.core.context;
    const sealed = context.sealed;
    context.rebase({ json: systemPrompt, ...(toolsSystemPrompt ? { tools: toolsSystemPrompt } : {}) });
    if (sealed) noteChangedInstructions(this.core, systemPrompt);
  }

  /** Start a new conversation (and a new session file); step allowances stay. */
  clear(): void {
    this.core.context.clear();
    this.core.plan = undefined;
    this.core.checkpoints.splice(0);
    this.core.notes.splice(0);
    this.core.id = newSessionId(this.core.now(), this.core.deps.random);
    this.core.started = false;
  }

  /** Fold the history into the summary now (`/compact`). */
  async compact(options: SendOptions = {}): Promise<Compacted | null> {
    return foldNow(this.core, [], true, options.signal);
  }

  listSessions(): SessionInfo[] {
    flushAllWrites();
    return this.core.deps.store?.list() ?? [];
  }

  /** Load a stored session and continue it (appending to the same file). */
  resume(id: string): { skipped: number } {
    const resumed = resumeSession(this.core, id);
    restorePlan(this.core);
    return resumed;
  }

  /** What the user answered this session about each check after edits (`/checks`). */
  checkAnswers(): ReadonlyMap<string, 'yes' | 'no'> | undefined {
    return this.core.deps.checks?.answers;
  }

  /** The model's latest plan (plan.update) in this session, undefined when it made none. */
  plan(): PlanItem[] | undefined {
    return this.core.plan && [...this.core.plan];
  }

  /** Resume the last session started in this agent's cwd; false when there is none. */
  resumeLast(): boolean {
    flushAllWrites();
    const last = this.core.deps.store?.lastFor(this.core.options.cwd);
    if (!last) return false;
    this.resume(last.id);
    return true;
  }

  // ── rewind, undo and the end of the session ──────────────────────────────────────

  /** The OS sandbox of command steps, once the runner exists (undefined before). */
  sandboxStatus(): { mode: string; kind: string; reason?: string; degraded?: ReadonlyArray<{ what: string }> } | undefined {
    return this.core.runner?.sandboxStatus?.();
  }

  /** The user messages `/rewind` can go back to, oldest first. */
  checkpoints(): Array<{ turn: number; at: string; title: string; notRestorable: string[] }> {
    return this.core.checkpoints.map((c) => ({ turn: c.turn, at: c.at, title: c.title, notRestorable: [...new Set(c.effects)] }));
  }

  /**
   * `/rewind`: go back to before user message `turn` — the conversation (the next request no
   * longer carries the later turns), the files changed since (fs.edit / fs.write), or both.
   * Effects of approved commands cannot be restored and are listed. Null when there is no such
   * message or a turn is running.
   */
  rewind(turn: number, options: RewindOptions): RewindResult | null {
    const done = rewind(this.core, turn, options);
    // The plan is the latest one the conversation still holds.
    if (done && options.conversation) this.core.plan = latestPlan(this.core.context.messages.map((m) => m.content));
    return done;
  }

  /** Files the last turn that changed files changed (what `/undo` would restore), as real paths. */
  undoableChanges(): string[] {
    const { undoMarks, runner } = this.core;
    const mark = undoMarks[undoMarks.length - 1];
    if (mark === undefined || !runner?.changes) return [];
    return [...new Set(runner.changes(mark).map((c) => c.path))];
  }

  /**
   * `/undo`: put back the files the last turn that changed files changed (fs.edit / fs.write in
   * the workspace), deleting the files it created; files changed since by someone else are left
   * alone and reported. The model learns it from a user-role event
   * `{"_event":"undo","restored":[...],"skipped":[...]}` with the next call. Null when there is
   * nothing to undo or a turn is running.
   */
  undo(): UndoResult | null {
    return undoLastChanges(this.core);
  }

  // ── what the person does beside the model (`!cmd`, `#`, `@file`, /diff, /export) ────────

  /**
   * Something the model should read with the next message (in front of it, as a user-role event,
   * then kept in the conversation like any event): a command the person ran
   * (`{"_event":"user_ran",…}`), a memory line added mid-session. The system prompt stays as sent.
   */
  noteForNextMessage(text: string): void {
    this.core.notes.push({ kind: 'event', text });
  }

  /** How the runner judges a step now (no language; no question, nothing run). */
  verdictOf(step: Step): Verdict {
    return getRunner(this.core).verdict(step);
  }

  /**
   * A step the person typed (`!cmd` in `ai -i`), outside a turn and without a model request: the
   * steps' own path (agent-steps runSteps: judged, hooks, asked through the confirm callback where
   * L1, refused with its rule where L2, reported as `step` / `output` / `tool_result` events and
   * audited), as a custom command's `` !`cmd` `` is. Null while a turn runs. What the model learns of
   * it is the caller's (noteForNextMessage); what hooks add for the model goes with the next message.
   */
  async runUserStep(step: Step, options: { signal?: AbortSignal } = {}): Promise<ToolResult | null> {
    return runUserStep(this.core, step, options.signal);
  }

  /** Files the fs tools changed in this session (the journal `/undo` and `/rewind` use), as real paths. */
  changedFiles(): string[] {
    return [...new Set(this.core.runner?.changes?.(0).map((c) => c.path) ?? [])];
  }

  /** The session's records as stored (`/export`): what was said, the replies, the steps, in order. */
  transcript(): SessionRecord[] {
    flushWrites(this.core);
    const store = this.core.deps.store;
    if (!store || !this.core.started) return [];
    return store.read(this.core.id).records;
  }

  /** The background processes the model started in this session (`/ps`). */
  processes(): ProcInfo[] {
    return this.core.runner?.processes?.() ?? [];
  }

  /** Whether the step runner was built (a step ran or was judged): it may hold processes. */
  get runnerBuilt(): boolean {
    return this.core.runner !== undefined;
  }

  /** End the session: the running turn is aborted (its model request too) and background
   * processes the model started are killed, whole process groups. Call on exit. */
  dispose(): void {
    // What the person did that the model has not seen yet (`!cmd`, `#`) stays in the session all the same.
    if (this.core.notes.length && !this.core.turn) commitPending(this.core, this.core.notes.splice(0));
    flushWrites(this.core);
    this.core.turn?.controller.abort();
    this.core.runner?.dispose?.();
    this.core.deps.onDispose?.();
  }
}
