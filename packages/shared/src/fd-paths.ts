import fs = require('fs');
import path = require('path');

/**
 * Check-then-use without the race: a path is judged, then used; a folder on the way swapped for
 * a link in between would redirect the use. These helpers open once and work through the
 * descriptor. Linux answers "which file is this descriptor" through /proc/self/fd; elsewhere the
 * answer is undefined and callers fall back to comparing device and inode.
 */

/** The path an open descriptor really is (Linux: /proc/self/fd), or undefined where that cannot be asked. */
export function pathOfFd(fd: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** A folder held open: names under it reach that folder even if its path is swapped afterwards. */
export interface HeldFolder {
  /** A path for `name` inside the held folder (through /proc/self/fd on Linux). */
  at(name: string): string;
  close(): void;
}

/**
 * Open `dir` (a real path, as judged) and check it still is that folder; throws an error with
 * code `MOVED` when a part of it was swapped for a link (or it is not a folder any more). On
 * Linux the paths `at()` gives go through the descriptor, so a swap after this check changes
 * nothing; elsewhere they are plain paths, checked once here.
 */
export function holdFolder(dir: string): HeldFolder {
  let fd: number;
  try {
    fd = fs.openSync(dir, fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    // A link (ELOOP / ENOTDIR with O_NOFOLLOW) or a file where the folder was: not the folder judged.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw Object.assign(new Error(`${dir} was moved or replaced by a link`), { code: 'MOVED' });
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    const real = pathOfFd(fd);
    const now = real === undefined ? fs.statSync(dir, { throwIfNoEntry: false }) : undefined;
    const moved = !st.isDirectory() || (real !== undefined ? real !== dir : !now || now.ino !== st.ino || now.dev !== st.dev);
    if (moved) throw Object.assign(new Error(`${dir} was moved or replaced by a link`), { code: 'MOVED' });
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  const base = process.platform === 'linux' && pathOfFd(fd) !== undefined ? `/proc/self/fd/${fd}` : dir;
  return {
    at: (name) => path.join(base, name),
    close: () => fs.closeSync(fd),
  };
}
