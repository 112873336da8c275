import { judgeValue } from './entropy';
import { isPlaceholder, isSecretName, looksLikeCode, sameWords, weakValue } from './names';
import { segmentAt } from './pem';
import { mask, type Learn } from './tokens';
import { count, replaceMatches } from './work';

/**
 * Config syntaxes whose secrets are not `name = value` pairs, each a pass over the text that
 * reads a bounded window at each place it stops:
 * `.netrc` (`machine h login u password p`), `.pgpass` (`host:port:db:user:password`),
 * XML elements (`<password>…</password>`, Maven `settings.xml`) and key/value attributes
 * (NuGet `<add key="ClearTextPassword" value="…"/>`), quoted name/value pairs
 * (PHP `define('DB_PASSWORD', '…')`, `os.environ["API_KEY"] = "…"`), `-u user:password`
 * (`curl`, `wget --user`), YAML block scalars under a secret name (`password: |`), and the
 * last line: any `name = value` whose value looks random (entropy.ts).
 */

type Pass = (text: string, learn: Learn) => string;

/** A masked value, learned (`sure`: the syntax says it is a password); a placeholder or code is left as it is. */
function hide(kind: string, value: string, learn: Learn, sure = false): string | undefined {
  if (isPlaceholder(value) || value.includes('[redacted') || looksLikeCode(kind, value) || sameWords(kind, value)) return undefined;
  learn(value, sure);
  return mask(kind, value);
}

/** `password p`, and `account a` (an additional password, for ftp) in the one-line form. */
const NETRC = /(?:(?<=[:-][0-9]{1,9}[:-]|(?<![^\n])[+-]|\\[nrt])|(?<![\w\]-]))((?:password|passwd|account)[ \t]+)([^\s]{1,1024})/g;
const NETRC_WORD = /(?:passw(?:or)?d|account)[ \t]+[^\s[]/;
/** Before `account` on its line: a machine and a login (`account default` alone starts an msmtp account). */
const NETRC_ACCOUNT_BEFORE = /(?:^|[\s:+"'-])(?:machine[ \t]+\S+|default)[ \t]+login[ \t]+\S+(?:[ \t]+passw(?:or)?d[ \t]+\S+)?[ \t]+$/;
/** Before `password` on its line: `machine h login u` (one line of `.netrc`)… */
const NETRC_BEFORE = /(?:^|\s)(?:machine|default|login|account)[ \t]+\S/;
/** Before `password`: exactly `machine h login u` (or `default login u`). */
const NETRC_STRICT = /(?:^|[\s:+"'-])(?:machine[ \t]+\S+|default)[ \t]+login[ \t]+\S+[ \t]+$/;
/** …or only a frame (`.netrc` over several lines: `password` starts its line). */
const FRAME_ONLY = /^(?:\s*|[^\s]*[:-][0-9]{1,9}[:-]\s*|[+-]\s*|\s*[0-9]{1,9}\t\s*)$/;

const netrc: Pass = (text, learn) => {
  if (!NETRC_WORD.test(text)) return text;
  return replaceMatches(text, NETRC, (m) => {
    const [, head, value] = m;
    // The line before it, at most 300 characters back.
    let lineStart = m.index;
    while (lineStart > 0 && m.index - lineStart < 300 && text.charCodeAt(lineStart - 1) !== 10) lineStart--;
    const before = text.slice(lineStart, m.index);
    const end = m.index + m[0].length;
    const atEol = /^[ \t]*(?:\r?\n|$)/.test(text.slice(end, end + 4));
    if (head.startsWith('account') ? !NETRC_ACCOUNT_BEFORE.test(before) : !NETRC_BEFORE.test(before) && !(FRAME_ONLY.test(before) && atEol))
      return undefined;
    // Learned even when it reads as a word only in the strict one-line form (`machine h login u password p`).
    const strict = head.startsWith('account') || NETRC_STRICT.test(before.slice(-200));
    const masked = hide(head.startsWith('account') ? 'account' : 'password', value, learn, strict);
    return masked && head + masked;
  });
};

/** `host:port:database:user:password` on a line of its own (after an optional grep frame). */
const PGPASS =
  /:(?:[0-9]{1,5}|\*):(?<=(?<![^\n])(?:[^\s:]{1,256}[:-][0-9]{1,9}[:-])?[^\s:]{1,256}:(?:[0-9]{1,5}|\*):)([^\s:]{1,256}:[^\s:]{1,256}:)([^\s]{1,1024})(?=\r?\n|$)/g;

const PGPASS_PORT = /:(?:[0-9]{1,5}|\*):[^\s:]/;

const pgpass: Pass = (text, learn) => {
  if (!PGPASS_PORT.test(text)) return text;
  return replaceMatches(text, PGPASS, ([m, dbUser, value]) => {
    const masked = hide('password', value, learn, true);
    return masked && m.slice(0, m.length - dbUser.length - value.length) + dbUser + masked;
  });
};

/** `<password>v</password>`, `<api-key attr="x">v</api-key>`. */
const XML_ELEMENT = /<([A-Za-z_][\w.:-]{0,63})((?:[ \t][^<>\n]{0,200})?)>([^<\n]{1,1024})<\/\1>/g;
/** `key="Password" value="v"`, `name='api.token' value='v'`. */
const XML_KV = /((?:key|name)[ \t]*=[ \t]*(["'])([\w.:-]{1,64})\2[ \t]+value[ \t]*=[ \t]*)(["'])([^"'\n]{1,1024})\4/gi;

const xml: Pass = (text, learn) => {
  const out = !text.includes('</')
    ? text
    : replaceMatches(text, XML_ELEMENT, ([, name, attrs, value]) => {
        const kind = isSecretName(name) ? name : judgeValue(name, value.trim());
        const masked = kind && hide(kind, value, learn);
        return masked && `<${name}${attrs}>${masked}</${name}>`;
      });
  if (!/value[ \t]*=/i.test(out)) return out;
  return replaceMatches(out, XML_KV, ([, head, , name, q, value]) => {
    const kind = isSecretName(name) ? name : judgeValue(name, value);
    const masked = kind && hide(kind, value, learn);
    return masked && `${head}${q}${masked}${q}`;
  });
};

/**
 * `define('DB_PASSWORD', 'v')`, `setenv("API_KEY", "v")` (the pair opens a call), `environ["TOKEN"] = "v"`,
 * `{'password' => 'v'}`. (`"password": "v"` is the pair pass's.)
 */
const QUOTED_CALL = /\([ \t]{0,8}(["'])([A-Za-z_][\w.-]{0,63})\1([ \t]*,[ \t]*)(["'])((?:[^"'\\\n]|\\.){1,1024})\4/g;
/** The same after `=>` or `] =`, found from its separator. */
const QUOTED_ASSIGN = /=(?<=(["'])([A-Za-z_][\w.-]{0,63})["']\]?[ \t]*=)(>?[ \t]*)(["'])((?:[^"'\\\n]|\\.){1,1024})\4/g;

const quotedPairs: Pass = (text, learn) => {
  if (!text.includes('"') && !text.includes("'")) return text;
  const out = !text.includes('(')
    ? text
    : replaceMatches(text, QUOTED_CALL, ([m, q1, name, sep, q2, value]) => {
        const masked = isSecretName(name) ? hide(name, value, learn) : undefined;
        return masked && `${m.slice(0, m.indexOf(q1))}${q1}${name}${q1}${sep}${q2}${masked}${q2}`;
      });
  return replaceMatches(out, QUOTED_ASSIGN, ([, , name, more, q2, value]) => {
    const masked = isSecretName(name) ? hide(name, value, learn) : undefined;
    return masked && `=${more}${q2}${masked}${q2}`;
  });
};

/** `curl -u user:password`, `--user=user:password`, `--proxy-user user:password` (the user stays). */
const USER_OPTION =
  /(?<![\w\]-])((?:-u|-U|--user|--proxy-user|--http-user|--ftp-user)(?:[ \t]+|=)(["']?)[^\s:"']{1,256}:)([^\s"']{1,1024})/g;

const userOption: Pass = (text, learn) => {
  if (!/(?:^|[\s"'])-(?:u|U|-user|-proxy-user|-http-user|-ftp-user)[ \t=]/.test(text)) return text;
  return replaceMatches(text, USER_OPTION, ([, head, , value]) => {
    // `-u 1000:1000` (a uid:gid) is not a password.
    if (/^[0-9]+$/.test(value)) return undefined;
    const masked = hide('password', value, learn);
    return masked && head + masked;
  });
};

/** `password: |` (or `>`) followed by more indented lines: the lines are the value. */
const YAML_BLOCK =
  /:(?<=(?:(?<=[:-][0-9]{1,9}[:-]|(?<![^\n])[+-]|\\[nrt])|(?<![\w.\]-]))([A-Za-z_][\w.-]{0,63})[ \t]*:)[ \t]*[|>][-+]?[0-9]?[ \t]*(?:\r?\n|(\\+)n)/g;

/** The frame a tool printed before a line: `file:12:`, `file-13-`, a diff `+` / `-`, a `cat -n` number. */
function frameLength(line: string): number {
  return /^(?:[^\s:]{1,256}?[:-][0-9]{1,9}[:-]|[+-](?![+-])|[ \t]*[0-9]{1,9}\t)/.exec(line)?.[0].length ?? 0;
}

const yamlBlocks: Pass = (text, learn) => {
  if (!/:[ \t]*[|>]/.test(text)) return text;
  count(text.length);
  const parts: string[] = [];
  let at = 0;
  YAML_BLOCK.lastIndex = 0;
  for (let m = YAML_BLOCK.exec(text); m; m = YAML_BLOCK.exec(text)) {
    count(0, 1);
    if (!isSecretName(m[1])) continue;
    // The indentation of the name's line (the match starts at the colon after the name), after
    // the line's frame (a grep prefix, a diff `+`, a `cat -n` number), as for each line below.
    // In a JSON string (`password: |\n    …`) the lines are its `\n` escapes, and it ends at a bare quote.
    const escaped = m[2] !== undefined;
    const window = text.slice(Math.max(0, m.index - 400), m.index);
    const keyLine = window.slice(Math.max(window.lastIndexOf('\n') + 1, escaped ? window.lastIndexOf('\\n') + 2 : 0));
    const indent = /^[ \t]*/.exec(keyLine.slice(frameLength(keyLine)))![0].length;
    let end = m.index + m[0].length;
    const body: Array<[number, number]> = [];
    for (let n = 0; n < 10000 && end < text.length; n++) {
      const seg = segmentAt(text, end);
      const quote = escaped ? /(?<!\\)"/.exec(text.slice(seg.start, seg.end)) : null;
      const lineEnd = quote ? seg.start + quote.index : seg.end;
      const line = text.slice(end, lineEnd);
      count(0, 0, line.length);
      const frame = frameLength(line);
      const content = line.slice(frame);
      const ind = /^[ \t]*/.exec(content)![0].length;
      if (content.trim() !== '' && ind <= indent) break;
      if (content.trim() !== '') body.push([end + frame + ind, lineEnd]);
      if (quote) break;
      end = seg.next;
    }
    if (body.length === 0 || text.slice(body[0][0], body[0][1]).includes('[redacted')) continue;
    const total = body.reduce((s, [a, b]) => s + b - a, 0);
    learn(text.slice(body[0][0], body[0][1]).trim());
    body.forEach(([a, b], i) => {
      parts.push(text.slice(at, a), i === 0 ? `[redacted ${m![1]}, ${total} chars]` : '[redacted]');
      at = b;
    });
    YAML_BLOCK.lastIndex = Math.max(YAML_BLOCK.lastIndex, at);
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(at));
  return parts.join('');
};

/**
 * Any `name = value` / `name: value` / `"name": "value"` / `NAME=value`, judged by its value
 * (keyword rules, then entropy). Names that hold a secret word were masked by the pair pass before.
 */
const ANY_PAIR =
  /[:=](?<=(?:(?<=[:-][0-9]{1,9}[:-]|(?<![^\n])[+-]|\\[nrt])|(?<![\w.$\]=+/-]))([A-Za-z_][\w.-]{0,63})\\?["']?[ \t]{0,8}[:=])((?<=:)=|(?<==)>)?([ \t]{0,8}\\?["'`]?)([A-Za-z0-9+/=_.~%-]{8,1024})([A-Za-z0-9+/=_.~%(<[-]?)/g;

const anyPair: Pass = (text, learn) =>
  replaceMatches(text, ANY_PAIR, ([m, name, more, open, value, after]) => {
    // Longer than 1024 characters, or a call, a generic or an index (`make(`, `Options<`, `list[`): not a key. The match still
    // consumes the run, so no later separator inside it is looked at again.
    if (after) return undefined;
    const kind = judgeValue(name, value);
    if (!kind) return undefined;
    learn(value);
    return `${m[0]}${more ?? ''}${open}${mask(kind, value)}`;
  });

/**
 * `name value` config lines, the name first on its line and one word after it (slapd.conf
 * `rootpw {SSHA}…`, ldap.conf / nslcd.conf `bindpw …`, msmtprc `password …`, PuTTY-style `pw …`).
 * Prose starts lines with such names too (`Token expired`, `PasswordAuthentication no`), so the
 * value must look like a password (a digit, a symbol or a change of case), and not end a statement
 * (`auth_basic "Restricted";`) or name a file (`auth-user-pass creds.txt`).
 */
const SPACED =
  /(^|\n|\\[nr])((?:[^\s:]{1,256}?[:-][0-9]{1,9}[:-]|[0-9]{1,9}[:-]|[+-](?![+-])|[ \t]*[0-9]{1,9}\t)?[ \t]*)([A-Za-z_][\w.-]{1,63})([ \t]+)([^\s"'`#;\\][^\s"'`\\]{0,1023})[ \t]*(?=\r?\n|\\[nr]|"|$)/g;

const spacedConfig: Pass = (text, learn) =>
  replaceMatches(text, SPACED, ([, brk, head, name, space, value]) => {
    if (
      !isSecretName(name) ||
      value.endsWith(';') ||
      /^(?:\.{0,2}\/|~\/|[A-Za-z][\w+.-]*:\/\/)/.test(value) ||
      /\.[a-z]{1,5}$/.test(value) ||
      !weakValue(value, false)
    )
      return undefined;
    // Not judged as code: a value alone after a name on its line is no expression (`rootpw {SSHA}…`).
    if (isPlaceholder(value) || value.includes('[redacted')) return undefined;
    learn(value);
    return `${brk}${head}${name}${space}${mask(name, value)}`;
  });

/** The passes of this file, in order. */
export const FRAMING_PASSES: readonly Pass[] = [yamlBlocks, netrc, pgpass, xml, quotedPairs, userOption, spacedConfig];
/** The last pass: values that look random under any name. */
export const LAST_PASS: Pass = anyPair;
