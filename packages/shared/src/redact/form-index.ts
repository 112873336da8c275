/**
 * The forms of the known secret values, indexed so that one pass over a text finds every
 * occurrence of every form whatever their number: a multi-pattern search by sampled q-grams.
 * Every form is at least {@link MIN_FORM_LENGTH} characters, so an occurrence of one always holds
 * {@link STRIDE} consecutive 4-character windows of it; each form is filed under those windows'
 * hashes, and the pass looks only at every {@link STRIDE}th position of the text, where exactly
 * one of them starts. So a pass reads a hash of four characters per five of the text plus a bit
 * of a filter, and compares a form only where one of its windows' hashes occurs. What the index
 * holds is the forms' text and a few numbers per form: adding a value costs its forms, not a
 * rebuild, and a value can be taken out again (learned values make room for newer ones).
 *
 * Line breaks are looked through: `base64` wraps its output at 76 columns, and a value encoded
 * across a break is still the value.
 */

/** The shortest form looked for (MIN_KNOWN_LENGTH); shorter ones are left out. */
export const MIN_FORM_LENGTH = 8;
/** Characters of a window. */
const GRAM = 4;
/** Positions of the text looked at: one in this many (the windows of a form that every occurrence holds). */
const STRIDE = MIN_FORM_LENGTH - GRAM + 1;
/** The hash's base (odd, so no character's weight vanishes modulo 2^32). */
const BASE = 0x01000193;
/** Bits of the filter per window filed, at least: few positions with a window's bit are false alarms. */
const FILTER_BITS_PER_WINDOW = 16;

/** One string to look for, and the label its mask carries. */
export interface Form {
  text: string;
  form: string;
}

/** Where a form was found: [start, end) of the text, and its label. */
export interface Span {
  start: number;
  end: number;
  form: string;
}

/** The hash of `s[at, at + GRAM)`. */
function gramHash(s: string, at: number): number {
  return (
    (Math.imul(Math.imul(Math.imul(s.charCodeAt(at), BASE) + s.charCodeAt(at + 1), BASE) + s.charCodeAt(at + 2), BASE) +
      s.charCodeAt(at + 3)) |
    0
  );
}

export class FormIndex {
  /** Per form id: its text ('' once removed), label, and where its run of filed windows starts. */
  private readonly texts: string[] = [];
  private readonly labels: string[] = [];
  private readonly runs: number[] = [];
  /** Ids of removed forms, to reuse. */
  private readonly free: number[] = [];
  /**
   * Window hash → the windows filed under it, each `id * STRIDE + j` (the form's j-th window of
   * its run): one number when it is the only one (most are), else an array.
   */
  private readonly buckets = new Map<number, number | number[]>();
  private filter = new Uint32Array(32);
  /** 32 − log2(bits of the filter): a hash's bit is the top bits of a multiplicative mix. */
  private shift = 22;
  private live = 0;
  /** Characters of the live forms. */
  private chars = 0;

  /** How many forms are looked for. */
  get size(): number {
    return this.live;
  }

  /** Characters of the forms looked for (what the index holds). */
  get characters(): number {
    return this.chars;
  }

  /**
   * Look for `forms` from now on (each at least {@link MIN_FORM_LENGTH} characters; shorter ones
   * are left out). Returns their ids, for {@link remove}.
   */
  add(forms: readonly Form[]): number[] {
    const ids: number[] = [];
    for (const f of forms) {
      if (f.text.length < MIN_FORM_LENGTH) continue;
      const run = this.runOf(f.text);
      const id = this.free.pop() ?? this.texts.length;
      this.texts[id] = f.text;
      this.labels[id] = f.form;
      this.runs[id] = run;
      for (let j = 0; j < STRIDE; j++) {
        const hash = gramHash(f.text, run + j);
        const bucket = this.buckets.get(hash);
        if (bucket === undefined) this.buckets.set(hash, id * STRIDE + j);
        else if (typeof bucket === 'number') this.buckets.set(hash, [bucket, id * STRIDE + j]);
        else bucket.push(id * STRIDE + j);
        this.setBit(hash);
      }
      this.live++;
      this.chars += f.text.length;
      ids.push(id);
      if (this.buckets.size * FILTER_BITS_PER_WINDOW > this.filter.length * 32) this.refilter();
    }
    return ids;
  }

  /** Stop looking for the forms with these ids. */
  remove(ids: readonly number[]): void {
    for (const id of ids) {
      const text = this.texts[id];
      if (!text) continue;
      for (let j = 0; j < STRIDE; j++) {
        const hash = gramHash(text, this.runs[id] + j);
        const bucket = this.buckets.get(hash);
        if (typeof bucket === 'number') {
          if (bucket === id * STRIDE + j) this.buckets.delete(hash);
        } else if (bucket) {
          const at = bucket.indexOf(id * STRIDE + j);
          if (at !== -1) bucket.splice(at, 1);
          if (bucket.length === 1) this.buckets.set(hash, bucket[0]);
        }
      }
      this.texts[id] = '';
      this.labels[id] = '';
      this.free.push(id);
      this.live--;
      this.chars -= text.length;
    }
    // A removed window's bit stays set until the filter is made again: a false alarm, never a miss.
  }

  /**
   * Where a form's run of windows starts: of its last, first and middle runs, the one whose
   * windows are filed least so far. Values often share a prefix (`sk-proj-`, `ghp_`) and a
   * reversed form shares a suffix, so no single place suits every form; small buckets keep a
   * text full of a shared prefix from costing a comparison with every value that has it.
   */
  private runOf(text: string): number {
    const last = text.length - MIN_FORM_LENGTH;
    let best = last;
    let bestSize = Infinity;
    for (const at of [last, 0, last >> 1]) {
      let size = 0;
      for (let j = 0; j < STRIDE; j++) {
        const bucket = this.buckets.get(gramHash(text, at + j));
        size += bucket === undefined ? 0 : typeof bucket === 'number' ? 1 : bucket.length;
      }
      if (size < bestSize) {
        best = at;
        bestSize = size;
      }
    }
    return best;
  }

  private setBit(hash: number): void {
    const bit = Math.imul(hash, 0x9e3779b1) >>> this.shift;
    this.filter[bit >>> 5] |= 1 << (bit & 31);
  }

  /** Make the filter again, large enough for the windows filed (and without removed ones' bits). */
  private refilter(): void {
    let bits = 1024;
    while (bits < this.buckets.size * FILTER_BITS_PER_WINDOW * 2) bits *= 2;
    this.filter = new Uint32Array(bits / 32);
    this.shift = 32 - Math.log2(bits);
    for (const hash of this.buckets.keys()) this.setBit(hash);
  }

  /** Spans [start, end) of the forms in `text`, in order, merged where they overlap or touch. */
  find(text: string): Span[] {
    if (this.live === 0 || text.length < MIN_FORM_LENGTH) return [];
    const flat = text.replace(/[\r\n]/g, '');
    const wrapped = flat.length !== text.length;
    const found = this.scan(flat);
    if (found.length === 0) return found;
    found.sort((a, b) => a.start - b.start || b.end - a.end);
    const where = wrapped ? positions(text, flat.length) : undefined;
    const merged: Span[] = [];
    for (const sp of found) {
      const start = where ? where[sp.start] : sp.start;
      const end = where ? where[sp.end - 1] + 1 : sp.end;
      const last = merged[merged.length - 1];
      if (last && start <= last.end) last.end = Math.max(last.end, end);
      else merged.push({ start, end, form: sp.form });
    }
    return merged;
  }

  /** Every occurrence of a form in `flat` (a text without line breaks), unordered. */
  private scan(flat: string): Span[] {
    const found: Span[] = [];
    const { filter, shift } = this;
    const last = flat.length - GRAM;
    for (let p = 0; p <= last; p += STRIDE) {
      const h = gramHash(flat, p);
      const bit = Math.imul(h, 0x9e3779b1) >>> shift;
      if (filter[bit >>> 5] & (1 << (bit & 31))) this.check(flat, p, h, found);
    }
    return found;
  }

  /** The forms with a window whose hash is `h`, compared with the text where they would be if that window is at `p`. */
  private check(flat: string, p: number, h: number, found: Span[]): void {
    const entries = this.buckets.get(h);
    if (entries === undefined) return;
    if (typeof entries === 'number') this.compare(flat, p, entries, found);
    else for (const e of entries) this.compare(flat, p, e, found);
  }

  /** The form of window `e` compared with the text where it would be if that window is at `p`. */
  private compare(flat: string, p: number, e: number, found: Span[]): void {
    const id = (e / STRIDE) | 0;
    const text = this.texts[id];
    const start = p - this.runs[id] - (e - id * STRIDE);
    if (start >= 0 && start + text.length <= flat.length && flat.startsWith(text, start)) {
      found.push({ start, end: start + text.length, form: this.labels[id] });
    }
  }
}

/** Where each character of the text without line breaks is in `text`. */
function positions(text: string, flatLength: number): Int32Array {
  const where = new Int32Array(flatLength);
  let k = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) where[k++] = i;
  }
  return where;
}
