/** Terminal column arithmetic: ANSI-aware, with East Asian wide characters counted as two
 * columns. Pure. */

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Remove ANSI escape sequences (SGR colours, cursor moves, OSC links). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Combining marks, zero-width spaces and joiners, variation selectors: no cell of their own. */
const ZERO_WIDTH: Array<[number, number]> = [
  [0x300, 0x36f],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0xfe20, 0xfe2f],
  [0xe0100, 0xe01ef],
];

/** Emoji shown two cells wide by default (East Asian Width W outside the CJK blocks below):
 * without them the cursor lands left of where the terminal drew it. */
const WIDE_EMOJI: Array<[number, number]> = [
  [0x231a, 0x231b],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f2ff],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
];

function inRanges(cp: number, ranges: ReadonlyArray<readonly [number, number]>): boolean {
  for (const [a, b] of ranges) if (cp >= a && cp <= b) return true;
  return false;
}

/** East Asian wide and fullwidth blocks (CJK, Hangul, fullwidth forms, emoji pictographs). */
const WIDE: Array<[number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/** Emoji skin-tone modifiers: drawn inside the emoji before them. */
const SKIN_TONE: readonly [number, number] = [0x1f3fb, 0x1f3ff];
const ZWJ = 0x200d;

function computeWidth(cp: number): number {
  if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp >= SKIN_TONE[0] && cp <= SKIN_TONE[1]) return 0;
  if (inRanges(cp, ZERO_WIDTH)) return 0;
  if (inRanges(cp, WIDE_EMOJI) || inRanges(cp, WIDE)) return 2;
  return 1;
}

/** Widths of the whole Basic Multilingual Plane, computed once: a lookup per character. */
const BMP = ((): Uint8Array => {
  const table = new Uint8Array(0x10000);
  for (let cp = 0; cp < 0x10000; cp++) table[cp] = computeWidth(cp);
  return table;
})();

/** Columns a code point occupies: 0 for controls, combining marks, zero-width characters and
 * skin-tone modifiers, 2 for wide ones, else 1. */
export function charWidth(cp: number): number {
  return cp < 0x10000 ? BMP[cp] : computeWidth(cp);
}

/**
 * Call `each(codePoint, width, index, length)` for every code point of `text`, with the width
 * it takes in a terminal: a code point joined to the one before by a zero-width joiner (the
 * rest of an emoji sequence such as 👨‍👩‍👧) takes none.
 */
function eachCell(text: string, from: number, each: (cp: number, width: number, index: number, length: number) => boolean | void): void {
  let joined = false;
  for (let i = from; i < text.length;) {
    const c = text.charCodeAt(i);
    const cp = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? text.codePointAt(i)! : c;
    const length = cp > 0xffff ? 2 : 1;
    const w = joined ? 0 : charWidth(cp);
    joined = cp === ZWJ;
    if (each(cp, w, i, length) === false) return;
    i += length;
  }
}

const PLAIN = /^[\x20-\x7e]*$/;

/** Display width of a string (ANSI sequences count as zero). */
export function stringWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  const plain = text.includes('\x1b') ? stripAnsi(text) : text;
  let w = 0;
  eachCell(plain, 0, (_cp, width) => {
    w += width;
  });
  return w;
}

/**
 * Hard-wrap one line (no `\n` inside) into rows of at most `width` columns, keeping ANSI
 * sequences attached to the following character. Always returns at least one row.
 */
export function wrapLine(line: string, width: number): string[] {
  const max = Math.max(1, width);
  const rows: string[] = [];
  let row = '';
  let used = 0;
  let i = 0;
  let joined = false;
  while (i < line.length) {
    ANSI.lastIndex = i;
    const m = ANSI.exec(line);
    if (m && m.index === i) {
      row += m[0];
      i += m[0].length;
      continue;
    }
    const cp = line.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const w = joined ? 0 : charWidth(cp);
    joined = cp === ZWJ;
    if (used + w > max && used > 0) {
      rows.push(row);
      row = '';
      used = 0;
    }
    row += ch;
    used += w;
    i += ch.length;
  }
  rows.push(row);
  return rows;
}

/** Shorten to `width` columns with an ellipsis (plain text). */
export function truncateWidth(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  const plain = stripAnsi(text);
  let end = 0;
  let used = 0;
  eachCell(plain, 0, (_cp, w, index, length) => {
    if (used + w > width - 1) return false;
    used += w;
    end = index + length;
  });
  return plain.slice(0, end) + '…';
}

/**
 * Wrap plain text into rows of at most `width` columns at spaces (a word longer than a row is
 * cut with wrapLine). Always returns at least one row.
 */
export function wrapWords(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(/ +/).filter(Boolean)) {
    const joined = row ? `${row} ${word}` : word;
    if (stringWidth(joined) <= max) {
      row = joined;
      continue;
    }
    if (row) rows.push(row);
    const pieces = stringWidth(word) > max ? wrapLine(word, max) : [word];
    rows.push(...pieces.slice(0, -1));
    row = pieces[pieces.length - 1];
  }
  rows.push(row);
  return rows;
}
