/**
 * Ctrl+R: reverse search of earlier prompts (this session's and those kept in the history file),
 * as a pure state machine. Typing filters (case-insensitive, anywhere in the prompt), Ctrl+R again
 * goes to the next older match, Enter puts the match on the line (it is not sent), Esc or Ctrl+G
 * cancels and gives back what was typed before.
 */
import type { InputKey } from './keys';

export interface SearchState {
  query: string;
  /** Index in the history of the match shown (-1: none). */
  at: number;
  /** The input before the search, given back on cancel. */
  original: string;
  /** The query matches nothing (at or before where the search is). */
  failed: boolean;
}

/** A search keeps its own keys: these. */
export type SearchKey = InputKey | { kind: 'search' } | { kind: 'cancel' };

/** The newest entry at or before `from` that holds `query` (every entry for an empty query). */
function find(history: readonly string[], query: string, from: number): number {
  const q = query.toLowerCase();
  for (let i = Math.min(from, history.length - 1); i >= 0; i--) if (history[i].toLowerCase().includes(q)) return i;
  return -1;
}

export function startSearch(history: readonly string[], original: string): SearchState {
  return { query: '', at: history.length - 1, original, failed: history.length === 0 };
}

/** The entry shown, if any. */
export function searchMatch(state: SearchState, history: readonly string[]): string | undefined {
  return state.at >= 0 ? history[state.at] : undefined;
}

/**
 * Apply one key. `done`: the text to put on the line (a match, or the original on cancel); `key`:
 * a key that ended the search and still means something to the line (a cursor move). Pure.
 */
export function reduceSearch(
  state: SearchState,
  key: SearchKey,
  history: readonly string[],
): { state: SearchState; done?: string; key?: InputKey } {
  const matched = (query: string, from: number): SearchState => {
    const at = find(history, query, from);
    return at >= 0 ? { ...state, query, at, failed: false } : { ...state, query, failed: true };
  };
  switch (key.kind) {
    case 'text':
      return { state: matched(state.query + key.text.replace(/\n/g, ' '), state.at < 0 ? history.length - 1 : state.at) };
    case 'backspace':
      return { state: matched(state.query.slice(0, -1), history.length - 1) };
    case 'search': {
      // The next older match that reads differently (a prompt sent twice is found once); at the oldest it stays, failed.
      const shown = searchMatch(state, history);
      let at = state.at - 1;
      while (at >= 0 && (at = find(history, state.query, at)) >= 0 && history[at] === shown) at--;
      return { state: at >= 0 ? { ...state, at, failed: false } : { ...state, failed: true } };
    }
    case 'enter':
      return { state, done: searchMatch(state, history) ?? state.original };
    case 'escape':
    case 'cancel':
    case 'interrupt':
      return { state, done: state.original };
    case 'left':
    case 'right':
    case 'home':
    case 'end':
    case 'up':
    case 'down':
      return { state, done: searchMatch(state, history) ?? state.original, key };
    default:
      return { state };
  }
}
