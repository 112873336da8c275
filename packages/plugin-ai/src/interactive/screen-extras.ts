/**
 * The everyday conveniences of `ai -i` on top of turns: `!cmd` and shell mode, `# text` into
 * memory, Tab after `@`, Ctrl+R, Ctrl+G and `/edit`, and notifications. What each does is in its
 * own module (user-shell, memory-add, prompt-search, external-editor, notify); this layer routes
 * keys to them and shows what they did. /diff, /export and /init are in screen-commands.ts.
 */
import path = require('path');
import type { TurnResult } from '../agent/events';
import { commonPrefix, parseInput } from './commands';
import { TAIL_LINES } from './format';
import { promptOnlyKey, type InputKey } from './keys';
import type { LiveView } from './live-frame';
import { appendMemoryLine, memoryAddedEvent, memoryTargets } from './memory-add';
import { notificationSequence, notifySettings } from './notify';
import { reducePick, type PickState } from './pick';
import { reduceSearch, searchMatch, startSearch, type SearchState } from './prompt-search';
import { ScreenTurns } from './screen-turns';
import { shellStep, userRanEvent } from './user-shell';
import { stringWidth } from './width';
import { findGitRoot } from '../context/project-context';
import { editExternally } from './external-editor';
import { fireNotification } from '../extensions/notify-hook';
import { toolRunner } from '../lazy-modules';
import type { NotificationType } from '../extensions/notify-hook';
import { t } from '../i18n';

/** Lines of output a command the person ran shows on screen (a step the model ran shows 5). */
export const USER_OUTPUT_LINES = 400;

export abstract class ScreenExtras extends ScreenTurns {
  /** A lone `!` toggles it: every line is a command until `!` or Esc. */
  protected shellMode = false;
  protected pick?: { state: PickState; resolve: (index: number) => void };
  protected search?: SearchState;
  /** Paths Tab found after `@`, shown under the prompt until the next key. */
  protected atHints?: string[];

  protected get env(): NodeJS.ProcessEnv {
    return this.options.env ?? process.env;
  }

  /** The git root of the working folder, or the folder: where the project's AGENTS.md is. */
  protected get projectRoot(): string {
    return this.app?.projectDir ?? findGitRoot(this.options.cwd) ?? this.options.cwd;
  }

  /** Keys for what this layer has open (a choice, a search) and its own keys. True when taken. */
  protected extrasKey(key: InputKey): boolean {
    this.atHints = undefined;
    if (this.question) return false;
    if (this.pick) return (this.pickKey(key), true);
    if (this.search) return this.searchKey(key);
    if (key.kind === 'search') {
      this.search = startSearch(this.editor.history, this.editor.text);
      return true;
    }
    if (key.kind === 'external-edit') return (void this.editPrompt(this.editor.text), true);
    if (key.kind === 'escape' && this.shellMode && !this.task) return (this.setShellMode(false), true);
    if (key.kind === 'tab' && !this.editor.text.startsWith('/')) return this.completeAt();
    return false;
  }

  private pickKey(key: InputKey): void {
    const open = this.pick!;
    if (key.kind === 'interrupt') return this.closePick(-1);
    if (promptOnlyKey(key)) return;
    const { state, picked } = reducePick(open.state, key);
    open.state = state;
    if (picked !== undefined) this.closePick(picked);
  }

  private closePick(index: number): void {
    const open = this.pick;
    this.pick = undefined;
    open?.resolve(index);
  }

  private searchKey(key: InputKey): boolean {
    const history = this.editor.history;
    const mapped = key.kind === 'external-edit' ? ({ kind: 'cancel' } as const) : key;
    const { state, done, key: after } = reduceSearch(this.search!, mapped, history);
    this.search = state;
    if (done === undefined) return true;
    this.search = undefined;
    this.editor = { ...this.editor, text: done, cursor: done.length };
    // A cursor key that ended the search still moves on the line.
    return !after;
  }

  /** Tab after `@`: complete the path with the walker fs.glob uses; several candidates are listed. */
  private completeAt(): boolean {
    const before = this.editor.text.slice(0, this.editor.cursor);
    const m = /(^|\s)@([^\s@]*)$/.exec(before);
    if (!m) return false;
    const partial = m[2];
    const tr = toolRunner();
    const found = tr.completeWorkspacePath({ workspace: tr.findWorkspace(this.options.cwd), cwd: this.options.cwd, partial });
    if (!found.length) {
      this.notice = t(this.lang, 'atNone', { partial: `@${partial}` });
      return true;
    }
    const next = found.length === 1 ? found[0] + (found[0].endsWith('/') ? '' : ' ') : commonPrefix(found);
    const start = before.length - partial.length;
    const text = before.slice(0, start) + next + this.editor.text.slice(this.editor.cursor);
    this.editor = { ...this.editor, text, cursor: start + next.length };
    if (found.length > 1) this.atHints = found;
    return true;
  }

  protected setShellMode(on: boolean): void {
    this.shellMode = on;
  }

  /** `!cmd` and `# text`: handled here (queued behind a running turn, like a message). True when taken. */
  protected submitExtra(text: string): boolean {
    const parsed = parseInput(text);
    if (parsed.kind === 'shell' && !parsed.line) {
      this.setShellMode(!this.shellMode);
      return true;
    }
    if (parsed.kind !== 'shell' && parsed.kind !== 'remember') return false;
    if (this.task || this.pick) {
      this.queue.push(text.trim());
      return true;
    }
    if (parsed.kind === 'shell') this.runShell(parsed.line);
    else this.remember(parsed.text);
    return true;
  }

  protected override startQueued(text: string): void {
    if (!this.submitExtra(text)) this.startTurn(text);
  }

  /** Run a command the person typed: judged by the runner like a model's step, its output shown
   * in full; the model reads it with the next message. No model request. */
  protected runShell(line: string): void {
    const made = shellStep(line);
    if ('error' in made) return this.print(this.theme.yellow(t(this.lang, 'shellNotRun', { line, why: made.error })));
    const { agent } = this.app!;
    const controller = new AbortController();
    this.resetOutput();
    this.resultLines = USER_OUTPUT_LINES;
    const promise = agent
      .runUserStep(made.step, { signal: controller.signal })
      .then((result) => {
        if (result) agent.noteForNextMessage(userRanEvent(line, result));
      })
      .catch((err: unknown) => this.print(this.theme.red(String((err as Error)?.message ?? err))))
      .finally(() => {
        this.task = undefined;
        this.resultLines = TAIL_LINES;
        this.stopSpinner();
        this.afterTask(controller.signal.aborted);
      });
    this.task = { controller, started: this.now(), promise };
    this.phase = { kind: 'running', id: '', label: line };
    this.startSpinner();
  }

  /** Ask where a `# text` line goes, then add it (atomically) and tell the model with the next message. */
  protected remember(text: string): void {
    const targets = memoryTargets(this.projectRoot, this.app?.paths.home ?? '');
    const shown = (file: string) => {
      const rel = path.relative(this.options.cwd, file);
      return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file.replace(this.env.HOME ?? '\0', '~');
    };
    const choices = [
      t(this.lang, 'memoryProject', { file: shown(targets[0].file) }),
      t(this.lang, 'memoryUser', { file: shown(targets[1].file) }),
      t(this.lang, 'memoryCancel'),
    ];
    this.askPick(t(this.lang, 'memoryWhere', { text }), choices, (i) => {
      const target = targets[i];
      if (!target) return this.print(this.theme.dim(t(this.lang, 'memoryNotAdded')));
      const r = appendMemoryLine(target, text, this.projectRoot);
      if ('error' in r) {
        const e = r.error;
        const why =
          e.code === 'outside'
            ? t(this.lang, 'memoryOutside', { real: e.real })
            : e.code === 'not_file'
              ? t(this.lang, 'memoryNotFile')
              : e.message;
        return this.print(this.theme.red(t(this.lang, 'memoryFailed', { file: shown(target.file), why })));
      }
      this.app?.agent.noteForNextMessage(memoryAddedEvent(shown(r.file), target.scope, text));
      this.print(this.theme.green(t(this.lang, 'memoryAdded', { file: shown(r.file) })));
    });
  }

  /** Open a choice; in plain mode (no terminal) it is printed and the next line answers. */
  protected askPick(title: string, choices: string[], then: (index: number) => void): void {
    this.pick = { state: { title, choices, index: 0 }, resolve: (i) => (then(i), this.render()) };
    if (!this.surface.live) this.print([title, ...choices.map((c, i) => `  ${i + 1}. ${c}`)].join('\n'));
  }

  /** Ctrl+G and `/edit`: the prompt in the person's editor; what they saved goes back on the line (not sent). */
  protected async editPrompt(text: string): Promise<void> {
    if (this.task) return this.print(this.theme.yellow(t(this.lang, 'editBusy')));
    if (!this.surface.live || !this.surface.suspend || !this.surface.resume)
      return this.print(this.theme.yellow(t(this.lang, 'editNoTerminal')));
    const out = await editExternally(text, this.env, {
      suspend: () => this.surface.suspend!(),
      resume: () => {
        this.surface.resume!();
        this.render();
      },
    });
    if (out.ok) {
      this.editor = { ...this.editor, text: out.text, cursor: out.text.length };
      return this.render();
    }
    if (out.reason === 'none') return this.print(this.theme.yellow(t(this.lang, 'editNoEditor')));
    this.print(
      this.theme.yellow(
        t(this.lang, out.reason === 'unsplittable' ? 'editUnsplittable' : 'editFailed', {
          command: out.command,
          detail: out.reason === 'failed' ? out.detail : '',
        }),
      ),
    );
    this.render();
  }

  // ── notifications ────────────────────────────────────────────────────────────────

  /** Tell the person (BEL or OSC 9, and Claude Code's Notification hooks) that ai waits for them. */
  protected notifyPerson(type: NotificationType, message: string): void {
    const settings = notifySettings(this.app?.config);
    this.surface.notify?.(notificationSequence(settings.style, message));
    const app = this.app;
    if (!app?.hooks?.some((h) => h.event === 'Notification')) return;
    void fireNotification(
      {
        hooks: app.hooks,
        sessionId: app.agent.sessionId,
        transcriptPath: path.join(app.paths.sessionsDir, `${app.agent.sessionId}.jsonl`),
        cwd: this.options.cwd,
        runMode: app.agent.getRunMode(),
        env: app.hookEnv,
        projectDir: app.projectDir,
      },
      message,
      type,
    ).then((notices) => notices.forEach((n) => this.print(this.theme.dim(n))));
  }

  protected override turnDone(result: TurnResult): void {
    const started = this.task?.started;
    super.turnDone(result);
    const { afterSeconds } = notifySettings(this.app?.config);
    if (started !== undefined && result.outcome !== 'aborted' && this.now() - started >= afterSeconds * 1000)
      this.notifyPerson('idle_prompt', t(this.lang, 'notifyTurnDone'));
  }

  // ── drawing ───────────────────────────────────────────────────────────────────────

  protected override frameExtras(): Partial<LiveView> {
    const extras: Partial<LiveView> = {};
    if (this.pick) extras.pick = { ...this.pick.state, keys: t(this.lang, 'pickKeys', { n: this.pick.state.choices.length }) };
    if (this.search) {
      const prefix = t(this.lang, this.search.failed ? 'searchFailed' : 'searchLabel');
      const label = `${prefix}'${this.search.query}': `;
      extras.search = {
        label,
        match: searchMatch(this.search, this.editor.history) ?? '',
        cursorCol: stringWidth(prefix) + 1 + stringWidth(this.search.query),
      };
    }
    if (this.shellMode) extras.promptMark = { text: this.theme.bold(this.theme.yellow('! ')), width: 2 };
    return extras;
  }

  protected override statusLine(): string {
    const line = super.statusLine();
    return this.shellMode ? `  ${this.theme.yellow(t(this.lang, 'statusShell'))} ·${line.slice(1)}` : line;
  }

  protected override hintLines(): string[] {
    if (this.atHints)
      return ['  ' + this.atHints.slice(0, 12).join('  ') + (this.atHints.length > 12 ? `  … ${this.atHints.length - 12}` : '')];
    return super.hintLines();
  }
}
