/**
 * Incremental decoder of the `"message"` string of a reply that is still streaming in, so a
 * UI can show the text as it arrives. Linear in the stream length: each delta is looked at once
 * (only a few characters of an escape cut by a chunk boundary are carried over), and the decoded
 * text grows by whole pieces. Indexing into an ever-growing concatenated buffer made V8 flatten
 * it on every delta — quadratic: a 1 MB reply took seconds, 10 MB minutes.
 */
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
const KEY = /"message"\s*:\s*"/;
/** Characters of the reply kept while the key is not found yet (it comes early; this bounds the search). */
const SEEK_WINDOW = 4096;

export class MessageStreamDecoder {
  /** Before the key: the text seen so far (bounded); after it: the unfinished escape carried over. */
  private pending = '';
  private inside = false;
  private done = false;
  private decoded = '';

  /** Feed a delta; returns the message so far when it grew, else undefined. */
  push(delta: string): string | undefined {
    if (this.done) return undefined;
    let text: string;
    if (!this.inside) {
      const seek = this.pending + delta;
      const m = KEY.exec(seek);
      if (!m) {
        this.pending = seek.length > SEEK_WINDOW ? seek.slice(-64) : seek;
        return undefined;
      }
      this.inside = true;
      text = seek.slice(m.index + m[0].length);
    } else {
      text = this.pending + delta;
    }
    this.pending = '';
    let piece = '';
    let i = 0;
    while (i < text.length) {
      const quote = text.indexOf('"', i);
      const slash = text.indexOf('\\', i);
      const stop = quote < 0 ? slash : slash < 0 ? quote : Math.min(quote, slash);
      if (stop < 0) {
        piece += text.slice(i);
        break;
      }
      piece += text.slice(i, stop);
      if (stop === quote) {
        this.done = true;
        break;
      }
      // an escape: wait for the rest of it when the chunk ended inside it
      if (stop + 1 >= text.length || (text[stop + 1] === 'u' && stop + 6 > text.length)) {
        this.pending = text.slice(stop);
        break;
      }
      const esc = text[stop + 1];
      if (esc === 'u') {
        const code = Number.parseInt(text.slice(stop + 2, stop + 6), 16);
        piece += Number.isNaN(code) ? '' : String.fromCharCode(code);
        i = stop + 6;
      } else {
        piece += ESCAPES[esc] ?? esc;
        i = stop + 2;
      }
    }
    if (!piece) return undefined;
    this.decoded += piece;
    return this.decoded;
  }
}
