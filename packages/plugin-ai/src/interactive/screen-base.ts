/**
 * The drawing half of the `ai -i` screen: its state, the live region (spinner, status line,
 * completion hints, the open question) and leaving. screen-turns.ts adds what turns and agent
 * events print; screen.ts adds keys and commands.
 */
import fs = require('fs');
import os = require('os');
import path = require('path');
import type { AgentConfirmAnswer } from '../agent/agent';
import type { AppAgent } from '../cli/app';
import type { Lang } from '../i18n';
import type { ConfirmRequest } from '../agent/runner-types';
import { estimateTokens } from '../context/tokens';
import { completeInput, type CommandName, type Completion } from './commands';
import { formatTokens } from './format';
import type { PromptHistory } from './history';
import { createEditor, type EditorState } from './line-editor';
import type { MarkdownRenderer } from './markdown';
import type { QuestionState } from './question';
import { buildFrame, SPINNER, type LiveView, type QuestionView } from './live-frame';
import { planLines } from './plan-line';
import type { LiveFrame } from './terminal';
import type { Theme } from './theme';
import { modelOf } from './session-views';
import type { UsageTotals } from '../agent/events';
import { t } from '../i18n';

/** Where the screen draws: a real terminal, or plain lines when stdout is not a TTY. */
export interface Surface {
  readonly columns: number;
  readonly rows: number;
  /** True when there is a live region (spinner, prompt); false for plain line output. */
  readonly live: boolean;
  print(text: string): void;
  render(frame: LiveFrame): void;
  clearScreen(): void;
  /** Hand the terminal to a program that uses it itself, and take it back (live surfaces). */
  suspend?(): void;
  resume?(): void;
  /** Write a notification sequence (BEL, OSC 9) to the terminal (live surfaces). */
  notify?(sequence: string): void;
}

export interface ScreenOptions {
  lang: Lang;
  theme: Theme;
  surface: Surface;
  history?: PromptHistory;
  cwd: string;
  /** The environment (`$VISUAL` / `$EDITOR` for Ctrl+G, git for /diff); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Mode/profile from the command line, shown until the agent has loaded. */
  mode?: string;
  profile?: string;
  now?: () => number;
}

export const OUTPUT_KEEP = 64 * 1024;

export interface OpenQuestion {
  request: ConfirmRequest;
  state: QuestionState;
  words: string[];
  resolve: (answer: AgentConfirmAnswer) => void;
  /** Keys before this time were meant for the prompt (typed ahead), not for the question. */
  readyAt: number;
}

/** A question that opens while the user is typing waits this long before it takes keys, so
 * a letter typed for the prompt (a, y, n, Enter) never answers it; the keys go to the prompt. */
export const QUESTION_GUARD_MS = 400;
export const TYPING_RECENTLY_MS = 1500;

export type Phase = { kind: 'thinking' } | { kind: 'writing' } | { kind: 'compacting' } | { kind: 'running'; id: string; label: string };

export abstract class ScreenBase {
  protected editor: EditorState;
  /** The last answer's suggestions: on an empty prompt 1–9 picks one and Tab goes through them. */
  protected suggestions: string[] = [];
  protected suggestionIndex = -1;
  /** Tokens of the last finished turn (`/cost`). */
  protected lastTurnUsage?: UsageTotals;
  /** Steps of this turn held back by plan mode: its answer is then a plan to offer running. */
  protected plannedSteps = 0;
  protected app?: AppAgent;
  protected readonly lang: Lang;
  protected readonly theme: Theme;
  protected readonly surface: Surface;
  protected readonly now: () => number;
  protected markdown?: MarkdownRenderer;
  /** A turn or a compaction is running. */
  protected task?: { controller: AbortController; started: number; promise: Promise<unknown> };
  protected phase: Phase = { kind: 'thinking' };
  /** What the model call waits for, since when (llm-base's wait reports). */
  protected waitingFor?: { phase: 'connect' | 'first_token'; model: string; server: string; since: number };
  protected preview = '';
  /** Raw text streamed in this turn, for the spinner's token count. */
  protected streamed = '';
  protected output = '';
  /** Lines the running step printed in all (its text is kept only up to OUTPUT_KEEP). */
  protected outputNewlines = 0;
  protected readonly queue: string[] = [];
  protected question?: OpenQuestion;
  protected notice?: string;
  protected exitArmed = false;
  protected spinner?: NodeJS.Timeout;
  protected frameIndex = 0;
  protected renderScheduled = false;
  protected waitingForAgent: string[] = [];
  protected closing = false;
  /** llm-base's default profile name, for the status line when none is chosen. */
  protected llmDefault?: string;
  protected llmProfiles?: { defaultName?: string; names: string[]; models: Record<string, { low?: string; high?: string }> };
  protected lastKeyAt = 0;
  protected guardTimer?: NodeJS.Timeout;
  /** Session ids for completing /resume, read once per Tab or per task. */
  protected sessionIds?: string[];
  /** Context fill in percent of the budget, refreshed when a turn or command ends. */
  protected contextFill?: number;
  /** A local model server's state (Ollama): warm-up, missing model, /pull. */
  protected modelService?: import('./model-service-view').ModelServiceView;
  protected finished?: (code: number) => void;
  readonly done: Promise<number>;
  /** Called after every change of state (plain mode feeds the next input line from it). */
  onSettle?: () => void;

  constructor(protected readonly options: ScreenOptions) {
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
    const [first, ...rest] = t(this.lang, 'welcome', { cwd }).split('\n');
    if (this.surface.live) this.surface.print([this.theme.bold(first), ...rest.map((l) => this.theme.dim(l))].join('\n'));
    this.render();
  }

  // ── leaving ───────────────────────────────────────────────────────────────────────

  /** Stop what runs, wait for it, say where the session is, and finish. */
  async exit(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.question) {
      const q = this.question;
      this.question = undefined;
      q.resolve({ action: 'decline', reason: t(this.lang, 'interruptedByUser') });
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
      if (fs.existsSync(path.join(this.app.paths.sessionsDir, `${id}.jsonl`)))
        this.print(this.theme.dim(t(this.lang, 'sessionSaved', { id })));
    }
    this.surface.render({ lines: [] });
    this.finished?.(0);
  }

  // ── drawing ───────────────────────────────────────────────────────────────────────

  /** Print text into the scrollback, above the live region. */
  print(text: string): void {
    this.surface.print(text);
  }

  protected startSpinner(): void {
    if (!this.surface.live || this.spinner) return;
    this.spinner = setInterval(() => {
      this.frameIndex = (this.frameIndex + 1) % SPINNER.length;
      this.render();
    }, 100);
    // Drawing never keeps the process up on its own (the turn it shows does).
    this.spinner.unref?.();
  }

  protected stopSpinner(): void {
    if (this.spinner) clearInterval(this.spinner);
    this.spinner = undefined;
  }

  /** Draw the question's keys line when its guard ends. */
  protected scheduleGuardRender(): void {
    if (this.guardTimer) clearTimeout(this.guardTimer);
    this.guardTimer = setTimeout(() => this.render(), QUESTION_GUARD_MS + 10);
    this.guardTimer.unref();
  }

  protected scheduleRender(): void {
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
      this.print(this.theme.dim(`  ✗ ${t(this.lang, 'choice_decline')}`));
      q.resolve({ action: 'decline', reason: t(this.lang, 'inputEnded') });
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
          wait: this.waitingFor && { ...this.waitingFor, elapsedMs: this.now() - this.waitingFor.since },
        },
        queue: this.queue,
        notice: this.notice,
        // (A stand-in agent of a test may have no plan.)
        plan: planLines(this.app?.agent.plan?.(), this.surface, this.theme, this.lang),
        question: this.questionView(),
        editor: this.editor,
        hints: this.hintLines(),
        status: this.statusLine(),
        ...this.frameExtras(),
      },
      this.theme,
      this.lang,
    );
  }

  /** What a subclass adds to the live region (shell mode's prompt, a search, a choice). */
  protected frameExtras(): Partial<LiveView> {
    return {};
  }

  protected questionView(): QuestionView | undefined {
    const q = this.question;
    return q && { request: q.request, state: q.state, ready: this.now() >= q.readyAt };
  }

  /** Under the prompt: the commands that match what is typed (with what they do), or the
   * values an argument can take. */
  protected hintLines(): string[] {
    const { display } = this.completion();
    if (!display.length) return [];
    if (this.editor.text.includes(' ')) return ['  ' + display.slice(0, 12).join('  ')];
    const shown = display.slice(0, 6).map((name) => `  ${name.padEnd(10)} ${t(this.lang, `help_${name.slice(1) as CommandName}`)}`);
    if (display.length > shown.length) shown.push(`  … ${display.length - shown.length}`);
    return shown;
  }

  protected completion(): Completion {
    if (!this.editor.text.startsWith('/')) return { candidates: [], display: [] };
    return completeInput(this.editor.text, {
      profiles: this.llmProfiles?.names ?? [],
      sessions: () => (this.sessionIds ??= this.app?.agent.listSessions().map((x) => x.id) ?? []),
      custom: this.app?.commands?.map((c) => c.name) ?? [],
    });
  }

  protected refreshContextFill(): void {
    const sizes = this.app?.agent.contextSizes();
    this.contextFill = sizes && sizes.budget > 0 ? Math.round((sizes.total / sizes.budget) * 100) : undefined;
  }

  protected statusLine(): string {
    const agent = this.app?.agent;
    const parts: string[] = [];
    if (agent) {
      const runMode = agent.getRunMode();
      if (runMode === 'yolo') parts.push(this.theme.red(t(this.lang, 'statusRunMode', { mode: runMode })));
      else if (runMode !== 'default') parts.push(this.theme.yellow(t(this.lang, 'statusRunMode', { mode: runMode })));
      parts.push(agent.getMode());
      parts.push(agent.getProfile() ?? this.llmDefault ?? t(this.lang, 'defaultProfile'));
      const model = modelOf(this.llmProfiles, agent.getProfile(), agent.getMode());
      if (model) parts.push(model);
      const u = agent.usage();
      if (u.calls) parts.push(t(this.lang, 'statusTokens', { n: formatTokens(u.input_tokens + u.output_tokens) }));
      if (this.contextFill !== undefined) parts.push(t(this.lang, 'statusContext', { pct: this.contextFill }));
      const service = this.modelService?.status(this.theme);
      if (service) parts.push(service);
      const box = agent.sandboxStatus?.();
      if (box && box.kind === 'none' && box.mode !== 'off') parts.push(this.theme.yellow(t(this.lang, 'statusNoSandbox')));
      else if (box?.degraded?.length) parts.push(this.theme.yellow(t(this.lang, 'statusSandboxWeakened')));
    } else {
      parts.push(this.options.mode ?? '…', this.options.profile ?? t(this.lang, 'loading'));
    }
    const right = this.task ? t(this.lang, 'busyHint') : this.app ? '/help' : '';
    return `  ${parts.join(' · ')}  ·  ${right}`;
  }
}
