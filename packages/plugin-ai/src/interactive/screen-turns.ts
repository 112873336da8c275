/**
 * What turns and agent events put on the `ai -i` screen: running a turn or /compact, the
 * streamed preview, steps, their output and results, replies, and what comes after a turn.
 */
import { attachedText, attachFromLine, DEFAULT_IMAGE_MAX_BYTES, imageProblemText } from '../context/images';
import os = require('os');
import path = require('path');
import type { AgentEvent, TurnResult } from '../agent/events';
import { t } from '../i18n';
import type { Reply } from '../context/protocol';
import type { ToolResult } from '../agent/runner-types';
import { planLines } from './plan-line';
import { hooksText, skillsText } from './trust-view';
import { agentsText } from './agents-view';
import { checksText } from './checks-view';
import { renderVerdict } from '../agent/render-verdict';
import { describeStep, formatResult, formatStep, TAIL_LINES } from './format';
import { setText } from './line-editor';
import type { CustomCommand } from '../extensions/commands';
import { commandTurnFor, fileRefsFor, findCommand } from '../extensions/command-run';
import { createMarkdownRenderer, looksLikeMarkdown } from './markdown';
import { PROMPT } from './live-frame';
import { truncateWidth } from './width';
import { OUTPUT_KEEP, ScreenBase } from './screen-base';
import { countNewlines } from './screen-text';
import { colorDiff } from './screen-text';

export abstract class ScreenTurns extends ScreenBase {
  /** `/compact` is running: it prints its own, fuller report of the compaction. */
  private compactCommand = false;
  /** Images attached (`@shot.png`) for the next message. */
  protected pendingImages: import('../context/images').ImageAttachment[] = [];
  /** Lines of output a finished step shows (more for a command the person ran: shell-view sets it). */
  protected resultLines = TAIL_LINES;
  /** The id of the interactive plugin step about to run or running on the terminal itself. */
  private handedOver?: { id: string; suspended: boolean };

  protected echoLine(text: string): string {
    const lines = text.split('\n');
    return (
      (this.surface.live ? '\n' : '') +
      lines.map((l, i) => (i === 0 ? this.theme.bold(this.theme.cyan(PROMPT)) + this.theme.bold(l) : '  ' + this.theme.bold(l))).join('\n')
    );
  }

  // ── turns ─────────────────────────────────────────────────────────────────────────

  /** Attach the images a typed line names to the next message: the text to send (empty when the
   * line only named an image), or undefined when one could not be attached (said why). */
  protected attachImages(text: string): string | undefined {
    const maxBytes = this.app?.config.images?.maxBytes ?? DEFAULT_IMAGE_MAX_BYTES;
    const r = attachFromLine(text, this.options.cwd, maxBytes);
    if ('problem' in r) return void this.print(this.theme.red(imageProblemText(this.lang, r.problem, this.options.cwd, maxBytes)));
    for (const image of r.images) this.print(this.theme.dim(attachedText(this.lang, image)));
    this.pendingImages.push(...r.images);
    return r.text;
  }

  /** The custom command a typed line calls (`/review src`), if any. */
  protected customCommand(text: string): CustomCommand | undefined {
    return findCommand(text, this.app?.commands)?.command;
  }

  /** Start a turn with a message, or with a custom command's prompt (its front matter may
   * name a profile and a tier for that turn). */
  protected startTurn(text: string): void {
    const { agent } = this.app!;
    const custom = text === 'continue' ? undefined : commandTurnFor(this.app!, text, this.options.cwd);
    for (const n of custom?.notes ?? []) this.print(this.theme.yellow(t(this.lang, n.key, n.vars)));
    if (custom?.refused) return this.print(this.theme.yellow(t(this.lang, custom.refused.key, custom.refused.vars)));
    const message = custom?.message ?? text;
    // `@path` of a text file in a typed message: read by an fs.read step when the turn starts.
    const overrides =
      custom?.options ??
      (text === 'continue'
        ? undefined
        : fileRefsFor(this.app!, text, this.options.cwd, {
            lang: this.lang,
            onSkip: (rel, why) => this.print(this.theme.yellow(t(this.lang, 'fileRefSkipped', { file: rel, why }))),
          })) ??
      {};
    const controller = new AbortController();
    this.phase = { kind: 'thinking' };
    this.waitingFor = undefined;
    this.preview = '';
    this.streamed = '';
    this.plannedSteps = 0;
    this.resetOutput();
    // Images attached since the last message go with this one.
    const images = text === 'continue' ? [] : this.pendingImages.splice(0);
    const promise = (
      text === 'continue'
        ? agent.continue({ signal: controller.signal })
        : agent.send(message, { ...overrides, ...(images.length ? { images } : {}), signal: controller.signal })
    ).then(
      (result) => ((this.lastTurnUsage = result.usage), this.turnDone(result)),
      (err: unknown) => this.turnFailed(err),
    );
    this.task = { controller, started: this.now(), promise };
    this.startSpinner();
  }

  protected async compact(): Promise<void> {
    const { agent } = this.app!;
    const controller = new AbortController();
    this.phase = { kind: 'compacting' };
    this.compactCommand = true;
    let resolveDone!: () => void;
    const promise = new Promise<void>((r) => (resolveDone = r));
    this.task = { controller, started: this.now(), promise };
    this.startSpinner();
    try {
      const before = agent.contextSizes();
      const r = await agent.compact({ signal: controller.signal });
      if (!r) {
        this.print(t(this.lang, 'compactNone', { total: before.window }));
      } else {
        const sizes = agent.contextSizes();
        const summary = agent.summary();
        const lines = [
          t(this.lang, 'compactDone', {
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
        for (const fact of summary?.keyFacts.slice(0, 5) ?? [])
          lines.push(this.theme.dim(`  · ${truncateWidth(fact, this.surface.columns - 6)}`));
        for (const task of summary?.openTasks.slice(0, 5) ?? [])
          lines.push(this.theme.dim(`  ○ ${truncateWidth(task, this.surface.columns - 6)}`));
        this.print(lines.join('\n'));
      }
    } finally {
      this.compactCommand = false;
      this.task = undefined;
      this.stopSpinner();
      resolveDone();
      this.afterTask(false);
    }
  }

  protected turnDone(result: TurnResult): void {
    this.task = undefined;
    this.stopSpinner();
    this.flushPreview(result.outcome === 'aborted');
    switch (result.outcome) {
      case 'answered':
        break;
      case 'aborted':
        this.print(this.theme.yellow(t(this.lang, 'interrupted')));
        break;
      case 'step_limit':
        this.print(this.theme.yellow(result.message));
        break;
      default:
        this.print(this.theme.red(result.message));
    }
    this.afterTask(result.outcome === 'aborted');
  }

  protected turnFailed(err: unknown): void {
    this.task = undefined;
    this.stopSpinner();
    this.flushPreview(true);
    this.print(this.theme.red(t(this.lang, 'unexpected', { detail: (err as Error)?.message ?? String(err) })));
    this.afterTask(true);
  }

  /** After a turn: go on with the queue, or (after an interruption) give it back to the input. */
  protected afterTask(interrupted: boolean): void {
    this.refreshContextFill();
    this.sessionIds = undefined;
    if (this.closing) return this.render();
    if (this.queue.length) {
      if (interrupted) {
        const restored = [...this.queue.splice(0), this.editor.text].filter(Boolean).join('\n');
        this.editor = setText(this.editor, restored);
        this.print(this.theme.dim(t(this.lang, 'restoredQueue')));
      } else {
        const next = this.queue.shift()!;
        this.print(this.echoLine(next));
        this.startQueued(next);
      }
    }
    this.render();
  }

  /** A queued input whose turn has come (a message; `ai -i` also queues `!cmd` and `# text`). */
  protected startQueued(text: string): void {
    this.startTurn(text);
  }

  protected resetOutput(): void {
    this.output = '';
    this.outputNewlines = 0;
  }

  /** A streamed message that never became a reply (interrupted, or failed) stays visible. */
  protected flushPreview(keep: boolean): void {
    if (keep && this.preview.trim()) this.print(this.preview);
    this.preview = '';
  }

  protected onEvent(event: AgentEvent): void {
    try {
      this.showEvent(event);
    } catch (err) {
      // A drawing problem must not break the turn: say it and go on.
      this.print(this.theme.red(t(this.lang, 'unexpected', { detail: (err as Error)?.message ?? String(err) })));
    }
    this.scheduleRender();
  }

  protected showEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'wait':
        this.waitingFor =
          event.phase === 'streaming' ? undefined : { phase: event.phase, model: event.model, server: event.server, since: this.now() };
        break;
      case 'request':
        this.waitingFor = undefined;
        this.streamed = '';
        if (event.purpose === 'summary') this.phase = { kind: 'compacting' };
        else if (this.phase.kind !== 'running') this.phase = { kind: 'thinking' };
        break;
      case 'text':
        this.waitingFor = undefined;
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
        if (event.verdict.findings.some((f) => f.id === 'mode.plan')) this.plannedSteps++;
        // An interactive plugin gets the terminal itself once it is allowed to run.
        if (event.verdict.findings.some((f) => f.id === 'plugin.interactive')) this.handedOver = { id: event.id, suspended: false };
        // The edge that shows the step: its verdict worded here, in the screen's language.
        this.print(formatStep(event.step, renderVerdict(event.verdict, this.lang), this.theme, this.lang, event.label).join('\n'));
        this.phase = { kind: 'running', id: event.id, label: event.label ?? describeStep(event.step) };
        this.resetOutput();
        break;
      case 'output':
        // A fast stream past 8 MiB comes in samples: the gap before one is shown as such.
        if (event.skipped) this.output += '\n…\n';
        this.output += event.chunk;
        this.outputNewlines += countNewlines(event.chunk);
        if (this.output.length > OUTPUT_KEEP * 2) this.output = this.output.slice(-OUTPUT_KEEP);
        break;
      case 'confirm_answer':
        if (this.handedOver?.id === event.id && event.answer.action !== 'decline') {
          this.handedOver.suspended = true;
          this.stopSpinner();
          this.surface.suspend?.();
        }
        break;
      case 'tool_result':
        if (this.handedOver?.id === event.result.id) {
          if (this.handedOver.suspended) {
            this.surface.resume?.();
            if (this.task) this.startSpinner();
          }
          this.handedOver = undefined;
        }
        this.showResult(event.result);
        this.phase = { kind: 'thinking' };
        this.resetOutput();
        break;
      case 'compaction':
        // `/compact` reports its own result, in more detail: print it once.
        if (!this.compactCommand)
          this.print(this.theme.dim(t(this.lang, 'compacted', { method: event.method, before: event.before, after: event.after })));
        if (this.phase.kind === 'compacting') this.phase = { kind: 'thinking' };
        break;
      case 'repair':
        this.print(this.theme.dim(t(this.lang, 'repairing', { error: event.error })));
        break;
      case 'log':
        this.print(this.theme.dim(event.message));
        break;
      case 'plan':
        // The live screen draws the latest plan above the prompt; a plain one prints each update.
        if (!this.surface.live)
          this.print(planLines(event.items, { columns: this.surface.columns, rows: 24 }, this.theme, this.lang).join('\n'));
        break;
      default:
        break;
    }
  }

  protected showReply(reply: Reply, raw: boolean): void {
    if (reply.type === 'chat') {
      const text = reply.message;
      const markdown = !raw && looksLikeMarkdown(text, reply.data?.format);
      const body = markdown ? this.renderMarkdown(text) : text;
      const lines = [raw ? this.theme.dim(t(this.lang, 'rawMarker')) : '', body].filter(Boolean);
      const offered = (reply.data?.suggestions ?? []).filter((s) => s.trim() !== '');
      // In plan mode an answer after steps plan mode held back is a plan: running it is the first
      // quick reply (a greeting or a plain answer offers nothing to run).
      const plan = this.app?.agent.getRunMode() === 'plan' && this.plannedSteps > 0;
      const suggestions = (plan ? [t(this.lang, 'runPlan'), ...offered] : offered).slice(0, 9);
      this.suggestions = suggestions;
      this.suggestionIndex = -1;
      if (suggestions.length)
        lines.push(
          this.theme.dim(suggestions.map((s, i) => `${i + 1} › ${s}`).join('   ')),
          this.theme.dim(t(this.lang, 'suggestionsHint')),
        );
      this.print(lines.join('\n'));
    } else if (reply.type === 'cmd') {
      if (reply.message) this.print(this.theme.italic(reply.message));
      const expected = reply.data.expected_effect;
      if (expected) this.print(this.theme.dim(t(this.lang, 'expected', { text: expected })));
    }
    // an error reply is shown from the turn's result
  }

  protected renderMarkdown(text: string): string {
    this.markdown ??= createMarkdownRenderer({ color: this.theme.enabled, width: Math.min(100, this.surface.columns - 2) });
    try {
      return this.markdown(text);
    } catch {
      return text; // the answer matters more than its styling
    }
  }

  protected showResult(result: ToolResult): void {
    const home = os.homedir();
    const file = this.app?.paths.config ?? 'plugin-configs/ai.json';
    const configFile = file.startsWith(home + path.sep) ? '~' + file.slice(home.length) : file;
    // An edit that ran without a question streamed its diff: it stays on screen, coloured.
    const edited = (result.tool === 'fs.edit' || result.tool === 'fs.write') && result.status === 'applied' && this.output.trim();
    if (edited) this.print(colorDiff(this.output.trimEnd(), this.theme).join('\n'));
    this.print(
      formatResult(
        result,
        edited ? '' : this.output,
        this.theme,
        this.lang,
        configFile,
        edited ? 0 : this.outputNewlines,
        this.resultLines,
      ).join('\n'),
    );
  }

  /**
   * The commands of extensions: `/skills`, `/hooks`, `/agents` and `/checks` print what the session
   * has; `/review` starts its turn (as a command would: a `review` command file was found before).
   * True when `name` was one of them.
   */
  protected extensionCommand(name: string, arg: string): boolean {
    const app = this.app!;
    if (name === 'review') {
      const text = `/review ${arg}`.trim();
      if (this.task) this.queue.push(text);
      else this.startTurn(text);
      return true;
    }
    const views: Record<string, () => string> = {
      skills: () => skillsText(app.skills ?? [], this.lang),
      hooks: () => hooksText(app.hooks ?? [], this.lang),
      agents: () => agentsText(app.agents ?? [], app.agentProblems ?? [], this.theme, this.lang),
      checks: () =>
        checksText(app.checks ?? [], app.checkProblems ?? [], app.agent.checkAnswers?.(), app.paths.config, this.theme, this.lang),
    };
    const view = Object.hasOwn(views, name) ? views[name] : undefined;
    if (view) this.print(view());
    return view !== undefined;
  }
}
