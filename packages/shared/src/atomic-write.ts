import fs = require('fs');
import path = require('path');
import { holdFolder } from './fd-paths';

/**
 * Write a file atomically: a temporary file in the same folder, flushed, then renamed over
 * the target, so a reader never sees half a file and a crash (or a full disk) leaves the old
 * one. `fsync: false` skips the flush, for a file whose loss costs nothing but that must never
 * be half-written for a reader (a hint, a cache): after a crash it may be old or empty. An
 * existing file keeps its permission bits (and, written as root, its owner); a new one gets
 * `mode` (default 0o666 minus the umask).
 *
 * `file` is the real path that was checked: its folder is held open and checked first, and the
 * temp file and the rename go through that descriptor — a folder on the way swapped for a link
 * meanwhile throws an error with code `MOVED` and writes nothing; a final-part link is replaced,
 * never followed. Throws the fs error otherwise; the temp file is removed on any failure.
 */
export function writeFileAtomicSync(file: string, data: string | Buffer, options: { mode?: number; fsync?: boolean } = {}): void {
  const folder = holdFolder(path.dirname(file));
  try {
    const target = folder.at(path.basename(file));
    const st = fs.lstatSync(target, { throwIfNoEntry: false });
    const mode = st?.isFile() ? st.mode & 0o7777 : options.mode;
    const tmp = folder.at(`.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
    const fd = fs.openSync(
      tmp,
      fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
      mode ?? 0o666,
    );
    try {
      try {
        const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        for (let off = 0; off < bytes.length;) off += fs.writeSync(fd, bytes, off, bytes.length - off);
        if (options.fsync !== false) fs.fsyncSync(fd);
        if (mode !== undefined) fs.fchmodSync(fd, mode);
        if (st?.isFile() && process.getuid?.() === 0 && (st.uid !== 0 || st.gid !== 0)) fs.fchownSync(fd, st.uid, st.gid);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, target);
    } catch (err) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // Already renamed or never created: nothing to clean.
      }
      throw err;
    }
  } finally {
    folder.close();
  }
}

/**
 * Read the regular file `file` (a real path that was checked) through its folder held open and
 * without following a link in its last part: a swap after the check gives an error with code
 * `MOVED`, never another file's bytes. Returns null when there is no such file.
 */
export function readCheckedFile(file: string): { bytes: Buffer; mode: number } | null {
  const folder = holdFolder(path.dirname(file));
  try {
    let fd: number;
    try {
      fd = fs.openSync(
        folder.at(path.basename(file)),
        fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      if (code === 'ELOOP') throw Object.assign(new Error(`${file} was replaced by a link`), { code: 'MOVED' });
      throw err;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile())
        throw Object.assign(new Error(`${file} is not a regular file`), { code: st.isDirectory() ? 'EISDIR' : 'NOT_A_FILE' });
      return { bytes: fs.readFileSync(fd), mode: st.mode & 0o7777 };
    } finally {
      fs.closeSync(fd);
    }
  } finally {
    folder.close();
  }
}
