import fs = require('fs');

/** The value of a JSON file, `undefined` when there is no file. `fail(detail)` makes the error
 * for a file that cannot be read or is not JSON. */
export function readJsonFile(file: string, fail: (detail: string) => Error): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fail((err as Error).message);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw fail((err as Error).message);
  }
}
