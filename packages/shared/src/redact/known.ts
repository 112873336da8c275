import { isSecretName } from './names';

/** Shortest secret value (and shortest encoded form of one) the gate looks for by value. */
export const MIN_KNOWN_LENGTH = 8;
/** At most this many given values (environment, profiles) are kept. */
export const MAX_KNOWN_VALUES = 1024;
/** A value longer than this is a document, not a secret: it is not looked for by value. */
const MAX_KNOWN_LENGTH = 512;

/** One string the scanner looks for, and the label its mask carries. */
interface Needle {
  text: string;
  form: string;
}

/**
 * The forms a secret value takes after the transforms a command can apply: as is, reversed,
 * hex (lower and upper case), base64 and base64url at each of the three byte alignments it can
 * sit at inside a longer encoded text, JSON-escaped and percent-encoded.
 */
export function secretForms(value: string): Needle[] {
  const out: Needle[] = [];
  if (value.length < MIN_KNOWN_LENGTH) return out;
  const add = (text: string, form: string): void => {
    if (text.length >= MIN_KNOWN_LENGTH && !out.some((n) => n.text === text)) out.push({ text, form });
  };
  add(value, 'known secret');
  add([...value].reverse().join(''), 'known secret, reversed');
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  add(hex, 'known secret, hex');
  add(hex.toUpperCase(), 'known secret, hex');
  for (let shift = 0; shift < 3; shift++) {
    // The characters of base64(pad + value) that depend on the value's bits alone.
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const b64 = padded.toString('base64');
    const from = Math.ceil((8 * shift) / 6);
    const to = Math.floor((8 * padded.length) / 6);
    const core = b64.slice(from, to);
    add(core, 'known secret, base64');
    add(core.replace(/\+/g, '-').replace(/\//g, '_'), 'known secret, base64');
  }
  add(JSON.stringify(value).slice(1, -1), 'known secret');
  add(encodeURIComponent(value), 'known secret, url-encoded');
  return out;
}

/**
 * An Aho–Corasick automaton over the forms of the known values: one pass over a text finds
 * every occurrence of every form, in time linear in the text (plus the matches).
 */
class Matcher {
  /** Goto function: key `state * alphabet size + letter`, small integers in one map. */
  private readonly next = new Map<number, number>();
  /** Letter of each UTF-16 code unit that occurs in a needle (-1: none, so no transition). */
  private readonly letter = new Int32Array(65536).fill(-1);
  private readonly size: number;
  /** Children of each state, for the breadth-first pass that sets failure links. */
  private readonly kids: number[][] = [[]];
  private readonly fail: number[] = [0];
  /** Length and label of the longest form that ends at each state (through failure links too). */
  private readonly outLen: number[] = [0];
  private readonly outForm: string[] = [''];
  /** The whole transition function (goto and failure folded), when it fits in {@link MAX_DENSE} entries. */
  private dense: Int32Array | undefined;
  private outLenDense: Int32Array | undefined;

  constructor(needles: Needle[]) {
    let size = 0;
    for (const n of needles)
      for (let i = 0; i < n.text.length; i++) if (this.letter[n.text.charCodeAt(i)] === -1) this.letter[n.text.charCodeAt(i)] = size++;
    this.size = Math.max(size, 1);
    for (const n of needles) this.insert(n);
    this.link();
    if (this.fail.length * this.size <= MAX_DENSE) this.densify();
  }

  /** Fill the dense table in breadth-first order: a state's missing moves are its failure state's. */
  private densify(): void {
    const d = new Int32Array(this.fail.length * this.size);
    const queue = [0];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      for (let c = 0; c < this.size; c++) {
        const t = this.next.get(s * this.size + c);
        if (t !== undefined && t !== 0) {
          d[s * this.size + c] = t;
          queue.push(t);
        } else d[s * this.size + c] = s === 0 ? 0 : d[this.fail[s] * this.size + c];
      }
    }
    this.dense = d;
    this.outLenDense = Int32Array.from(this.outLen);
  }

  private insert(n: Needle): void {
    let s = 0;
    for (let i = 0; i < n.text.length; i++) {
      const key = s * this.size + this.letter[n.text.charCodeAt(i)];
      let t = this.next.get(key);
      if (t === undefined) {
        t = this.fail.length;
        this.next.set(key, t);
        this.kids[s].push(key);
        this.kids.push([]);
        this.fail.push(0);
        this.outLen.push(0);
        this.outForm.push('');
      }
      s = t;
    }
    if (n.text.length > this.outLen[s]) {
      this.outLen[s] = n.text.length;
      this.outForm[s] = n.form;
    }
  }

  private link(): void {
    const queue: number[] = this.kids[0].map((key) => this.next.get(key) as number);
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      for (const key of this.kids[s]) {
        const t = this.next.get(key) as number;
        const c = key % this.size;
        let f = this.fail[s];
        let g = this.next.get(f * this.size + c);
        while (g === undefined && f !== 0) {
          f = this.fail[f];
          g = this.next.get(f * this.size + c);
        }
        this.fail[t] = g !== undefined && g !== t ? g : 0;
        if (this.outLen[this.fail[t]] > this.outLen[t]) {
          this.outLen[t] = this.outLen[this.fail[t]];
          this.outForm[t] = this.outForm[this.fail[t]];
        }
        queue.push(t);
      }
    }
  }

  private step(s: number, code: number): number {
    const c = this.letter[code];
    if (c === -1) return 0;
    for (;;) {
      const t = this.next.get(s * this.size + c);
      if (t !== undefined) return t;
      if (s === 0) return 0;
      s = this.fail[s];
    }
  }

  /** Spans [start, end) of known forms in `text`, merged where they overlap, with their labels. */
  find(text: string): Array<{ start: number; end: number; form: string }> {
    const spans: Array<{ start: number; end: number; form: string }> = [];
    let s = 0;
    const d = this.dense;
    const size = this.size;
    const letter = this.letter;
    const outLen = this.outLenDense ?? this.outLen;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      // Line breaks are looked through: `base64` wraps its output at 76 columns, and a value
      // encoded across the break is still the value.
      if (code === 10 || code === 13) continue;
      if (d) {
        const c = letter[code];
        s = c === -1 ? 0 : d[s * size + c];
      } else s = this.step(s, code);
      const len = outLen[s];
      if (len === 0) continue;
      let start = i;
      for (let n = len - 1; n > 0;) {
        start--;
        const c = text.charCodeAt(start);
        if (c !== 10 && c !== 13) n--;
      }
      const last = spans[spans.length - 1];
      if (last && start <= last.end) {
        if (start < last.start) last.start = start;
        last.end = i + 1;
      } else spans.push({ start, end: i + 1, form: this.outForm[s] });
    }
    return spans;
  }
}

/** Entries of the dense transition table (4 bytes each) at most: 16 MiB. */
const MAX_DENSE = 4 * 1024 * 1024;

/** Values added since the automaton was built are searched one by one, up to this many. */
const MAX_PENDING = 32;
/** Characters of forms of learned values: the automaton's size (and build time) stays bounded. */
const MAX_LEARNED_CHARS = 64 * 1024;
/** Past this much work (text length × forms), pending values are built into the automaton instead. */
const MAX_PENDING_SCAN = 4 * 1024 * 1024;

type Span = { start: number; end: number; form: string };

/**
 * The secret values this process knows: values of secret-looking environment variables and
 * API keys of the llm-base profiles (given: kept, up to {@link MAX_KNOWN_VALUES}), and values
 * the gate itself masked once (learned: so that a later transform of the same value, such as
 * `base64 .env` or `awk '{print $2}' .env`, is caught; past 64 Ki characters of their forms,
 * the oldest learned values are dropped). Memory and build time are bounded.
 */
export class KnownSecrets {
  private readonly given = new Set<string>();
  /** Learned values with the characters their forms take, oldest first. */
  private readonly learned = new Map<string, number>();
  private learnedChars = 0;
  private matcher: Matcher | undefined;
  /** Values not yet in the automaton. */
  private pending: string[] = [];
  private added = 0;

  /** Add values to look for (`learned`: found by the gate, may be dropped later). Returns how many were new. */
  add(values: Iterable<string | undefined | null>, learned = false): number {
    let added = 0;
    for (const raw of values) {
      if (typeof raw !== 'string') continue;
      const v = raw.trim();
      if (v.length < MIN_KNOWN_LENGTH || v.length > MAX_KNOWN_LENGTH || v.includes('\n') || v.includes('[redacted')) continue;
      if (this.given.has(v) || this.learned.has(v)) continue;
      if (learned) {
        const cost = secretForms(v).reduce((n, f) => n + f.text.length, 0);
        this.learned.set(v, cost);
        this.learnedChars += cost;
        while (this.learnedChars > MAX_LEARNED_CHARS && this.learned.size > 1) {
          const [oldest, oldCost] = this.learned.entries().next().value as [string, number];
          this.learned.delete(oldest);
          this.learnedChars -= oldCost;
          // The automaton keeps finding it until the next rebuild: that masks more, never less.
        }
      } else {
        if (this.given.size >= MAX_KNOWN_VALUES) continue;
        this.given.add(v);
      }
      this.pending.push(v);
      this.added++;
      added++;
    }
    return added;
  }

  /** Changes each time a value is added. */
  get version(): number {
    return this.added;
  }

  /** How many values are known. */
  get size(): number {
    return this.given.size + this.learned.size;
  }

  /** True when `value` is one of the known values. */
  has(value: string): boolean {
    return this.given.has(value.trim()) || this.learned.has(value.trim());
  }

  /** Spans of known values (in any of their forms) in `text`, in order, merged where they overlap. */
  find(text: string): Span[] {
    if (this.size === 0) return [];
    const live = this.pending.filter((v) => this.has(v));
    if (!this.matcher || live.length > MAX_PENDING || live.length * 16 * text.length > MAX_PENDING_SCAN) {
      const needles: Needle[] = [];
      for (const v of [...this.given, ...this.learned.keys()]) needles.push(...secretForms(v));
      this.matcher = new Matcher(needles);
      this.pending = [];
      return this.matcher.find(text);
    }
    this.pending = live;
    const spans = this.matcher.find(text);
    if (live.length === 0) return spans;
    // The text without its line breaks (looked through, as by the automaton), and where each of its characters was.
    const wrapped = text.includes('\n') || text.includes('\r');
    const flat = wrapped ? text.replace(/[\r\n]/g, '') : text;
    let where: Int32Array | undefined;
    if (wrapped) {
      where = new Int32Array(flat.length + 1);
      let k = 0;
      for (let i = 0; i < text.length; i++) if (text[i] !== '\n' && text[i] !== '\r') where[k++] = i;
      where[k] = text.length;
    }
    for (const v of live) {
      for (const n of secretForms(v)) {
        for (let at = flat.indexOf(n.text); at !== -1; at = flat.indexOf(n.text, at + 1)) {
          const end = at + n.text.length;
          spans.push(where ? { start: where[at], end: where[end - 1] + 1, form: n.form } : { start: at, end, form: n.form });
        }
      }
    }
    spans.sort((a, b) => a.start - b.start);
    const merged: Span[] = [];
    for (const sp of spans) {
      const last = merged[merged.length - 1];
      if (last && sp.start <= last.end) last.end = Math.max(last.end, sp.end);
      else merged.push({ ...sp });
    }
    return merged;
  }
}

/** Name endings that describe where a secret is, not the secret: `TOKEN_FILE`, `SSH_AUTH_SOCK`. */
const NOT_A_VALUE = /^(\/|~|\.\.?\/|[A-Za-z]:\\)|^(true|false|yes|no|on|off|none|null)$/i;

/**
 * The values of the secret-looking variables in `env`: names like `OPENAI_API_KEY`,
 * `DB_PASSWORD`, `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`; values of at least
 * {@link MIN_KNOWN_LENGTH} characters that are not paths or switches.
 */
export function envSecretValues(env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== 'string' || value.length < MIN_KNOWN_LENGTH) continue;
    if (!isSecretName(name) || NOT_A_VALUE.test(value.trim())) continue;
    out.push(value);
  }
  return out;
}
