/** One secret pattern: what it looks like and how to mask it. */
interface Pattern {
  kind: string;
  re: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

const MASK = '[redacted]';
const keepPrefix = (n: number) => (m: string): string => m.slice(0, n) + MASK;

// Every quantifier over a run of name characters is bounded, and a name may only start where a
// run starts (the look-behind): the work per position is then a constant, so redaction stays
// linear however long a run of hex, dots or repeated keywords is. (Unbounded, `[...]*?` before
// the keyword rescanned the rest of the run from every position: quadratic.)
const SECRET_NAME = '(?:(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{0,40}?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|client[_-]?secret|private[_-]?key|credentials?|session[_-]?key|cookie)s?[0-9]{0,4}(?:[_.-][A-Za-z0-9_.-]{0,40})?)';

const PATTERNS: Pattern[] = [
  {
    kind: 'private_key',
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
    replace: (_m, type: string) => `-----BEGIN ${type}PRIVATE KEY----- ${MASK} -----END ${type}PRIVATE KEY-----`,
  },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, replace: keepPrefix(3) },
  { kind: 'anthropic', re: /\bsk-ant-[A-Za-z0-9_-]{10,}/g, replace: keepPrefix(7) },
  { kind: 'openai', re: /\bsk-(?:proj-|svcacct-|admin-|live-|None-)?[A-Za-z0-9_-]{16,}/g, replace: keepPrefix(3) },
  { kind: 'github', re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, replace: keepPrefix(4) },
  { kind: 'gitlab', re: /\bgl(?:pat|dt|rt|cbt|ptt|ft|imt|agent)-[A-Za-z0-9_-]{16,}/g, replace: keepPrefix(6) },
  { kind: 'slack', re: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, replace: keepPrefix(5) },
  { kind: 'slack_webhook', re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g, replace: () => `https://hooks.slack.com/services/${MASK}` },
  { kind: 'aws_access_key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g, replace: keepPrefix(4) },
  { kind: 'google', re: /\bAIza[0-9A-Za-z_-]{35}\b/g, replace: keepPrefix(4) },
  { kind: 'stripe', re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g, replace: keepPrefix(8) },
  { kind: 'npm', re: /\bnpm_[A-Za-z0-9]{30,}/g, replace: keepPrefix(4) },
  { kind: 'huggingface', re: /\bhf_[A-Za-z0-9]{30,}/g, replace: keepPrefix(3) },
  { kind: 'npmrc_auth', re: /(_authToken|_auth|_password)(\s*=\s*)(\S+)/g, replace: (_m, k: string, sep: string) => `${k}${sep}${MASK}` },
  {
    kind: 'auth_header',
    re: /\b(Bearer|Basic|Token|Digest)(\s+)([A-Za-z0-9._~+/=-]{8,})/g,
    replace: (_m, scheme: string, sp: string) => `${scheme}${sp}${MASK}`,
  },
  {
    kind: 'url_credentials',
    re: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,30}:\/\/[^/\s:@]{1,256}:)([^@\s/]{1,1024})@/gi,
    replace: (_m, head: string) => `${head}${MASK}@`,
  },
  {
    // .env lines and shell exports with a secret-looking name: API_KEY=..., export DB_PASSWORD="..."
    kind: 'env_line',
    re: /^([ \t]{0,16}(?:export[ \t]{1,8})?[A-Za-z_][A-Za-z0-9_]{0,64}?(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|AUTH|CREDENTIALS?|PRIVATE|DSN|DATABASE_URL|CONN(?:ECTION)?_STRING)[A-Za-z0-9_]{0,64}[ \t]{0,8}=[ \t]{0,8})(.+)$/gim,
    replace: (m, head: string, value: string) => (value.includes(MASK) ? m : `${head}${MASK}`),
  },
  {
    // password=..., "api_key": "...", token: ..., secret => ...
    kind: 'pair',
    re: new RegExp(`(["']?)(${SECRET_NAME})\\1(\\s{0,16}(?::|=>|=)\\s{0,16})(["']?)([^\\s"',;}{)]{1,4096})\\4`, 'gi'),
    replace: (m, q: string, name: string, sep: string, vq: string, value: string) =>
      value.includes(MASK) || /^(null|true|false|undefined|none|\*+)$/i.test(value) || (!vq && looksLikeCode(name, value)) ? m : `${q}${name}${q}${sep}${vq}${MASK}${vq}`,
  },
];

/** Type names and keywords that follow `token:` / `password =` in source code, not secrets. */
const CODE_WORDS = new Set([
  'string', 'number', 'boolean', 'bigint', 'any', 'unknown', 'never', 'void', 'object', 'symbol', 'await', 'new', 'this',
  'typeof', 'function', 'async', 'return', 'str', 'int', 'bool', 'bytes', 'optional', 'self', 'nil', 'none', 'required',
  'secretstr', 'string[]', 'string|undefined', 'string|null', 'option<string>', '&str', 'string?', 'string!',
]);

/**
 * An unquoted value that is code rather than a secret: a type or keyword (`token: string`,
 * `token = await …`), an operator (`secret === x`), a property path or call
 * (`apiKey = process.env.API_KEY`, `token = getToken(`), a template or variable reference
 * (`${token}`, `$TOKEN`), or a small number under a limit-like name (`TOKEN_LIMIT = 4000`).
 * Masking those would garble the source code fs.read shows and fs.edit must match exactly.
 */
function looksLikeCode(name: string, value: string): boolean {
  if (CODE_WORDS.has(value.toLowerCase())) return true;
  if (/^[=<>!&|?:+\-*/%^~.]+$/.test(value)) return true;
  // Property paths from where code keeps settings (a dotted password like `my.pass` stays masked).
  if (/^(process\.env|import\.meta\.env|os\.environ|this|self|cls|config|cfg|conf|settings|options|opts|ctx|context|env|args|params|props|req|request|res|auth|creds|credentials|secrets|data|user|account|profile|state|session|window|globalThis|ENV)\??\.[A-Za-z_$][\w$.?]*(\(|$)/.test(value)) return true;
  if (value === '$') return true;
  if (/^[A-Za-z_$][\w$]*\($/.test(value) || /^[A-Za-z_$][\w$]*\(\)?$/.test(value)) return true;
  if (/^\$\{?[A-Za-z_]/.test(value)) return true;
  if (/^\d{1,7}$/.test(value) && /(limit|max|min|count|len|size|ttl|timeout|expir|_ms$|seconds|length|bytes)/i.test(name)) return true;
  return false;
}

/**
 * Mask secrets in text before it reaches a model or a log: provider API keys (OpenAI,
 * Anthropic, DeepSeek), AWS keys, GitHub/GitLab/Slack tokens, JWTs, Authorization headers,
 * private key blocks, URL passwords, `password=` / `token:` pairs and secret `.env` lines.
 */
export function redact(text: string): string {
  if (!text) return text;
  let out = text;
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    out = out.replace(p.re, p.replace as (m: string, ...g: string[]) => string);
  }
  return out;
}

/** Redact every string inside a JSON-like value (object keys stay). */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = /password|passwd|secret|token|api[_-]?key|apikey|private[_-]?key|credential/i.test(k) && typeof v === 'string' && v ? '[redacted]' : redactValue(v);
    }
    return out as T;
  }
  return value;
}
