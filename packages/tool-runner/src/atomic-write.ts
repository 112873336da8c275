import * as fs from 'fs';
import * as path from 'path';

/**
 * Write a file atomically: a temporary file in the same folder, flushed, then renamed over
 * the target, so a reader never sees half a file and a crash leaves the old one. An existing
 * file keeps its permission bits. Throws the fs error (the caller turns it into a result).
 */
export function writeFileAtomicSync(file: string, data: string | Buffer): void {
  const dir = path.dirname(file);
  let mode: number | undefined;
  try {
    mode = fs.statSync(file).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const fd = fs.openSync(tmp, 'wx', mode ?? 0o666);
  try {
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (mode !== undefined) fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // Already renamed or never created: nothing to clean.
    }
    throw err;
  }
}
