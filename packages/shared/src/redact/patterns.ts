import { judgeValue, looksRandom } from './entropy';
import { FRAMING_PASSES, LAST_PASS } from './framings';
import { isPlaceholder, isSecretName, looksLikeCode, looksLikeProse, VERSION } from './names';
import { maskEncodedKeyBlocks, maskKeyBlocks } from './pem';
import { mask, maskTokens, type Learn } from './tokens';
import { count, replaceMatches } from './work';

/**
 * The shapes the gate recognises, as a fixed list of passes over a text. Every regular
 * expression here is linear: each either starts only where a run of its own characters starts
 * (a look-behind that refuses the run's characters) and either matches or fails within a
 * bounded number of characters, or ends in an unbounded run that cannot fail once started.
 * Nothing nests an unbounded quantifier inside another.
 */

export { mask, tokenShape } from './tokens';
export type { Learn } from './tokens';

/**
 * `scheme://user:password@`. Each expression of this file that finds `name <separator> value`
 * starts at the separator (a literal the engine finds fast) and reads the name behind it with a
 * bounded look-behind, rather than trying every word of the text as a name.
 */
const URL_RE = /:\/\/(?<=(?:(?<=(?<![^\n])[+-]|[:-][0-9]{1,9}[:-])|(?<![A-Za-z0-9+.\]-]))[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/)([^\s/:@?#"'<>]{0,256}:)([^\s@/?#"'<>]{1,1024})@/g;

function maskUserinfo(head: string, pass: string, learn: Learn): string | undefined {
  if (pass.includes('[redacted') || isPlaceholder(pass)) return undefined;
  // GitHub's `https://TOKEN:x-oauth-basic@github.com`: the user is the token.
  if (/^x-oauth-(?:basic|token)$/i.test(pass)) {
    const user = head.slice(0, -1);
    if (user.includes('[redacted') || isPlaceholder(user)) return undefined;
    learn(user);
    return `://${mask('token', user)}:${pass}@`;
  }
  learn(pass);
  return `://${head}${mask('password', pass)}@`;
}

/** `scheme://TOKEN@host`: a user name that looks like a key (`https://ghp_…@github.com` is the token rule's). */
const URL_USER_RE = /:\/\/(?<=(?:(?<=(?<![^\n])[+-]|[:-][0-9]{1,9}[:-])|(?<![A-Za-z0-9+.\]-]))[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/)([A-Za-z0-9_.~%-]{16,256})@/g;

function maskUser(user: string, learn: Learn): string | undefined {
  if (!looksRandom(user, true)) return undefined;
  learn(user);
  return `://${mask('token', user)}@`;
}

/**
 * HTTP headers that carry credentials: `Authorization:`, `Cookie:`, `X-Api-Key:`, `PRIVATE-TOKEN:`,
 * wherever they stand (a line of `curl -v`, after a `grep -n` prefix, inside `-H '…'`). The value
 * ends at the end of the line or at a quote or backslash (the end of a quoted or JSON string).
 */
const HEADER_RE = /:(?<=(?:(?<=[:-][0-9]{1,9}[:-]|(?<![^\n])[+-]|\\[nrt])|(?<![A-Za-z0-9_\]-]))((?:Proxy-)?Authorization|(?:Set-)?Cookie|X-[A-Za-z0-9-]{1,60}|[A-Za-z]{1,30}-[A-Za-z0-9-]{1,60})[ \t]{0,4}:)([ \t]{0,8})([^\r\n"'\\]+)/gi;
const HEADER_NAMES = /^(Authorization|Proxy-Authorization|Cookie|Set-Cookie)$/i;

/** A header line: only a frame before the name (`> `, `< `, `* `, a `grep -n` prefix, indentation). */
const HEADER_FRAME = /^(?:[^\s:]{1,256}[:-][0-9]{1,9}[:-])?[ \t]{0,8}(?:[<>*+-] ?)?$/;

function maskHeader(match: RegExpExecArray, learn: Learn): string | undefined {
  const [m, name, space, value] = match;
  const head = `:${space}`;
  let secret = HEADER_NAMES.test(name);
  if (!secret && name.includes('-') && isSecretName(name)) {
    // `X-Api-Key:` / `PRIVATE-TOKEN:` anywhere (in `-H '…'`); a lower-case name (`x-api-key:`,
    // as HTTP/2 prints them) only at the start of a line: elsewhere it is prose or a label.
    let end = match.index;
    while (end > 0 && /[ \t]/.test(match.input[end - 1])) end--;
    const nameStart = end - name.length;
    const window = match.input.slice(Math.max(0, nameStart - 300), nameStart);
    const before = window.slice(window.lastIndexOf('\n') + 1);
    secret = /[A-Z]/.test(name[0]) || HEADER_FRAME.test(before);
  }
  if (!secret || isPlaceholder(value) || looksLikeCode(name, value.replace(/[;,]$/, ''))) return undefined;
  // Cookies one by one, their names kept (`Cookie: sid=[redacted cookie, 32 chars]; theme=[…]`);
  // of `Set-Cookie:` only the first pair is a cookie, the rest are attributes (`Path=/`).
  if (/cookie$/i.test(name)) {
    let first = true;
    const masked = value.replace(/([^=;\s]{1,128})=([^;\s]{1,4096})/g, (pair: string, k: string, v: string) => {
      const keep = !first && /^set-/i.test(name);
      first = false;
      if (keep || v.includes('[redacted') || isPlaceholder(v)) return pair;
      learn(v);
      return `${k}=${mask('cookie', v)}`;
    });
    return masked === value ? undefined : `${head}${masked}`;
  }
  const scheme = /^(?:Bearer|Basic|Token|Digest|Negotiate|NTLM|AWS4-HMAC-SHA256)[ \t]+/i.exec(value)?.[0] ?? '';
  const secretPart = value.slice(scheme.length).trimEnd();
  if (secretPart.includes('[redacted') || looksLikeCode(name, secretPart)) return m;
  learn(secretPart);
  const rest = value.slice(scheme.length + secretPart.length);
  return `${head}${mask(HEADER_NAMES.test(name) ? name.toLowerCase() : 'header', secretPart, scheme)}${rest}`;
}

/**
 * `NAME = value`, `"name": "value"`, `name: value`, `--name=value`, `NAME := value`, with an
 * optional closing quote on the name and JSON-escaped quotes (`\"api_key\": \"…\"`). The name
 * is at most 64 characters; the value is quoted (up to the closing quote on the same line) or
 * a run of characters that cannot end a value.
 */
const PAIR_RE = new RegExp(
  // The look-behind reads the name before the separator: only names that hold a secret word.
  '[:=](?<=(?:(?<=[:-][0-9]{1,9}[:-]|(?<![^\n])[+-]|\\\\[nrt])|(?<![A-Za-z0-9_.$\\]=+/-]))([A-Za-z0-9_.-]{0,64}?(?:pass|pwd|secret|token|key|auth|cred|cookie|dsn|bearer)[A-Za-z0-9_.-]{0,64}?)(\\\\?["\']?)[ \\t]{0,8}[:=])' +
    '((?<=:)=|(?<==)>)?([ \\t]{0,8})' +
    '(?:(\\\\")((?:[^"\\\\\\n]|\\\\\\\\\\\\.|\\\\[^"\\\\\\n])*)(\\\\")|(")((?:[^"\\\\\\n]|\\\\.)*)(")|(\')([^\'\\n]*)(\')|((?:[^\\s"\',;}{)`\\\\]|\\\\(?![nrt"]))+))',
  'gi',
);

/** `g`: the groups of a PAIR_RE match, whose text `m` starts at the separator. */
function maskPair(m: string, g: Array<string | undefined>, after: string, learn: Learn): string {
  const [name, q] = g as string[];
  const sep = m[0] + (g[2] ?? '') + (g[3] ?? '');
  const at = [4, 7, 10].find((i) => g[i] !== undefined);
  const bare = at === undefined;
  const value = (bare ? g[13] : g[(at as number) + 1]) ?? '';
  const open = bare ? '' : (g[at as number] as string);
  const close = bare ? '' : (g[(at as number) + 2] as string);
  count(0, 1, Math.min(value.length, 1024));
  if (isPlaceholder(value) || (bare && (looksLikeCode(name, value) || AUTH_SCHEME.test(value)))) return m;
  // A version (`"cookie": "^0.7.1"` in a lock file) or a sentence (a message under `authError`).
  if (VERSION.test(value) || (!bare && looksLikeProse(name, value))) return m;
  // `detect-secrets:AzureStorageKeyDetector`, `{token:e}`: a bare `:` with no space after it is
  // not a config line (YAML needs the space, JSON quotes its names); only a key-like value counts.
  if (bare && sep === ':' && !q && !judgeValue(name, value)) return m;
  // An operand of an expression (`apiKey: key || undefined`, `token = a ? b : c`, `pw = x + y`) is code.
  if (bare && /^[ \t]*(?:\|\||\?\?|&&|\?[^?]|\+[^+]|\[|[=!]==?|[<>]=?[ \t]|[*/%-][ \t])/.test(after)) return m;
  // `token => token.value`: an arrow function (a hash's `=>` has a quoted or symbol key).
  if (bare && sep.trimEnd().endsWith('=>') && !q) return m;
  // `"password": "password"`: the name as its own value is an example.
  if (value.toLowerCase() === name.toLowerCase()) return m;
  // A URL with no credentials in it (`AUTH_URL = "https://auth.example.com/v1"`) is an address.
  if (/^[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s@?#]*$/.test(value)) return m;
  // A bare number after a quoted name is a JSON number: masking it would break the JSON.
  if (bare && q.endsWith('"') && /^-?\d[\d.eE+-]*$/.test(value)) return m;
  const kind = isSecretName(name) ? name.replace(/^-+/, '') : judgeValue(name, value);
  if (!kind) return m;
  learn(value);
  return `${sep}${open}${mask(kind, value)}${close}`;
}

const AUTH_SCHEME = /^(?:Bearer|Basic|Token|Digest|Negotiate|NTLM)$/i;

/** `--token VALUE`, `--password VALUE` (the value as the next word of a command line). */
const FLAG_RE = /(?<![^\s"'=[,])(--[A-Za-z][A-Za-z0-9-]{0,40})([ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s"'\],]+)/g;

function maskFlag(m: string, flag: string, space: string, value: string, learn: Learn): string {
  if (!isSecretName(flag) || value.startsWith('-')) return m;
  const inner = /^["']/.test(value) ? value.slice(1, -1) : value;
  if (isPlaceholder(inner) || looksLikeCode(flag, inner)) return m;
  learn(inner);
  const q = inner === value ? '' : value[0];
  return `${flag}${space}${q}${mask(flag.replace(/^-+/, ''), inner)}${q}`;
}

/** Programs that take a password in a short option: `mysql -pSECRET`, `sshpass -p SECRET`, `redis-cli -a SECRET`. */
export const PASSWORD_OPTIONS: Record<string, { flag: string; attached: boolean; separate: boolean }> = {
  mysql: { flag: '-p', attached: true, separate: false },
  mysqldump: { flag: '-p', attached: true, separate: false },
  mysqladmin: { flag: '-p', attached: true, separate: false },
  mysqlimport: { flag: '-p', attached: true, separate: false },
  mysqlshow: { flag: '-p', attached: true, separate: false },
  mariadb: { flag: '-p', attached: true, separate: false },
  'mariadb-dump': { flag: '-p', attached: true, separate: false },
  sshpass: { flag: '-p', attached: true, separate: true },
  'redis-cli': { flag: '-a', attached: true, separate: true },
};

const PROGRAM_ANY = new RegExp(`(?:${Object.keys(PASSWORD_OPTIONS).join('|')})(?![A-Za-z0-9_-])`);
const PROGRAM_RE = new RegExp(`(?<![A-Za-z0-9_./\\]-])(${Object.keys(PASSWORD_OPTIONS).join('|')})(?![A-Za-z0-9_-])([^\\n]{0,400})`, 'g');

function maskProgramLine(m: string, program: string, rest: string, learn: Learn): string {
  const o = PASSWORD_OPTIONS[program];
  const words = rest.split(/(\s+)/);
  let changed = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (o.attached && w.startsWith(o.flag) && w.length > o.flag.length && !w.includes('[redacted')) {
      learn(w.slice(o.flag.length));
      words[i] = o.flag + mask('password', w.slice(o.flag.length));
      changed = true;
    } else if (o.separate && w === o.flag && i + 2 < words.length && words[i + 2] && !words[i + 2].includes('[redacted')) {
      learn(words[i + 2]);
      words[i + 2] = mask('password', words[i + 2]);
      changed = true;
    }
  }
  return changed ? program + words.join('') : m;
}

/** Apply every pattern pass, in a fixed order, to `text`. */
export function maskPatterns(text: string, learn: Learn): string {
  let out = maskEncodedKeyBlocks(maskKeyBlocks(text));
  out = maskTokens(out, learn);
  if (out.includes('://')) out = replaceMatches(out, URL_RE, ([, head, pass]) => maskUserinfo(head, pass, learn));
  if (out.includes('@')) out = replaceMatches(out, URL_USER_RE, ([, user]) => maskUser(user, learn));
  if (out.includes(':')) out = replaceMatches(out, HEADER_RE, (m) => maskHeader(m, learn));
  out = replaceMatches(out, PAIR_RE, (m) => maskPair(m[0], m.slice(1), m.input.slice(m.index + m[0].length, m.index + m[0].length + 4), learn));
  if (out.includes('--')) out = replaceMatches(out, FLAG_RE, ([m, flag, sp, value]) => maskFlag(m, flag, sp, value, learn));
  if (PROGRAM_ANY.test(out) && /[ \t]-[pa]/.test(out)) out = replaceMatches(out, PROGRAM_RE, ([m, program, rest]) => maskProgramLine(m, program, rest, learn));
  for (const pass of FRAMING_PASSES) out = pass(out, learn);
  return out;
}

/** The last line, after the known values: values that look random under any name. */
export function maskRandomValues(text: string, learn: Learn): string {
  return LAST_PASS(text, learn);
}
