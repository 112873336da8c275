import fs = require('fs');
import path = require('path');
import { readJsonLines } from '@holic512/shared/lib/private-files';

/**
 * Prompt history, persisted per user in `<home>/ai/history` as one JSON string per line
 * (so multi-line entries survive). Every entry is one append (O_APPEND, one write), so two
 * sessions writing at once lose nothing. The file is kept small by rotation: when it holds
 * more than `cap` entries it is renamed to `history.old` (an atomic rename; a writer that
 * appends at the same moment lands in one file or the other, and both are read).
 */
/** Longer inputs (a pasted log, a file) are not worth recalling and would bloat the file. */
const MAX_ENTRY_CHARS = 16_000;

export class PromptHistory {
  private readonly old: string;

  constructor(
    readonly file: string,
    readonly cap = 500,
  ) {
    this.old = `${file}.old`;
  }

  /** The last `cap` entries, oldest first. Unreadable lines are skipped. */
  load(): string[] {
    const current = readEntries(this.file);
    if (current.length > this.cap) this.rotate();
    return [...readEntries(this.old), ...current].slice(-this.cap);
  }

  /** Append one entry (blank entries and huge pastes are not kept). */
  append(entry: string): void {
    if (!entry.trim() || entry.length > MAX_ENTRY_CHARS) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.appendFileSync(this.file, JSON.stringify(entry) + '\n', { mode: 0o600 });
  }

  private rotate(): void {
    try {
      fs.renameSync(this.file, this.old);
    } catch (err) {
      // Another session rotated it first: nothing to do.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** The entries of one history file; a line cut by a crash is skipped, the rest kept. */
function readEntries(file: string): string[] {
  return readJsonLines(file).filter((value): value is string => typeof value === 'string');
}
