import { isSecretName } from './names';

/** Shortest secret value (and shortest encoded form of one) the gate looks for by value. */
export const MIN_KNOWN_LENGTH = 8;
/** At most this many known values are kept: learned values past it are dropped, oldest first. */
export const MAX_KNOWN_VALUES = 4096;
/** A value longer than this is a document, not a secret: it is not looked for by value. */
const MAX_KNOWN_LENGTH = 4096;

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
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** Length and label of the longest form that ends at each state (through failure links too). */
  private readonly outLen: number[] = [0];
  private readonly outForm: string[] = [''];
  private readonly root = new Int32Array(65536).fill(0);

  constructor(needles: Needle[]) {
    for (const n of needles) this.insert(n);
    this.link();
  }

  private insert(n: Needle): void {
    let s = 0;
    for (let i = 0; i < n.text.length; i++) {
      const c = n.text.charCodeAt(i);
      let t = this.next[s].get(c);
      if (t === undefined) {
        t = this.next.length;
        this.next.push(new Map());
        this.fail.push(0);
        this.outLen.push(0);
        this.outForm.push('');
        this.next[s].set(c, t);
      }
      s = t;
    }
    if (n.text.length > this.outLen[s]) {
      this.outLen[s] = n.text.length;
      this.outForm[s] = n.form;
    }
  }

  private link(): void {
    const queue: number[] = [];
    for (const [c, t] of this.next[0]) {
      this.root[c] = t;
      queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      for (const [c, t] of this.next[s]) {
        let f = this.fail[s];
        while (f !== 0 && !this.next[f].has(c)) f = this.fail[f];
        const g = this.next[f].get(c);
        this.fail[t] = g !== undefined && g !== t ? g : 0;
        if (this.outLen[this.fail[t]] > this.outLen[t]) {
          this.outLen[t] = this.outLen[this.fail[t]];
          this.outForm[t] = this.outForm[this.fail[t]];
        }
        queue.push(t);
      }
    }
  }

  private step(s: number, c: number): number {
    while (s !== 0) {
      const t = this.next[s].get(c);
      if (t !== undefined) return t;
      s = this.fail[s];
    }
    return this.root[c];
  }

  /** Spans [start, end) of known forms in `text`, merged where they overlap, with their labels. */
  find(text: string): Array<{ start: number; end: number; form: string }> {
    const spans: Array<{ start: number; end: number; form: string }> = [];
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      s = this.step(s, text.charCodeAt(i));
      const len = this.outLen[s];
      if (len === 0) continue;
      const start = i + 1 - len;
      const last = spans[spans.length - 1];
      if (last && start <= last.end) {
        if (start < last.start) last.start = start;
        last.end = i + 1;
      } else spans.push({ start, end: i + 1, form: this.outForm[s] });
    }
    return spans;
  }
}

/**
 * The secret values this process knows: values of secret-looking environment variables, API
 * keys of the llm-base profiles, and values the gate itself masked once (so that a later
 * transform of the same value, such as `base64 .env` or `awk '{print $2}' .env`, is caught).
 */
export class KnownSecrets {
  private readonly values = new Map<string, true>();
  private matcher: Matcher | undefined;
  private dirty = false;

  /** Add values to look for. Short, multi-line or over-long values are ignored. Returns how many were new. */
  add(values: Iterable<string | undefined | null>): number {
    let added = 0;
    for (const raw of values) {
      if (typeof raw !== 'string') continue;
      const v = raw.trim();
      if (v.length < MIN_KNOWN_LENGTH || v.length > MAX_KNOWN_LENGTH || v.includes('\n') || v.includes('[redacted')) continue;
      if (this.values.has(v)) continue;
      this.values.set(v, true);
      added++;
      if (this.values.size > MAX_KNOWN_VALUES) this.values.delete(this.values.keys().next().value as string);
    }
    if (added) this.dirty = true;
    return added;
  }

  /** How many values are known. */
  get size(): number {
    return this.values.size;
  }

  /** True when `value` is one of the known values. */
  has(value: string): boolean {
    return this.values.has(value.trim());
  }

  /** Spans of known values (in any of their forms) in `text`. */
  find(text: string): Array<{ start: number; end: number; form: string }> {
    if (this.values.size === 0) return [];
    if (this.dirty || !this.matcher) {
      const needles: Needle[] = [];
      for (const v of this.values.keys()) needles.push(...secretForms(v));
      this.matcher = new Matcher(needles);
      this.dirty = false;
    }
    return this.matcher.find(text);
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
