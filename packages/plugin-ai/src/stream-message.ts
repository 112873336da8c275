/**
 * Incremental decoder of the `"message"` string of a reply that is still streaming in, so a
 * UI can show the text as it arrives. Linear in the stream length (re-parsing the whole
 * buffer on every delta is quadratic and was measurably slow on long answers).
 */
export class MessageStreamDecoder {
  private buffer = '';
  private start = -1;
  private cursor = 0;
  private decoded = '';
  private done = false;

  /** Feed a delta; returns the message so far when it grew, else undefined. */
  push(delta: string): string | undefined {
    if (this.done) return undefined;
    this.buffer += delta;
    if (this.start < 0) {
      const m = /"message"\s*:\s*"/.exec(this.buffer);
      if (!m) return undefined;
      this.start = m.index + m[0].length;
      this.cursor = this.start;
    }
    const before = this.decoded.length;
    const b = this.buffer;
    while (this.cursor < b.length) {
      const ch = b[this.cursor];
      if (ch === '"') {
        this.done = true;
        break;
      }
      if (ch !== '\\') {
        this.decoded += ch;
        this.cursor++;
        continue;
      }
      if (this.cursor + 1 >= b.length) break; // wait for the escaped character
      const esc = b[this.cursor + 1];
      if (esc === 'u') {
        if (this.cursor + 6 > b.length) break;
        const code = Number.parseInt(b.slice(this.cursor + 2, this.cursor + 6), 16);
        this.decoded += Number.isNaN(code) ? '' : String.fromCharCode(code);
        this.cursor += 6;
        continue;
      }
      const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
      this.decoded += map[esc] ?? esc;
      this.cursor += 2;
    }
    return this.decoded.length > before ? this.decoded : undefined;
  }
}
