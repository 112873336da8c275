/**
 * The L1 confirmation question as a pure state machine: a short list (run once / allow for
 * the session / decline / edit) chosen with arrows + Enter or a hotkey; "edit" turns into a
 * one-line editor over the command's words. While it is up, keys go here, not to the prompt.
 */
import { createEditor, reduce as reduceEditor, type EditorKey, type EditorState } from './line-editor';

export type Choice = 'run' | 'allow-session' | 'allow-always' | 'allow-project' | 'decline' | 'edit';

export interface QuestionState {
  choices: Choice[];
  index: number;
  /** Set while the user edits the command words. */
  editing?: EditorState;
  /** Why the last edit was not accepted (unbalanced quote, empty). */
  error?: 'unbalanced' | 'empty';
}

export type QuestionKey = EditorKey | { kind: 'escape' };

export type QuestionOutcome = { choice: Exclude<Choice, 'edit'> } | { edited: string[] };

const HOTKEYS: Record<string, Choice> = { y: 'run', a: 'allow-session', d: 'allow-always', p: 'allow-project', n: 'decline', e: 'edit' };

/**
 * The keys of the choices a question offers, for its footer: `{n: 3, letters: 'y/a/n'}`. Made
 * from the choices shown, in their order, so the footer never names a key that does nothing.
 */
export function keyHints(choices: readonly Choice[]): { n: number; letters: string } {
  const letterOf = (choice: Choice) => Object.keys(HOTKEYS).find((k) => HOTKEYS[k] === choice) ?? '';
  return { n: choices.length, letters: choices.map(letterOf).filter(Boolean).join('/') };
}

/**
 * A question; `editable` adds the "edit" choice (exec and plugin.run steps), `rule` the "yes, and
 * don't ask again" one (the step has an exact permission rule).
 */
export function createQuestion(editable: boolean, rule = false): QuestionState {
  // 1–3 stay yes / this session / no whatever else is offered.
  const choices: Choice[] = rule
    ? ['run', 'allow-session', 'decline', 'allow-project', 'allow-always']
    : ['run', 'allow-session', 'decline'];
  if (editable) choices.push('edit');
  return { choices, index: 0 };
}

/** Apply one key; `words` is the current command line (for edit). Pure. */
export function reduceQuestion(
  state: QuestionState,
  key: QuestionKey,
  words: string[],
): { state: QuestionState; outcome?: QuestionOutcome } {
  if (state.editing) {
    if (key.kind === 'escape') return { state: { ...state, editing: undefined, error: undefined } };
    if (key.kind === 'enter') {
      const parsed = splitWords(state.editing.text);
      if (!parsed) return { state: { ...state, error: 'unbalanced' } };
      if (!parsed.length) return { state: { ...state, error: 'empty' } };
      return { state: { ...state, editing: undefined, error: undefined }, outcome: { edited: parsed } };
    }
    if (key.kind === 'up' || key.kind === 'down') return { state };
    return { state: { ...state, editing: reduceEditor(state.editing, key).state, error: undefined } };
  }
  const pick = (choice: Choice) => {
    if (choice === 'edit') {
      return { state: { ...state, index: state.choices.indexOf('edit'), editing: createEditor([], joinWords(words)) } };
    }
    return { state: { ...state, index: state.choices.indexOf(choice) }, outcome: { choice } };
  };
  switch (key.kind) {
    case 'up':
      return { state: { ...state, index: (state.index + state.choices.length - 1) % state.choices.length } };
    case 'down':
      return { state: { ...state, index: (state.index + 1) % state.choices.length } };
    case 'enter':
      return pick(state.choices[state.index]);
    case 'escape':
      return pick('decline');
    case 'text': {
      // A number picks by position (as listed), a letter by name.
      const choice = /^[1-9]$/.test(key.text) ? state.choices[Number(key.text) - 1] : HOTKEYS[key.text.toLowerCase()];
      if (choice && state.choices.includes(choice)) return pick(choice);
      return { state };
    }
    default:
      return { state };
  }
}

const SAFE_WORD = /^[\w@%+=:,./-]+$/;

/** Quote one word the POSIX-shell way when it needs it (for display and editing only). */
export function quoteWord(word: string): string {
  if (word && SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function joinWords(words: string[]): string {
  return words.map(quoteWord).join(' ');
}

/** Split an edited command line into words: whitespace separates, '…' is literal, "…" and
 * a backslash escape. Undefined when a quote is not closed. Nothing is expanded. */
export function splitWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(word);
  return words;
}
