/**
 * The forms of the known secret values, indexed so that one pass over a text finds every
 * occurrence of every form whatever their number: a multi-pattern Rabin–Karp search. Each form
 * is filed under the hash of one 8-character window of it (its anchor); the pass rolls that hash
 * along the text and checks a bit filter at each position, so its cost is one hash step a
 * character plus a comparison where an anchor's hash occurs. What it holds is the forms' text and
 * a few numbers per form: adding a value costs its forms, not a rebuild, and a value can be taken
 * out again (learned values make room for newer ones).
 *
 * Line breaks are looked through: `base64` wraps its output at 76 columns, and a value encoded
 * across a break is still the value.
 */

/** Characters of an anchor: every form is at least this long (MIN_KNOWN_LENGTH). */
export const ANCHOR_LENGTH = 8;
/** The hash's base (odd, so no character's weight vanishes modulo 2^32). */
const BASE = 0x01000193;
/** BASE^(ANCHOR_LENGTH - 1) modulo 2^32: the weight of the character leaving the window. */
const BASE_OUT = (() => {
  let p = 1;
  for (let i = 1; i < ANCHOR_LENGTH; i++) p = Math.imul(p, BASE);
  return p;
})();
/** Bits of the filter per anchor, at least: about one position in sixteen with an anchor's bit is a false alarm at most. */
const FILTER_BITS_PER_ANCHOR = 16;

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

/** The hash of `s[at, at + ANCHOR_LENGTH)`. */
function anchorHash(s: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + ANCHOR_LENGTH; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  return h;
}

export class FormIndex {
  /** Per form id: its text ('' once removed), label, anchor offset and anchor hash. */
  private readonly texts: string[] = [];
  private readonly labels: string[] = [];
  private readonly offsets: number[] = [];
  private readonly hashes: number[] = [];
  /** Ids of removed forms, to reuse. */
  private readonly free: number[] = [];
  /** Anchor hash → ids of the forms filed under it. */
  private readonly buckets = new Map<number, number[]>();
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
   * Look for `forms` from now on (each at least {@link ANCHOR_LENGTH} characters; shorter ones are
   * left out). Returns their ids, for {@link remove}.
   */
  add(forms: readonly Form[]): number[] {
    const ids: number[] = [];
    for (const f of forms) {
      if (f.text.length < ANCHOR_LENGTH) continue;
      const at = this.anchorOf(f.text);
      const hash = anchorHash(f.text, at);
      const id = this.free.pop() ?? this.texts.length;
      this.texts[id] = f.text;
      this.labels[id] = f.form;
      this.offsets[id] = at;
      this.hashes[id] = hash;
      const bucket = this.buckets.get(hash);
      if (bucket) bucket.push(id);
      else this.buckets.set(hash, [id]);
      this.live++;
      this.chars += f.text.length;
      ids.push(id);
      if (this.live * FILTER_BITS_PER_ANCHOR > this.filter.length * 32) this.refilter();
      else this.setBit(hash);
    }
    return ids;
  }

  /** Stop looking for the forms with these ids. */
  remove(ids: readonly number[]): void {
    for (const id of ids) {
      const text = this.texts[id];
      if (!text) continue;
      const bucket = this.buckets.get(this.hashes[id]) ?? [];
      const at = bucket.indexOf(id);
      if (at !== -1) bucket.splice(at, 1);
      if (bucket.length === 0) this.buckets.delete(this.hashes[id]);
      this.texts[id] = '';
      this.labels[id] = '';
      this.free.push(id);
      this.live--;
      this.chars -= text.length;
    }
    // A removed anchor's bit stays set until the filter is made again: a false alarm, never a miss.
  }

  /**
   * The anchor of a form: of its last, first and middle windows, the one whose bucket is the
   * smallest so far. Values often share a prefix (`sk-proj-`, `ghp_`) and a reversed form shares
   * a suffix, so no single place suits every form; a small bucket keeps a text full of a shared
   * prefix from costing a comparison with every value that has it.
   */
  private anchorOf(text: string): number {
    const last = text.length - ANCHOR_LENGTH;
    let best = last;
    let bestSize = Infinity;
    for (const at of [last, 0, last >> 1]) {
      const size = this.buckets.get(anchorHash(text, at))?.length ?? 0;
      if (size < bestSize) {
        best = at;
        bestSize = size;
      }
    }
    return best;
  }

  private bitOf(hash: number): number {
    return Math.imul(hash, 0x9e3779b1) >>> this.shift;
  }

  private setBit(hash: number): void {
    const bit = this.bitOf(hash);
    this.filter[bit >>> 5] |= 1 << (bit & 31);
  }

  /** Make the filter again, large enough for the anchors there are (and without removed ones' bits). */
  private refilter(): void {
    let bits = 1024;
    while (bits < this.live * FILTER_BITS_PER_ANCHOR * 2) bits *= 2;
    this.filter = new Uint32Array(bits / 32);
    this.shift = 32 - Math.log2(bits);
    for (const hash of this.buckets.keys()) this.setBit(hash);
  }

  /** Spans [start, end) of the forms in `text`, in order, merged where they overlap or touch. */
  find(text: string): Span[] {
    if (this.live === 0 || text.length < ANCHOR_LENGTH) return [];
    const wrapped = text.includes('\n') || text.includes('\r');
    const flat = wrapped ? text.replace(/[\r\n]/g, '') : text;
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
    const n = flat.length;
    if (n < ANCHOR_LENGTH) return found;
    const { filter, shift } = this;
    let h = anchorHash(flat, 0);
    for (let p = 0; ; p++) {
      const bit = Math.imul(h, 0x9e3779b1) >>> shift;
      if (filter[bit >>> 5] & (1 << (bit & 31))) this.check(flat, p, h, found);
      if (p + ANCHOR_LENGTH >= n) break;
      h = (Math.imul(h - Math.imul(flat.charCodeAt(p), BASE_OUT), BASE) + flat.charCodeAt(p + ANCHOR_LENGTH)) | 0;
    }
    return found;
  }

  /** The forms whose anchor's hash is `h`, compared with the text where their anchor would be at `p`. */
  private check(flat: string, p: number, h: number, found: Span[]): void {
    const ids = this.buckets.get(h);
    if (!ids) return;
    for (const id of ids) {
      const text = this.texts[id];
      const start = p - this.offsets[id];
      if (start >= 0 && start + text.length <= flat.length && flat.startsWith(text, start)) {
        found.push({ start, end: start + text.length, form: this.labels[id] });
      }
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
