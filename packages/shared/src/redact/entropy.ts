import { classChanges, isSecretName, looksLikeIdentifier, nameWords, VERSION } from './names';
import { KEYWORD_RULES } from './rules';
import { count } from './work';

/**
 * The last line: a value in a config-like line (`name = value`, `name: value`, `"name": "value"`,
 * `<name>value</name>`) that no rule named is still masked when it looks random, whatever the
 * name, or when it has the shape a provider's keyword rule gives under a name with that
 * keyword. Tuned on this repository's sources and its node_modules (docs/security.md, §7):
 * hashes, git object ids, integrity strings (`sha512-…`), UUIDs, versions, paths, URLs and
 * identifiers stay readable.
 */

/** Shannon entropy of `s`, in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<number, number>();
  const ascii = new Int32Array(128);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) ascii[c]++;
    else counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  const add = (n: number): void => {
    const p = n / s.length;
    h -= p * Math.log2(p);
  };
  for (let c = 0; c < 128; c++) if (ascii[c] > 0) add(ascii[c]);
  for (const n of counts.values()) add(n);
  return h;
}

/** Words in a name that make a random-looking value under it a key (gitleaks' generic-api-key keywords). */
const KEYISH = new Set([
  'key',
  'keys',
  'secret',
  'token',
  'password',
  'passwd',
  'pwd',
  'pass',
  'auth',
  'credential',
  'credentials',
  'creds',
  'api',
  'access',
  'private',
  'signature',
  'sig',
  'salt',
  'cookie',
  'session',
  'jwt',
  'bearer',
  'dsn',
  'conn',
]);
/** Words in a name whose values are public identifiers or digests, not secrets. */
const PUBLIC = new Set([
  'hash',
  'sha',
  'sha1',
  'sha256',
  'sha512',
  'md5',
  'digest',
  'checksum',
  'integrity',
  'commit',
  'rev',
  'revision',
  'etag',
  'id',
  'uuid',
  'guid',
  'version',
  'ref',
  'head',
  'githead',
  'resolved',
  'shasum',
  'fingerprint',
  'public',
  'publishable',
  'pub',
  'nonce',
  'tag',
  'oid',
  'tree',
  'parent',
  'object',
  'blob',
  'url',
  'path',
  'file',
  'name',
  'type',
  'mode',
  'class',
  'style',
  'color',
  'pattern',
  'regex',
  'format',
  'locale',
  'lang',
  'message',
  'description',
  'title',
  'label',
  'text',
]);

const TOKEN_CHARS = /^[A-Za-z0-9+/=_.~-]+$/;
const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const HEX_RE = /^[0-9a-fA-F]+$/;
const SRI_RE = /^(?:sha1|sha256|sha384|sha512|md5)[-:]/i;

/** True when `value` looks like a random key rather than a word, a path, a number or a digest. */
export function looksRandom(value: string, keyish: boolean): boolean {
  const v = value;
  if (v.length < (keyish ? 12 : 20) || v.length > 1024 || !TOKEN_CHARS.test(v)) return false;
  if (SRI_RE.test(v) || VERSION.test(v) || /^v?\d+(?:\.\d+)+/.test(v) || v.includes('..')) return false;
  // A path or an address (`./helpers/x.js`, `//github.com/…/blob/<sha>/index.js`, `a/b/c`), an identifier.
  if (/^(?:\/|\.\/|~\/)/.test(v) || /\.[a-z]{1,5}$/.test(v) || (/^[\w.-]*(?:\/[\w.-]+){2,}\/?$/.test(v) && !/[+=]/.test(v))) return false;
  if (looksLikeIdentifier(v)) return false;
  if (!/[0-9]/.test(v) && (!keyish || v.length < 32)) return false;
  if (!/[A-Za-z]/.test(v)) return false;
  // Cheap before costly: a random value changes class often.
  if (classChanges(v) < (keyish ? 3 : v.length / 6)) return false;
  if (!keyish && (UUID_RE.test(v) || HEX_RE.test(v))) return false;
  // A dotted or dashed run of words (`errors.not-found`, `my-package.config`) is a name.
  const pieces = v.split(/[._/-]+/).filter(Boolean);
  if (pieces.length > 1 && pieces.every((p) => /^[A-Za-z][a-z]*$|^[0-9]+$|^[A-Z]+$/.test(p))) return false;
  const h = entropy(v);
  if (HEX_RE.test(v)) return keyish && v.length >= 16 && h >= 3;
  const changes = classChanges(v);
  return keyish ? h >= 3.5 && changes >= Math.max(3, v.length / 10) : h >= 4 && changes >= v.length / 6;
}

const KEYWORD_RES = KEYWORD_RULES.map((r) => ({ rule: r, value: new RegExp(`^(?:${r.value})$`, 'i') }));
const KEYWORD_ANY = new RegExp(KEYWORD_RULES.flatMap((r) => r.keywords).join('|'));

/** What a name says about the values under it (a pure function of the name, remembered). */
interface NameView {
  /** Keyword rules whose keyword the name holds. */
  rules: typeof KEYWORD_RES;
  /** Its values are public identifiers or digests. */
  public: boolean;
  /** A random value under it is a key. */
  keyish: boolean;
}
const VIEWS = new Map<string, NameView>();

function viewOf(name: string): NameView {
  let v = VIEWS.get(name);
  if (v) return v;
  const lower = name.toLowerCase();
  const words = nameWords(name);
  const secret = isSecretName(name);
  v = {
    rules: KEYWORD_ANY.test(lower) ? KEYWORD_RES.filter(({ rule }) => rule.keywords.some((kw) => lower.includes(kw))) : [],
    public: !secret && words.some((w) => PUBLIC.has(w)),
    keyish: secret || words.some((w) => KEYISH.has(w)),
  };
  if (VIEWS.size >= 4096) VIEWS.clear();
  VIEWS.set(name, v);
  return v;
}

/**
 * Why `value` under `name` is a secret when the name alone did not say so: a provider keyword
 * rule's kind, `'high-entropy value'`, or undefined.
 */
export function judgeValue(name: string, value: string): string | undefined {
  if (value.length < 8 || value.length > 1024) return undefined;
  count(0, 1, value.length + name.length);
  const view = viewOf(name);
  for (const { rule, value: re } of view.rules) if (re.test(value)) return rule.kind;
  if (view.public || value.length < (view.keyish ? 12 : 20)) return undefined;
  return looksRandom(value, view.keyish) ? 'high-entropy value' : undefined;
}
