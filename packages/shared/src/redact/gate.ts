import { credentialDocumentOf } from './documents';
import { envSecretValues, KnownSecrets, type KnownSecretsAdded } from './known';
import { looksRandom } from './entropy';
import { isPlaceholder, isSecretName, looksLikeCode, looksLikeIdentifier, VERSION } from './names';
import { mask, maskPatterns, maskRandomValues, PASSWORD_OPTIONS, tokenShape } from './patterns';
import { count, counted, type Work } from './work';

/**
 * The redaction gate: the one function every byte passes through before it leaves the process
 * (to the model, a session file, the audit log, the call log, `--json` events).
 *
 * The known values are process-wide on purpose: a secret is a secret for the whole process,
 * whichever package meets it first, and a value the gate masked once (say from `.env` through
 * `cat`) must still be caught when it comes back base64-encoded or cut out by `awk`.
 */
const known = new KnownSecrets();
let envSeeded = false;

function knownSecrets(): KnownSecrets {
  if (!envSeeded) {
    envSeeded = true;
    known.add(envSecretValues(process.env));
  }
  return known;
}

/**
 * Remember a value the patterns masked, when it looks like a secret rather than a word: at
 * least 8 characters on one line, random-looking or letters with digits and no path (or any
 * such value the syntax marks as a secret: `sure`).
 * Words, identifiers, versions and paths are not learned, so source code elsewhere stays readable.
 */
const learn = (value: string, sure = false): void => {
  const v = value.trim();
  if (v.length < 8 || /[\r\n]/.test(v) || VERSION.test(v)) return;
  if (sure) {
    knownSecrets().add([v], true);
    return;
  }
  // A value with spaces (a passphrase, `a b;c`): each of its words that looks random (not a
  // scheme or a word of prose: `AWS4-HMAC-SHA256 Credential=…`).
  if (/\s/.test(v)) {
    for (const word of v.split(/[^A-Za-z0-9+/=_.~-]+/)) if (word.length >= 8 && looksRandom(word, true)) knownSecrets().add([word], true);
    return;
  }
  if (looksLikeIdentifier(v)) return;
  // Random-looking, or letters with digits and no path in it (`hunter22`, `p@ssw0rd!`): a word,
  // a package name or a path (`@inquirer/password`) would mask every later use of itself.
  const secretLike = looksRandom(v, true) || (/[0-9]/.test(v) && /[A-Za-z]/.test(v) && !v.includes('/'));
  if (secretLike) knownSecrets().add([v], true);
};

/**
 * Tell the gate about secret values to find by value wherever they appear (as they are,
 * reversed, hex, base64 at any alignment, JSON- or URL-escaped): the API keys of the llm-base
 * profiles, say. Values shorter than 8 characters, longer than 512 or of several lines are not
 * looked for by value. Returns how many were new, and how many were dropped because the gate
 * holds as many as it can (the caller says so: {@link knownSecretsDropped}).
 */
export function addKnownSecrets(values: Iterable<string | undefined | null>): KnownSecretsAdded {
  return knownSecrets().add(values);
}

/** Add the values of the secret-looking variables of `env` (`*_API_KEY`, `*_TOKEN`, `*PASSWORD*`…). */
export function addEnvSecrets(env: Record<string, string | undefined>): KnownSecretsAdded {
  return knownSecrets().add(envSecretValues(env));
}

/**
 * How many given secret values this process dropped, in all (the environment's, those added by
 * {@link addKnownSecrets} and {@link addEnvSecrets}): 0 unless the gate's index is full. They are
 * still masked by shape and name, not by value.
 */
export function knownSecretsDropped(): number {
  return knownSecrets().dropped;
}

/** How many secret values the gate looks for by value. */
export function knownSecretCount(): number {
  return knownSecrets().size;
}

/**
 * Mask every secret in `text`: token shapes, private key blocks, credentials in URLs and HTTP
 * headers, values under secret-looking names (JSON, YAML, TOML, INI, .env, `export`, CLI flags,
 * `mysql -p…`), and the known secret values in any of their encoded forms. A masked value reads
 * `PREFIX[redacted KIND, N chars]` (`sk-proj-[redacted openai key, 164 chars]`,
 * `password=[redacted password, 7 chars]`). Source code stays as it is (`token: string`,
 * `apiKey = process.env.API_KEY`). Linear in the length of `text`; idempotent.
 */
export function redact(text: string): string {
  if (typeof text !== 'string' || text === '') return text;
  const known = knownSecrets();
  if (text.length >= GIVEN_MIN_CHARS && given.get(text) === known.version) return text;
  let out = maskKnown(maskPatterns(text, learn));
  // The last line learns what it masks: a copy of such a value elsewhere in the text is masked
  // now, not on the next call (so that redacting the result again changes nothing).
  const version = known.version;
  out = maskRandomValues(out, learn);
  if (known.version !== version) out = maskKnown(out);
  remember(out, known.version);
  return out;
}

/**
 * Long texts the gate gave out lately, with the version of the known values then. Redacting its
 * own output again changes nothing (the gate is idempotent: redact-fuzz.test.ts), so such a text
 * is not scanned again until a value is added: a step's output passes the gate whole, again with
 * the whole tool result and again in the audit log (about 1.4 ms a scan for 64 KiB). Texts are
 * compared whole (a Map of strings); short ones are cheaper to scan than to keep.
 */
const given = new Map<string, number>();
const GIVEN_MIN_CHARS = 4096;
const GIVEN_MAX_CHARS = 1 << 18;
const GIVEN_TEXTS = 16;

/** Forget the texts given out (tests of the gate's idempotence scan its output again). */
export function forgetGivenTexts(): void {
  given.clear();
}

function remember(text: string, version: number): void {
  if (text.length < GIVEN_MIN_CHARS || text.length > GIVEN_MAX_CHARS) return;
  given.delete(text);
  if (given.size >= GIVEN_TEXTS) given.delete(given.keys().next().value as string);
  given.set(text, version);
}

/** Mask the known values (in any of their forms) in `text`. */
function maskKnown(text: string): string {
  let spans = knownSecrets().find(text);
  count(text.length, spans.length);
  if (spans.length === 0) return text;
  // A known value never matches into a mask (`]abc…` glued to `[redacted …]`): the text it
  // matched was not there before the mask, so masking it would make a second pass differ.
  if (text.includes('[redacted')) {
    const masks = [...text.matchAll(/\[redacted[^\]\n]{0,200}\]/g)].map((m) => [m.index, m.index + m[0].length]);
    let k = 0;
    spans = spans.filter((sp) => {
      while (k < masks.length && masks[k][1] <= sp.start) k++;
      return !(k < masks.length && masks[k][0] < sp.end);
    });
    if (spans.length === 0) return text;
  }
  const parts: string[] = [];
  let at = 0;
  for (const s of spans) {
    parts.push(text.slice(at, s.start), mask(s.form, text.slice(s.start, s.end)));
    at = s.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * `redact(text)` with a count of the work it did (characters scanned, places looked at,
 * characters read there): what the tests check for linear growth, with no clock.
 */
export function redactCounted(text: string): { text: string; work: Work } {
  const { value, work } = counted(() => redact(text));
  return { text: value, work };
}

/** A value under a secret-looking key, masked unless it is a placeholder or code (`word`: one word of a command line, never code). */
function maskUnderKey(key: string, value: string, word = false): string {
  if (isPlaceholder(value) || value.startsWith('env:') || (word ? /^[$`]/.test(value) : looksLikeCode(key, value))) return redact(value);
  learn(value);
  return mask(key.replace(/^-+/, '') || 'secret', value);
}

/**
 * An argument vector: each word is one shell word already, so an option's value is all of it
 * (`--password=a b;c`, `PASSWORD=p@ss,w0rd`, `--token X`, `mysql -pX`, `redis-cli -a X`, and
 * `-p` after `docker login`) and is masked whole; every other word is redacted as text.
 */
export function redactArgs(args: readonly string[], program?: string): string[] {
  const out = args.map((a) => (typeof a === 'string' ? a : String(a)));
  const base = program ? (program.split(/[\\/]/).pop() ?? program).replace(/\.exe$/i, '') : '';
  const opts = (PASSWORD_OPTIONS[base] ?? []).filter((o) => !o.sub || out[0] === o.sub);
  for (let i = 0; i < out.length; i++) {
    const a = out[i];
    const short = opts.find(
      (o) => (o.attached && a.startsWith(o.flag) && a.length > o.flag.length && !a.startsWith('--')) || (o.separate && a === o.flag),
    );
    const assigned = /^(-{0,2}[A-Za-z_][\w.-]{0,63})=([^]*)$/.exec(a);
    if (short && a !== short.flag) {
      out[i] = short.flag + maskUnderKey('password', a.slice(short.flag.length));
    } else if (short && i + 1 < out.length) {
      out[i + 1] = maskUnderKey('password', out[i + 1]);
      i++;
    } else if (assigned && isSecretName(assigned[1]) && assigned[2] !== '') {
      out[i] = `${assigned[1]}=${maskUnderKey(assigned[1], assigned[2], true)}`;
    } else if (/^--?[A-Za-z][A-Za-z0-9-]{0,40}$/.test(a) && isSecretName(a) && i + 1 < out.length && !out[i + 1].startsWith('-')) {
      out[i + 1] = maskUnderKey(a, out[i + 1], true);
      i++;
    } else out[i] = redact(a);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * The structured form of the gate: a copy of `value` with every string redacted, every string
 * under a secret-looking key (`api_key`, `password`, `Authorization`…) masked whole, and
 * argument vectors (`args` beside a `program`, or any string array) read as command lines.
 * Keys stay. Numbers, booleans and non-plain objects pass as they are.
 */
export function redactValue<T>(value: T): T {
  return walk(value, false, 0) as T;
}

/**
 * A value as JSON text for a file or a stream (a session record, a `--json` event), every string
 * in it through the gate once: the values as {@link redactValue} masks them, and the keys too (a
 * secret used as a key, `{"ghp_…": 1}`). The value is made plain JSON data first (`toJSON`, class
 * instances), so the text holds no string the gate did not see. Two keys that mask alike stay two
 * (the second gets ` (2)`), as no field is dropped.
 */
export function redactedJson(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  if (text === undefined) return undefined;
  return JSON.stringify(walk(JSON.parse(text), false, 0, undefined, true));
}

/**
 * `fields`: the keys a credential document around this value marks as sensitive (documents.ts);
 * `keys`: keys pass the gate too (redactedJson).
 */
function walk(value: unknown, secret: boolean, depth: number, fields?: ReadonlySet<string>, keys = false): unknown {
  if (typeof value === 'string') return secret ? maskUnderKey('secret', value) : redact(value);
  // Deeper than this, the structure is left as it is; as JSON text (redactedJson) it passes the gate as text.
  if (depth > 64) return keys ? deepAsText(value) : value;
  if (Array.isArray(value)) {
    if (!secret && value.length > 0 && value.every((v) => typeof v === 'string')) return redactArgs(value as string[]);
    return value.map((v) => walk(v, secret, depth + 1, fields, keys));
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  const program = typeof value.program === 'string' ? value.program : undefined;
  const inDocument = credentialDocumentOf(value)?.fields ?? fields;
  for (const [k, v] of Object.entries(value)) {
    let masked: unknown;
    // A field a credential document marks is masked whatever it looks like (`client_id: "a"` is no variable).
    const documentField = inDocument?.has(k) ?? false;
    if (k === 'args' && Array.isArray(v) && v.every((a) => typeof a === 'string') && program !== undefined)
      masked = redactArgs(v as string[], program);
    else if (typeof v === 'string' && (secret || isSecretName(k) || documentField)) {
      masked = maskUnderKey(k, v, documentField);
      // As JSON text the pair reads `"name": "value"`, where a quoted value is data, not code
      // (`"token": "getToken()"`): the text rules judge it as they would in the line.
      if (keys && masked === v) masked = Object.values(JSON.parse(redact(JSON.stringify({ [k]: v }))) as Record<string, unknown>)[0];
    } else masked = walk(v, secret || isSecretName(k), depth + 1, inDocument, keys);
    Object.defineProperty(out, keys ? freeKey(out, redact(k)) : k, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A value deeper than the walk goes, through the gate as its JSON text: the same JSON again (a mask holds no
 * quote or backslash), or that text as a string should a mask ever have cut an escape. */
function deepAsText(value: unknown): unknown {
  const text = redact(JSON.stringify(value));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `key`, or `key (2)`, `key (3)`… when `out` has it already. */
function freeKey(out: Record<string, unknown>, key: string): string {
  if (!Object.prototype.hasOwnProperty.call(out, key)) return key;
  let n = 2;
  while (Object.prototype.hasOwnProperty.call(out, `${key} (${n})`)) n++;
  return `${key} (${n})`;
}

/**
 * For display only: the public prefix of a key the gate recognises (`sk-proj-`, `ghp_`,
 * `AKIA`), or '' when it has no known shape.
 */
export function secretPrefix(value: string): string {
  return tokenShape(value)?.keep ?? '';
}

/**
 * Learn the secrets a structured document holds (strings under secret-looking keys) without
 * masking anything, so that a copy of one under an innocent key (`backup`, `old`) is caught.
 */
export function learnSecretsOf(value: unknown, secret = false, depth = 0): void {
  if (typeof value === 'string') {
    if (secret && !isPlaceholder(value) && !value.startsWith('env:')) learn(value);
    return;
  }
  if (depth > 64 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) learnSecretsOf(v, secret, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value)) learnSecretsOf(v, secret || isSecretName(k), depth + 1);
}

/** `[redacted NAME, N chars]` for a value under a secret-looking name (learned as a known secret). */
export function maskSecret(name: string, value: string): string {
  if (isPlaceholder(value)) return value;
  learn(value);
  return mask(name.replace(/^-+/, '') || 'secret', value);
}
