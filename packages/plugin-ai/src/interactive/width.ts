/** Terminal column arithmetic: ANSI-aware, with East Asian wide characters counted as two
 * columns. Pure. */

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Remove ANSI escape sequences (SGR colours, cursor moves, OSC links). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Columns a code point occupies: 0 for combining marks and controls, 2 for wide ones. */
export function charWidth(cp: number): number {
  if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Display width of a string (ANSI sequences count as zero). */
export function stringWidth(text: string): number {
  let w = 0;
  for (const ch of stripAnsi(text)) w += charWidth(ch.codePointAt(0)!);
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
    const w = charWidth(cp);
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
  let out = '';
  let used = 0;
  for (const ch of stripAnsi(text)) {
    const w = charWidth(ch.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return out + '…';
}
