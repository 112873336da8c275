/**
 * A short choice the screen asks itself (where `# text` goes): arrows + Enter, a digit, Esc to
 * cancel. A pure state machine, like the step question (question.ts), with no edit and no rules.
 */
import type { EditorKey } from './line-editor';

export interface PickState {
  title: string;
  choices: string[];
  index: number;
}

export type PickKey = EditorKey | { kind: 'escape' };

/** Apply one key: the next state, and the choice's index once picked (`-1`: cancelled). Pure. */
export function reducePick(state: PickState, key: PickKey): { state: PickState; picked?: number } {
  const n = state.choices.length;
  switch (key.kind) {
    case 'up':
      return { state: { ...state, index: (state.index + n - 1) % n } };
    case 'down':
      return { state: { ...state, index: (state.index + 1) % n } };
    case 'enter':
      return { state, picked: state.index };
    case 'escape':
    case 'eof':
      return { state, picked: -1 };
    case 'text': {
      const i = /^[1-9]$/.test(key.text) ? Number(key.text) - 1 : -1;
      return i >= 0 && i < n ? { state: { ...state, index: i }, picked: i } : { state };
    }
    default:
      return { state };
  }
}
