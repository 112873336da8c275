/** From node:readline keypress events to the editor's keys. Pure. */
import type { EditorKey } from './line-editor';
import { charWidth } from './width';

/** What node's emitKeypressEvents reports. */
export interface RawKey {
  sequence?: string;
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

export type InputKey =
  | EditorKey
  | { kind: 'interrupt' }
  | { kind: 'escape' }
  | { kind: 'redraw' }
  | { kind: 'tab' }
  | { kind: 'shift-tab' }
  | { kind: 'paste-start' }
  | { kind: 'paste-end' }
  /** Ctrl+R: search earlier prompts. */
  | { kind: 'search' }
  /** Ctrl+G: edit the prompt in $VISUAL / $EDITOR (cancels a search). */
  | { kind: 'external-edit' };

/** Keys that mean something only at the prompt (completion, modes, redraw, search, the external
 * editor, paste brackets): a dialog over the prompt (a question, a picker) lets them pass unused. */
const PROMPT_ONLY = ['tab', 'shift-tab', 'redraw', 'search', 'external-edit', 'paste-start', 'paste-end'] as const;
type PromptOnlyKey = Extract<InputKey, { kind: (typeof PROMPT_ONLY)[number] }>;

export function promptOnlyKey(key: InputKey): key is PromptOnlyKey {
  return (PROMPT_ONLY as readonly string[]).includes(key.kind);
}

/** A key that is only its kind (every key but text). */
type BareKey = Exclude<InputKey, { kind: 'text' }>;

/** Ctrl+<key> → what it does (readline's and the shells' bindings people know). */
const CTRL_KEYS: ReadonlyMap<string, BareKey['kind']> = new Map<string, BareKey['kind']>([
  ['c', 'interrupt'],
  ['d', 'eof'],
  ['a', 'home'],
  ['e', 'end'],
  ['b', 'left'],
  ['f', 'right'],
  ['p', 'up'],
  ['n', 'down'],
  ['h', 'backspace'],
  ['u', 'kill-start'],
  ['k', 'kill-end'],
  ['w', 'kill-word'],
  ['backspace', 'kill-word'],
  ['l', 'redraw'],
  ['r', 'search'],
  ['g', 'external-edit'],
  ['j', 'newline'],
  ['left', 'word-left'],
  ['right', 'word-right'],
]);

/** One keypress → one key (undefined for keys with no meaning here). */
export function mapKey(str: string | undefined, key: RawKey | undefined): InputKey | undefined {
  const name = key?.name;
  const ctrl = Boolean(key?.ctrl);
  const meta = Boolean(key?.meta);
  // Shift+Enter where the terminal reports it (CSI u): a new line.
  if (key?.sequence === '\x1b[13;2u') return { kind: 'newline' };
  if (name === 'paste-start') return { kind: 'paste-start' };
  if (name === 'paste-end') return { kind: 'paste-end' };
  if (ctrl) {
    const kind = name === undefined ? undefined : CTRL_KEYS.get(name);
    return kind === undefined ? undefined : ({ kind } as BareKey);
  }
  switch (name) {
    case 'return':
      return meta ? { kind: 'newline' } : { kind: 'enter' };
    case 'enter':
      return { kind: 'newline' };
    case 'backspace':
      return meta ? { kind: 'kill-word' } : { kind: 'backspace' };
    case 'delete':
      return { kind: 'delete' };
    case 'left':
      return meta ? { kind: 'word-left' } : { kind: 'left' };
    case 'right':
      return meta ? { kind: 'word-right' } : { kind: 'right' };
    case 'up':
      return { kind: 'up' };
    case 'down':
      return { kind: 'down' };
    case 'home':
      return { kind: 'home' };
    case 'end':
      return { kind: 'end' };
    case 'escape':
      return { kind: 'escape' };
    case 'tab':
      return key?.shift ? { kind: 'shift-tab' } : { kind: 'tab' };
    default:
      break;
  }
  if (meta) {
    if (name === 'b') return { kind: 'word-left' };
    if (name === 'f') return { kind: 'word-right' };
    return undefined;
  }
  // eslint-disable-next-line no-control-regex -- a key that starts with a control character is not text
  if (str && !/^[\x00-\x1f\x7f]/.test(str)) return { kind: 'text', text: str };
  return undefined;
}

/**
 * The keys of one input chunk, made sense of together: text inside a bracketed paste (and
 * an Enter followed by more keys in the same chunk, i.e. a paste without bracketing) is
 * text with new lines, not a submit; runs of text are merged. Pure.
 */
export function normalizeBatch(keys: InputKey[], state: { pasting: boolean }): InputKey[] {
  const out: InputKey[] = [];
  const pushText = (text: string) => {
    const last = out[out.length - 1];
    if (last && last.kind === 'text') out[out.length - 1] = { kind: 'text', text: last.text + text };
    else out.push({ kind: 'text', text });
  };
  keys.forEach((key, i) => {
    if (key.kind === 'paste-start') {
      state.pasting = true;
      return;
    }
    if (key.kind === 'paste-end') {
      state.pasting = false;
      return;
    }
    if (state.pasting) {
      if (key.kind === 'text') pushText(key.text);
      else if (key.kind === 'enter' || key.kind === 'newline') pushText('\n');
      else if (key.kind === 'tab') pushText('\t');
      return;
    }
    // A tab with more text after it in the same chunk was pasted (a terminal without
    // bracketed paste); a tab that ends the chunk was pressed (completion).
    if (key.kind === 'tab' && keys.slice(i + 1).some((k) => k.kind === 'text')) {
      pushText('\t');
      return;
    }
    if (key.kind === 'enter' && i < keys.length - 1 && keys.slice(i + 1).some((k) => k.kind === 'text')) {
      pushText('\n');
      return;
    }
    if (key.kind === 'text') pushText(key.text);
    else out.push(key);
  });
  // A tab has no width of its own on the screen: the terminal would jump to its next tab stop
  // and the line would no longer match what the editor counts.
  return out.map((k) => (k.kind === 'text' && k.text.includes('\t') ? { kind: 'text', text: expandTabs(k.text) } : k));
}

/** Columns between tab stops when pasted tabs become spaces. */
export const TAB_WIDTH = 4;

/** Tabs as spaces up to the next stop of TAB_WIDTH, counted from the start of each line. */
export function expandTabs(text: string, tabWidth = TAB_WIDTH): string {
  return text
    .split('\n')
    .map((line) => {
      let out = '';
      let col = 0;
      for (const ch of line) {
        if (ch === '\t') {
          const n = tabWidth - (col % tabWidth);
          out += ' '.repeat(n);
          col += n;
        } else {
          out += ch;
          col += charWidth(ch.codePointAt(0)!);
        }
      }
      return out;
    })
    .join('\n');
}
