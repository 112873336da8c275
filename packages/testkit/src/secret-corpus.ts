/**
 * Secret formats for redaction tests: each entry is a file a user could have in a workspace
 * (`text`) and the secret value in it that must never leave the process (`secret`). Values are
 * made up, but have the exact shape of the real thing.
 */
export interface SecretSample {
  /** What the format is. */
  name: string;
  /** A file name a user would give it. */
  file: string;
  /** The file's text, the secret in its usual context. */
  text: string;
  /** The secret value itself. */
  secret: string;
}

/** A deterministic alphanumeric string of `n` characters (seeded, so every run uses the same values). */
export function fakeToken(seed: string, n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  let out = '';
  for (let i = 0; i < n; i++) {
    h = Math.imul(h ^ (h >>> 13), 1274126177) >>> 0;
    h = (h + 0x9e3779b9) >>> 0;
    out += alphabet[h % alphabet.length];
  }
  return out;
}

const HEX = '0123456789abcdef';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function sample(name: string, file: string, secret: string, text: (s: string) => string): SecretSample {
  return { name, file, secret, text: text(secret) };
}

const pem = (type: string, body: string) => `-----BEGIN ${type}PRIVATE KEY-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END ${type}PRIVATE KEY-----\n`;
const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.${fakeToken('jwt', 43)}`;

/** At least 40 formats: provider tokens, key/value formats, URLs, headers, command lines, key blocks. */
export const SECRET_CORPUS: SecretSample[] = [
  sample('OpenAI project key', 'openai.txt', `sk-proj-${fakeToken('openai', 48)}`, (s) => `key: ${s}\n`),
  sample('OpenAI legacy key', 'legacy.txt', `sk-${fakeToken('openai-legacy', 48)}`, (s) => `OPENAI=${s}\n`),
  sample('Anthropic key', 'anthropic.txt', `sk-ant-api03-${fakeToken('anthropic', 80)}`, (s) => `use ${s} for claude\n`),
  sample('DeepSeek key', 'deepseek.txt', `sk-${fakeToken('deepseek', 32, HEX)}`, (s) => `deepseek = "${s}"\n`),
  sample('GitHub classic token', 'gh.txt', `ghp_${fakeToken('ghp', 36)}`, (s) => `token ${s}\n`),
  sample('GitHub OAuth token', 'gho.txt', `gho_${fakeToken('gho', 36)}`, (s) => `${s}\n`),
  sample('GitHub app token', 'ghs.txt', `ghs_${fakeToken('ghs', 36)}`, (s) => `GH=${s}\n`),
  sample('GitHub user-to-server token', 'ghu.txt', `ghu_${fakeToken('ghu', 36)}`, (s) => `x ${s} y\n`),
  sample('GitHub fine-grained token', 'ghpat.txt', `github_pat_${fakeToken('ghpat', 82)}`, (s) => `${s}\n`),
  sample('GitLab token', 'gitlab.txt', `glpat-${fakeToken('glpat', 20)}`, (s) => `PRIVATE-TOKEN: ${s}\n`),
  sample('Slack bot token', 'slack.txt', `xoxb-${fakeToken('slack1', 12, HEX)}-${fakeToken('slack2', 13, HEX)}-${fakeToken('slack3', 24)}`, (s) => `slack ${s}\n`),
  sample('Slack webhook', 'webhook.txt', `https://hooks.slack.com/services/T${fakeToken('t', 8, UPPER)}/B${fakeToken('b', 8, UPPER)}/${fakeToken('wh', 24)}`, (s) => `url ${s}\n`),
  sample('AWS access key id', 'aws-id.txt', `AKIA${fakeToken('akia', 16, UPPER)}`, (s) => `id ${s}\n`),
  sample('AWS secret key (credentials file)', 'credentials', fakeToken('aws-secret', 40, B64), (s) => `[default]\naws_access_key_id = AKIA${fakeToken('akia2', 16, UPPER)}\naws_secret_access_key = ${s}\n`),
  sample('Google API key', 'google.txt', `AIza${fakeToken('google', 35)}`, (s) => `maps ${s}\n`),
  sample('Stripe live secret key', 'stripe.txt', `sk_live_${fakeToken('stripe', 32)}`, (s) => `stripe: ${s}\n`),
  sample('Stripe restricted key', 'stripe-rk.txt', `rk_live_${fakeToken('stripe-rk', 32)}`, (s) => `${s}\n`),
  sample('npm token', 'npm.txt', `npm_${fakeToken('npm', 36)}`, (s) => `npm token ${s}\n`),
  sample('.npmrc auth token', '.npmrc', fakeToken('npmrc', 36, HEX), (s) => `//registry.npmjs.org/:_authToken=${s}\n`),
  sample('Hugging Face token', 'hf.txt', `hf_${fakeToken('hf', 34)}`, (s) => `${s}\n`),
  sample('SendGrid key', 'sendgrid.txt', `SG.${fakeToken('sg1', 22)}.${fakeToken('sg2', 43)}`, (s) => `mail ${s}\n`),
  sample('JWT', 'jwt.txt', jwt, (s) => `session ${s}\n`),
  sample('RSA private key', 'id_rsa.txt', fakeToken('rsa', 256, B64), (s) => pem('RSA ', s)),
  sample('OpenSSH private key', 'id_ed25519.txt', fakeToken('openssh', 200, B64), (s) => pem('OPENSSH ', s)),
  sample('PKCS#8 private key', 'key.pem.txt', fakeToken('pkcs8', 180, B64), (s) => pem('', s)),
  sample('.env value', '.env', fakeToken('env', 24), (s) => `NODE_ENV=production\nAPP_SECRET=${s}\nPORT=3000\n`),
  sample('shell export', 'exports.sh', fakeToken('export', 20), (s) => `export DB_PASSWORD="${s}"\n`),
  sample('JSON api_key', 'config.json', fakeToken('json', 30), (s) => `{\n  "model": "x",\n  "api_key": "${s}"\n}\n`),
  sample('JSON nested password', 'db.json', fakeToken('jsonpw', 18), (s) => `{"db":{"host":"h","password":"${s}"}}\n`),
  sample('YAML value', 'config.yaml', fakeToken('yaml', 26), (s) => `service:\n  client_secret: ${s}\n  name: api\n`),
  sample('YAML quoted value', 'values.yml', fakeToken('yamlq', 22), (s) => `auth:\n  token: "${s}"\n`),
  sample('TOML value', 'config.toml', fakeToken('toml', 28), (s) => `[server]\nsecret_key = "${s}"\n`),
  sample('INI value', 'app.ini', fakeToken('ini', 16), (s) => `[database]\nuser = app\npassword = ${s}\n`),
  sample('Authorization Bearer header', 'request.http', fakeToken('bearer', 40), (s) => `GET /x HTTP/1.1\nAuthorization: Bearer ${s}\n`),
  sample('X-Api-Key header', 'headers.txt', fakeToken('xapikey', 32, HEX), (s) => `X-Api-Key: ${s}\n`),
  sample('Basic auth header', 'basic.txt', Buffer.from(`admin:${fakeToken('basic', 14)}`).toString('base64'), (s) => `Authorization: Basic ${s}\n`),
  sample('Cookie header', 'cookie.txt', fakeToken('cookie', 32), (s) => `Cookie: sid=${s}\n`),
  sample('--password= flag', 'deploy.sh', fakeToken('flag', 15), (s) => `tool login --user me --password=${s}\n`),
  sample('--token flag', 'ci.sh', fakeToken('tokenflag', 28), (s) => `cli publish --token ${s}\n`),
  sample('mysql -p', 'backup.sh', fakeToken('mysql', 14), (s) => `mysqldump -u root -p${s} app > dump.sql\n`),
  sample('postgres URL', 'database.txt', fakeToken('pg', 18), (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app\n`),
  sample('mongodb+srv URL', 'mongo.txt', fakeToken('mongo', 20), (s) => `uri: mongodb+srv://reader:${s}@cluster0.example.net/test\n`),
  sample('redis URL', 'redis.txt', fakeToken('redis', 24), (s) => `redis://:${s}@cache:6379/0\n`),
  sample('https user:password URL', 'clone.txt', fakeToken('https', 16), (s) => `git clone https://bob:${s}@git.example.com/r.git\n`),
  sample('connection string', 'appsettings.txt', fakeToken('mssql', 18), (s) => `Server=db;Database=app;User Id=sa;Password=${s};\n`),
  sample('DigitalOcean token', 'do.txt', `dop_v1_${fakeToken('do', 64, HEX)}`, (s) => `${s}\n`),
  sample('Telegram bot token', 'bot.txt', `123456789:AA${fakeToken('tg', 33)}`, (s) => `bot ${s}\n`),
];

/**
 * The forms in which `secret` would have leaked, for a test to look for in what left the
 * process: as is, reversed, hex (both cases), base64 and base64url at each of the three byte
 * alignments (only the characters that depend on the secret alone, at least 12 of them).
 */
export function leakForms(secret: string): string[] {
  const forms = new Set<string>([secret, [...secret].reverse().join('')]);
  const bytes = Buffer.from(secret);
  forms.add(bytes.toString('hex'));
  forms.add(bytes.toString('hex').toUpperCase());
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.concat([Buffer.alloc(shift, 0x20), bytes]).toString('base64');
    const core = b64.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((f) => f.length >= 12);
}

/** The first leak form of `secret` found in `text`, or undefined. */
export function findLeak(text: string, secret: string): string | undefined {
  return leakForms(secret).find((f) => text.includes(f));
}
