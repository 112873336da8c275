/**
 * The controller of `ai -i`: keys in, agent events in, lines and a live region out. The
 * line editor and the confirm question are pure state machines (line-editor.ts,
 * question.ts); this class routes keys to them, runs turns and commands, and draws.
 * While a turn runs the prompt stays live: typing is kept, Enter queues, /steer redirects.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { AgentConfirmAnswer } from '../agent';
import type { AppAgent } from '../app';
import type { AgentEvent, TurnResult } from '../events';
import { t, type Lang } from '../i18n';
import type { Reply, Step } from '../protocol';
import type { ConfirmRequest, ToolResult, UndoResult } from '../runner-types';
import { estimateTokens } from '../tokens';
import { commonPrefix, completeInput, COMMANDS, parseInput, type CommandName, type Completion } from './commands';
import { describeStep, formatContext, formatResult, formatResumed, formatSessions, formatStep, formatTokens } from './format';
import type { PromptHistory } from './history';
import type { InputKey } from './keys';
import { createEditor, reduce, setText, type EditorState } from './line-editor';
import { createMarkdownRenderer, looksLikeMarkdown, type MarkdownRenderer } from './markdown';
import { createQuestion, joinWords, reduceQuestion, type QuestionState } from './question';
import { buildFrame, PROMPT, questionLines, SPINNER, type QuestionView } from './live-frame';
import { ts } from './strings';
import type { LiveFrame } from './terminal';
import type { Theme } from './theme';
import { truncateWidth } from './width';

/** Where the screen draws: a real terminal, or plain lines when stdout is not a TTY. */
export interface Surface {
  readonly columns: number;
  readonly rows: number;
  /** True when there is a live region (spinner, prompt); false for plain line output. */
  readonly live: boolean;
  print(text: string): void;
  render(frame: LiveFrame): void;
  clearScreen(): void;
}

export interface ScreenOptions {
  lang: Lang;
  theme: Theme;
  surface: Surface;
  history?: PromptHistory;
  cwd: string;
  /** Mode/profile from the command line, shown until the agent has loaded. */
  mode?: string;
  profile?: string;
  now?: () => number;
}

const OUTPUT_KEEP = 64 * 1024;

interface OpenQuestion {
  request: ConfirmRequest;
  state: QuestionState;
  words: string[];
  resolve: (answer: AgentConfirmAnswer) => void;
  /** Keys before this time were meant for the prompt (typed ahead), not for the question. */
  readyAt: number;
}

/** A question that opens while the user is typing waits this long before it takes keys, so
 * a letter typed for the prompt (a, y, n, Enter) never answers it; the keys go to the prompt. */
const QUESTION_GUARD_MS = 400;
const TYPING_RECENTLY_MS = 1500;

type Phase = { kind: 'thinking' } | { kind: 'writing' } | { kind: 'compacting' } | { kind: 'running'; id: string; label: string };

export class Screen {
  private editor: EditorState;
  private app?: AppAgent;
  private readonly lang: Lang;
  private readonly theme: Theme;
  private readonly surface: Surface;
  private readonly now: () => number;
  private markdown?: MarkdownRenderer;
  /** A turn or a compaction is running. */
  private task?: { controller: AbortController; started: number; promise: Promise<unknown> };
  private phase: Phase = { kind: 'thinking' };
  private preview = '';
  /** Raw text streamed in this turn, for the spinner's token count. */
  private streamed = '';
  private output = '';
  /** Lines the running step printed in all (its text is kept only up to OUTPUT_KEEP). */
  private outputNewlines = 0;
  private readonly queue: string[] = [];
  private question?: OpenQuestion;
  private notice?: string;
  private exitArmed = false;
  private spinner?: NodeJS.Timeout;
  private frameIndex = 0;
  private renderScheduled = false;
  private waitingForAgent: string[] = [];
  private closing = false;
  /** llm-base's default profile name, for the status line when none is chosen. */
  private llmDefault?: string;
  private llmProfiles?: { defaultName?: string; names: string[] };
  private lastKeyAt = 0;
  private guardTimer?: NodeJS.Timeout;
  /** Session ids for completing /resume, read once per Tab or per task. */
  private sessionIds?: string[];
  /** Context fill in percent of the budget, refreshed when a turn or command ends. */
  private contextFill?: number;
  private finished?: (code: number) => void;
  readonly done: Promise<number>;
  /** Called after every change of state (plain mode feeds the next input line from it). */
  onSettle?: () => void;

  constructor(private readonly options: ScreenOptions) {
    this.lang = options.lang;
    this.theme = options.theme;
    this.surface = options.surface;
    this.now = options.now ?? Date.now;
    this.editor = createEditor(options.history?.load() ?? []);
    this.done = new Promise((resolve) => (this.finished = resolve));
  }

  // ── start-up ──────────────────────────────────────────────────────────────────────

  /** Draw the welcome and the prompt (before the agent has loaded). */
  start(): void {
    const home = os.homedir();
    const cwd = this.options.cwd.startsWith(home) ? '~' + this.options.cwd.slice(home.length) : this.options.cwd;
    const [first, ...rest] = ts(this.lang, 'welcome', { cwd }).split('\n');
    if (this.surface.live) this.surface.print([this.theme.bold(first), ...rest.map((l) => this.theme.dim(l))].join('\n'));
    this.render();
  }

  /** The agent is ready: subscribe and run what was typed meanwhile. */
  attach(app: AppAgent, initial?: { continueLast?: boolean; prompt?: string }): void {
    this.app = app;
    if (this.closing) return; // left while loading
    this.refreshContextFill();
    this.llmProfiles = readLlmProfiles(path.join(app.paths.home, 'plugin-configs', 'llm-base.json'));
    this.llmDefault = this.llmProfiles?.defaultName;
    app.agent.on((event) => this.onEvent(event));
    if (initial?.continueLast) {
      this.print(app.agent.resumeLast() ? this.resumedText(app.agent.sessionId, 0) : t(this.lang, 'noSessionHere'));
    }
    this.render();
    if (initial?.prompt) this.submit(initial.prompt, true);
    for (const text of this.waitingForAgent.splice(0)) this.submit(text, false);
  }

  /** The confirm callback given to the agent: shows the question, resolves with the answer. */
  confirm = (request: ConfirmRequest): Promise<AgentConfirmAnswer> => {
    if (request.decision.level === 'L2') return Promise.resolve({ action: 'decline', reason: ts(this.lang, 'declinedByUser') });
    if (this.closing || this.task?.controller.signal.aborted) {
      return Promise.resolve({ action: 'decline', reason: ts(this.lang, 'interruptedByUser') });
    }
    return new Promise((resolve) => {
      if (request.preview) {
        const fields = request.step as unknown as Record<string, unknown>;
        const target = fields.file ?? fields.path;
        const file = typeof target === 'string' ? target : describeStep(request.step);
        this.print([this.theme.bold(`  ${ts(this.lang, 'preview', { file })}`), ...colorDiff(request.preview, this.theme)].join('\n'));
      }
      const words = wordsOf(request.step);
      const now = this.now();
      const guarded = this.surface.live && now - this.lastKeyAt < TYPING_RECENTLY_MS;
      this.question = { request, state: createQuestion(words.length > 0), words, resolve, readyAt: guarded ? now + QUESTION_GUARD_MS : now };
      if (guarded) this.scheduleGuardRender();
      if (!this.surface.live) this.print(questionLines(this.questionView()!, this.theme, this.lang).join('\n'));
      this.render();
    });
  };

  // ── keys ──────────────────────────────────────────────────────────────────────────

  /** Keys of one input chunk. */
  onKeys(keys: InputKey[]): void {
    for (const key of keys) this.onKey(key);
    this.render();
  }

  /** A whole line from a non-terminal stdin (plain mode). */
  onLine(line: string): void {
    this.onKeys([{ kind: 'text', text: line }, { kind: 'enter' }]);
  }

  private onKey(key: InputKey): void {
    this.lastKeyAt = this.now();
    if (key.kind !== 'interrupt' && this.exitArmed) this.disarmExit();
    if (key.kind === 'interrupt') return this.interrupt();
    if (key.kind === 'redraw') return this.surface.clearScreen();
    if (key.kind === 'paste-start' || key.kind === 'paste-end') return;
    if (this.question) {
      if (this.now() >= this.question.readyAt) return this.questionKey(key);
      // Still typing for the prompt: the key goes there and the guard starts again.
      this.question.readyAt = this.now() + QUESTION_GUARD_MS;
      this.scheduleGuardRender();
      if (key.kind === 'escape' || key.kind === 'tab') return;
    }
    if (key.kind === 'escape') {
      // Esc stops a running turn, as in the assistants people know; idle it does nothing.
      if (this.task) this.task.controller.abort();
      return;
    }
    if (key.kind === 'tab') {
      this.sessionIds = undefined;
      const { candidates } = this.completion();
      const next = candidates.length === 1 ? candidates[0] : commonPrefix(candidates);
      if (next.length > this.editor.text.length) this.editor = setText(this.editor, next);
      return;
    }
    if (key.kind === 'up' && !this.editor.text && this.queue.length) {
      // Up on an empty prompt takes the last queued message back to edit it.
      this.editor = setText(this.editor, this.queue.pop()!);
      return;
    }
    const { state, action } = reduce(this.editor, key);
    this.editor = state;
    if (!action) return;
    if (action.type === 'eof') return void this.exit();
    this.notice = undefined;
    this.options.history?.append(action.text);
    this.submit(action.text, true);
  }

  private questionKey(key: InputKey): void {
    const q = this.question!;
    if (key.kind === 'tab' || key.kind === 'eof' || key.kind === 'redraw') return;
    if (key.kind === 'paste-start' || key.kind === 'paste-end' || key.kind === 'interrupt') return;
    const { state, outcome } = reduceQuestion(q.state, key, q.words);
    q.state = state;
    if (!outcome) return;
    this.question = undefined;
    let answer: AgentConfirmAnswer;
    if ('edited' in outcome) {
      answer = { action: 'edit', step: withWords(q.request.step, outcome.edited) };
      this.print(this.theme.dim(`  ✎ ${joinWords(outcome.edited)}`));
    } else if (outcome.choice === 'decline') {
      answer = { action: 'decline', reason: ts(this.lang, 'declinedByUser') };
      this.print(this.theme.dim(`  ✗ ${ts(this.lang, 'choice_decline')}`));
    } else {
      answer = { action: outcome.choice };
      this.print(this.theme.dim(`  ✓ ${ts(this.lang, `choice_${outcome.choice}`, { key: q.request.sessionKey })}`));
    }
    q.resolve(answer);
  }

  /** Ctrl+C: stop what runs; else clear the input; else arm, and on the second press leave. */
  private interrupt(): void {
    if (this.question) {
      const q = this.question;
      this.question = undefined;
      q.resolve({ action: 'decline', reason: ts(this.lang, 'interruptedByUser') });
      this.task?.controller.abort();
      return;
    }
    if (this.task) {
      this.task.controller.abort();
      return;
    }
    if (this.editor.text) {
      this.editor = setText(this.editor, '');
      return;
    }
    if (this.exitArmed) return void this.exit();
    // Armed until any other key: the hint stays on screen as long as it holds.
    this.exitArmed = true;
    this.notice = ts(this.lang, 'exitHint');
  }

  private disarmExit(): void {
    this.exitArmed = false;
    if (this.notice === ts(this.lang, 'exitHint')) this.notice = undefined;
  }

  // ── what was typed ────────────────────────────────────────────────────────────────

  private submit(text: string, echo: boolean): void {
    const parsed = parseInput(text);
    if (parsed.kind === 'empty') return;
    // A message typed during a turn is shown as queued, and echoed when its turn starts.
    const queued = parsed.kind === 'message' && this.task !== undefined;
    if (echo && !queued) this.print(this.echoLine(text));
    if (!this.app) {
      this.waitingForAgent.push(text);
      return;
    }
    if (parsed.kind === 'unknown') {
      const suggest = parsed.suggestion ? ts(this.lang, 'didYouMean', { name: parsed.suggestion }) : '';
      this.print(this.theme.yellow(ts(this.lang, 'unknownCommand', { name: parsed.name, suggest, list: COMMANDS.map((c) => `/${c}`).join(' ') })));
      return;
    }
    if (parsed.kind === 'message') {
      if (this.task) {
        this.queue.push(parsed.text);
        return;
      }
      this.startTurn(parsed.text);
      return;
    }
    void this.command(parsed.name, parsed.arg)
      .catch((err: unknown) => this.print(this.theme.red(String((err as Error)?.message ?? err))))
      .then(() => {
        this.refreshContextFill();
        this.render();
      });
  }

  private echoLine(text: string): string {
    const lines = text.split('\n');
    return (this.surface.live ? '\n' : '') + lines.map((l, i) => (i === 0 ? this.theme.bold(this.theme.cyan(PROMPT)) + this.theme.bold(l) : '  ' + this.theme.bold(l))).join('\n');
  }

  private async command(name: CommandName, arg: string): Promise<void> {
    const { agent, paths } = this.app!;
    const busyOnly = (): boolean => {
      if (!this.task) return false;
      this.print(this.theme.yellow(ts(this.lang, 'busyCommand', { command: `/${name}` })));
      return true;
    };
    switch (name) {
      case 'help':
        return this.print(this.helpText());
      case 'exit':
        return this.exit();
      case 'clear':
        if (busyOnly()) return;
        agent.clear();
        this.queue.length = 0;
        return this.print(ts(this.lang, 'cleared', { id: agent.sessionId }));
      case 'compact':
        if (busyOnly()) return;
        return this.compact();
      case 'context':
        return this.print(formatContext(agent.contextSizes(), this.theme, this.lang).join('\n'));
      case 'cost': {
        const u = agent.usage();
        return this.print(ts(this.lang, 'cost', { input: u.input_tokens, output: u.output_tokens, calls: u.calls }));
      }
      case 'mode':
        if (arg === 'low' || arg === 'high') {
          agent.setMode(arg);
          return this.print(ts(this.lang, 'modeSet', { mode: arg }));
        }
        return this.print(ts(this.lang, 'modeNow', { mode: agent.getMode() }));
      case 'profile':
        if (arg) {
          const names = this.llmProfiles?.names;
          if (names && !names.includes(arg)) {
            return this.print(this.theme.yellow(ts(this.lang, 'profileMissing', { profile: arg, list: names.join(', ') || '-' })));
          }
          agent.setProfile(arg);
          return this.print(ts(this.lang, 'profileSet', { profile: arg }));
        }
        return this.print(ts(this.lang, 'profileNow', { profile: agent.getProfile() ?? this.llmDefault ?? ts(this.lang, 'defaultProfile') }));
      case 'sessions':
        return this.print(formatSessions(agent.listSessions(), agent.sessionId, this.theme, this.lang).join('\n'));
      case 'resume': {
        if (busyOnly()) return;
        if (!arg) return this.print(ts(this.lang, 'resumeUsage'));
        const file = path.join(paths.sessionsDir, `${arg}.jsonl`);
        if (!/^[\w.-]+$/.test(arg) || !fs.existsSync(file)) return this.print(this.theme.yellow(ts(this.lang, 'resumeMissing', { id: arg })));
        const { skipped } = agent.resume(arg);
        return this.print(this.resumedText(arg, skipped));
      }
      case 'steer':
        if (!arg) return this.print(ts(this.lang, 'steerUsage'));
        if (this.task && agent.steer(arg)) {
          return this.print(this.theme.dim(`↳ ${ts(this.lang, 'steered')}`));
        }
        if (this.task) {
          this.queue.unshift(arg);
          return;
        }
        this.print(this.theme.dim(ts(this.lang, 'steerIdle')));
        return this.startTurn(arg);
      case 'undo':
        if (busyOnly()) return;
        return this.print(this.undoText(agent.undo()));
      case 'next':
        if (!arg) return this.print(ts(this.lang, 'nextUsage'));
        if (this.task) {
          this.queue.push(arg);
          return this.print(this.theme.dim(ts(this.lang, 'nextQueued')));
        }
        return this.startTurn(arg);
    }
  }

  /** What `/undo` says: each file restored or not, relative to the working folder. */
  private undoText(result: UndoResult | null): string {
    if (!result || (!result.restored.length && !result.skipped.length)) return ts(this.lang, 'undoNone');
    const rel = (p: string) => {
      const r = path.relative(this.options.cwd, p);
      return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
    };
    const lines = [ts(this.lang, 'undoDone')];
    for (const r of result.restored) lines.push(this.theme.green(ts(this.lang, 'undoRestored', { path: rel(r.path), action: r.action })));
    for (const r of result.skipped) {
      const reason = r.message ?? ts(this.lang, r.reason === 'changed_since' ? 'undoChangedSince' : r.reason === 'not_kept' ? 'undoNotKept' : 'undoError');
      lines.push(this.theme.yellow(ts(this.lang, 'undoSkipped', { path: rel(r.path), reason })));
    }
    return lines.join('\n');
  }

  /** What `/resume` (and `-c`) says: the id, and the last exchanges so the user sees where
   * the conversation was. */
  resumedText(id: string, skipped: number): string {
    const { SessionStore } = require('../sessions') as typeof import('../sessions'); // zod: loaded by now
    const { records } = new SessionStore(this.app!.paths.sessionsDir).read(id);
    return formatResumed(id, records, skipped, this.theme, this.lang, this.surface.columns).join('\n');
  }

  private helpText(): string {
    const width = Math.max(...COMMANDS.map((c) => c.length)) + 10;
    const usage: Partial<Record<CommandName, string>> = {
      mode: '/mode low|high',
      profile: '/profile <name>',
      resume: '/resume <id>',
      steer: '/steer <msg>',
      next: '/next <msg>',
    };
    const lines = [this.theme.bold(ts(this.lang, 'helpTitle'))];
    for (const c of COMMANDS) lines.push(`  ${this.theme.cyan((usage[c] ?? `/${c}`).padEnd(width))} ${ts(this.lang, `help_${c}`)}`);
    lines.push(this.theme.dim(ts(this.lang, 'helpKeys')));
    return lines.join('\n');
  }

  // ── turns ─────────────────────────────────────────────────────────────────────────

  private startTurn(text: string): void {
    const { agent } = this.app!;
    const controller = new AbortController();
    this.phase = { kind: 'thinking' };
    this.preview = '';
    this.streamed = '';
    this.resetOutput();
    const promise = (text === 'continue' ? agent.continue({ signal: controller.signal }) : agent.send(text, { signal: controller.signal })).then(
      (result) => this.turnDone(result),
      (err: unknown) => this.turnFailed(err),
    );
    this.task = { controller, started: this.now(), promise };
    this.startSpinner();
  }

  private async compact(): Promise<void> {
    const { agent } = this.app!;
    const controller = new AbortController();
    this.phase = { kind: 'compacting' };
    let resolveDone!: () => void;
    const promise = new Promise<void>((r) => (resolveDone = r));
    this.task = { controller, started: this.now(), promise };
    this.startSpinner();
    try {
      const before = agent.contextSizes();
      const r = await agent.compact({ signal: controller.signal });
      if (!r) {
        this.print(ts(this.lang, 'compactNone', { total: before.window }));
      } else {
        const sizes = agent.contextSizes();
        const summary = agent.summary();
        const lines = [
          ts(this.lang, 'compactDone', {
            method: r.method,
            before: r.before,
            after: r.after,
            summary: sizes.summary,
            facts: summary?.keyFacts.length ?? 0,
            tasks: summary?.openTasks.length ?? 0,
            messages: sizes.windowMessages,
          }),
        ];
        if (summary?.summary) lines.push(this.theme.dim(`  ${truncateWidth(summary.summary.split('\n')[0], this.surface.columns - 4)}`));
        for (const fact of summary?.keyFacts.slice(0, 5) ?? []) lines.push(this.theme.dim(`  · ${truncateWidth(fact, this.surface.columns - 6)}`));
        for (const task of summary?.openTasks.slice(0, 5) ?? []) lines.push(this.theme.dim(`  ○ ${truncateWidth(task, this.surface.columns - 6)}`));
        this.print(lines.join('\n'));
      }
    } finally {
      this.task = undefined;
      this.stopSpinner();
      resolveDone();
      this.afterTask(false);
    }
  }

  private turnDone(result: TurnResult): void {
    this.task = undefined;
    this.stopSpinner();
    this.flushPreview(result.outcome === 'aborted');
    switch (result.outcome) {
      case 'answered':
        break;
      case 'aborted':
        this.print(this.theme.yellow(ts(this.lang, 'interrupted')));
        break;
      case 'step_limit':
        this.print(this.theme.yellow(result.message));
        break;
      default:
        this.print(this.theme.red(result.message));
    }
    this.afterTask(result.outcome === 'aborted');
  }

  private turnFailed(err: unknown): void {
    this.task = undefined;
    this.stopSpinner();
    this.flushPreview(true);
    this.print(this.theme.red(t(this.lang, 'unexpected', { detail: (err as Error)?.message ?? String(err) })));
    this.afterTask(true);
  }

  /** After a turn: go on with the queue, or (after an interruption) give it back to the input. */
  private afterTask(interrupted: boolean): void {
    this.refreshContextFill();
    this.sessionIds = undefined;
    if (this.closing) return this.render();
    if (this.queue.length) {
      if (interrupted) {
        const restored = [...this.queue.splice(0), this.editor.text].filter(Boolean).join('\n');
        this.editor = setText(this.editor, restored);
        this.print(this.theme.dim(ts(this.lang, 'restoredQueue')));
      } else {
        const next = this.queue.shift()!;
        this.print(this.echoLine(next));
        this.startTurn(next);
      }
    }
    this.render();
  }

  private resetOutput(): void {
    this.output = '';
    this.outputNewlines = 0;
  }

  /** A streamed message that never became a reply (interrupted, or failed) stays visible. */
  private flushPreview(keep: boolean): void {
    if (keep && this.preview.trim()) this.print(this.preview);
    this.preview = '';
  }

  private onEvent(event: AgentEvent): void {
    try {
      this.showEvent(event);
    } catch (err) {
      // A drawing problem must not break the turn: say it and go on.
      this.print(this.theme.red(t(this.lang, 'unexpected', { detail: (err as Error)?.message ?? String(err) })));
    }
    this.scheduleRender();
  }

  private showEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'request':
        this.streamed = '';
        if (event.purpose === 'summary') this.phase = { kind: 'compacting' };
        else if (this.phase.kind !== 'running') this.phase = { kind: 'thinking' };
        break;
      case 'text':
        this.streamed += event.delta;
        if (this.phase.kind === 'thinking') this.phase = { kind: 'writing' };
        break;
      case 'message_delta':
        this.preview = event.message;
        break;
      case 'reply':
        this.preview = '';
        this.showReply(event.reply, event.raw);
        break;
      case 'step':
        this.print(formatStep(event.step, event.decision, this.theme, this.lang).join('\n'));
        this.phase = { kind: 'running', id: event.id, label: describeStep(event.step) };
        this.resetOutput();
        break;
      case 'output':
        this.output += event.chunk;
        this.outputNewlines += countNewlines(event.chunk);
        if (this.output.length > OUTPUT_KEEP * 2) this.output = this.output.slice(-OUTPUT_KEEP);
        break;
      case 'tool_result':
        this.showResult(event.result);
        this.phase = { kind: 'thinking' };
        this.resetOutput();
        break;
      case 'compaction':
        this.print(this.theme.dim(t(this.lang, 'compacted', { method: event.method, before: event.before, after: event.after })));
        if (this.phase.kind === 'compacting') this.phase = { kind: 'thinking' };
        break;
      case 'repair':
        this.print(this.theme.dim(t(this.lang, 'repairing', { error: event.error })));
        break;
      case 'log':
        this.print(this.theme.dim(event.message));
        break;
      default:
        break;
    }
  }

  private showReply(reply: Reply, raw: boolean): void {
    if (reply.type === 'chat') {
      const text = reply.message;
      const markdown = !raw && looksLikeMarkdown(text, reply.data?.format);
      const body = markdown ? this.renderMarkdown(text) : text;
      const lines = [raw ? this.theme.dim(ts(this.lang, 'rawMarker')) : '', body].filter(Boolean);
      const suggestions = reply.data?.suggestions?.filter(Boolean) ?? [];
      if (suggestions.length) lines.push(this.theme.dim(suggestions.map((s) => `» ${s}`).join('   ')));
      this.print(lines.join('\n'));
    } else if (reply.type === 'cmd') {
      if (reply.message) this.print(this.theme.italic(reply.message));
      const expected = reply.data.expected_effect;
      if (expected) this.print(this.theme.dim(ts(this.lang, 'expected', { text: expected })));
    }
    // an error reply is shown from the turn's result
  }

  private renderMarkdown(text: string): string {
    this.markdown ??= createMarkdownRenderer({ color: this.theme.enabled, width: Math.min(100, this.surface.columns - 2) });
    try {
      return this.markdown(text);
    } catch {
      return text; // the answer matters more than its styling
    }
  }

  private showResult(result: ToolResult): void {
    const home = os.homedir();
    const file = this.app?.paths.config ?? 'plugin-configs/ai.json';
    const configFile = file.startsWith(home + path.sep) ? '~' + file.slice(home.length) : file;
    this.print(formatResult(result, this.output, this.theme, this.lang, configFile, this.outputNewlines).join('\n'));
  }

  // ── leaving ───────────────────────────────────────────────────────────────────────

  /** Stop what runs, wait for it, say where the session is, and finish. */
  async exit(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.question) {
      const q = this.question;
      this.question = undefined;
      q.resolve({ action: 'decline', reason: ts(this.lang, 'interruptedByUser') });
    }
    const running = this.task;
    if (running) {
      running.controller.abort();
      await running.promise.catch(() => undefined);
    }
    this.stopSpinner();
    if (this.app) {
      this.app.agent.dispose(); // background processes end with the session
      const id = this.app.agent.sessionId;
      if (fs.existsSync(path.join(this.app.paths.sessionsDir, `${id}.jsonl`))) this.print(this.theme.dim(ts(this.lang, 'saved', { id })));
    }
    this.surface.render({ lines: [] });
    this.finished?.(0);
  }

  // ── drawing ───────────────────────────────────────────────────────────────────────

  /** Print text into the scrollback, above the live region. */
  print(text: string): void {
    this.surface.print(text);
  }

  private startSpinner(): void {
    if (!this.surface.live || this.spinner) return;
    this.spinner = setInterval(() => {
      this.frameIndex = (this.frameIndex + 1) % SPINNER.length;
      this.render();
    }, 100);
  }

  private stopSpinner(): void {
    if (this.spinner) clearInterval(this.spinner);
    this.spinner = undefined;
  }

  /** Draw the question's keys line when its guard ends. */
  private scheduleGuardRender(): void {
    if (this.guardTimer) clearTimeout(this.guardTimer);
    this.guardTimer = setTimeout(() => this.render(), QUESTION_GUARD_MS + 10);
    this.guardTimer.unref();
  }

  private scheduleRender(): void {
    if (this.renderScheduled) return;
    this.renderScheduled = true;
    setTimeout(() => {
      this.renderScheduled = false;
      this.render();
    }, 16);
  }

  /** Whether an input line can be taken now (plain mode): an open question, or nothing running. */
  get acceptsInput(): boolean {
    return Boolean(this.app) && !this.closing && (Boolean(this.question) || !this.task);
  }

  /** Plain mode: stdin ended. An open question is declined (nobody is left to answer it);
   * once nothing runs, the screen leaves. */
  endOfInput(): void {
    if (this.question) {
      const q = this.question;
      this.question = undefined;
      this.print(this.theme.dim(`  ✗ ${ts(this.lang, 'choice_decline')}`));
      q.resolve({ action: 'decline', reason: ts(this.lang, 'inputEnded') });
      return;
    }
    if (this.idle) void this.exit();
  }

  /** Nothing runs and nothing is asked. */
  get idle(): boolean {
    return !this.task && !this.question;
  }

  render(): void {
    if (!this.surface.live) {
      this.onSettle?.();
      return;
    }
    if (this.closing && !this.task) return;
    this.surface.render(this.frame());
  }

  /** The live region: streaming text, running output, spinner, queue, then the prompt or
   * the open question, then the status line. */
  /** The live region of the current state (see live-frame.ts). */
  frame(): LiveFrame {
    const task = this.task;
    return buildFrame(
      {
        columns: this.surface.columns,
        rows: this.surface.rows,
        preview: this.preview,
        busy: task && {
          phase: this.phase.kind,
          step: this.phase.kind === 'running' ? this.phase.label : undefined,
          elapsedMs: this.now() - task.started,
          spinnerFrame: this.frameIndex,
          streamedTokens: this.streamed ? estimateTokens(this.streamed) : 0,
          output: this.output,
          outputNewlines: this.outputNewlines,
        },
        queue: this.queue,
        notice: this.notice,
        question: this.questionView(),
        editor: this.editor,
        hints: this.hintLines(),
        status: this.statusLine(),
      },
      this.theme,
      this.lang,
    );
  }

  private questionView(): QuestionView | undefined {
    const q = this.question;
    return q && { request: q.request, state: q.state, ready: this.now() >= q.readyAt };
  }

  /** Under the prompt: the commands that match what is typed (with what they do), or the
   * values an argument can take. */
  private hintLines(): string[] {
    const { display } = this.completion();
    if (!display.length) return [];
    if (this.editor.text.includes(' ')) return ['  ' + display.slice(0, 12).join('  ')];
    const shown = display.slice(0, 6).map((name) => `  ${name.padEnd(10)} ${ts(this.lang, `help_${name.slice(1) as CommandName}`)}`);
    if (display.length > shown.length) shown.push(`  … ${display.length - shown.length}`);
    return shown;
  }

  private completion(): Completion {
    if (!this.editor.text.startsWith('/')) return { candidates: [], display: [] };
    return completeInput(this.editor.text, {
      profiles: this.llmProfiles?.names ?? [],
      sessions: () => (this.sessionIds ??= this.app?.agent.listSessions().map((x) => x.id) ?? []),
    });
  }

  private refreshContextFill(): void {
    const sizes = this.app?.agent.contextSizes();
    this.contextFill = sizes && sizes.budget > 0 ? Math.round((sizes.total / sizes.budget) * 100) : undefined;
  }

  private statusLine(): string {
    const agent = this.app?.agent;
    const parts: string[] = [];
    if (agent) {
      parts.push(agent.getMode());
      parts.push(agent.getProfile() ?? this.llmDefault ?? ts(this.lang, 'defaultProfile'));
      const u = agent.usage();
      if (u.calls) parts.push(ts(this.lang, 'statusTokens', { n: formatTokens(u.input_tokens + u.output_tokens) }));
      if (this.contextFill !== undefined) parts.push(ts(this.lang, 'statusContext', { pct: this.contextFill }));
    } else {
      parts.push(this.options.mode ?? '…', this.options.profile ?? ts(this.lang, 'loading'));
    }
    const right = this.task ? ts(this.lang, 'busyHint') : this.app ? '/help' : '';
    return `  ${parts.join(' · ')}  ·  ${right}`;
  }
}

/** The profile names and the default in llm-base's config, for the status line and a
 * check of `/profile <name>` (llm-base itself validates the file on every call). */
function readLlmProfiles(file: string): { defaultName?: string; names: string[] } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined; // no config yet, or llm-base reports it broken on the first call
  }
  if (!value || typeof value !== 'object') return undefined;
  const { default_profile: name, profiles } = value as { default_profile?: unknown; profiles?: unknown };
  return {
    defaultName: typeof name === 'string' && name ? name : undefined,
    names: profiles && typeof profiles === 'object' ? Object.keys(profiles) : [],
  };
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The words of a step the user may edit (a program and its arguments), or none. */
function wordsOf(step: Step): string[] {
  if (step.tool === 'plugin.run') return [step.plugin, ...step.args];
  const fields = step as unknown as Record<string, unknown>;
  // exec, and later tools that run a program the same way (proc.start)
  if (typeof fields.program === 'string' && Array.isArray(fields.args) && fields.args.every((a) => typeof a === 'string')) {
    return [fields.program, ...(fields.args as string[])];
  }
  return [];
}

function withWords(step: Step, words: string[]): Step {
  if (step.tool === 'plugin.run') return { ...step, plugin: words[0], args: words.slice(1) };
  return { ...step, program: words[0], args: words.slice(1) } as Step;
}

function colorDiff(preview: string, theme: Theme): string[] {
  return preview.split('\n').map((line) => {
    if (line.startsWith('+')) return '  ' + theme.green(line);
    if (line.startsWith('-')) return '  ' + theme.red(line);
    return '  ' + theme.dim(line);
  });
}
