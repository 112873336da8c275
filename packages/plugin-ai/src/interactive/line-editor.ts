/**
 * The input line as a pure state machine over key events: `reduce(state, key)` returns the
 * next state and what the caller should do (submit, leave). Multi-line text is one string
 * with `\n`; the cursor is an index into it. Ctrl+C is not handled here: what it means
 * depends on whether a turn runs (see the screen controller).
 */
import { charWidth, wrapLine } from './width';

export type EditorKey =
  | { kind: 'text'; text: string }
  | { kind: 'enter' }
  | { kind: 'newline' }
  | { kind: 'backspace' }
  | { kind: 'delete' }
  | { kind: 'left' }
  | { kind: 'right' }
  | { kind: 'up' }
  | { kind: 'down' }
  | { kind: 'home' }
  | { kind: 'end' }
  | { kind: 'word-left' }
  | { kind: 'word-right' }
  | { kind: 'kill-start' }
  | { kind: 'kill-end' }
  | { kind: 'kill-word' }
  | { kind: 'eof' };

export interface EditorState {
  text: string;
  /** Index into `text` (UTF-16 units, always on a code point boundary). */
  cursor: number;
  /** Oldest first. */
  history: string[];
  /** `history.length` means the draft (not browsing history). */
  historyIndex: number;
  /** What was being typed before browsing history. */
  draft: string;
}

export type EditorAction = { type: 'submit'; text: string } | { type: 'eof' };

export interface EditorResult {
  state: EditorState;
  action?: EditorAction;
}

export function createEditor(history: string[] = [], text = ''): EditorState {
  return { text, cursor: text.length, history: [...history], historyIndex: history.length, draft: '' };
}

/** Replace the text (cursor at the end), leaving history browsing. */
export function setText(state: EditorState, text: string): EditorState {
  return { ...state, text, cursor: text.length, historyIndex: state.history.length, draft: '' };
}

const lineStart = (text: string, at: number): number => text.lastIndexOf('\n', at - 1) + 1;
const lineEnd = (text: string, at: number): number => {
  const i = text.indexOf('\n', at);
  return i < 0 ? text.length : i;
};

function prevBoundary(text: string, at: number): number {
  if (at <= 0) return 0;
  const code = text.charCodeAt(at - 1);
  return code >= 0xdc00 && code <= 0xdfff && at >= 2 ? at - 2 : at - 1;
}

function nextBoundary(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff && at + 1 < text.length ? at + 2 : at + 1;
}

const isWord = (ch: string): boolean => /[\p{L}\p{N}_]/u.test(ch);

function wordLeft(text: string, at: number): number {
  let i = at;
  while (i > 0 && !isWord(text[i - 1])) i--;
  while (i > 0 && isWord(text[i - 1])) i--;
  return i;
}

function wordRight(text: string, at: number): number {
  let i = at;
  while (i < text.length && !isWord(text[i])) i++;
  while (i < text.length && isWord(text[i])) i++;
  return i;
}

/** Column (in display cells) of `at` within its line. */
function columnOf(text: string, at: number): number {
  let w = 0;
  for (const ch of text.slice(lineStart(text, at), at)) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** Index in the line starting at `start` closest to display column `col`. */
function indexAtColumn(text: string, start: number, col: number): number {
  const end = lineEnd(text, start);
  let w = 0;
  let i = start;
  while (i < end) {
    const next = nextBoundary(text, i);
    const cw = charWidth(text.codePointAt(i)!);
    if (w + cw > col) break;
    w += cw;
    i = next;
  }
  return i;
}

/** The keys that only move the cursor, and where each moves it to. */
const MOVES = {
  left: prevBoundary,
  right: nextBoundary,
  home: lineStart,
  end: lineEnd,
  'word-left': wordLeft,
  'word-right': wordRight,
} satisfies Partial<Record<EditorKey['kind'], (text: string, at: number) => number>>;

function edit(state: EditorState, text: string, cursor: number): EditorState {
  return { ...state, text, cursor };
}

function browse(state: EditorState, index: number): EditorState {
  const draft = state.historyIndex === state.history.length ? state.text : state.draft;
  const text = index === state.history.length ? draft : state.history[index];
  return { ...state, text, cursor: text.length, historyIndex: index, draft };
}

/** Normalise pasted or typed text: CRLF/CR become LF, tabs two spaces, other controls dropped. */
export function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, '  ')
      // eslint-disable-next-line no-control-regex -- pasted control characters must not reach the terminal
      .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
  );
}

/** Apply one key. Pure. */
export function reduce(state: EditorState, key: EditorKey): EditorResult {
  const { text, cursor } = state;
  switch (key.kind) {
    case 'text': {
      const add = cleanText(key.text);
      if (!add) return { state };
      return { state: edit(state, text.slice(0, cursor) + add + text.slice(cursor), cursor + add.length) };
    }
    case 'newline':
      return { state: edit(state, text.slice(0, cursor) + '\n' + text.slice(cursor), cursor + 1) };
    case 'enter': {
      // A trailing backslash continues the input on a new line.
      if (cursor === lineEnd(text, cursor) && cursor > 0 && text[cursor - 1] === '\\') {
        return { state: edit(state, text.slice(0, cursor - 1) + '\n' + text.slice(cursor), cursor) };
      }
      const submitted = text;
      const history =
        submitted.trim() && state.history[state.history.length - 1] !== submitted ? [...state.history, submitted] : state.history;
      return {
        state: { text: '', cursor: 0, history, historyIndex: history.length, draft: '' },
        action: { type: 'submit', text: submitted },
      };
    }
    case 'backspace': {
      if (cursor === 0) return { state };
      const at = prevBoundary(text, cursor);
      return { state: edit(state, text.slice(0, at) + text.slice(cursor), at) };
    }
    case 'delete': {
      if (cursor >= text.length) return { state };
      return { state: edit(state, text.slice(0, cursor) + text.slice(nextBoundary(text, cursor)), cursor) };
    }
    case 'eof':
      if (!text) return { state, action: { type: 'eof' } };
      return reduce(state, { kind: 'delete' });
    case 'left':
    case 'right':
    case 'home':
    case 'end':
    case 'word-left':
    case 'word-right':
      return { state: edit(state, text, MOVES[key.kind](text, cursor)) };
    case 'kill-start': {
      const start = lineStart(text, cursor);
      const from = start === cursor && cursor > 0 ? cursor - 1 : start; // at a line start: join with the previous line
      return { state: edit(state, text.slice(0, from) + text.slice(cursor), from) };
    }
    case 'kill-end': {
      const end = lineEnd(text, cursor);
      const to = end === cursor && cursor < text.length ? cursor + 1 : end;
      return { state: edit(state, text.slice(0, cursor) + text.slice(to), cursor) };
    }
    case 'kill-word': {
      const from = wordLeft(text, cursor);
      return { state: edit(state, text.slice(0, from) + text.slice(cursor), from) };
    }
    case 'up': {
      const start = lineStart(text, cursor);
      if (start > 0) {
        const prevStart = lineStart(text, start - 1);
        return { state: edit(state, text, indexAtColumn(text, prevStart, columnOf(text, cursor))) };
      }
      if (state.historyIndex === 0 || !state.history.length) return { state };
      return { state: browse(state, state.historyIndex - 1) };
    }
    case 'down': {
      const end = lineEnd(text, cursor);
      if (end < text.length) {
        return { state: edit(state, text, indexAtColumn(text, end + 1, columnOf(text, cursor))) };
      }
      if (state.historyIndex >= state.history.length) return { state };
      return { state: browse(state, state.historyIndex + 1) };
    }
  }
}

/** Rows of the input as drawn (prompt on the first line, indent on the others), wrapped to
 * `width`, with the cursor's row and column. Pure. */
export function layoutInput(
  state: Pick<EditorState, 'text' | 'cursor'>,
  width: number,
  prompt: string,
  indent: string,
  promptWidth: number,
): { rows: string[]; cursorRow: number; cursorCol: number } {
  const rows: string[] = [];
  let cursorRow = 0;
  let cursorCol = 0;
  let offset = 0;
  const lines = state.text.split('\n');
  lines.forEach((line, n) => {
    const prefix = n === 0 ? prompt : indent;
    const wrapped = wrapLine(line, Math.max(1, width - promptWidth));
    const lineCursor = state.cursor >= offset && state.cursor <= offset + line.length ? state.cursor - offset : -1;
    let consumed = 0;
    wrapped.forEach((part, k) => {
      const first = k === 0 ? prefix : ' '.repeat(promptWidth);
      if (lineCursor >= 0 && lineCursor >= consumed && (lineCursor < consumed + part.length || k === wrapped.length - 1)) {
        cursorRow = rows.length;
        let col = 0;
        for (const ch of part.slice(0, lineCursor - consumed)) col += charWidth(ch.codePointAt(0)!);
        cursorCol = promptWidth + col;
      }
      rows.push(first + part);
      consumed += part.length;
    });
    offset += line.length + 1;
  });
  if (cursorCol >= width) {
    // the cursor sits just past a full row: show it at the start of the next one
    rows.splice(cursorRow + 1, 0, ' '.repeat(promptWidth));
    cursorRow += 1;
    cursorCol = promptWidth;
  }
  return { rows, cursorRow, cursorCol };
}
