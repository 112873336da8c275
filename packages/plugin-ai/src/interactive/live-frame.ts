/** The live region at the bottom of the screen, drawn from a plain view of the screen's
 * state: streaming text, the running step's output tail, the spinner, queued messages, a
 * notice, then the prompt (or the open question) and the status line. Pure. */
import type { Lang } from '../i18n';
import type { ConfirmRequest } from '../agent/runner-types';
import { formatElapsed, formatTokens, outputLines, tail, TAIL_LINES } from './format';
import { layoutInput } from './line-editor';
import { keyHints, type QuestionState } from './question';
import { shownTitle, summaryLines } from './question-summary';
import { stepSummary } from '../agent/step-label';
import { renderVerdict } from '../agent/render-verdict';
import type { LiveFrame } from './terminal';
import type { Theme } from './theme';
import { stringWidth, truncateWidth } from './width';
import { t } from '../i18n';

export const PROMPT = '› ';
/** The rules of a question that say its step runs in a weakened OS sandbox, or none (tool-runner sandbox/notes.ts). */
const SANDBOX_NOTE = /^sandbox\.(degraded\.|unsandboxed$)/;
export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface QuestionView {
  request: ConfirmRequest;
  state: QuestionState;
  /** Whether the question takes keys yet (see the guard in screen.ts). */
  ready: boolean;
}

export interface LiveView {
  columns: number;
  rows: number;
  /** The reply's message as it streams in. */
  preview: string;
  /** Set while a turn or command runs. */
  busy?: {
    phase: 'thinking' | 'writing' | 'compacting' | 'running';
    /** The running step, for `running`. */
    step?: string;
    elapsedMs: number;
    spinnerFrame: number;
    /** Estimated tokens streamed so far in this call. */
    streamedTokens: number;
    /** The running step's output (its tail) and how many lines it printed in all. */
    output: string;
    outputNewlines: number;
    /** What the model call waits for (connection or first token) and for how long. */
    wait?: { phase: 'connect' | 'first_token'; model: string; server: string; elapsedMs: number };
  };
  queue: string[];
  notice?: string;
  /** The model's latest plan, as lines (plan-line.ts): above the prompt, not over a question. */
  plan?: string[];
  question?: QuestionView;
  editor: { text: string; cursor: number };
  /** The prompt's mark when it is not `› ` (`! ` in shell mode), already coloured, and its width. */
  promptMark?: { text: string; width: number };
  /** Ctrl+R: the reverse search shown instead of the input (its label ends where the cursor goes). */
  search?: { label: string; match: string; cursorCol: number };
  /** A choice the screen asks (where `# text` goes), shown instead of the input. */
  pick?: { title: string; choices: string[]; index: number; keys: string };
  /** Lines under the prompt: completions of what is typed. */
  hints: string[];
  status: string;
}

export function buildFrame(view: LiveView, theme: Theme, lang: Lang): LiveFrame {
  const width = view.columns;
  const lines: string[] = [];
  if (view.preview) lines.push(...tail(view.preview.split('\n'), Math.max(3, view.rows - 12)).shown);
  const busy = view.busy;
  if (busy && busy.phase === 'running' && busy.output) {
    const { shown } = tail(outputLines(busy.output.slice(-8192)), TAIL_LINES);
    const hidden = Math.max(0, busy.outputNewlines + (busy.output.endsWith('\n') ? 0 : 1) - shown.length);
    if (hidden) lines.push(theme.dim(`  │ ${t(lang, 'moreLines', { n: hidden })}`));
    for (const line of shown) lines.push(theme.dim(`  │ ${truncateWidth(line, width - 5)}`));
  }
  if (busy && !view.question) {
    const label =
      busy.phase === 'running'
        ? t(lang, 'running', { what: truncateWidth(busy.step ?? '', Math.max(10, width - 40)) })
        : busy.wait && busy.phase === 'thinking'
          ? t(lang, busy.wait.phase === 'connect' ? 'waitConnect' : 'waitFirstToken', {
              model: busy.wait.model,
              server: busy.wait.server,
              s: Math.floor(busy.wait.elapsedMs / 1000),
            })
          : t(lang, busy.phase);
    const facts = [formatElapsed(busy.elapsedMs)];
    if (busy.streamedTokens && busy.phase !== 'running')
      facts.push(`↓ ${t(lang, 'statusTokens', { n: formatTokens(busy.streamedTokens) })}`);
    facts.push(t(lang, 'interruptHint'));
    lines.push(`${theme.cyan(SPINNER[busy.spinnerFrame % SPINNER.length])} ${label} ${theme.dim(`(${facts.join(' · ')})`)}`);
  }
  for (const q of view.queue) lines.push(theme.dim(`↳ ${t(lang, 'queued', { text: truncateWidth(q.replace(/\n/g, ' '), width - 14) })}`));
  if (view.notice) lines.push(theme.yellow(view.notice));

  if (view.question) {
    const start = lines.length;
    // The choices and keys always fit: the summary gets the rows left above them.
    const question = questionParts(
      view.question,
      theme,
      lang,
      width,
      Math.max(3, view.rows - lines.length - view.question.state.choices.length - 4),
    );
    lines.push(...question.lines);
    const editing = view.question.state.editing;
    if (!editing) return { lines };
    const col = stringWidth(PROMPT) + stringWidth(editing.text.slice(0, editing.cursor));
    return { lines, cursor: { line: start + question.editLine, col } };
  }

  if (view.pick) {
    lines.push(theme.bold(theme.yellow(view.pick.title)));
    view.pick.choices.forEach((c, i) => lines.push(i === view.pick!.index ? theme.cyan(`❯ ${i + 1}. ${c}`) : `  ${i + 1}. ${c}`));
    lines.push(theme.dim(view.pick.keys));
    return { lines };
  }
  if (view.plan) lines.push(...view.plan);
  lines.push(theme.dim('─'.repeat(Math.max(10, width))));
  if (view.search) {
    const row = lines.length;
    lines.push(truncateWidth(theme.dim(view.search.label) + view.search.match.replace(/\n/g, ' ⏎ '), width - 1));
    lines.push(theme.dim(view.status));
    return { lines, cursor: { line: row, col: Math.min(width - 1, view.search.cursorCol) } };
  }
  const promptWidth = view.promptMark?.width ?? stringWidth(PROMPT);
  const layout = layoutInput(view.editor, width, view.promptMark?.text ?? theme.cyan(PROMPT), ' '.repeat(promptWidth), promptWidth);
  const maxInput = Math.max(3, view.rows - lines.length - 3);
  let rows = layout.rows;
  let cursorRow = layout.cursorRow;
  if (rows.length > maxInput) {
    // a long input shows the rows around the cursor
    const start = Math.min(Math.max(0, cursorRow - maxInput + 1), rows.length - maxInput);
    rows = rows.slice(start, start + maxInput);
    cursorRow -= start;
  }
  const inputStart = lines.length;
  lines.push(...rows);
  for (const hint of view.hints) lines.push(theme.dim(truncateWidth(hint, width - 1)));
  lines.push(theme.dim(view.status));
  return { lines, cursor: { line: inputStart + cursorRow, col: layout.cursorCol } };
}

/**
 * The confirm question: title with what runs, the step's summary (its tool's own: arguments,
 * for MCP the server and its hints), the choices (or the edit line), the keys of those choices.
 * The same lines on the live screen and the plain prompt.
 */
export function questionLines(question: QuestionView, theme: Theme, lang: Lang, width = 0): string[] {
  return questionParts(question, theme, lang, width).lines;
}

/** A child agent's question (agent.run) says whose it is. */
function agentLabel(request: { agent?: string }, theme: Theme): string {
  return request.agent ? theme.cyan(`[${request.agent}] `) : '';
}

function questionParts(
  question: QuestionView,
  theme: Theme,
  lang: Lang,
  width: number,
  maxSummary = Infinity,
): { lines: string[]; editLine: number } {
  const { request, state } = question;
  const summary = request.summary ?? stepSummary(request.step);
  const fit = (line: string) => (width > 0 ? truncateWidth(line, width - 1) : line);
  const lines = [
    theme.bold(theme.yellow(t(lang, 'confirmTitle', { level: request.verdict.level }))) +
      '  ' +
      agentLabel(request, theme) +
      theme.bold(shownTitle(summary.title)),
  ];
  // The OS sandbox it will run in, when that is weakened or missing: said in the question itself,
  // whatever else made the step L1 (the step line shows only the first rules).
  if (request.verdict.findings.some((f) => SANDBOX_NOTE.test(f.id))) {
    for (const rule of renderVerdict(request.verdict, lang).rules.filter((r) => SANDBOX_NOTE.test(r.id)))
      lines.push(theme.yellow(fit(`  ⚠ ${rule.reason}`)));
  }
  let facts = summaryLines(summary, lang);
  if (facts.length > maxSummary)
    facts = [...facts.slice(0, maxSummary - 1), t(lang, 'summaryMoreLines', { n: facts.length - maxSummary + 1 })];
  for (const line of facts) lines.push(theme.dim(fit(`  ${line}`)));
  const editLine = lines.length;
  if (state.editing) {
    lines.push(`${theme.cyan(PROMPT)}${state.editing.text}`);
    if (state.error) lines.push(theme.red(t(lang, state.error === 'empty' ? 'editEmpty' : 'editUnbalanced')));
    lines.push(theme.dim(t(lang, 'editKeys')));
    return { lines, editLine };
  }
  state.choices.forEach((choice, i) => {
    const text = `${i + 1}. ${t(lang, `choice_${choice}`, { key: request.sessionKey, rule: request.rule ?? '' })}`;
    lines.push(i === state.index ? theme.cyan(`❯ ${text}`) : `  ${text}`);
  });
  // The keys line appears once the question takes keys.
  lines.push(theme.dim(question.ready ? t(lang, 'confirmKeys', keyHints(state.choices)) : '…'));
  return { lines, editLine };
}
