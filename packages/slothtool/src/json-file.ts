import fs = require('fs');
import path = require('path');
import { writeFileAtomic } from './lazy-libraries';

/** What reading a JSON file gave: missing, unparsable, or a value still to be validated. */
export type JsonRead = { kind: 'missing' } | { kind: 'invalid'; detail: string } | { kind: 'ok'; value: unknown };

/** Read and parse a JSON file without deciding what a missing or broken file means. */
export function readJsonFile(file: string): JsonRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  try {
    return { kind: 'ok', value: JSON.parse(text) as unknown };
  } catch (err) {
    return { kind: 'invalid', detail: (err as Error).message };
  }
}

/**
 * Write `value` as 2-space JSON (no trailing newline, as the original host writes it),
 * atomically: a temp file in the same folder renamed over the target.
 */
export function writeJsonFileAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic().sync(file, JSON.stringify(value, null, 2));
}
