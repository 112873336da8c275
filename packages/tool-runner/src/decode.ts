/**
 * Program output as text. UTF-8 when the bytes are UTF-8; otherwise GB18030 (a superset of GBK,
 * what programs print on machines set up for Chinese) when the bytes read as GB18030 without an
 * error; otherwise UTF-8 with replacement characters. Decoding is Node's own WHATWG TextDecoder
 * (ICU), so no decoder of ours: this file only decides which one.
 */
import { isUtf8 } from 'buffer';

export type OutputEncoding = 'utf-8' | 'gb18030';

/** Whether `buf` is GB18030 with no invalid sequence (an incomplete one at the end is allowed). */
function readsAsGb18030(buf: Uint8Array): boolean {
  try {
    new TextDecoder('gb18030', { fatal: true }).decode(buf, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Drop an incomplete UTF-8 sequence at the end, so a cut character does not count against UTF-8. */
function withoutCutUtf8(buf: Uint8Array): Uint8Array {
  let start = buf.length - 1;
  while (start >= 0 && buf.length - start < 4 && (buf[start] & 0xc0) === 0x80) start--;
  if (start < 0) return buf;
  const lead = buf[start];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - start < need ? buf.subarray(0, start) : buf;
}

/** The encoding of a sample of output (its start). */
export function detectEncoding(sample: Uint8Array): OutputEncoding {
  const s = withoutCutUtf8(sample);
  if (isUtf8(s)) return 'utf-8';
  return readsAsGb18030(sample) ? 'gb18030' : 'utf-8';
}

/** Decode `buf` in `encoding`; `cutEnd` drops an incomplete character at the end instead of a replacement character. */
export function decodeAs(buf: Uint8Array, encoding: OutputEncoding, cutEnd = false): string {
  return new TextDecoder(encoding).decode(buf, { stream: cutEnd });
}

/** Decode a whole output. */
export function decodeOutput(buf: Uint8Array): string {
  return decodeAs(buf, detectEncoding(buf));
}

/**
 * A streaming decoder for live display: UTF-8 until a chunk shows bytes that are not UTF-8 but
 * read as GB18030, then GB18030 from that chunk on. A character split across chunks is kept
 * whole in either encoding.
 */
export class OutputDecoder {
  private encoding: OutputEncoding = 'utf-8';
  private decoder = new TextDecoder('utf-8', { fatal: true });
  private pending: Uint8Array = new Uint8Array(0);

  /** Bytes of an incomplete character held back from the text so far. */
  get pendingBytes(): number {
    return this.encoding === 'utf-8' ? this.pending.length : 0;
  }

  write(chunk: Uint8Array): string {
    if (this.encoding === 'utf-8') {
      try {
        const text = this.decoder.decode(chunk, { stream: true });
        this.pending = withoutCutUtf8(chunk).length === chunk.length ? new Uint8Array(0) : chunk.subarray(withoutCutUtf8(chunk).length);
        return text;
      } catch {
        const bytes = Buffer.concat([this.pending, chunk]);
        this.encoding = readsAsGb18030(bytes) ? 'gb18030' : 'utf-8';
        this.decoder = new TextDecoder(this.encoding);
        return this.decoder.decode(bytes, { stream: true });
      }
    }
    return this.decoder.decode(chunk, { stream: true });
  }

  /** What is left at the end of the stream (an incomplete character as a replacement character). */
  end(): string {
    return this.decoder.decode();
  }
}
