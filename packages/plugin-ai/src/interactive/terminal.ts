/**
 * The thin terminal layer: raw-mode keys (with bracketed paste) in, and a screen made of
 * scrollback plus one live region at the bottom (spinner, streaming text, the prompt) out.
 * Printing goes above the live region, which is erased and drawn again in one write.
 */
import readline = require('readline');
import { mapKey, normalizeBatch, type InputKey, type RawKey } from './keys';
import { stringWidth, wrapLine } from './width';

/** Synchronized output (terminals that know it draw the update at once; others ignore it). */
const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';

export interface LiveFrame {
  /** Lines of the live region (may be wider than the terminal: they are wrapped here). */
  lines: string[];
  /** Where the cursor goes: a line of `lines` and a column in it (already in cells). */
  cursor?: { line: number; col: number };
}

export class Terminal {
  private liveRows = 0;
  private cursorRow = 0;
  private cursorCol = 0;
  /** Widths of the drawn rows and the width they were drawn at, to erase them after a resize. */
  private rowWidths: number[] = [];
  private drawnWidth = 0;
  private frame: LiveFrame = { lines: [] };
  private batch: InputKey[] = [];
  private readonly paste = { pasting: false };
  private onData?: (str: string | undefined, key: RawKey | undefined) => void;
  private started = false;
  /** Handed to another program (an interactive plugin): nothing is drawn, no key is read. */
  private suspended = false;

  constructor(
    readonly input: NodeJS.ReadStream,
    readonly output: NodeJS.WriteStream,
    private readonly color: boolean,
  ) {}

  readonly live = true;

  get columns(): number {
    return Math.max(10, this.output.columns || 80);
  }
  get rows(): number {
    return Math.max(5, this.output.rows || 24);
  }

  /** Raw mode, keypress events, bracketed paste. Keys of one chunk arrive together. */
  start(onKeys: (keys: InputKey[]) => void, onResize: () => void): void {
    this.started = true;
    readline.emitKeypressEvents(this.input);
    if (this.input.isTTY) this.input.setRawMode(true);
    this.onData = (str, key) => {
      const mapped = mapKey(str, key);
      if (!mapped) return;
      if (!this.batch.length) {
        setImmediate(() => {
          const keys = normalizeBatch(this.batch.splice(0), this.paste);
          if (keys.length) onKeys(keys);
        });
      }
      this.batch.push(mapped);
    };
    this.input.on('keypress', this.onData);
    this.input.resume();
    this.output.on('resize', onResize);
    this.output.write('\x1b[?2004h');
  }

  /** Erase the live region, restore the terminal (cooked mode, no bracketed paste). */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.release();
  }

  /**
   * Hand the terminal to a program that draws on it itself (an interactive plugin run with
   * the terminal inherited): the live region is erased, keys are left to the program, cooked
   * mode, the cursor shows. What the program prints is never drawn over (see resume()).
   */
  suspend(): void {
    if (!this.started || this.suspended) return;
    this.suspended = true;
    this.release();
  }

  /** Erase the live region and give the terminal back as it was: no bracketed paste, the cursor
   * shown, keys no longer read, cooked mode. */
  private release(): void {
    this.clearLive();
    this.output.write('\x1b[?2004l\x1b[?25h');
    if (this.onData) this.input.off('keypress', this.onData);
    if (this.input.isTTY) this.input.setRawMode(false);
    this.input.pause();
  }

  /** Take the terminal back: the live region starts on a new line below the program's output. */
  resume(): void {
    if (!this.suspended) return;
    this.suspended = false;
    this.liveRows = 0;
    this.cursorRow = 0;
    // The program may have left the cursor mid-line; the next frame must not start on it.
    this.output.write('\r\n\x1b[?2004h');
    if (this.input.isTTY) this.input.setRawMode(true);
    if (this.onData) this.input.on('keypress', this.onData);
    this.input.resume();
  }

  /** Write a notification (BEL, OSC 9): only to a terminal that is ours at the moment. */
  notify(sequence: string): void {
    if (sequence && this.started && !this.suspended) this.output.write(sequence);
  }

  /** Print text above the live region (a newline is added when missing). */
  print(text: string): void {
    const body = text.endsWith('\n') ? text : text + '\n';
    if (this.suspended) {
      this.output.write(body.replace(/\r?\n/g, '\r\n'));
      return;
    }
    this.output.write(
      SYNC_START +
        '\x1b[?25l' +
        this.eraseSequence() +
        body.replace(/\r?\n/g, '\r\n') +
        this.drawSequence(this.frame) +
        '\x1b[?25h' +
        SYNC_END,
    );
  }

  /** Replace the live region. */
  render(frame: LiveFrame): void {
    this.frame = frame;
    if (this.suspended) return;
    this.output.write(
      SYNC_START + '\x1b[?25l' + this.eraseSequence() + this.drawSequence(frame) + (frame.cursor ? '\x1b[?25h' : '') + SYNC_END,
    );
  }

  /** Clear the visible screen (Ctrl+L; the scrollback stays), then draw the live region. */
  clearScreen(): void {
    this.liveRows = 0;
    this.cursorRow = 0;
    this.output.write('\x1b[2J\x1b[H' + this.drawSequence(this.frame));
  }

  /** Erase the live region and forget it (before handing the terminal to someone else). */
  clearLive(): void {
    this.output.write(this.eraseSequence());
    this.frame = { lines: [] };
  }

  private eraseSequence(): string {
    if (!this.liveRows) return '';
    let above = this.cursorRow;
    const width = this.columns;
    if (width !== this.drawnWidth) {
      // The terminal re-wrapped the region: count the rows above the cursor at the new width.
      above = this.rowWidths.slice(0, this.cursorRow).reduce((n, w) => n + Math.max(1, Math.ceil(w / width)), 0);
      above += Math.floor(this.cursorCol / width);
    }
    const up = above > 0 ? `\x1b[${above}A` : '';
    this.liveRows = 0;
    this.cursorRow = 0;
    return `${up}\r\x1b[J`;
  }

  private drawSequence(frame: LiveFrame): string {
    if (!frame.lines.length) return '';
    const width = this.columns;
    const rows: string[] = [];
    let cursorRow = -1;
    let cursorCol = 0;
    frame.lines.forEach((line, i) => {
      const wrapped = wrapLine(line, width);
      if (frame.cursor && frame.cursor.line === i) {
        // Walk the wrapped rows by their widths: a row that ends before a wide character
        // that did not fit holds one cell less than the terminal is wide.
        let col = frame.cursor.col;
        let k = 0;
        for (; k < wrapped.length - 1; k++) {
          const w = stringWidth(wrapped[k]);
          if (col < w) break;
          col -= w;
        }
        cursorRow = rows.length + k;
        cursorCol = col;
      }
      rows.push(...wrapped);
    });
    // Never taller than the screen: the top of a region that scrolled off cannot be erased.
    const max = this.rows - 1;
    if (rows.length > max) {
      const drop = rows.length - max;
      rows.splice(0, drop);
      cursorRow -= drop;
    }
    let out = rows.map((r) => (this.color ? r + '\x1b[0m' : r)).join('\r\n');
    let at = rows.length - 1;
    if (cursorRow >= 0) {
      if (at > cursorRow) out += `\x1b[${at - cursorRow}A`;
      out += `\r${cursorCol > 0 ? `\x1b[${cursorCol}C` : ''}`;
      at = cursorRow;
    }
    this.liveRows = rows.length;
    this.cursorRow = at;
    this.cursorCol = cursorRow >= 0 ? cursorCol : stringWidth(rows[rows.length - 1]);
    this.rowWidths = rows.map((r) => stringWidth(r));
    this.drawnWidth = width;
    return out;
  }
}
