import fs = require('fs');
import { writeFileAtomicSync } from './atomic-write';

/** One file change made by fs.edit or fs.write, kept so it can be undone. */
export interface FileChange {
  /** Position in the journal; {@link FileJournal.mark} returns the next one. */
  seq: number;
  /** The step (`cmd_004`) that made it. */
  stepId: string;
  tool: string;
  /** Real path of the file. */
  path: string;
  /** Content before the change; null when the step created the file. Dropped (undefined) when too large to keep. */
  before?: string | null;
  /** Content the step wrote. */
  after: string;
}

/** What {@link FileJournal.undo} did. */
export interface UndoResult {
  /** Files put back as they were (`deleted`: the step had created them). */
  restored: { path: string; action: 'restored' | 'deleted' }[];
  /** Files left alone, with why (changed since, too large to have been kept, an fs error). */
  skipped: { path: string; reason: 'changed_since' | 'not_kept' | 'error'; message?: string }[];
}

/** The file operations undo needs; replaceable in tests. */
export interface JournalFs {
  readFile(file: string): string | null;
  writeFile(file: string, data: string): void;
  unlink(file: string): void;
}

const nodeJournalFs: JournalFs = {
  readFile: (file) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  },
  writeFile: (file, data) => writeFileAtomicSync(file, data),
  unlink: (file) => fs.unlinkSync(file),
};

/** Per-file limit of kept content; larger files are changed but cannot be undone. */
export const JOURNAL_MAX_FILE_CHARS = 4 * 1024 * 1024;
/** Limit of all kept content; the oldest kept contents are dropped first. */
export const JOURNAL_MAX_TOTAL_CHARS = 64 * 1024 * 1024;

/**
 * The record of every file the runner's fs tools changed, for `/undo`. State lives on the
 * runner object (one journal per session). Undo restores the files changed after a mark,
 * but never overwrites a file that changed again since the step wrote it.
 */
export class FileJournal {
  private changes: FileChange[] = [];
  private seq = 0;
  private kept = 0;

  constructor(private readonly jfs: JournalFs = nodeJournalFs) {}

  /** The position to undo back to (e.g. at the start of a turn). */
  mark(): number {
    return this.seq;
  }

  /** Record a change. `before` null = the file did not exist. */
  record(change: Omit<FileChange, 'seq'>): FileChange {
    const entry: FileChange = { ...change, seq: this.seq++ };
    const size = (entry.before?.length ?? 0) + entry.after.length;
    if (size > JOURNAL_MAX_FILE_CHARS) {
      entry.before = undefined;
    } else {
      this.kept += size;
    }
    this.changes.push(entry);
    for (const old of this.changes) {
      if (this.kept <= JOURNAL_MAX_TOTAL_CHARS) break;
      if (old.before === undefined || old === entry) continue;
      this.kept -= (old.before?.length ?? 0) + old.after.length;
      old.before = undefined;
    }
    return entry;
  }

  /** Changes recorded at or after `mark`, oldest first. */
  since(mark: number): FileChange[] {
    return this.changes.filter((c) => c.seq >= mark);
  }

  /** Every recorded change, oldest first. */
  all(): readonly FileChange[] {
    return this.changes;
  }

  /**
   * Put every file changed at or after `mark` back as it was before its first change there.
   * A file whose content is no longer what the last step wrote is left alone (`changed_since`).
   * The undone changes leave the journal either way.
   */
  undo(mark: number): UndoResult {
    const undone = this.since(mark);
    this.changes = this.changes.filter((c) => c.seq < mark);
    this.kept = this.changes.reduce((n, c) => n + (c.before === undefined ? 0 : (c.before?.length ?? 0) + c.after.length), 0);
    const byPath = new Map<string, { first: FileChange; last: FileChange; lost: boolean }>();
    for (const c of undone) {
      const e = byPath.get(c.path);
      if (!e) byPath.set(c.path, { first: c, last: c, lost: c.before === undefined });
      else {
        e.last = c;
        if (c.before === undefined) e.lost = true;
      }
    }
    const result: UndoResult = { restored: [], skipped: [] };
    for (const [file, { first, last, lost }] of [...byPath].reverse()) {
      if (lost || first.before === undefined) {
        result.skipped.push({ path: file, reason: 'not_kept' });
        continue;
      }
      try {
        const now = this.jfs.readFile(file);
        if (now !== last.after) {
          result.skipped.push({ path: file, reason: 'changed_since' });
          continue;
        }
        if (first.before === null) {
          this.jfs.unlink(file);
          result.restored.push({ path: file, action: 'deleted' });
        } else {
          this.jfs.writeFile(file, first.before);
          result.restored.push({ path: file, action: 'restored' });
        }
      } catch (err) {
        result.skipped.push({ path: file, reason: 'error', message: (err as Error).message });
      }
    }
    return result;
  }
}

/**
 * Which files the session has read, and in which state: fs.write refuses to overwrite a file
 * the model has not seen (or that changed since it read it) unless the user confirms.
 */
export class ReadTracker {
  private readonly seen = new Map<string, string>();

  /** Remember that the file at real path `file` was read (or written) in this state. */
  mark(file: string, stat: { mtimeMs: number; size: number }): void {
    this.seen.set(file, `${stat.mtimeMs}:${stat.size}`);
  }

  /** `read`: seen in this state; `stale`: seen, but it changed since; `unread`: never seen. */
  state(file: string, stat: { mtimeMs: number; size: number } | undefined): 'read' | 'stale' | 'unread' {
    const s = this.seen.get(file);
    if (s === undefined) return 'unread';
    if (!stat) return 'stale';
    return s === `${stat.mtimeMs}:${stat.size}` ? 'read' : 'stale';
  }
}
