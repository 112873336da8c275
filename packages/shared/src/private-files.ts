import fs = require('fs');
import path = require('path');

/**
 * Files that hold what a user said and ran (sessions, the audit log, the call log) are private:
 * folders 0700, files 0600, and put back to that when found wider (created by an older version
 * or by hand). POSIX modes only; on Windows the calls are harmless no-ops.
 */

/** Create `dir` (and its parents) 0700; narrow it (not its parents) when it is wider. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  narrow(dir, 0o700);
}

function narrow(p: string, mode: number): void {
  if (process.platform === 'win32') return;
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (st && (st.mode & 0o777 & ~mode) !== 0) fs.chmodSync(p, mode);
}

/** Folders this process made private already (appends come several per step). */
const privateDirs = new Set<string>();

/** ensurePrivateDir once per process for each folder (callers that write there often). */
export function ensurePrivateDirOnce(dir: string): void {
  if (privateDirs.has(dir)) return;
  ensurePrivateDir(dir);
  privateDirs.add(dir);
}

/** Append `text` to `file` (created 0600, narrowed to 0600 when wider), in one write. Its folder is
 * made private (once per process; again when it went missing). */
export function appendPrivate(file: string, text: string): void {
  const dir = path.dirname(file);
  if (!privateDirs.has(dir)) {
    ensurePrivateDir(dir);
    privateDirs.add(dir);
  }
  let fd: number;
  try {
    fd = fs.openSync(file, 'a', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    ensurePrivateDir(dir);
    fd = fs.openSync(file, 'a', 0o600);
  }
  try {
    if (process.platform !== 'win32' && (fs.fstatSync(fd).mode & 0o077) !== 0) fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

/** The values of a JSON-lines file, oldest first; none when there is no file. A line that is not
 * JSON (cut by a crash, or foreign) is skipped: the rest of the file stands. */
export function readJsonLines(file: string): unknown[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a torn or foreign line
    }
  }
  return out;
}
