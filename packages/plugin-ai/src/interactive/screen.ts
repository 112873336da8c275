/**
 * The controller of `ai -i`: keys in, agent events in, lines and a live region out. The
 * line editor and the confirm question are pure state machines (line-editor.ts,
 * question.ts); this class routes keys to them and what was typed to a turn or a command. The
 * slash commands live in screen-commands.ts, what turns print in screen-turns.ts, the live
 * region and its state in screen-base.ts. While a turn runs the prompt stays live: typing is kept, Enter queues, /steer redirects.
 */
import { imageRefs } from '../context/images';
import path = require('path');
import type { AgentConfirmAnswer } from '../agent/agent';
import type { AppAgent } from '../cli/app';
import { t } from '../i18n';
import { RUN_MODES, type ConfirmRequest } from '../agent/runner-types';
import { commonPrefix, COMMANDS, parseInput } from './commands';
import { describeStep } from './format';
import { promptOnlyKey, type InputKey } from './keys';
import { reduce, setText } from './line-editor';
import { createQuestion, joinWords, reduceQuestion } from './question';
import { questionLines } from './live-frame';
import { QUESTION_GUARD_MS, TYPING_RECENTLY_MS } from './screen-base';
import { ScreenCommands } from './screen-commands';
import { colorDiff, readLlmProfiles, withWords, wordsOf } from './screen-text';
import { ModelServiceView } from './model-service-view';
import { REPLY_ROOM_TOKENS } from '../agent/agent-model';
import { startNotices } from '../cli/start-notices';
import { addAllowRule } from '../sessions/permissions-store';
import { findGitRoot } from '../context/project-context';

export type { ScreenOptions, Surface } from './screen-base';

/** The `ai -i` screen: routes keys to the editor or the open question, runs commands. */
export class Screen extends ScreenCommands {
  /** The agent is ready: subscribe and run what was typed meanwhile. */
  attach(app: AppAgent, initial?: { continueLast?: boolean; prompt?: string }): void {
    this.app = app;
    if (this.closing) return; // left while loading
    this.refreshContextFill();
    this.llmProfiles = readLlmProfiles(path.join(app.paths.home, 'plugin-configs', 'llm-base.json'));
    this.llmDefault = this.llmProfiles?.defaultName;
    app.agent.on((event) => this.onEvent(event));
    for (const line of startNotices(app, this.lang, this.options.cwd)) this.print(this.theme.yellow(line));
    if (app.llm?.service) {
      // A local Ollama: its state in the status line, the model warmed up while the user types.
      this.modelService = new ModelServiceView(app.llm, this.lang, {
        print: (text) => this.print(this.theme.yellow(text)),
        render: () => this.render(),
      });
      void this.modelService.start(app.agent.getProfile(), app.agent.getMode(), app.config.context.maxRequestTokens + REPLY_ROOM_TOKENS);
    }
    if (initial?.continueLast) {
      this.print(app.agent.resumeLast() ? this.resumedText(app.agent.sessionId, 0) : t(this.lang, 'noSessionHere'));
    }
    this.render();
    if (initial?.prompt) this.submit(initial.prompt, true);
    for (const text of this.waitingForAgent.splice(0)) this.submit(text, false);
  }

  /** The confirm callback given to the agent: shows the question, resolves with the answer. */
  confirm = (request: ConfirmRequest, options: { signal?: AbortSignal } = {}): Promise<AgentConfirmAnswer> => {
    if (request.verdict.level === 'L2') return Promise.resolve({ action: 'decline', reason: t(this.lang, 'declinedByUser') });
    if (this.closing || this.task?.controller.signal.aborted) {
      return Promise.resolve({ action: 'decline', reason: t(this.lang, 'interruptedByUser') });
    }
    return new Promise((resolve) => {
      if (request.preview) {
        const fields = request.step as unknown as Record<string, unknown>;
        const target = fields.file ?? fields.path;
        const file = typeof target === 'string' ? target : describeStep(request.step);
        this.print([this.theme.bold(`  ${t(this.lang, 'preview', { file })}`), ...colorDiff(request.preview, this.theme)].join('\n'));
      }
      const words = wordsOf(request.step);
      const now = this.now();
      const guarded = this.surface.live && now - this.lastKeyAt < TYPING_RECENTLY_MS;
      this.question = {
        request,
        state: createQuestion(words.length > 0, Boolean(request.rule)),
        words,
        resolve,
        readyAt: guarded ? now + QUESTION_GUARD_MS : now,
      };
      // Withdrawn (its time-out ran out): the question goes away and says so; the agent declines.
      options.signal?.addEventListener(
        'abort',
        () => {
          if (this.question?.request !== request) return;
          this.question = undefined;
          this.print(this.theme.dim(`  ✗ ${t(this.lang, 'questionWithdrawn')}`));
          this.render();
          resolve({ action: 'decline', reason: t(this.lang, 'questionWithdrawn') });
        },
        { once: true },
      );
      if (guarded) this.scheduleGuardRender();
      if (!this.surface.live) this.print(questionLines(this.questionView()!, this.theme, this.lang).join('\n'));
      this.notifyPerson(
        'permission_prompt',
        t(this.lang, 'notifyQuestion', { step: request.summary?.title ?? describeStep(request.step) }),
      );
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
    if (this.extrasKey(key)) return;
    if (key.kind === 'search' || key.kind === 'external-edit') return;
    if (key.kind === 'interrupt') return this.interrupt();
    if (key.kind === 'redraw') return this.surface.clearScreen();
    if (key.kind === 'paste-start' || key.kind === 'paste-end') return;
    if (this.question) {
      if (this.now() >= this.question.readyAt) return this.questionKey(key);
      // Still typing for the prompt: the key goes there and the guard starts again.
      this.question.readyAt = this.now() + QUESTION_GUARD_MS;
      this.scheduleGuardRender();
      if (key.kind === 'escape' || key.kind === 'tab' || key.kind === 'shift-tab') return;
    }
    if (key.kind === 'escape') {
      // Esc stops a running turn, as in the assistants people know; idle it does nothing.
      if (this.task) this.task.controller.abort();
      return;
    }
    if (key.kind === 'shift-tab') return this.cycleRunMode();
    if (this.quickReply(key)) return;
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
    // In shell mode every line is a command; a lone `!` leaves it.
    const text = this.shellMode && action.text.trim() ? `!${action.text.trim() === '!' ? '' : action.text}` : action.text;
    this.options.history?.append(text);
    this.submit(text, true);
  }

  private questionKey(key: InputKey): void {
    const q = this.question!;
    if (promptOnlyKey(key) || key.kind === 'eof' || key.kind === 'interrupt') return;
    const { state, outcome } = reduceQuestion(q.state, key, q.words);
    q.state = state;
    if (!outcome) return;
    this.question = undefined;
    let answer: AgentConfirmAnswer;
    if ('edited' in outcome) {
      answer = { action: 'edit', step: withWords(q.request.step, outcome.edited) };
      this.print(this.theme.dim(`  ✎ ${joinWords(outcome.edited)}`));
    } else if (outcome.choice === 'decline') {
      answer = { action: 'decline', reason: t(this.lang, 'declinedByUser') };
      this.print(this.theme.dim(`  ✗ ${t(this.lang, 'choice_decline')}`));
    } else if ((outcome.choice === 'allow-always' || outcome.choice === 'allow-project') && q.request.rule) {
      answer = { action: 'allow-rule' };
      this.print(this.theme.dim(`  ✓ ${this.saveRule(q.request.rule, outcome.choice === 'allow-project')}`));
    } else {
      answer = { action: outcome.choice === 'allow-always' || outcome.choice === 'allow-project' ? 'run' : outcome.choice };
      this.print(this.theme.dim(`  ✓ ${t(this.lang, `choice_${outcome.choice}`, { key: q.request.sessionKey })}`));
    }
    q.resolve(answer);
  }

  /** Ctrl+C: stop what runs; else clear the input; else arm, and on the second press leave. */
  private interrupt(): void {
    if (this.question) {
      const q = this.question;
      this.question = undefined;
      q.resolve({ action: 'decline', reason: t(this.lang, 'interruptedByUser') });
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
    this.notice = t(this.lang, 'exitHint');
  }

  private disarmExit(): void {
    this.exitArmed = false;
    if (this.notice === t(this.lang, 'exitHint')) this.notice = undefined;
  }

  // ── what was typed ────────────────────────────────────────────────────────────────

  /** Shift+Tab: the next mode (plan → default → auto-edit → yolo); yolo is skipped, with why, without the sandbox. */
  private cycleRunMode(): void {
    const agent = this.app?.agent;
    if (!agent || this.task) return;
    const at = RUN_MODES.indexOf(agent.getRunMode());
    let skipped = '';
    for (let i = 1; i <= RUN_MODES.length; i++) {
      const next = RUN_MODES[(at + i) % RUN_MODES.length];
      const r = agent.setRunMode(next);
      if (r.ok) {
        this.notice = t(this.lang, 'runModeNow', { mode: next }) + skipped;
        return;
      }
      skipped = ` (${t(this.lang, 'runModeSkipped', { mode: next, reason: r.reason })})`;
    }
  }

  /** "Yes, and don't ask again": the rule goes into ai.json (the runner applies it from now on either way). */
  private saveRule(rule: string, here: boolean): string {
    const file = this.app!.paths.config;
    try {
      addAllowRule(file, rule, here ? (findGitRoot(this.options.cwd) ?? this.options.cwd) : undefined);
      return t(this.lang, 'ruleSaved', { rule, file });
    } catch (err) {
      return t(this.lang, 'ruleNotSaved', { rule, file, reason: (err as Error).message });
    }
  }

  /**
   * The last answer's suggestions on an empty prompt: a digit 1–9 puts that one in the prompt,
   * Tab goes through them (Enter sends, editing first is fine). Anything else ends the offer.
   */
  private quickReply(key: InputKey): boolean {
    if (!this.suggestions.length || this.task) return false;
    const picked = this.editor.text === '' || this.suggestions.includes(this.editor.text);
    if (picked && key.kind === 'text' && /^[1-9]$/.test(key.text) && Number(key.text) <= this.suggestions.length) {
      this.suggestionIndex = Number(key.text) - 1;
      this.editor = setText(this.editor, this.suggestions[this.suggestionIndex]);
      return true;
    }
    if (picked && key.kind === 'tab') {
      this.suggestionIndex = (this.suggestionIndex + 1) % this.suggestions.length;
      this.editor = setText(this.editor, this.suggestions[this.suggestionIndex]);
      return true;
    }
    if (key.kind === 'enter' || (key.kind === 'text' && !picked)) this.suggestions = [];
    return false;
  }

  private submit(text: string, echo: boolean): void {
    const parsed = parseInput(text);
    if (parsed.kind === 'empty') return;
    // A message typed during a turn is shown as queued, and echoed when its turn starts.
    const waits = parsed.kind === 'message' || parsed.kind === 'remember' || (parsed.kind === 'shell' && parsed.line !== '');
    const queued = waits && this.task !== undefined;
    if (echo && !queued) this.print(this.echoLine(text));
    if (!this.app) {
      this.waitingForAgent.push(text);
      return;
    }
    // "Run this plan" (offered under an answer in plan mode): back to default mode, then go.
    if (parsed.kind === 'message' && text.trim() === t(this.lang, 'runPlan') && this.app.agent.getRunMode() === 'plan') {
      this.app.agent.setRunMode('default');
      this.print(this.theme.dim(t(this.lang, 'runModeNow', { mode: 'default' })));
    }
    if (this.customCommand(text)) {
      // A custom command is a prompt template, expanded when its turn starts (startTurn).
      if (this.task) return void this.queue.push(text.trim());
      return this.startTurn(text.trim());
    }
    if (this.submitExtra(text)) return this.render();
    if (parsed.kind === 'unknown') {
      // A dropped file's absolute path looks like a command: an image that exists is attached instead.
      if (imageRefs(text).alone && this.attachImages(text) !== text) return this.render();
      const suggest = parsed.suggestion ? t(this.lang, 'didYouMean', { name: parsed.suggestion }) : '';
      this.print(
        this.theme.yellow(t(this.lang, 'unknownCommand', { name: parsed.name, suggest, list: COMMANDS.map((c) => `/${c}`).join(' ') })),
      );
      return;
    }
    if (parsed.kind === 'message') {
      // Images (`@shot.png`, or a dropped file's path alone on the line) go with the next message.
      const attached = this.attachImages(parsed.text);
      if (attached === undefined || !attached.trim()) return this.render();
      if (this.task) {
        this.queue.push(attached);
        return;
      }
      this.startTurn(attached);
      return;
    }
    if (parsed.kind !== 'command') return;
    void this.command(parsed.name, parsed.arg)
      .catch((err: unknown) => this.print(this.theme.red(String((err as Error)?.message ?? err))))
      .then(() => {
        this.refreshContextFill();
        this.render();
      });
  }

  /** A queued line whose turn has come: what it is decides (a message, `!cmd`, `# text`, a queued /init). */
  protected override startQueued(text: string): void {
    this.submit(text, false);
  }
}
