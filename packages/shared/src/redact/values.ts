import { count } from './work';

/**
 * How far an unquoted value reaches, by the syntax that carries it. A pattern finds where a
 * value starts (after `--password=`, `PASSWORD=`, `password = `); where it ends depends on what
 * is around it, not on the characters of the value:
 *
 * - an **option** (`--password=…`, `--token …`, `-p…` of mysql) or a glued **assignment**
 *   (`PGPASSWORD=… psql`, `password=… user=bob` in a log line) holds one shell word: any
 *   punctuation (`p@ss,w0rd;1`, `a&b=c`, `k3y(1)[2]`), up to white space or a quote;
 * - a **config line** (`password = …` at the start of an INI / .env / properties / YAML line)
 *   holds the rest of the line, up to an inline comment (` #`, ` ;`, ` //`);
 * - an option or assignment that opens a quoted word (`"--password=a b"` in an argument list,
 *   `'PASSWORD=x y'`, `- "DB_PASSWORD=…"` in a compose file) holds everything to its closing quote;
 * - anything else (source code, JSON without quotes, prose) keeps the narrow reading of the
 *   pattern, which stops at `,;)}` so that `{token: t, user}` or `f(password=pw)` stay code.
 *
 * Every function here reads a bounded window (at most {@link MAX_VALUE} characters forward,
 * 300 back), so each costs a constant per place a pattern stopped at.
 */

/** Characters a value reaches at most; a longer value is masked as far as this. */
export const MAX_VALUE = 1024;

/** A backslash that ends a value: a JSON escape of a line break, tab or quote (the value was inside a JSON string). */
const endsAtEscape = (next: string | undefined): boolean =>
  next === undefined || next === 'n' || next === 'r' || next === 't' || next === '"';

const isSpace = (c: number): boolean => c <= 32 || (c > 127 && /\s/.test(String.fromCharCode(c)));

/** The end of the shell word that starts at `from`: white space, a quote or backquote, a JSON escape or a mask ends it. */
export function wordEnd(text: string, from: number): number {
  const lim = Math.min(text.length, from + MAX_VALUE);
  let i = from;
  while (i < lim) {
    const c = text.charCodeAt(i);
    // A backquote closes the inline code a value is quoted in (Markdown: `--password=…`).
    if (isSpace(c) || c === 34 || c === 39 || c === 96) break;
    if (c === 92) {
      if (endsAtEscape(text[i + 1])) break;
      i += 2;
      continue;
    }
    if (c === 91 && text.startsWith('[redacted', i)) break;
    i++;
  }
  count(0, 0, i - from);
  return Math.min(i, lim);
}

/**
 * The end of a config line's value that starts at `from`: the end of the line (a line break or
 * its JSON escape), a double quote (the end of a JSON string), a backquote, a mask, or an inline comment;
 * trailing white space is not part of it.
 */
export function lineEnd(text: string, from: number): number {
  const lim = Math.min(text.length, from + MAX_VALUE);
  let i = from;
  while (i < lim) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 34 || c === 96) break;
    if (c === 92) {
      if (endsAtEscape(text[i + 1])) break;
      i += 2;
      continue;
    }
    if ((c === 32 || c === 9) && /^[ \t]+(?:#|;|\/\/)/.test(text.slice(i, i + 12))) break;
    if (c === 91 && text.startsWith('[redacted', i)) break;
    i++;
  }
  count(0, 0, i - from);
  i = Math.min(i, lim);
  while (i > from && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  return i;
}

const OPENER: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/**
 * `text[from, end)` without what closes the code or sentence around it rather than the value:
 * a `;` or `,` at its end, and a `)` / `]` / `}` that nothing in the value opened
 * (`$(cmd --password=abc)`). Only where the value is followed by white space or the end: in
 * `["--password=a,b}c"]` the quote ends the value and everything before it is the value.
 */
export function trimEnd(text: string, from: number, end: number): number {
  const next = text[end];
  if (next === '"' || next === "'" || next === '\\') return end;
  const open: Record<string, number> = { '(': 0, '[': 0, '{': 0 };
  const close: Record<string, number> = { ')': 0, ']': 0, '}': 0 };
  for (let i = from; i < end; i++) {
    const c = text[i];
    if (c in open) open[c]++;
    else if (c in close) close[c]++;
  }
  let e = end;
  while (e > from) {
    const c = text[e - 1];
    if (c === ',' || c === ';') e--;
    else if (c in close && close[c] > open[OPENER[c]]) {
      close[c]--;
      e--;
    } else break;
  }
  return e;
}

/**
 * Where the value `text[from, end)` of an assignment or a config line stops early: at a `;` or
 * `,` that starts another `Name=` (a connection string, `Password=abc;Database=app`), and at the
 * first white space when more pairs or shell syntax follow on the line (`password=abc user=bob`,
 * a `libpq` string, `… && make`).
 */
export function pairsCut(text: string, from: number, end: number): number {
  const value = text.slice(from, end);
  const conn = /[;,][ \t]*[A-Za-z_][\w .-]{0,63}=/.exec(value);
  let e = conn ? from + conn.index : end;
  const space = /\s/.exec(value);
  if (space && space.index < e - from && /\s(?:[A-Za-z_][\w.-]{0,63}[ \t]*=|&&|\|\|?|[<>;])/.test(value.slice(space.index, e - from)))
    e = from + space.index;
  return e;
}

/** The frame a tool prints before a line (`f:12:`, `f-13-`, `12:` of `grep -n`, a diff `+` / `-`, a `cat -n` number), indentation, a shell keyword, a YAML list dash, a quote. */
const LINE_HEAD =
  /^(?:[^\s:]{1,256}?[:-][0-9]{1,9}[:-]|[0-9]{1,9}[:-]|[+-](?![+-])|[ \t]*[0-9]{1,9}\t)?[ \t]*(?:(?:export|set|setenv|declare(?:[ \t]+-[a-zA-Z]+)*|typeset|readonly|local)[ \t]+|-[ \t]+)?\\?["']?$/;

/**
 * True when the name starting at `at` is the first thing on its line (a line of the text, or of
 * a JSON string: after a `\n` escape), after at most a frame: a config line, not code or prose.
 */
export function atLineStart(text: string, at: number): boolean {
  if (!mayStartLine(text, at)) return false;
  const low = Math.max(0, at - 300);
  let i = at;
  // Back to the start of the line (a line break, or its `\n` / `\r` escape in a JSON string).
  while (i > low) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13 || ((c === 110 || c === 114) && text.charCodeAt(i - 2) === 92)) break;
    i--;
  }
  count(0, 0, at - i);
  if (i === low && low > 0) return false;
  return LINE_HEAD.test(text.slice(i, at));
}

/**
 * The closing quote of the quoted word that `open` (`"`, `'`, or `\"` inside a JSON string) began
 * before `from`, on the same line: a `"` escaped by a backslash does not close it. -1 if none.
 */
export function quotedEnd(text: string, from: number, open: string): number {
  const lim = Math.min(text.length, from + MAX_VALUE);
  for (let i = from; i < lim; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return -1;
    if (open === "'") {
      if (c === 39) return i;
      continue;
    }
    if (c === 92) {
      if (open === '\\"' && text[i + 1] === '"') return i;
      if (open === '\\"' && (text[i + 1] === 'n' || text[i + 1] === 'r')) return -1;
      i++;
      continue;
    }
    if (c === 34) return open === '"' ? i : -1;
  }
  return -1;
}

/** The quote that opens a word right before `at` (`"`, `'`, or `\"`), or ''. */
export function openingQuote(text: string, at: number): string {
  const c = text[at - 1];
  if (c === "'") return c;
  if (c !== '"') return '';
  return text[at - 2] === '\\' ? '\\"' : '"';
}

/** The shell keywords and the YAML dash that may stand between a line's start and a name. */
const KEYWORD_BEFORE = /(?:^|[\s:+-])(export|set|setenv|typeset|readonly|local|declare(?:[ \t]+-[a-zA-Z]+)*|-)$/;

/**
 * What must come right before a name that starts its line, read backwards: a quote, white space,
 * a shell keyword or a YAML dash, then the line's start or the end of a tool's frame (`f:12:`,
 * a `cat -n` number, a diff `+`). Anything else (`;`, `(`, a word of code) answers no at once,
 * without reading the line back (text full of pairs on one line costs no more than one look each).
 */
function mayStartLine(text: string, at: number): boolean {
  let i = at;
  if (text[i - 1] === '"' || text[i - 1] === "'") i -= text[i - 2] === '\\' ? 2 : 1;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  const keyword = i < at ? KEYWORD_BEFORE.exec(text.slice(Math.max(0, i - 40), i)) : null;
  if (keyword) {
    i -= keyword[1].length;
    while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  }
  count(0, 0, at - i);
  if (i === 0) return true;
  const c = text[i - 1];
  return (
    c === '\n' ||
    c === '\r' ||
    c === ':' ||
    c === '-' ||
    c === '+' ||
    (c >= '0' && c <= '9') ||
    ((c === 'n' || c === 'r') && text[i - 2] === '\\')
  );
}
