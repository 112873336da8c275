import { judgeValue, looksRandom } from './entropy';
import { FRAMING_PASSES, LAST_PASS } from './framings';
import { maskCommandLines } from './commands';
import { maskCredentialDocuments } from './documents';
import { isPlaceholder, isSecretName, isWeakSecretName, looksLikeCode, looksLikeProse, sameWords, VERSION, weakValue } from './names';
import { maskEncodedKeyBlocks, maskKeyBlocks } from './pem';
import { mask, maskTokens, type Learn } from './tokens';
import { atLineStart, lineEnd, openingQuote, pairsCut, quotedEnd, trimEnd, wordEnd } from './values';
import { count, replaceMatches, type Reach } from './work';

/**
 * The shapes the gate recognises, as a fixed list of passes over a text. Every regular
 * expression here is linear: each either starts only where a run of its own characters starts
 * (a look-behind that refuses the run's characters) and either matches or fails within a
 * bounded number of characters, or ends in an unbounded run that cannot fail once started.
 * Nothing nests an unbounded quantifier inside another.
 */

export { mask, tokenShape } from './tokens';
export type { Learn } from './tokens';
export { PASSWORD_OPTIONS } from './commands';

/**
 * `scheme://user:password@`: the password holds any character but white space, a quote and
 * the characters that end the authority (`/ ? #`); an `@` in it is the password's (`p@ss`), the
 * last `@` before the host ends it, as URL parsers read it. Each expression of this file that finds `name <separator> value`
 * starts at the separator (a literal the engine finds fast) and reads the name behind it with a
 * bounded look-behind, rather than trying every word of the text as a name.
 */
const URL_RE =
  /:\/\/(?<=(?:(?<=(?<![^\n])[+-]|[:-][0-9]{1,9}[:-])|(?<![A-Za-z0-9+.\]-]))[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/)([^\s/:@?#"'<>]{0,256}:)([^\s/?#"'<>]{1,1024})@/g;

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
const URL_USER_RE =
  /:\/\/(?<=(?:(?<=(?<![^\n])[+-]|[:-][0-9]{1,9}[:-])|(?<![A-Za-z0-9+.\]-]))[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/)([A-Za-z0-9_.~%-]{16,256})@/g;

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
const HEADER_RE =
  /:(?<=(?:(?<=[:-][0-9]{1,9}[:-]|(?<![^\n])[+-]|\\[nrt])|(?<![A-Za-z0-9_\]-]))((?:Proxy-)?Authorization|(?:Set-)?Cookie|X-[A-Za-z0-9-]{1,60}|[A-Za-z]{1,30}-[A-Za-z0-9-]{1,60})[ \t]{0,4}:)([ \t]{0,8})([^\r\n"'\\]+)/gi;
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
  // A lower-case name is YAML as often as a header (`id-token: write # for provenance`): its comment is no part of the value.
  const judged = (/^[a-z]/.test(name) ? value.replace(/[ \t]+#.*$/, '') : value).replace(/[;,]$/, '');
  if (!secret || isPlaceholder(value) || looksLikeCode(name, judged)) return undefined;
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
  '[:=](?<=(?:(?<=[:-][0-9]{1,9}[:-]|(?<![^\n])[+-]|\\\\[nrt])|(?<![A-Za-z0-9_.$\\]=+/-]))([A-Za-z0-9_.-]{0,64}?(?:pass|pw|secret|token|key|auth|cred|cookie|dsn|bearer)[A-Za-z0-9_.-]{0,64}?)(\\\\?["\']?)[ \\t]{0,8}[:=])' +
    '((?<=:)=|(?<==)>)?([ \\t]{0,8})' +
    '(?:(\\\\")((?:[^"\\\\\\n]|\\\\\\\\\\\\.|\\\\[^"\\\\\\n])*)(\\\\")|(")((?:[^"\\\\\\n]|\\\\.)*)(")|(\')([^\'\\n]*)(\')|((?:[^\\s"\',;}{)`\\\\]|\\\\(?![nrt"]))+))',
  'gi',
);

/** The text of the line before `at`, at most 300 characters. */
function lineBefore(text: string, at: number): string {
  const head = text.slice(Math.max(0, at - 300), at);
  return head.slice(head.lastIndexOf('\n') + 1);
}

/** The pair before a connection string's next name: `Server=db;`, `User Id=app; `. */
const CONN_BEFORE = /(?:^|[\s;"'])[A-Z][\w .-]{0,63}=[^;=\s"']{0,256};[ \t]*$/;

/** How the value after a name reads, by what is around the name (values.ts). */
type PairContext = 'option' | 'quoted' | 'line' | 'word' | 'inline';

/** Where the name of a PAIR_RE match starts (the match starts at the separator). */
function nameStartOf(match: RegExpExecArray, name: string, q: string): number {
  let k = match.index;
  while (k > 0 && (match.input[k - 1] === ' ' || match.input[k - 1] === '\t')) k--;
  return k - q.length - name.length;
}

function contextOf(match: RegExpExecArray, name: string, q: string, sep: string): { ctx: PairContext; nameAt: number } {
  const nameAt = nameStartOf(match, name, q);
  // An option's value follows its `=` at once; `--api-key: …` is prose about it, `'-cookie =?'` a table.
  const glued = sep === '=' && !q && match.index === nameAt + name.length;
  if (name.startsWith('-')) return { ctx: glued ? 'option' : 'inline', nameAt };
  // `"PASSWORD=a b"` (a compose file's environment, an argument list): the word is quoted whole.
  if (glued && openingQuote(match.input, nameAt)) return { ctx: 'quoted', nameAt };
  // A pair of a connection string after another (`Server=db;Password=…;Database=app`) as at the
  // start of a line; minified code (`;t.token=e;`) names in lower case.
  if (
    atLineStart(match.input, nameAt) ||
    (/^[A-Z]/.test(name) &&
      /;[ \t]*$/.test(match.input.slice(Math.max(0, nameAt - 8), nameAt)) &&
      CONN_BEFORE.test(lineBefore(match.input, nameAt)))
  )
    return { ctx: 'line', nameAt };
  // `PGPASSWORD=… psql`, `user=bob password=… ip=…`: a glued `=` after white space is an assignment.
  return { ctx: glued && (nameAt === 0 || /\s/.test(match.input[nameAt - 1])) ? 'word' : 'inline', nameAt };
}

/** Where a bare value that starts at `from` ends in its context (values.ts); `narrowEnd` where the pattern ended it. */
function valueEnd(text: string, ctx: PairContext, name: string, nameStart: number, from: number, narrowEnd: number): number {
  if (ctx === 'inline') return narrowEnd;
  if (ctx === 'quoted') {
    const close = quotedEnd(text, from, openingQuote(text, nameStart));
    return close > narrowEnd ? close : narrowEnd;
  }
  if (ctx === 'option') return Math.max(narrowEnd, trimEnd(text, from, wordEnd(text, from)));
  const end = ctx === 'word' ? wordEnd(text, from) : lineEnd(text, from);
  let cut = pairsCut(text, from, end);
  // A sentence after a name that is not a password's (`token: see the docs below`) keeps its first word only.
  if (ctx === 'line' && looksLikeProse(name, text.slice(from, cut))) cut = from + /\s/.exec(text.slice(from, cut))!.index;
  return Math.max(narrowEnd, trimEnd(text, from, cut));
}

/** `g`: the groups of a PAIR_RE match, whose text `m` starts at the separator. */
function maskPair(match: RegExpExecArray, learn: Learn): string | Reach {
  const m = match[0];
  const g = match.slice(1);
  const after = match.input.slice(match.index + m.length, match.index + m.length + 4);
  const [name, q] = g as string[];
  const sep = m[0] + (g[2] ?? '') + (g[3] ?? '');
  const at = [4, 7, 10].find((i) => g[i] !== undefined);
  const bare = at === undefined;
  let value = (bare ? g[13] : g[(at as number) + 1]) ?? '';
  const open = bare ? '' : (g[at as number] as string);
  const close = bare ? '' : (g[(at as number) + 2] as string);
  count(0, 1, Math.min(value.length, 1024));
  const { ctx, nameAt } = contextOf(match, name, q, sep);
  const option = ctx === 'option';
  // Code is judged by the narrow reading. On a config line, in a quoted word or an env-style
  // assignment, the whole value is judged again when the narrow reading cut it short or left a word
  // of one or two characters, which reads as a variable (`password: my pass phrase`,
  // `PGPASSWORD=BPNvrpVCgm;x` are no code; `password = pw` is; `let tokenStart=0;for(…` stays code).
  const valueAt = match.index + m.length - close.length - value.length;
  const end = bare ? valueEnd(match.input, ctx, name, nameAt, valueAt, valueAt + value.length) : valueAt + value.length;
  const whole = match.input.slice(valueAt, end);
  const rejudge = ctx === 'line' || ctx === 'quoted' || (ctx === 'word' && /^[A-Z][A-Z0-9_]*$/.test(name));
  const cut = whole !== value && !/\s/.test(match.input[valueAt + value.length] ?? ' ');
  const code =
    bare &&
    !option &&
    looksLikeCode(name, value) &&
    !(rejudge && whole !== value && (cut || /^[A-Za-z0-9]{1,2}$/.test(value)) && !/^[$`{%<]/.test(whole) && !looksLikeCode(name, whole));
  if (isPlaceholder(value) || code || (bare && !option && AUTH_SCHEME.test(value))) return m;
  // `'--password=' + pw`, `"token=" + t`: the quote after the separator closes the string the name stands in.
  if (!bare && !q && nameAt > 0 && match.input[nameAt - 1] === open) return m;
  if (option && /^[$`-]/.test(value)) return m;
  // A version (`"cookie": "^0.7.1"` in a lock file) or a sentence (a message under `authError`).
  if (VERSION.test(value) || (!bare && looksLikeProse(name, value))) return m;
  // `detect-secrets:AzureStorageKeyDetector`, `{token:e}`: a bare `:` with no space after it is
  // not a config line (YAML needs the space, JSON quotes its names); only a key-like value counts.
  if (bare && sep === ':' && !q && !judgeValue(name, value)) return m;
  // An operand of an expression (`apiKey: key || undefined`, `token = a ? b : c`, `pw = x + y`) is code.
  if (bare && !option && /^[ \t]*(?:\|\||\?\?|&&|\?[^?]|\+[^+]|\[|[=!]==?|=[ \t]|[<>]=?[ \t]|[*/%-][ \t])/.test(after)) return m;
  // A variable or a property path that ends a statement (`env.PWD = cwd;`) is code.
  if (bare && !option && /^[A-Za-z_$][\w$.]*$/.test(value) && /^;[ \t]*(?:$|\r?\n|\\n|\/\/)/.test(after)) return m;
  // `token => token.value`: an arrow function (a hash's `=>` has a quoted or symbol key).
  if (bare && sep.trimEnd().endsWith('=>') && !q) return m;
  value = whole;
  // `"password": "password"`, `XToken = "x-token"`: the name as its own value is an example or an enum.
  if (sameWords(value, name)) return m;
  // A URL with no credentials in it (`AUTH_URL = "https://auth.example.com/v1"`) is an address.
  if (/^[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s@?#]*$/.test(value)) return m;
  // A bare number after a quoted name is a JSON number: masking it would break the JSON.
  if (bare && q.endsWith('"') && /^-?\d[\d.eE+-]*$/.test(value)) return m;
  // `pass`, `pw`, `pwd` are words and a shell command too: only a value shaped like a password counts.
  if (!option && isWeakSecretName(name) && !weakValue(value, ctx === 'line')) return m;
  const kind = isSecretName(name) ? name.replace(/^-+/, '') : judgeValue(name, value);
  if (!kind) return m;
  learn(value);
  const text = `${sep}${open}${mask(kind, value)}${close}`;
  return end > valueAt + (g[13]?.length ?? Infinity) ? { text, end } : text;
}

const AUTH_SCHEME = /^(?:Bearer|Basic|Token|Digest|Negotiate|NTLM)$/i;

/** Apply every pattern pass, in a fixed order, to `text`. */
export function maskPatterns(text: string, learn: Learn): string {
  let out = maskEncodedKeyBlocks(maskKeyBlocks(text));
  out = maskTokens(out, learn);
  if (out.includes('://')) out = replaceMatches(out, URL_RE, ([, head, pass]) => maskUserinfo(head, pass, learn));
  if (out.includes('@')) out = replaceMatches(out, URL_USER_RE, ([, user]) => maskUser(user, learn));
  if (out.includes(':')) out = replaceMatches(out, HEADER_RE, (m) => maskHeader(m, learn));
  out = maskCredentialDocuments(out, learn);
  out = maskCommandLines(out, learn);
  out = replaceMatches(out, PAIR_RE, (m) => maskPair(m, learn));
  for (const pass of FRAMING_PASSES) out = pass(out, learn);
  return out;
}

/** The last line, after the known values: values that look random under any name. */
export function maskRandomValues(text: string, learn: Learn): string {
  return LAST_PASS(text, learn);
}
