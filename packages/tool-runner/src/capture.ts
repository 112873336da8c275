/**
 * Bounded capture of a byte stream: keeps the first `headBytes` and the last `tailBytes`
 * bytes, however much is pushed, and renders them on UTF-8 character boundaries.
 */
import { decodeAs, decodeOutput, detectEncoding } from './decode';

export class BoundedCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Every byte pushed so far. */
  total = 0;
  /** True once a NUL byte was seen (binary output). */
  sawNul = false;

  constructor(maxBytes: number) {
    const limit = Math.max(16, Math.floor(maxBytes));
    this.headLimit = Math.floor(limit / 4);
    this.tailLimit = limit - this.headLimit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (!this.sawNul && chunk.includes(0)) this.sawNul = true;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(rest.length, this.headLimit - this.headBytes);
      // Copy so the head never pins a large pipe buffer.
      this.head.push(Buffer.from(rest.subarray(0, take)));
      this.headBytes += take;
      rest = rest.subarray(take);
      if (rest.length === 0) return;
    }
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailLimit) {
      this.tailBytes -= this.tail[0].length;
      this.tail.shift();
    }
    if (this.tail.length > 512) {
      this.tail = [Buffer.concat(this.tail)];
    }
  }

  /** How many of the last bytes are kept. */
  get tailCapacity(): number {
    return this.tailLimit;
  }

  /** Whether the head is complete (later bytes only ever reach the tail). */
  get headFull(): boolean {
    return this.headBytes >= this.headLimit;
  }

  /**
   * Bytes read elsewhere (capture-offload.ts), after everything pushed so far: `total` of them,
   * of which `tail` are the last, and whether any was NUL. Only once the head is full.
   */
  absorb(total: number, tail: Buffer, sawNul: boolean): void {
    if (!this.headFull) throw new Error('absorb needs a full head');
    if (sawNul) this.sawNul = true;
    const kept = tail.subarray(Math.max(0, tail.length - Math.min(total, this.tailLimit)));
    this.total += total - kept.length;
    this.push(kept);
  }

  /** Whether bytes were dropped between head and tail. */
  get truncated(): boolean {
    return this.total > this.headBytes + Math.min(this.tailBytes, this.tailLimit);
  }

  /** The kept text: head + marker + tail when truncated, cut on character boundaries. */
  render(): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    if (this.sawNul) return `<binary output, ${this.total} bytes>`;
    if (!this.truncated) return decodeOutput(Buffer.concat([head, tail]));
    if (detectEncoding(head.length ? head : tail) === 'gb18030') {
      // GB18030 has no self-synchronising bytes: the tail's first character may be misread.
      return `${decodeAs(head, 'gb18030', true)}\n…[${this.total - head.length - tail.length} bytes omitted]…\n${decodeAs(tail, 'gb18030')}`;
    }
    const h = cutEndUtf8(head);
    const t = cutStartUtf8(tail);
    const omitted = this.total - h.length - t.length;
    return `${h.toString('utf8')}\n…[${omitted} bytes omitted]…\n${t.toString('utf8')}`;
  }
}

/** Drop an incomplete UTF-8 sequence at the end of `buf`. */
export function cutEndUtf8(buf: Buffer): Buffer {
  const end = buf.length;
  let start = end - 1;
  while (start >= 0 && end - start < 4 && (buf[start] & 0xc0) === 0x80) start--;
  if (start < 0) return buf.subarray(0, 0);
  const lead = buf[start];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return end - start < need ? buf.subarray(0, start) : buf;
}

/** Drop continuation bytes at the start of `buf` (the rest of a character cut off before it). */
export function cutStartUtf8(buf: Buffer): Buffer {
  let i = 0;
  while (i < buf.length && i < 3 && (buf[i] & 0xc0) === 0x80) i++;
  return buf.subarray(i);
}
