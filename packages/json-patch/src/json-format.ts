import { JsonPatchError } from './errors';
import type { JsonValue } from './json-value';

/** How a JSON file was laid out, so a rewrite looks the same. */
export interface JsonFormat {
  /** Indentation of one level ('' for one-line JSON). */
  indent: string;
  /** Line ending used in the file. */
  newline: '\n' | '\r\n';
  /** Whether the file ended with a newline. */
  finalNewline: boolean;
  /** Whether the file started with a UTF-8 byte order mark. */
  bom: boolean;
}

/** The layout used for a file that does not exist yet: two spaces, LF, final newline. */
export const DEFAULT_JSON_FORMAT: JsonFormat = { indent: '  ', newline: '\n', finalNewline: true, bom: false };

/** Detect the layout of JSON text (indentation from the first indented line). */
export function detectJsonFormat(text: string, value?: unknown): JsonFormat {
  const bom = text.charCodeAt(0) === 0xfeff;
  const indented = /^([ \t]+)\S/m.exec(text);
  const emptyOrScalar = typeof value !== 'object' || value === null || Object.keys(value as object).length === 0;
  return {
    indent: indented ? indented[1] : emptyOrScalar ? DEFAULT_JSON_FORMAT.indent : '',
    newline: text.includes('\r\n') ? '\r\n' : '\n',
    finalNewline: /\n\s*$/.test(text) || text.trim() === '',
    bom,
  };
}

/** Serialize in the given layout. */
export function formatJson(value: unknown, format: JsonFormat): string {
  let text = JSON.stringify(value, null, format.indent || undefined);
  if (format.finalNewline) text += '\n';
  if (format.newline === '\r\n') text = text.replace(/\n/g, '\r\n');
  return (format.bom ? '\ufeff' : '') + text;
}

/** Parse a file's JSON text, or throw INVALID_JSON naming the file. */
export function parseJsonFile(text: string, file: string): JsonValue {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') {
    throw new JsonPatchError(
      'INVALID_JSON',
      `Expected ${file} to contain a JSON document, found an empty file. ` +
        'Write {} into it (or delete it) and try again; it was not changed.',
      { file },
    );
  }
  try {
    return JSON.parse(body) as JsonValue;
  } catch (err) {
    throw new JsonPatchError(
      'INVALID_JSON',
      `Expected ${file} to contain valid JSON, found a syntax error: ${(err as Error).message}. ` +
        'Fix the file by hand or restore a backup (rollbackFile); it was not changed.',
      { file, cause: err },
    );
  }
}
