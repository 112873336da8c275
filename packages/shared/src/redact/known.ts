import { FormIndex, type Form, type Span } from './form-index';
import { isSecretName } from './names';

/** Shortest secret value (and shortest encoded form of one) the gate looks for by value. */
export const MIN_KNOWN_LENGTH = 8;
/**
 * Characters of the forms of given values (environment, profiles, MCP servers, `.env` files) the
 * index holds at most: 16 Mi (about 16 MiB of strings). A value's forms take about ten times its
 * length, so this is some 40,000 keys of 40 characters, or six `.env` files (read up to 256 KiB
 * each) holding nothing but such keys. Past it a given value is dropped and counted
 * ({@link KnownSecretsAdded}).
 */
export const MAX_GIVEN_CHARS = 16 * 1024 * 1024;
/** A value longer than this is a document, not a secret: it is not looked for by value. */
const MAX_KNOWN_LENGTH = 512;

/**
 * The forms a secret value takes after the transforms a command can apply: as is, reversed,
 * hex (lower and upper case), base64 and base64url at each of the three byte alignments it can
 * sit at inside a longer encoded text, JSON-escaped and percent-encoded.
 */
export function secretForms(value: string): Form[] {
  const out: Form[] = [];
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

/** Characters of the forms of learned values: the oldest are dropped past this. */
const MAX_LEARNED_CHARS = 64 * 1024;

/** What {@link KnownSecrets.add} did with the values it was given. */
export interface KnownSecretsAdded {
  /** Values looked for from now on. */
  added: number;
  /**
   * Given values not looked for because the index is full ({@link MAX_GIVEN_CHARS}): the gate
   * still masks them by their shape and name, not by value. Never silently: the CLI says so.
   */
  dropped: number;
}

/**
 * The secret values this process knows: values of secret-looking environment variables, API keys
 * of the llm-base profiles, what MCP servers are given (given: kept for the whole process), and
 * values the gate itself masked once (learned: so that a later transform of the same value, such
 * as `base64 .env` or `awk '{print $2}' .env`, is caught; past {@link MAX_LEARNED_CHARS}
 * characters of their forms, the oldest learned values make room). One index of every form
 * (form-index.ts): a pass costs the same for ten values as for ten thousand.
 */
export class KnownSecrets {
  /** Given values, with the ids of their forms in the index. */
  private readonly given = new Map<string, number[]>();
  /** Learned values with the characters their forms take and their ids, oldest first. */
  private readonly learned = new Map<string, { cost: number; ids: number[] }>();
  private learnedChars = 0;
  private givenChars = 0;
  private readonly index = new FormIndex();
  private added = 0;
  private droppedCount = 0;

  /** `maxGivenChars`: characters of the given values' forms kept at most (tests set a small one). */
  constructor(private readonly maxGivenChars = MAX_GIVEN_CHARS) {}

  /** Add values to look for (`learned`: found by the gate, may make room for newer ones later). */
  add(values: Iterable<string | undefined | null>, learned = false): KnownSecretsAdded {
    let added = 0;
    let dropped = 0;
    for (const raw of values) {
      if (typeof raw !== 'string') continue;
      const v = raw.trim();
      if (v.length < MIN_KNOWN_LENGTH || v.length > MAX_KNOWN_LENGTH || v.includes('\n') || v.includes('[redacted')) continue;
      if (this.given.has(v)) continue;
      const was = this.learned.get(v);
      if (was) {
        // Given now, learned before: kept from now on (it may not make room for newer learned values).
        if (!learned && this.givenChars + was.cost <= this.maxGivenChars) {
          this.learned.delete(v);
          this.learnedChars -= was.cost;
          this.given.set(v, was.ids);
          this.givenChars += was.cost;
        }
        continue;
      }
      const forms = secretForms(v);
      const cost = forms.reduce((n, f) => n + f.text.length, 0);
      if (learned) {
        this.learned.set(v, { cost, ids: this.index.add(forms) });
        this.learnedChars += cost;
        while (this.learnedChars > MAX_LEARNED_CHARS && this.learned.size > 1) {
          const [oldest, old] = this.learned.entries().next().value as [string, { cost: number; ids: number[] }];
          this.learned.delete(oldest);
          this.index.remove(old.ids);
          this.learnedChars -= old.cost;
        }
      } else {
        if (this.givenChars + cost > this.maxGivenChars) {
          dropped++;
          continue;
        }
        this.given.set(v, this.index.add(forms));
        this.givenChars += cost;
      }
      this.added++;
      added++;
    }
    this.droppedCount += dropped;
    return { added, dropped };
  }

  /** Changes each time a value is added. */
  get version(): number {
    return this.added;
  }

  /** How many values are known. */
  get size(): number {
    return this.given.size + this.learned.size;
  }

  /** How many given values were not kept, in all (see {@link KnownSecretsAdded.dropped}). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** True when `value` is one of the known values. */
  has(value: string): boolean {
    return this.given.has(value.trim()) || this.learned.has(value.trim());
  }

  /** Spans of known values (in any of their forms) in `text`, in order, merged where they overlap. */
  find(text: string): Span[] {
    return this.index.find(text);
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
