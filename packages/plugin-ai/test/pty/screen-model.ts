import { charWidth } from '../../src/interactive/width';

/**
 * A small model of a terminal screen for tests: applies what the program wrote (text, CR,
 * LF, cursor up/down/forward/back, erase to end of screen/line, clear) to rows of cells, so
 * a test can read the screen as a person would see it, scrollback included. Colours and
 * modes are ignored.
 */
export function renderScreen(raw: string, width: number): string[] {
  return renderTerminal(raw, width).rows;
}

/** The screen rows and where the cursor is (row in the rows, column in cells). */
export function renderTerminal(raw: string, width: number): { rows: string[]; cursor: { row: number; col: number } } {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  let pendingWrap = false;
  const line = (r: number): string[] => {
    while (rows.length <= r) rows.push([]);
    return rows[r];
  };
  const put = (ch: string) => {
    const w = charWidth(ch.codePointAt(0)!);
    if (w === 0) return;
    if (pendingWrap || col + w > width) {
      row++;
      col = 0;
      pendingWrap = false;
    }
    const cells = line(row);
    while (cells.length < col) cells.push(' ');
    cells[col] = ch;
    if (w === 2) cells[col + 1] = '';
    col += w;
    if (col >= width) {
      col = width - 1;
      pendingWrap = true;
    }
  };
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '\x1b') {
      const csi = /^\x1b\[([?0-9;]*)([ -/]*)([@-~])/.exec(raw.slice(i, i + 32));
      if (csi) {
        i += csi[0].length - 1;
        const n = Number(csi[1]) || 1;
        switch (csi[3]) {
          case 'A':
            row = Math.max(0, row - n);
            pendingWrap = false;
            break;
          case 'B':
            row += n;
            pendingWrap = false;
            break;
          case 'C':
            col = Math.min(width - 1, col + n);
            pendingWrap = false;
            break;
          case 'D':
            col = Math.max(0, col - n);
            pendingWrap = false;
            break;
          case 'J':
            if (csi[1] === '2' || csi[1] === '3') {
              rows.length = 0;
              rows.push([]);
              row = 0;
              col = 0;
            } else {
              line(row).length = Math.min(line(row).length, col);
              rows.length = row + 1;
            }
            break;
          case 'K':
            line(row).length = Math.min(line(row).length, col);
            break;
          case 'H':
            row = 0;
            col = 0;
            break;
          default:
            break; // colours, modes
        }
        continue;
      }
      const osc = /^\x1b\][^\x07\x1b]*(\x07|\x1b\\)/.exec(raw.slice(i, i + 512));
      if (osc) i += osc[0].length - 1;
      continue;
    }
    if (ch === '\r') {
      col = 0;
      pendingWrap = false;
    } else if (ch === '\n') {
      row++;
      line(row);
      pendingWrap = false;
    } else if (ch === '\b') {
      col = Math.max(0, col - 1);
    } else if (ch >= ' ' || ch === '\t') {
      const cp = raw.codePointAt(i)!;
      const full = String.fromCodePoint(cp);
      put(full);
      i += full.length - 1;
    }
  }
  return { rows: rows.map((cells) => cells.join('').replace(/\s+$/, '')), cursor: { row, col } };
}
