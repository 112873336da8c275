import { isPlaceholder, isSecretName, looksLikeCode } from './names';

/**
 * The shapes the gate recognises, as a fixed list of passes over a text. Every regular
 * expression here is linear: each either starts only where a run of its own characters starts
 * (a look-behind that refuses the run's characters) and either matches or fails within a
 * bounded number of characters, or ends in an unbounded run that cannot fail once started.
 * Nothing nests an unbounded quantifier inside another.
 */

/**
 * How a masked value reads: the public prefix of its kind, then `[redacted KIND, N chars]`,
 * where N is the length of the whole value. The model can still tell what it was and how long.
 */
export function mask(kind: string, value: string, keep = ''): string {
  return `${keep}[redacted ${kind}, ${value.length} chars]`;
}

/** A found value, for the gate to learn it as a known secret. */
export type Learn = (value: string) => void;

/** One token shape: kind, the anchored pattern that tells it apart, and the prefix it keeps. */
interface TokenShape {
  kind: string;
  source: string;
  keep: RegExp;
}

/**
 * `[x]{16,}` becomes `[x]{16}[x]*`: the same language, but V8 runs a trailing class star as a
 * simple loop, where `{16,}` over a 10 MiB run overflows its backtracking stack.
 */
const T = (kind: string, source: string, keep: RegExp): TokenShape => ({
  kind,
  source: source.replace(/(\[[^\]]+\])\{(\d+),\}/g, '$1{$2}$1*'),
  keep,
});
const B = '[A-Za-z0-9_-]';

/** Token shapes by their published prefixes. */
const TOKENS: TokenShape[] = [
  T('anthropic key', `sk-ant-${B}{10,}`, /^sk-ant-/),
  T('openai key', `sk-(?:proj-|svcacct-|admin-|None-)?${B}{16,}`, /^sk-(?:proj-|svcacct-|admin-|None-)?/),
  T('github token', `(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`, /^(?:gh[pousr]_|github_pat_)/),
  T('gitlab token', `gl(?:pat|dt|rt|cbt|ptt|ft|imt|agent|soat)-${B}{16,}`, /^gl[a-z]+-/),
  T('slack webhook', 'https://hooks\\.slack\\.com/services/[A-Za-z0-9/_-]+', /^https:\/\/hooks\.slack\.com\/services\//),
  T('slack token', 'xox[abposre]-[A-Za-z0-9-]{10,}', /^xox[a-z]-/),
  T('aws access key id', '(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])', /^[A-Z]{4}/),
  T('google api key', `AIza${B}{35,}`, /^AIza/),
  T('stripe key', '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}', /^[a-z]{2}_[a-z]{4}_/),
  T('stripe webhook secret', 'whsec_[A-Za-z0-9]{24,}', /^whsec_/),
  T('npm token', 'npm_[A-Za-z0-9]{30,}', /^npm_/),
  T('huggingface token', 'hf_[A-Za-z0-9]{30,}', /^hf_/),
  T('sendgrid key', `SG\\.${B}{16,}\\.${B}{16,}`, /^SG\./),
  T('digitalocean token', 'do[por]_v1_[a-f0-9]{64}', /^do[a-z]_v1_/),
  T('pypi token', `pypi-AgE${B}{50,}`, /^pypi-/),
  T('shopify token', 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}', /^shp[a-z]{2}_/),
  T('databricks token', 'dapi[a-f0-9]{32}', /^dapi/),
  T('linear key', 'lin_api_[A-Za-z0-9]{32,}', /^lin_api_/),
  T('age secret key', 'AGE-SECRET-KEY-1[0-9A-Z]{50,}', /^AGE-SECRET-KEY-/),
  T('telegram bot token', '[0-9]{8,10}:AA[A-Za-z0-9_-]{33}', /^$/),
  T('mailgun key', 'key-[0-9a-f]{32}', /^key-/),
  T('jwt', `eyJ${B}{5,}\\.eyJ${B}{5,}\\.${B}{5,}`, /^eyJ/),
  T('authorization', '(?:Bearer|Basic|Token|Digest)[ \\t]+[A-Za-z0-9._~+/=-]{8,}', /^[A-Za-z]+[ \t]+/),
];

const TOKEN_RE = new RegExp(`(?<![A-Za-z0-9_-])(?:${TOKENS.map((t) => t.source).join('|')})`, 'g');
const TOKEN_ANCHORED = TOKENS.map((t) => ({ ...t, re: new RegExp(`^(?:${t.source})$`) }));

function maskToken(m: string, learn: Learn): string {
  const shape = m.length <= 8192 ? TOKEN_ANCHORED.find((t) => t.re.test(m)) : undefined;
  const kind = shape?.kind ?? 'token';
  const keep = shape ? (shape.keep.exec(m)?.[0] ?? '') : '';
  if (kind === 'authorization' && /^(?:Bearer|Basic|Token|Digest)[ \t]+[a-z]+$/.test(m)) return m;
  learn(m.slice(keep.length));
  return mask(kind, m, keep);
}

const PEM_RE = /-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY( BLOCK)?-----([\s\S]*?)(-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g;

/** A private key block keeps its first and last lines and its line count (so line numbers stay right). */
function maskPem(m: string, type: string, block: string | undefined, body: string, end: string): string {
  // Already masked (as a key, or a known value inside it): masking again must change nothing.
  if (body.trimStart().startsWith('[redacted ')) return m;
  let first = true;
  const masked = body.replace(/[^\r\n]+/g, (line) => {
    if (!first) return '[redacted]';
    first = false;
    return mask('private key', body.trim());
  });
  return `-----BEGIN ${type}PRIVATE KEY${block ?? ''}-----${masked}${end}`;
}

const URL_RE = /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s/:@?#"'<>]{0,256}:)([^\s@/?#"'<>]{1,1024})@/g;

/** HTTP header lines that carry credentials: `Authorization:`, `Cookie:`, `X-Api-Key:`, `PRIVATE-TOKEN:`. */
const HEADER_RE = /(?<![^\n])([ \t]{0,8}(?:[<>*] ?)?([A-Za-z][A-Za-z0-9-]{0,60})[ \t]{0,4}:[ \t]{0,8})([^\r\n]+)/g;
const HEADER_NAMES = /^(Authorization|Proxy-Authorization|Cookie|Set-Cookie)$/;

function maskHeader(m: string, head: string, name: string, value: string, learn: Learn): string {
  const secret = HEADER_NAMES.test(name) || (name.includes('-') && isSecretName(name));
  if (!secret || isPlaceholder(value) || looksLikeCode(name, value.replace(/[;,]$/, ''))) return m;
  const scheme = /^(?:Bearer|Basic|Token|Digest|Negotiate|NTLM|AWS4-HMAC-SHA256)[ \t]+/i.exec(value)?.[0] ?? '';
  const secretPart = value.slice(scheme.length).trimEnd();
  if (secretPart.includes('[redacted') || looksLikeCode(name, secretPart)) return m;
  learn(secretPart);
  return `${head}${mask(HEADER_NAMES.test(name) ? name.toLowerCase() : 'header', secretPart, scheme)}`;
}

/**
 * `NAME = value`, `"name": "value"`, `name: value`, `--name=value`, `NAME := value`, with an
 * optional closing quote on the name and JSON-escaped quotes (`\"api_key\": \"…\"`). The name
 * is at most 64 characters; the value is quoted (up to the closing quote on the same line) or
 * a run of characters that cannot end a value.
 */
const PAIR_RE = new RegExp(
  // The look-ahead skips, within a bounded window, names that hold no secret word at all.
  '(?<![A-Za-z0-9_.$-])(?=[A-Za-z0-9_.-]{0,66}?(?:pass|pwd|secret|token|key|auth|cred|cookie|dsn|bearer))' +
    '(-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,63})(\\\\?["\']?)([ \\t]{0,8}(?::=|=>|:|=)[ \\t]{0,8})' +
    '(?:(\\\\?")((?:[^"\\\\\\n]|\\\\[^"\\n])*)(\\\\?")|(\')([^\'\\n]*)(\')|([^\\s"\',;}{)]+))',
  'gi',
);

function maskPair(m: string, name: string, q: string, sep: string, dq1: string | undefined, dv: string | undefined, dq2: string | undefined,
  sq1: string | undefined, sv: string | undefined, sq2: string | undefined, bare: string | undefined, learn: Learn): string {
  if (!isSecretName(name)) return m;
  const value = dv ?? sv ?? bare ?? '';
  const open = dq1 ?? sq1 ?? '';
  const close = dq2 ?? sq2 ?? '';
  if (isPlaceholder(value) || (bare !== undefined && (looksLikeCode(name, value) || AUTH_SCHEME.test(value)))) return m;
  // A bare number after a quoted name is a JSON number: masking it would break the JSON.
  if (bare !== undefined && q.endsWith('"') && /^-?\d[\d.eE+-]*$/.test(value)) return m;
  learn(value);
  return `${name}${q}${sep}${open}${mask(name.replace(/^-+/, ''), value)}${close}`;
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

const PROGRAM_RE = new RegExp(`(?<![A-Za-z0-9_./-])(${Object.keys(PASSWORD_OPTIONS).join('|')})(?![A-Za-z0-9_-])([^\\n]{0,400})`, 'g');

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
  let out = text;
  if (out.includes('PRIVATE KEY')) out = out.replace(PEM_RE, maskPem as (m: string, ...g: string[]) => string);
  out = out.replace(TOKEN_RE, (m) => maskToken(m, learn));
  if (out.includes('://')) out = out.replace(URL_RE, (_m, head: string, pass: string) => (pass.includes('[redacted') ? _m : (learn(pass), `${head}${mask('password', pass)}@`)));
  if (out.includes(':')) out = out.replace(HEADER_RE, (m, head: string, name: string, value: string) => maskHeader(m, head, name, value, learn));
  out = out.replace(PAIR_RE, (m, ...g: Array<string | undefined>) =>
    maskPair(m, g[0] as string, g[1] as string, g[2] as string, g[3], g[4], g[5], g[6], g[7], g[8], g[9], learn));
  if (out.includes('--')) out = out.replace(FLAG_RE, (m, flag: string, sp: string, value: string) => maskFlag(m, flag, sp, value, learn));
  out = out.replace(PROGRAM_RE, (m, program: string, rest: string) => maskProgramLine(m, program, rest, learn));
  return out;
}

/** The token shape `value` has as a whole (`sk-…`, `ghp_…`, `AKIA…`), with the prefix it keeps. */
export function tokenShape(value: string): { kind: string; keep: string } | undefined {
  if (value.length > 8192) return undefined;
  const shape = TOKEN_ANCHORED.find((t) => t.re.test(value));
  return shape ? { kind: shape.kind, keep: shape.keep.exec(value)?.[0] ?? '' } : undefined;
}
