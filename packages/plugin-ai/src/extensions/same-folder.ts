import fs = require('fs');
import path = require('path');

/** Whether two paths are the same folder: the same spelling once resolved, or the same real path. */
export function sameFolder(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
