/**
 * Which names hold secrets, and which values under such names are source code rather than
 * secrets. Every function here looks at a bounded string (a name of at most 64 characters, a
 * value the caller has already cut out), so none of them can cost more than a constant each.
 */

import {
  SECRET_WORDS,
  SECRET_PAIRS,
  QUANTIFIER_WORDS,
  DESCRIPTOR_WORDS,
  STEMS,
  SHORT_STEMS,
  SHORT_STEM_PREFIXES,
  WEAK_WORDS,
  NAMESPACE_WORDS,
  CODE_WORDS,
} from './name-words';

/** A word that holds a secret: one of the words, or a glued compound ending in a secret stem. */
function secretWord(w: string): boolean {
  if (SECRET_WORDS.has(w)) return true;
  for (const stem of STEMS) {
    if (w.length <= stem.length || !w.endsWith(stem)) continue;
    const prefix = w.slice(0, w.length - stem.length);
    // A long prefix is a phrase of its own (`onresumptiontoken`), not a qualifier of the secret.
    if (QUANTIFIER_WORDS.has(prefix) || prefix.length > 8) return false;
    return SHORT_STEMS.has(stem) ? SHORT_STEM_PREFIXES.has(prefix) : true;
  }
  return false;
}

/** The words of an identifier: `X-Api-Key` → [x, api, key]; `clientSecret` → [client, secret]. */
export function nameWords(name: string): string[] {
  return name
    .slice(0, 64)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .map((w) => w.replace(/\d+$/, ''))
    .filter(Boolean);
}

/**
 * True for a name whose value is a secret: `password`, `DB_PASS`, `db_pw`, `smtp.pw`, `rootpw`,
 * `api_key`, `apiKey`, `X-Api-Key`, `client_secret`, `--token`, `aws_secret_access_key`,
 * `id_token`. Counters and descriptions of a secret (`max_tokens`, `TOKEN_LIMIT`, `token_file`,
 * `SSH_AUTH_SOCK`, `password_min_length`, `api_key_id`) are not.
 */
export function isSecretName(name: string): boolean {
  let known = NAME_MEMO.get(name);
  if (known === undefined) {
    if (NAME_MEMO.size >= 4096) NAME_MEMO.clear();
    known = judgeName(name);
    NAME_MEMO.set(name, known);
  }
  return known;
}

/**
 * Answers of {@link isSecretName} (a pure function of the name, so remembering them changes no
 * result): text full of the same few names is redacted without splitting each again.
 */
const NAME_MEMO = new Map<string, boolean>();

function judgeName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0 || words.some((w) => QUANTIFIER_WORDS.has(w))) return false;
  // The last word (or pair) that holds a secret: a describing word after it makes the name a description.
  let head = -1;
  for (let i = 0; i < words.length; i++) {
    if (secretWord(words[i]) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${words[i]}`))) head = i;
  }
  if (head === -1) return secretWord(words.join(''));
  return !words.slice(head + 1).some((w) => DESCRIPTOR_WORDS.has(w));
}

/**
 * A name whose only sign of a secret is a short word that is also an ordinary word or a shell
 * command (`pass`, `pw`, `pwd`, `PASS`): a value under it counts only when it looks like a
 * password (see {@link weakValue}). `db_pass`, `smtp.pw`, `rootpw` name their secret plainly.
 */
export function isWeakSecretName(name: string): boolean {
  const words = nameWords(name).filter((w) => !NAMESPACE_WORDS.has(w));
  return words.length === 1 && WEAK_WORDS.has(words[0]);
}

/**
 * What a value under a weak name (`pass`, `pw`, `pwd`) must not be to count as a password: a
 * path (`PWD=/home/me`), a small number (`pass: 12` in a test summary), a word of prose (`you
 * shall not pass: the gate`). `lineStart`: the name begins a config line (INI, .env, YAML), where
 * a plain word is a password (`pass = letmein`); elsewhere a value needs a digit, a symbol or a
 * change of case.
 */
export function weakValue(value: string, lineStart: boolean): boolean {
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(value)) return false;
  // A number is a count or a constant (`pw=194559` in code); a PIN of six digits or more counts on a config line.
  if (/^\d+$/.test(value)) return lineStart && value.length >= 6;
  if (lineStart) return true;
  const v = value.replace(/[.,;:!?)\]]+$/, '');
  return v.length >= 4 && (/[0-9!-/:-@[-`{-~]/.test(v) || /[a-z][A-Z]/.test(v));
}

/** A property path that reads as code: `this.budgets.maxTokens`, `opts.apiKey`, `a.b.c` (camelCase or three parts). */
const CODE_PATH = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;

/** A version or a version range (`^0.7.1`, `~1.0.6`, `>=2`, `v1.2.3-beta.1`): a dependency, not a secret. */
export const VERSION = /^(?:[~^]|[<>]=?|=)?v?\d+(?:\.(?:\d+|x|\*)){1,3}(?:[-+][\w.-]+)?$/;

const LIMIT_NAME = /(limit|max|min|count|len|size|ttl|timeout|expir|_ms$|seconds|length|bytes)/i;
const SETTINGS_PATH =
  /^(process\.env|import\.meta\.env|os\.environ|this|self|cls|config|cfg|conf|settings|options|opts|ctx|context|env|args|params|props|req|request|res|auth|creds|credentials|secrets|data|user|account|profile|state|session|window|globalThis|ENV)\??\.[A-Za-z_$][\w$.?]*(\(|$)/;

/**
 * A value (unquoted in the text) that is code or a placeholder rather than a secret: a type or
 * keyword (`token: string`), an operator (`secret === x`), a property path or call
 * (`apiKey = process.env.API_KEY`, `token = getToken(`), a template or variable reference
 * (`${token}`, `$TOKEN`), a run of `*`, or a small number under a limit-like name.
 * Masking those would garble the source code fs.read shows and fs.edit must match exactly.
 */
export function looksLikeCode(name: string, value: string): boolean {
  return remember(CODE_MEMO, `${name}\u0000${value}`, value.length, () => judgeCode(name, value));
}

function judgeCode(name: string, value: string): boolean {
  if (value.length > 200) return false;
  if (CODE_WORDS.has(value.toLowerCase())) return true;
  if (/^[=<>!&|?:+\-*/%^~.]+$/.test(value)) return true;
  if (SETTINGS_PATH.test(value)) return true;
  if (value === '$' || /^\$\{?[A-Za-z_]/.test(value) || /^%[A-Za-z_]+%$/.test(value)) return true;
  if (/^[A-Za-z_$][\w$.]*\(/.test(value) || value.startsWith('`')) return true;
  if (/^\d{1,7}$/.test(value) && LIMIT_NAME.test(name)) return true;
  // An object, array, tuple or arrow function (`(text, learn) =>`), a regular expression literal.
  if (/^[([{]/.test(value) || /^\/[\^\\[(]/.test(value)) return true;
  // A generic type (`Record<string, string>`), an index or a call (`tokens[i]`, `this["get"](`).
  if (/^[A-Za-z_$][\w$.]*[<[(]/.test(value)) return true;
  // A type name (`password: BinaryLike`, `privateKey: KeyObject`) is made of words: a part of four
  // letters or more without a vowel (`BPNvrpVCgm`) makes it a random value. A type parameter (`T2`).
  if (
    /^(?:[A-Z]{1,4}[a-z]{2,}){2,}[0-9]?$/.test(value) &&
    (value.match(/[A-Z]+[a-z]*/g) ?? []).every((w) => w.length <= 3 || /[aeiouy]/i.test(w))
  )
    return true;
  if (value.length <= 2) return true;
  // `apiKey: apiKey` (the same name), a property path with a camelCase part or three parts.
  const last = name.replace(/^-+/, '').split('.').pop()!.toLowerCase();
  if (value.toLowerCase() === name.replace(/^-+/, '').toLowerCase() || value.toLowerCase() === last) return true;
  if (CODE_PATH.test(value) && (/[a-z][A-Z]/.test(value) || value.split('.').length >= 3)) return true;
  if (VERSION.test(value)) return true;
  return false;
}

/**
 * A value that reads as an identifier or a property path of code rather than a key: at most
 * one digit and under 32 characters (`cached_tokens`, `key.value`). Such a value is masked where a
 * pattern finds it, but not learned as a known value (it would mask every use of the name).
 */
/**
 * A quoted value that is a sentence (three spaces or more) under a name that is not a password:
 * a message (`sandboxCheckSecret: 'a planted secret is hidden'`), not a key.
 */
export function looksLikeProse(name: string, value: string): boolean {
  return /\S\s+\S+\s+\S+\s+\S/.test(value) && !nameWords(name).some((w) => /^(?:pass|password|passphrase|passwd|pwd)$/.test(w));
}

export function looksLikeIdentifier(value: string): boolean {
  if (value.length >= 128 || !/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*$/.test(value)) return false;
  // Words (`print`, `Semicolon`, `HTTP`, `64`), not a run of one- and two-letter scraps.
  const humps = value.match(/[A-Z]*[a-z]+|[A-Z]+|[0-9]+/g) ?? [];
  const scraps = humps.filter((h) => h.length === 1).length;
  const pairs = humps.filter((h) => h.length === 2 && /[a-z]/.test(h) && /[A-Z]/.test(h)).length;
  if (pairs * 2 > humps.length) return false;
  // Numbers in names are short (`base64`, `sha256`, `v2`) or follow a capital (`ED25519`); four
  // digits after a lower-case letter are not a word.
  if (/[a-z][0-9]{4,}/.test(value)) return false;
  return scraps <= (value.length < 20 ? 0 : 1) && humps.length <= value.length / 3;
}

/** `x-token` and `XToken`, `api_key` and `--api-key`: the same name spelled another way (an enum, an example). */
export function sameWords(a: string, b: string): boolean {
  return a.replace(/[-_.\s]/g, '').toLowerCase() === b.replace(/[-_.\s]/g, '').toLowerCase();
}

/** Changes between lower case, upper case and digits: many in a random string, few in a word or a version. */
export function classChanges(v: string): number {
  let n = 0;
  let prev = -1;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    const k = c >= 48 && c <= 57 ? 0 : c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : 3;
    if (k !== 3 && prev !== -1 && k !== prev) n++;
    if (k !== 3) prev = k;
  }
  return n;
}

/**
 * A value that is empty, a placeholder, or a reference to where the secret is kept (llm-base's
 * `env:NAME`, a shell's `$NAME` / `${NAME}`, Windows' `%NAME%`): nothing to hide, and a hint
 * such as `--api-key env:DEEPSEEK_API_KEY` must stay readable.
 */
export function isPlaceholder(value: string): boolean {
  return remember(PLACEHOLDER_MEMO, value, value.length, () => judgePlaceholder(value));
}

/**
 * Answers of the pure judgements above for short values, so that text full of the same few
 * values (a log, adversarial input) is not judged again each time; bounded, cleared when full.
 */
const CODE_MEMO = new Map<string, boolean>();
const PLACEHOLDER_MEMO = new Map<string, boolean>();

function remember(memo: Map<string, boolean>, key: string, length: number, judge: () => boolean): boolean {
  if (length > 64) return judge();
  let known = memo.get(key);
  if (known === undefined) {
    if (memo.size >= 4096) memo.clear();
    known = judge();
    memo.set(key, known);
  }
  return known;
}

function judgePlaceholder(value: string): boolean {
  return (
    value === '' ||
    /^(\*+|x+|\.{3}|\u2026|<[^>]{0,40}>|changeme_?placeholder)$/i.test(value) ||
    // An example cut short: `sk-...`, `ghp_…`.
    /^[\w-]{0,12}(?:\.{3}|\u2026)$/.test(value) ||
    /^(env:[A-Za-z_]\w*|\$[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\}|%[A-Za-z_]\w*%)$/.test(value) ||
    // Templates and fill-in-the-blanks: `${password}`, `{{pass}}`, `{PASS}`, `YOUR_PASSWORD`, `REPLACE_WITH_TOKEN`.
    /^(\$\{[^{}\s]{1,60}\}|\$\([A-Za-z_]\w{0,60}\)|\{\{[^{}]{1,60}\}\}|\{[A-Za-z_][\w.-]{0,60}\})$/.test(value) ||
    /^(?:YOUR|REPLACE|INSERT|ENTER|CHANGE|PUT)_[A-Z0-9_]{1,60}$|^[A-Z0-9_]{1,60}_HERE$/.test(value) ||
    // A CI expression (`${{ secrets.GITHUB_TOKEN }}`), a format's slot: `"password=%s"`, `"token={}"`, `{0}`.
    /^\$\{\{[^{}]{1,120}\}\}$/.test(value) ||
    /^(?:%[-+ #0-9.]{0,6}[sdqvxfr]|\{\d{0,2}\})$/.test(value) ||
    value.includes('[redacted')
  );
}
