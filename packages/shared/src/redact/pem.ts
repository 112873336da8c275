import { count } from './work';

/**
 * Private key blocks in any framing (gitleaks:private-key, secretlint:privatekey,
 * detect-secrets:PrivateKeyDetector): PEM (`RSA`, `EC`, `DSA`, `OPENSSH`, `ENCRYPTED`, PKCS#8),
 * PGP (`PGP PRIVATE KEY BLOCK`), RFC 4716 (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`) and
 * PuTTY (`PuTTY-User-Key-File-2:`).
 *
 * After a BEGIN marker the lines that follow are read one by one. A line is a line of the
 * text, or of a JSON string (`\n` escapes, at any depth of escaping), and each may carry a frame
 * before the key's characters: a `grep -n` / `rg -n` / `git grep` prefix (`key.pem:12:`,
 * `key.pem-13-`), a diff `+` / `-`, a `cat -n` number, YAML indentation, a quote. A line whose
 * end is a run of base64 characters (16 or more, or fewer just before the END marker) is key
 * body; header lines (`Proc-Type:`, `DEK-Info:`, `Version:`, `Comment:`) and blank lines are
 * passed over; anything else ends the block, so a BEGIN marker in source code masks nothing.
 * The body is masked line by line (the line count stays, so line numbers stay right).
 *
 * A body printed without its BEGIN line (`tail -n +2 id_rsa`, `sed 1d key.pem`) is found from its
 * END marker: the lines before it are read back, one by one, with the same test (key characters
 * after a frame, 16 or more of them but for the line just before the marker), up to the first
 * line that is not key body.
 */

const BEGIN_RE =
  /-----BEGIN [A-Z0-9 _-]{0,60}?PRIVATE KEY(?: BLOCK)?-----|---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----|PuTTY-User-Key-File-[0-9]: /g;
const END_RE = /-----END |---- END SSH2/;
/** The END marker of a private key (what {@link maskBeheadedBlocks} reads back from). */
const KEY_END_RE = /-----END [A-Z0-9 _-]{0,60}?PRIVATE KEY(?: BLOCK)?-----|---- END SSH2 ENCRYPTED PRIVATE KEY ----/g;
const HEADER_RE =
  /(?:^|[\s:+-])(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset|Encryption|Public-Lines|Private-Lines|Private-MAC|Key-Derivation|Argon2-[A-Za-z]+):/;
const B64 = /[A-Za-z0-9+/=]/;
/** A frame: white space, then at most one word (a file name and line number, `+`, a number), then white space. */
const FRAME_RE = /^\s*\S{0,300}?\s*$/;
const MAX_LINES = 2000;
/** The start of a JSON string value, then a frame (`"stdout": "key.pem:2:`). */
const JSON_OPEN_RE = /":\s*"\S{0,300}$/;

export interface Segment {
  start: number;
  end: number;
  /** Where the next segment starts (past the line break or `\n` escape). */
  next: number;
}

/** The line that starts at `at`: up to a new line or a `\n` / `\r` escape (any number of backslashes). */
export function segmentAt(text: string, at: number): Segment {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10) return { start: at, end: i, next: i + 1 };
    if (c === 92) {
      let j = i;
      while (j < text.length && text.charCodeAt(j) === 92) j++;
      const n = text[j];
      if (n === 'n' || n === 'r') {
        let next = j + 1;
        // `\r\n` escaped: take the `\n` escape too.
        if (n === 'r' && text.startsWith('\\', next)) {
          let k = next;
          while (k < text.length && text.charCodeAt(k) === 92) k++;
          if (text[k] === 'n') next = k + 1;
        }
        return { start: at, end: i, next };
      }
      i = j;
      continue;
    }
    i++;
  }
  return { start: at, end: text.length, next: text.length };
}

/** The key characters at the end of a line: [from, to) in the text, and whether the rest is a frame. */
function bodyOf(text: string, s: Segment): { from: number; to: number; framed: boolean } {
  let to = s.end;
  while (to > s.start && /[\s"',;\r]/.test(text[to - 1])) to--;
  let from = to;
  while (from > s.start && B64.test(text[from - 1])) from--;
  // A blank line with only its frame left: a `cat -n` number, a diff `+`.
  if (/^(?:[0-9]{1,9}|\+)$/.test(text.slice(from, to))) from = to;
  return { from, to, framed: FRAME_RE.test(text.slice(s.start, from)) };
}

type Block = { ranges: Array<[number, number]>; total: number };

/** The backslashes that end at `i` (exclusive): where their run starts. */
function slashesBefore(text: string, i: number, low: number): number {
  let j = i;
  while (j > low && text.charCodeAt(j - 1) === 92) j--;
  return j;
}

/**
 * Looking back from `pos` (no further than `low`): where the line holding it starts, and where the
 * line before it ends (-1: none). A line ends at a new line or at a `\n` / `\r` escape with any
 * number of backslashes (an escaped `\r\n` is one break), as {@link segmentAt} reads forward.
 */
function lineBack(text: string, pos: number, low: number): { start: number; prevEnd: number } {
  let i = pos;
  while (i > low) {
    const c = text.charCodeAt(i - 1);
    if (c === 10) {
      count(0, 0, pos - i);
      return { start: i, prevEnd: i - 1 };
    }
    if ((c === 110 || c === 114) && i - 2 >= low && text.charCodeAt(i - 2) === 92) {
      let prevEnd = slashesBefore(text, i - 1, low);
      // `\r\n` escaped: the `\r` escape belongs to the break too.
      if (c === 110 && prevEnd - 1 > low && text.charCodeAt(prevEnd - 1) === 114 && text.charCodeAt(prevEnd - 2) === 92)
        prevEnd = slashesBefore(text, prevEnd - 1, low);
      count(0, 0, pos - i);
      return { start: i, prevEnd };
    }
    i--;
  }
  count(0, 0, pos - i);
  return { start: low, prevEnd: -1 };
}

/**
 * Key bodies before an END marker that no BEGIN marker led to (`ends`: the markers the forward
 * reading reached): read back line by line from the marker (lines of the text or of a JSON
 * string), never past the previous marker or into a block already found (`found`, in text
 * order), so each character is read back once.
 */
function maskBeheadedBlocks(text: string, found: readonly Block[], ends: ReadonlySet<number>): Block[] {
  const out: Block[] = [];
  let floor = 0;
  let next = 0;
  KEY_END_RE.lastIndex = 0;
  for (let m = KEY_END_RE.exec(text); m; m = KEY_END_RE.exec(text)) {
    count(0, 1);
    const at = m.index;
    for (; next < found.length && found[next].ranges[0][0] < at; next++) {
      const r = found[next].ranges;
      floor = Math.max(floor, r[r.length - 1][1]);
    }
    const low = Math.min(floor, at);
    floor = at + m[0].length;
    if (ends.has(at)) continue;
    const ranges: Array<[number, number]> = [];
    let line = lineBack(text, at, low);
    // The marker's own line: a frame, or key characters right before it (`…AB==-----END …`).
    const own = bodyOf(text, { start: line.start, end: at, next: at });
    if (!own.framed || (own.to > own.from && own.to !== at)) continue;
    if (own.to > own.from) ranges.push([own.from, own.to]);
    let short = ranges.length === 0;
    for (let n = 0; n < MAX_LINES && line.prevEnd >= low; n++) {
      const lineEnd = line.prevEnd;
      line = lineBack(text, lineEnd, low);
      const b = bodyOf(text, { start: line.start, end: lineEnd, next: lineEnd + 1 });
      // The first line of a JSON string value (`{"stdout": "key.pem:2:MIIE…`): its frame, and no
      // line of this string before it.
      const opens = !b.framed && JSON_OPEN_RE.test(text.slice(Math.max(line.start, b.from - 320), b.from));
      // The last line of a body may be short; every line before it has 16 or more.
      if ((b.framed || opens) && (b.to - b.from >= 16 || (short && b.to > b.from))) ranges.unshift([b.from, b.to]);
      else if (!HEADER_RE.test(text.slice(line.start, lineEnd))) break;
      if (opens) break;
      short = false;
    }
    if (ranges.length > 0) out.push({ ranges, total: ranges.reduce((k, [a, b]) => k + b - a, 0) });
  }
  return out;
}

/** Mask the private key blocks of `text`. */
export function maskKeyBlocks(text: string): string {
  if (!text.includes('PRIVATE KEY') && !text.includes('PuTTY-User-Key-File-')) return text;
  count(text.length);
  const blocks: Block[] = [];
  const ends = new Set<number>();
  BEGIN_RE.lastIndex = 0;
  for (let m = BEGIN_RE.exec(text); m; m = BEGIN_RE.exec(text)) {
    count(0, 1);
    const ranges: Array<[number, number]> = [];
    const putty = m[0].startsWith('PuTTY');
    let s = segmentAt(text, m.index + m[0].length);
    count(0, 0, s.next - s.start);
    const first = s.end > s.start ? text.slice(s.start, s.end) : '';
    let stop = false;
    const endAt = first === '' ? -1 : first.search(END_RE);
    if (!putty && first !== '') {
      // The rest of the BEGIN line: nothing, or the key on one line (`… KEY----- MIIE… -----END …`).
      const rest = endAt === -1 ? first : first.slice(0, endAt);
      if (/[^\sA-Za-z0-9+/=]/.test(rest.replace(/["',;\r]+\s*$/, ''))) stop = true;
      else for (const r of rest.matchAll(/[A-Za-z0-9+/=]+/g)) ranges.push([s.start + r.index, s.start + r.index + r[0].length]);
    }
    let done = endAt !== -1 || stop;
    let ended = endAt !== -1 ? s.start + endAt : undefined;
    let blanks = 0;
    for (let n = 0; !done && n < MAX_LINES && s.next < text.length; n++) {
      s = segmentAt(text, s.next);
      count(0, 0, s.next - s.start);
      const line = text.slice(s.start, s.end);
      const end = line.search(END_RE);
      if (end !== -1) {
        const b = bodyOf(text, { ...s, end: s.start + end });
        if (b.to > b.from && b.framed) ranges.push([b.from, b.to]);
        ended = s.start + end;
        break;
      }
      const b = bodyOf(text, s);
      if (b.framed && b.to - b.from >= 16) {
        ranges.push([b.from, b.to]);
        blanks = 0;
      } else if (HEADER_RE.test(line) || (b.framed && b.to === b.from && ++blanks <= 2)) {
        continue;
      } else if (b.framed && b.to > b.from) {
        // A short last line counts only when the END marker follows.
        const after = segmentAt(text, s.next);
        if (END_RE.test(text.slice(after.start, after.end))) ranges.push([b.from, b.to]);
        else done = true;
      } else done = true;
    }
    if (ranges.length > 0) blocks.push({ ranges, total: ranges.reduce((n, [a, b]) => n + b - a, 0) });
    const last = ranges.length > 0 ? ranges[ranges.length - 1][1] : m.index + m[0].length;
    if (BEGIN_RE.lastIndex < last) BEGIN_RE.lastIndex = last;
    if (ended !== undefined) ends.add(ended);
  }
  blocks.push(...maskBeheadedBlocks(text, blocks, ends));
  if (blocks.length === 0) return text;
  blocks.sort((a, b) => a.ranges[0][0] - b.ranges[0][0]);
  const parts: string[] = [];
  let at = 0;
  for (const block of blocks) {
    block.ranges.forEach(([a, b], i) => {
      parts.push(text.slice(at, a), i === 0 ? `[redacted private key, ${block.total} chars]` : '[redacted]');
      at = b;
    });
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** `-----BEGIN ` in base64 (the start of a base64-encoded key file: `base64 id_rsa`, kubeconfig `client-key-data`). */
const ENCODED_BEGIN = /LS0tLS1CRUdJTi[A-Za-z0-9+/]{42}/g;

/**
 * Key blocks encoded whole in base64: the encoded run is decoded just enough to see
 * `-----BEGIN … PRIVATE KEY`, then masked with the lines that continue it (`base64` wraps at
 * 76 characters; each line may carry a frame, as above).
 */
export function maskEncodedKeyBlocks(text: string): string {
  if (!text.includes('LS0tLS1CRUdJTi')) return text;
  count(text.length);
  const blocks: Array<Array<[number, number]>> = [];
  ENCODED_BEGIN.lastIndex = 0;
  for (let m = ENCODED_BEGIN.exec(text); m; m = ENCODED_BEGIN.exec(text)) {
    count(0, 1, 56);
    const head = Buffer.from(m[0], 'base64').toString('latin1');
    if (!/^-----BEGIN [A-Z0-9 _-]{0,60}?PRIVATE KEY/.test(head)) continue;
    let s = segmentAt(text, m.index);
    const first = bodyOf(text, s);
    const ranges: Array<[number, number]> = [[m.index, Math.max(first.to, m.index + m[0].length)]];
    for (let n = 0; n < MAX_LINES && s.next < text.length; n++) {
      const next = segmentAt(text, s.next);
      count(0, 0, next.next - next.start);
      const b = bodyOf(text, next);
      const len = b.to - b.from;
      // A continuation line: a framed run of base64, full length or the padded last one.
      if (!b.framed || len === 0 || (len < 16 && text[b.to - 1] !== '=')) break;
      ranges.push([b.from, b.to]);
      s = next;
    }
    blocks.push(ranges);
    const last = ranges[ranges.length - 1][1];
    if (ENCODED_BEGIN.lastIndex < last) ENCODED_BEGIN.lastIndex = last;
  }
  if (blocks.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const ranges of blocks) {
    const total = ranges.reduce((n, [a, b]) => n + b - a, 0);
    ranges.forEach(([a, b], i) => {
      parts.push(text.slice(at, a), i === 0 ? `[redacted private key, base64, ${total} chars]` : '[redacted]');
      at = b;
    });
  }
  parts.push(text.slice(at));
  return parts.join('');
}
