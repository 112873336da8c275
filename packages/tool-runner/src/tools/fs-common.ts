import fs = require('fs');
import { pathOfFd } from '@holic512/shared/lib/fd-paths';
import { writeFileAtomicSync } from '../atomic-write';
import { redact } from '../redact';
import { diff } from '../lazy-modules';

/** `diff`, loaded on the first diff: a turn that only reads never needs it. */

/** File operations of the fs tools; replaceable in tests. */
export interface FsDeps {
  readFile(file: string): Buffer;
  writeFileAtomic(file: string, data: string): void;
  stat(file: string): { size: number; mtimeMs: number; isFile(): boolean; isDirectory(): boolean } | undefined;
  mkdirp(dir: string): void;
}

/**
 * Read the file that was judged, and only that one: opened once without following a link in
 * its last part, then checked through the descriptor (its real path, that it is a regular file)
 * and read from that descriptor. A folder on the way swapped for a link after the judgement
 * gives MOVED, never the file the link leads to.
 */
export function readJudgedFile(file: string): Buffer {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'NOT_A_FILE' });
    const real = pathOfFd(fd);
    const moved =
      real !== undefined
        ? real !== file
        : (() => {
            const now = fs.statSync(file, { throwIfNoEntry: false });
            return !now || now.ino !== st.ino || now.dev !== st.dev;
          })();
    if (moved) throw Object.assign(new Error(`${file} was moved or replaced while it was being read`), { code: 'MOVED' });
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function createDefaultFsDeps(): FsDeps {
  return {
    readFile: (file) => readJudgedFile(file),
    writeFileAtomic: (file, data) => writeFileAtomicSync(file, data),
    stat: (file) => {
      try {
        return fs.statSync(file);
      } catch {
        return undefined;
      }
    },
    mkdirp: (dir) => void fs.mkdirSync(dir, { recursive: true }),
  };
}

/** Files above this size are not read whole (fs.read points to head/tail/rg). */
export const FS_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** fs.read: default and maximal number of lines. */
export const FS_DEFAULT_LIMIT = 2000;
/** fs.read: longer lines are cut. */
export const FS_MAX_LINE_CHARS = 2000;
/** fs.read: characters of content returned at most, whatever the line count. */
export const FS_MAX_CONTENT_CHARS = 200_000;

/** A NUL byte in the first 8 KiB, or mostly undecodable bytes, means binary. */
export function isBinary(buf: Buffer): boolean {
  const head = buf.subarray(0, 8192);
  if (head.includes(0)) return true;
  if (!head.length) return false;
  const text = head.toString('utf8');
  let bad = 0;
  for (const ch of text) if (ch === '\ufffd') bad++;
  return bad > 8 && bad / text.length > 0.1;
}

/** Text of a file buffer: UTF-8 without a BOM. */
export function decodeText(buf: Buffer): string {
  const text = buf.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Lines of a text (no trailing empty line for a final newline). */
export function splitLines(text: string): string[] {
  if (!text) return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Redact a text, keeping the line count (so line numbers stay right): the gate masks a private
 * key block line by line, over the whole text, so a slice that starts inside a key does not
 * show its body.
 */
export function redactLines(text: string): string[] {
  return splitLines(redact(text));
}

/** `     1\tline`: the line-number format of fs.read and snippets. */
export function numbered(n: number, line: string): string {
  return `${String(n).padStart(6)}\t${line}`;
}

/** Longest time spent computing one diff; a huge file with scattered changes would take minutes. */
const DIFF_TIMEOUT_MS = 2000;

/**
 * A unified diff without the `Index:`/`===` header lines (uncoloured; the UI colours it).
 * When the diff takes too long, `fallback` (or a note) stands in for the hunks.
 */
export function unifiedDiff(file: string, before: string, after: string, fallback?: string): string {
  const { createTwoFilesPatch } = diff();
  const patch = createTwoFilesPatch(file, file, before, after, undefined, undefined, { context: 3, timeout: DIFF_TIMEOUT_MS }) as
    string | undefined;
  if (patch === undefined) {
    const note = `@@ diff too large to compute: ${splitLines(before).length} → ${splitLines(after).length} lines @@`;
    return [`--- ${file}`, `+++ ${file}`, note, ...(fallback ? [fallback.replace(/\n+$/, '')] : [])].join('\n') + '\n';
  }
  return patch
    .split('\n')
    .filter((l) => !l.startsWith('Index: ') && !/^=+$/.test(l))
    .map((l) => l.replace(/\t$/, ''))
    .join('\n')
    .replace(/\n+$/, '\n');
}

/**
 * A diff with secrets masked line by line (after the `+`/`-`/` ` prefix, so `.env` lines are
 * recognised), private key bodies included, so the confirm preview can be shown on a shared
 * screen. The lines that changed are still visible as lines.
 */
export function redactDiff(diff: string): string {
  let inKey = false;
  return diff
    .split('\n')
    .map((l) => {
      if (/^(---|\+\+\+|@@)/.test(l) || l === '') return l;
      const prefix = /^[+\- ]/.test(l) ? l[0] : '';
      const body = l.slice(prefix.length);
      if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY/.test(body)) {
        inKey = !/-----END [A-Z0-9 ]*PRIVATE KEY/.test(body.slice(body.indexOf('-----BEGIN') + 10));
        return prefix + body.replace(/(-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----).*$/, '$1');
      }
      if (inKey) {
        if (/-----END [A-Z0-9 ]*PRIVATE KEY/.test(body)) inKey = false;
        else return `${prefix}[redacted]`;
        return l;
      }
      return prefix + redact(body);
    })
    .join('\n');
}

/** Lines added and removed by a diff. */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of diff.split('\n')) {
    if (l.startsWith('+') && !l.startsWith('+++')) added++;
    else if (l.startsWith('-') && !l.startsWith('---')) removed++;
  }
  return { added, removed };
}

/** Preview of a new file: a header and its first lines as additions. */
export function newFilePreview(file: string, content: string, maxLines = 40): string {
  const lines = splitLines(content);
  const shown = lines.slice(0, maxLines).map((l) => `+${l}`);
  const more = lines.length > maxLines ? [`… (+${lines.length - maxLines} more lines)`] : [];
  return [`--- /dev/null`, `+++ ${file}`, `@@ -0,0 +1,${lines.length} @@`, ...shown, ...more].join('\n') + '\n';
}

/** A few numbered, redacted lines around `line` (1-based) of `text`, for the model. */
export function snippetAround(text: string, line: number, before = 3, after = 8): string {
  const lines = redactLines(text);
  const from = Math.max(1, line - before);
  const to = Math.min(lines.length, line + after);
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(numbered(n, lines[n - 1].slice(0, FS_MAX_LINE_CHARS)));
  return out.join('\n');
}
