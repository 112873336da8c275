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
  /**
   * Pieces of the secret that must each stay hidden where the secret spans several lines (the
   * lines of a key block): a leak of any one line is a leak.
   */
  parts?: string[];
  /**
   * False for a secret made of plain words (`pass = letmein`): masked where it stands, but not
   * learned as a known value (a word would then be masked wherever it is used), so an encoded
   * copy of it (`base64` of the file) is not caught (docs/security.md §7, limits).
   */
  encoded?: false;
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

function sample(name: string, file: string, secret: string, text: (s: string) => string, parts?: string[]): SecretSample {
  return { name, file, secret, text: text(secret), ...(parts ? { parts } : {}) };
}

/** The 64-character lines of a key body (the last one shorter). */
const lines64 = (body: string): string[] => body.match(/.{1,64}/g)!;

/** A key block of `type` whose body is `body`, with optional header lines (`Proc-Type: …`). */
function keySample(
  name: string,
  file: string,
  type: string,
  body: string,
  headers = '',
  wrap: (block: string) => string = (b) => b,
): SecretSample {
  const block = `-----BEGIN ${type}-----\n${headers}${lines64(body).join('\n')}\n-----END ${type}-----\n`;
  return { name, file, secret: body, text: wrap(block), parts: lines64(body).filter((l) => l.length >= 12) };
}

const pem = (type: string, body: string) =>
  `-----BEGIN ${type}PRIVATE KEY-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END ${type}PRIVATE KEY-----\n`;
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
  sample(
    'Slack bot token',
    'slack.txt',
    `xoxb-${fakeToken('slack1', 12, HEX)}-${fakeToken('slack2', 13, HEX)}-${fakeToken('slack3', 24)}`,
    (s) => `slack ${s}\n`,
  ),
  sample(
    'Slack webhook',
    'webhook.txt',
    `https://hooks.slack.com/services/T${fakeToken('t', 8, UPPER)}/B${fakeToken('b', 8, UPPER)}/${fakeToken('wh', 24)}`,
    (s) => `url ${s}\n`,
  ),
  sample('AWS access key id', 'aws-id.txt', `AKIA${fakeToken('akia', 16, UPPER)}`, (s) => `id ${s}\n`),
  sample(
    'AWS secret key (credentials file)',
    'credentials',
    fakeToken('aws-secret', 40, B64),
    (s) => `[default]\naws_access_key_id = AKIA${fakeToken('akia2', 16, UPPER)}\naws_secret_access_key = ${s}\n`,
  ),
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
  sample(
    'Basic auth header',
    'basic.txt',
    Buffer.from(`admin:${fakeToken('basic', 14)}`).toString('base64'),
    (s) => `Authorization: Basic ${s}\n`,
  ),
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

const b64 = (seed: string, n: number): string => fakeToken(seed, n, B64);
const gcpKey = b64('gcp-sa', 320);
const kubeKey = Buffer.from(`-----BEGIN EC PRIVATE KEY-----\n${b64('kube-ec', 120)}\n-----END EC PRIVATE KEY-----\n`).toString('base64');

/** A value made of pieces joined by punctuation: each piece must stay hidden (a leak of one is a leak). */
function joined(
  name: string,
  file: string,
  seed: string,
  make: (a: string, b: string) => string,
  text: (s: string) => string,
): SecretSample {
  const a = fakeToken(`${seed}-a`, 16);
  const b = fakeToken(`${seed}-b`, 16);
  const secret = make(a, b);
  return { name, file, secret, text: text(secret), parts: [a, b] };
}
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const uuid = (seed: string): string => fakeToken(seed, 32, HEX).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');

/** Values as the syntax around them carries them: option words and quoted words with any punctuation (issue #43). */
const SYNTAX_SAMPLES: SecretSample[] = [
  joined(
    '--password= holding punctuation',
    'deploy3.sh',
    'opt-punct',
    (a, b) => `${a},;${b}&x=1!`,
    (s) => `tool login --user ci --password=${s} --yes\n`,
  ),
  joined(
    '--passwd quoted, with spaces',
    'deploy4.sh',
    'opt-quoted',
    (a, b) => `${a} ${b};x`,
    (s) => `tool --passwd '${s}' --verbose\n`,
  ),
  joined(
    '--api-key= holding brackets',
    'client.sh',
    'opt-brackets',
    (a, b) => `${a}(1)[${b}]{x}`,
    (s) => `client --api-key=${s} --region eu\n`,
  ),
  joined(
    'an option quoted whole in an argument list',
    'argv.json',
    'opt-argv',
    (a, b) => `${a} ${b}`,
    (s) => `{"program":"deploy","args":["--token=${s}","--yes"]}\n`,
  ),
  joined(
    'mysql -p with a quoted password',
    'restore.sh',
    'mysql-quoted',
    (a, b) => `${a} ${b}`,
    (s) => `mysql -u root -p'${s}' app < dump.sql\n`,
  ),
  joined(
    'docker login -p',
    'login.sh',
    'docker-login',
    (a, b) => `${a}!,${b}`,
    (s) => `docker login -u bob -p ${s} registry.example.com\n`,
  ),
  joined(
    'PGPASSWORD= assignment before a command',
    'psql.sh',
    'pgpassword',
    (a, b) => `${a};${b}`,
    (s) => `PGPASSWORD=${s} psql -h db -U app\n`,
  ),
  joined(
    'password= in a log line (logfmt)',
    'app.log',
    'logfmt',
    (a, b) => `${a}&${b}=`,
    (s) => `ts=2026-11-29T02:00:00Z level=warn msg="login failed" user=bob password=${s} ip=10.0.0.7\n`,
  ),
  joined(
    'connection string with punctuation',
    'appsettings2.txt',
    'conn-punct',
    (a, b) => `${a},${b}`,
    (s) => `Server=db;User Id=app;Password=${s};Database=app;\n`,
  ),
  joined(
    'URL password holding @ and ;',
    'remote.txt',
    'url-at',
    (a, b) => `${a}@;${b}`,
    (s) => `remote: mysql://app:${s}@db.internal:3306/app\n`,
  ),
  joined(
    'PASSWORD= quoted in a compose environment list',
    'compose.yaml',
    'compose-env',
    (a, b) => `${a} ${b}`,
    (s) => `services:\n  db:\n    environment:\n      - "POSTGRES_PASSWORD=${s}"\n`,
  ),
];

/** Short and compound password names in config files (issue #43). */
const SHORT_NAME_SAMPLES: SecretSample[] = [
  joined(
    'ODBC / INI pwd with a semicolon',
    'odbc.ini',
    'ini-pwd',
    (a, b) => `${a};${b}`,
    (s) => `[client]\nuser = app\npwd = ${s}\n`,
  ),
  sample('properties db.pw', 'db.properties', fakeToken('props-pw', 16), (s) => `db.url=jdbc:mysql://db/app\ndb.pw=${s}\n`),
  sample('.env SMTP_PW', 'mail.env', fakeToken('env-smtp-pw', 16), (s) => `SMTP_HOST=mail.example.com\nSMTP_PW=${s}\n`),
  sample('YAML admin_pass', 'admin.yaml', fakeToken('yaml-admin-pass', 16), (s) => `admin:\n  user: root\n  admin_pass: ${s}\n`),
  sample('TOML mysql_pwd', 'db.toml', fakeToken('toml-mysql-pwd', 16), (s) => `[db]\nmysql_pwd = "${s}"\n`),
  sample('properties smtp.pw', 'mail.properties', fakeToken('props-smtp-pw', 16), (s) => `mail.smtp.host = mail\nmail.smtp.pw = ${s}\n`),
  {
    ...sample('INI pass, a plain word', 'ftp.ini', fakeToken('ini-pass-word', 12, LOWER), (s) => `[ftp]\nhost = files\npass = ${s}\n`),
    encoded: false,
  },
  sample(
    'slapd.conf rootpw',
    'slapd.conf',
    fakeToken('slapd-rootpw', 28, B64),
    (s) => `rootdn "cn=admin,dc=example,dc=com"\nrootpw {SSHA}${s}\n`,
  ),
  sample('ldap.conf bindpw', 'ldap.conf', `${fakeToken('ldap-bindpw', 14)}7`, (s) => `binddn cn=reader,dc=example,dc=com\nbindpw ${s}\n`),
  {
    name: 'properties password with spaces',
    file: 'app2.properties',
    encoded: false,
    secret: `${fakeToken('props-space-a', 9, LOWER)} ${fakeToken('props-space-b', 9, LOWER)}`,
    parts: [fakeToken('props-space-a', 9, LOWER), fakeToken('props-space-b', 9, LOWER)],
    text: `db.user=app\ndb.password=${fakeToken('props-space-a', 9, LOWER)} ${fakeToken('props-space-b', 9, LOWER)}\n`,
  },
];

const saKeyId = fakeToken('sa-key-id', 40, HEX);
const saClientId = fakeToken('sa-client-id', 21, DIGITS);
const saProject = `proj-${fakeToken('sa-project', 8, LOWER)}`;
const saEmail = `deploy-${fakeToken('sa-email', 8, LOWER)}@${saProject}.iam.gserviceaccount.com`;
const auClientId = `${fakeToken('au-client', 12, DIGITS)}-${fakeToken('au-client2', 32, LOWER)}.apps.googleusercontent.com`;
const auSecret = fakeToken('au-secret', 24);
const auRefresh = `1//0${fakeToken('au-refresh', 60)}`;
const awsSecret = fakeToken('aws-sts-secret', 40, B64);
const awsSession = fakeToken('aws-sts-session', 120, B64);
const azApp = uuid('az-app');
const azTenant = uuid('az-tenant');
const azPassword = `${fakeToken('az-pw-a', 3)}8Q~${fakeToken('az-pw-b', 34)}`;
const dockerUser = `u${fakeToken('docker-user', 9, LOWER)}`;
const dockerPass = fakeToken('docker-pass', 18);
const dockerIdentity = fakeToken('docker-identity', 40);

/** Credential documents whose shape makes every field sensitive (issue #43). */
const DOCUMENT_SAMPLES: SecretSample[] = [
  {
    name: 'GCP service-account key: every identifying field',
    file: 'sa2.json',
    secret: saKeyId,
    parts: [saKeyId, saClientId, saProject, saEmail],
    text: `${JSON.stringify({ type: 'service_account', project_id: saProject, private_key_id: saKeyId, private_key: pem('', b64('sa2-key', 128)), client_email: saEmail, client_id: saClientId, auth_uri: 'https://accounts.google.com/o/oauth2/auth', token_uri: 'https://oauth2.googleapis.com/token', client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(saEmail)}`, universe_domain: 'googleapis.com' }, null, 2)}\n`,
  },
  {
    name: 'GCP authorized_user (application default credentials)',
    file: 'adc.json',
    secret: auSecret,
    parts: [auClientId, auSecret, auRefresh],
    text: `${JSON.stringify({ account: '', client_id: auClientId, client_secret: auSecret, quota_project_id: saProject, refresh_token: auRefresh, type: 'authorized_user', universe_domain: 'googleapis.com' }, null, 2)}\n`,
  },
  {
    name: 'aws sts assume-role output',
    file: 'sts.json',
    secret: awsSecret,
    parts: [awsSecret, awsSession],
    text: `${JSON.stringify({ Credentials: { AccessKeyId: `ASIA${fakeToken('aws-sts-id', 16, UPPER)}`, SecretAccessKey: awsSecret, SessionToken: awsSession, Expiration: '2026-11-30T12:00:00+00:00' }, AssumedRoleUser: { AssumedRoleId: `AROA${fakeToken('aws-role', 17, UPPER)}:deploy`, Arn: 'arn:aws:sts::123456789012:assumed-role/deploy/deploy' } }, null, 4)}\n`,
  },
  {
    name: 'AWS credential_process output',
    file: 'process.json',
    secret: fakeToken('aws-cp-secret', 40, B64),
    parts: [fakeToken('aws-cp-secret', 40, B64), fakeToken('aws-cp-session', 80, B64)],
    text: `${JSON.stringify({ Version: 1, AccessKeyId: `ASIA${fakeToken('aws-cp-id', 16, UPPER)}`, SecretAccessKey: fakeToken('aws-cp-secret', 40, B64), SessionToken: fakeToken('aws-cp-session', 80, B64), Expiration: '2026-11-30T12:00:00Z' })}\n`,
  },
  {
    name: 'Azure service principal (az ad sp create-for-rbac)',
    file: 'sp.json',
    secret: azPassword,
    parts: [azApp, azPassword, azTenant],
    text: `${JSON.stringify({ appId: azApp, displayName: 'ci-deployer', password: azPassword, tenant: azTenant }, null, 2)}\n`,
  },
  {
    name: 'Azure SDK auth file (--sdk-auth)',
    file: 'sdk-auth.json',
    secret: fakeToken('az-sdk-secret', 34),
    parts: [uuid('az-sdk-client'), fakeToken('az-sdk-secret', 34), uuid('az-sdk-sub'), uuid('az-sdk-tenant')],
    text: `${JSON.stringify({ clientId: uuid('az-sdk-client'), clientSecret: fakeToken('az-sdk-secret', 34), subscriptionId: uuid('az-sdk-sub'), tenantId: uuid('az-sdk-tenant'), activeDirectoryEndpointUrl: 'https://login.microsoftonline.com', resourceManagerEndpointUrl: 'https://management.azure.com/' }, null, 2)}\n`,
  },
  {
    name: 'Docker config.json: every field of a registry entry',
    file: 'docker2.json',
    secret: dockerPass,
    parts: [dockerUser, dockerPass, dockerIdentity],
    text: `${JSON.stringify({ auths: { 'ghcr.io': { username: dockerUser, password: dockerPass }, 'registry.example.com': { identitytoken: dockerIdentity } }, credsStore: 'desktop' }, null, 2)}\n`,
  },
  sample(
    'kubeconfig OIDC id-token (no JWT shape)',
    'kubeconfig3',
    fakeToken('kube-id-token', 40),
    (s) =>
      `users:\n- name: oidc\n  user:\n    auth-provider:\n      name: oidc\n      config:\n        client-id: kubernetes\n        id-token: ${s}\n`,
  ),
  sample(
    'Kubernetes env list',
    'deployment.yaml',
    fakeToken('k8s-env', 20),
    (s) =>
      `containers:\n  - name: app\n    env:\n      - name: DB_PASSWORD\n        value: ${s}\n      - name: LOG_LEVEL\n        value: info\n`,
  ),
  sample(
    'ECS task definition environment',
    'task.json',
    fakeToken('ecs-env', 24),
    (s) =>
      `{"containerDefinitions": [{"name": "web", "environment": [{"name": "API_TOKEN", "value": "${s}"}, {"name": "PORT", "value": "80"}]}]}\n`,
  ),
  joined(
    '.netrc account (an ftp password)',
    'netrc3.txt',
    'netrc-account',
    (a, b) => `${a}${b}`,
    (s) => `machine ftp.example.com login bob password ${s.slice(0, 16)} account ${s.slice(16)}\n`,
  ),
];

/**
 * Formats in the framings a model meets them in, and the field's rule sets' own formats
 * (gitleaks, secretlint, detect-secrets): key blocks of every kind, config syntaxes whose
 * secret is not a `name = value` pair, command lines and headers, and vendor tokens.
 */
export const FRAMED_CORPUS: SecretSample[] = [
  keySample('EC private key', 'ec-key.txt', 'EC PRIVATE KEY', b64('ec', 160)),
  keySample('DSA private key', 'dsa-key.txt', 'DSA PRIVATE KEY', b64('dsa', 200)),
  keySample('encrypted PKCS#8 key', 'enc-key.txt', 'ENCRYPTED PRIVATE KEY', b64('enc8', 240)),
  keySample(
    'encrypted RSA key (headers)',
    'legacy-key.txt',
    'RSA PRIVATE KEY',
    b64('legacy', 256),
    'Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F8A1C2B9D4E5F60718293A4B5C6D7E8\n\n',
  ),
  keySample('PGP private key block', 'secret.asc', 'PGP PRIVATE KEY BLOCK', b64('pgp', 300), 'Version: GnuPG v2\n\n'),
  // Printed without its BEGIN line (`tail -n +2 id_rsa`); the fuzz test frames it as grep, diff, cat -n and JSON show it.
  keySample('key body without its BEGIN line', 'tail.txt', 'OPENSSH PRIVATE KEY', b64('headless', 300), '', (b) =>
    b.split('\n').slice(1).join('\n'),
  ),
  keySample(
    'key block in YAML (block scalar)',
    'tls.yaml',
    'RSA PRIVATE KEY',
    b64('yaml-rsa', 200),
    '',
    (b) =>
      `tls:\n  key: |\n${b
        .trimEnd()
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n')}\n  port: 443\n`,
  ),
  {
    name: 'GCP service-account JSON',
    file: 'sa.json',
    secret: gcpKey,
    parts: lines64(gcpKey),
    text: `${JSON.stringify({ type: 'service_account', project_id: 'demo-1', private_key_id: fakeToken('gcp-kid', 40, HEX), private_key: `-----BEGIN PRIVATE KEY-----\n${lines64(gcpKey).join('\n')}\n-----END PRIVATE KEY-----\n`, client_email: 'svc@demo-1.iam.gserviceaccount.com' }, null, 2)}\n`,
  },
  sample('.netrc, one line', 'netrc.txt', fakeToken('netrc1', 18), (s) => `machine api.example.com login bob password ${s}\n`),
  sample(
    '.netrc, several lines',
    'netrc2.txt',
    fakeToken('netrc2', 18),
    (s) => `machine git.example.com\n  login alice\n  password ${s}\n`,
  ),
  sample(
    '.pgpass',
    'pgpass.txt',
    fakeToken('pgpass', 20),
    (s) => `db.internal:5432:app:app_user:${s}\n*:*:*:postgres:${fakeToken('pgpass2', 16)}\n`,
  ),
  sample(
    'kubeconfig token',
    'kubeconfig',
    fakeToken('kube-token', 40),
    (s) => `apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    token: ${s}\n`,
  ),
  sample(
    'kubeconfig client-key-data',
    'kubeconfig2',
    kubeKey,
    (s) =>
      `users:\n- name: admin\n  user:\n    client-certificate-data: ${Buffer.from('cert').toString('base64')}\n    client-key-data: ${s}\n`,
  ),
  sample(
    'Maven settings.xml password',
    'settings.xml',
    fakeToken('maven', 20),
    (s) =>
      `<settings>\n  <servers>\n    <server>\n      <id>repo</id>\n      <username>deploy</username>\n      <password>${s}</password>\n    </server>\n  </servers>\n</settings>\n`,
  ),
  sample(
    'NuGet ClearTextPassword',
    'nuget.config',
    fakeToken('nuget', 22),
    (s) =>
      `<packageSourceCredentials>\n  <feed>\n    <add key="Username" value="me" />\n    <add key="ClearTextPassword" value="${s}" />\n  </feed>\n</packageSourceCredentials>\n`,
  ),
  sample(
    'PHP define',
    'wp-config.php',
    fakeToken('php', 20),
    (s) => `<?php\ndefine('DB_NAME', 'wordpress');\ndefine('DB_PASSWORD', '${s}');\n`,
  ),
  sample(
    'JSON value with escaped quotes',
    'escaped.json',
    `${fakeToken('jsonq1', 10)}\\"${fakeToken('jsonq2', 10)}`,
    (s) => `{"user": "bob", "password": "${s}"}\n`,
  ),
  sample(
    'curl -u in a shell history',
    'bash_history.txt',
    fakeToken('curlu', 16),
    (s) => `ls\ncurl -u admin:${s} https://api.example.com/v1/items\ngit status\n`,
  ),
  sample(
    'curl -H Authorization',
    'history2.txt',
    fakeToken('curlh', 32),
    (s) => `curl -s -H "Authorization: Bearer ${s}" https://api.example.com\n`,
  ),
  sample(
    'Cookie header with a session id',
    'cookie.http',
    fakeToken('sessionid', 32),
    (s) => `GET /account HTTP/1.1\nHost: example.com\nCookie: sessionid=${s}; theme=dark\n`,
  ),
  sample(
    'Set-Cookie header',
    'response.txt',
    fakeToken('setcookie', 40),
    (s) => `HTTP/1.1 200 OK\nSet-Cookie: session=${s}; Path=/; HttpOnly\n`,
  ),
  sample('YAML block scalar password', 'secret.yaml', fakeToken('yamlblock', 24), (s) => `db:\n  password: |\n    ${s}\n  host: db\n`),
  sample(
    'docker config auth',
    'docker.json',
    Buffer.from(`bob:${fakeToken('docker', 18)}`).toString('base64'),
    (s) => `{\n  "auths": {\n    "registry.example.com": {\n      "auth": "${s}"\n    }\n  }\n}\n`,
  ),
  sample('--password option', 'deploy2.sh', fakeToken('pwopt', 14), (s) => `./deploy --user ci --password ${s} --yes\n`),
  sample('mysql -p in a script', 'dump.sh', fakeToken('mysqlp', 14), (s) => `mysql -h db -u root -p${s} app < schema.sql\n`),
  sample(
    'high-entropy value under any name',
    'app.properties',
    fakeToken('entropy', 40),
    (s) => `service.url=https://api.example.com\nupstream.credentials.blob=${s}\n`,
  ),
  sample(
    'provider keyword (Adafruit)',
    'adafruit.env',
    fakeToken('adafruit', 32, 'abcdefghijklmnopqrstuvwxyz0123456789'),
    (s) => `ADAFRUIT_IO_USERNAME=me\nADAFRUIT_IO_KEY=${s}\n`,
  ),
  sample('Groq key', 'groq.txt', `gsk_${fakeToken('groq', 52)}`, (s) => `GROQ=${s}\n`),
  sample(
    'Slack app token',
    'slackapp.txt',
    `xapp-1-A${fakeToken('xapp1', 10, UPPER)}-${fakeToken('xapp2', 13, '0123456789')}-${fakeToken('xapp3', 64, HEX)}`,
    (s) => `token ${s}\n`,
  ),
  sample(
    'Facebook app access token',
    'fb.txt',
    `${fakeToken('fb-app', 15, '0123456789')}|${fakeToken('fb-secret', 32, HEX)}`,
    (s) => `curl "https://graph.facebook.com/me?access_token=${s.replace('|', '%7C')}"\nFB_TOKEN ${s}\n`,
    [fakeToken('fb-secret', 32, HEX)],
  ),
  sample('Twilio key', 'twilio.txt', `SK${fakeToken('twilio', 32, HEX)}`, (s) => `twilio ${s}\n`),
  sample('HashiCorp Vault token', 'vault.txt', `hvs.${fakeToken('vault', 95)}`, (s) => `VAULT=${s}\n`),
  sample('Doppler token', 'doppler.txt', `dp.pt.${fakeToken('doppler', 43)}`, (s) => `${s}\n`),
  sample('Pulumi token', 'pulumi.txt', `pul-${fakeToken('pulumi', 40, HEX)}`, (s) => `${s}\n`),
  sample('Grafana service account token', 'grafana.txt', `glsa_${fakeToken('glsa', 32)}_${fakeToken('glsa2', 8, HEX)}`, (s) => `${s}\n`),
  sample('New Relic key', 'newrelic.txt', `NRAK-${fakeToken('nrak', 27, UPPER)}`, (s) => `${s}\n`),
  sample('Shopify token', 'shopify.txt', `shpat_${fakeToken('shpat', 32, HEX)}`, (s) => `${s}\n`),
  sample('PlanetScale password', 'pscale.txt', `pscale_pw_${fakeToken('pscale', 43)}`, (s) => `${s}\n`),
  sample(
    'Azure storage account key',
    'azure.txt',
    `${b64('azure', 86)}==`,
    (s) => `DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=${s};EndpointSuffix=core.windows.net\n`,
  ),
  sample(
    'Terraform Cloud token',
    'terraformrc.txt',
    `${fakeToken('tf1', 14)}.atlasv1.${fakeToken('tf2', 64)}`,
    (s) => `credentials "app.terraform.io" {\n  token = "${s}"\n}\n`,
  ),
  sample(
    'PyPI upload token',
    'pypirc.txt',
    `pypi-AgEIcHlwaS5vcmc${fakeToken('pypi', 60)}`,
    (s) => `[pypi]\nusername = __token__\npassword = ${s}\n`,
  ),
  sample('npm token in .npmrc', 'npmrc.txt', `npm_${fakeToken('npmrc2', 36)}`, (s) => `//registry.npmjs.org/:_authToken=${s}\n`),
  sample(
    'GitHub token as a URL user',
    'gitconfig.txt',
    fakeToken('gh-url', 40, HEX),
    (s) => `[remote "origin"]\n  url = https://${s}:x-oauth-basic@github.com/org/repo.git\n`,
  ),
  ...SYNTAX_SAMPLES,
  ...SHORT_NAME_SAMPLES,
  ...DOCUMENT_SAMPLES,
];

/**
 * Real-looking files that hold no secret but use the words the gate looks for: `pwd` as a shell
 * command, `pass` in prose and test counts, limits and policies under password names, references
 * to where a secret is kept, code that handles tokens. The gate must leave every line as it is.
 */
export const CLEAN_CORPUS: ReadonlyArray<{ name: string; file: string; text: string }> = [
  {
    name: 'a shell script',
    file: 'build.sh',
    text: '#!/bin/sh\nset -eu\nROOT="$(pwd)"\ncd "$ROOT/app" && pwd\nOLDPWD=/tmp/build\npass=0\nfor t in tests/*.sh; do sh "$t" && pass=$((pass+1)); done\necho "pass: $pass"\nexport DB_PASSWORD="$DB_PASSWORD_FROM_VAULT"\nmysql -u app -p"$DB_PASSWORD" app < schema.sql\ndocker run -p 8080:80 -e TOKEN="${TOKEN}" web\n',
  },
  {
    name: 'a password policy',
    file: 'policy.ini',
    text: '[password]\npassword_min_length = 8\npassword_max_age_days = 90\npassword_history = 5\npassword_required = true\npass_rate = 0.95\nPASSWORD_HASHERS = ["argon2", "bcrypt"]\n',
  },
  {
    name: 'a test summary',
    file: 'summary.yaml',
    text: 'suite: unit\npass: 128\nfail: 0\nskip: 3\nfirst pass: parse\nsecond pass: link\n',
  },
  {
    name: 'prose about passwords',
    file: 'README.md',
    text: '# Login\n\nYou shall not pass: the gate checks every request. Tests pass: 5 of 5.\nSet `--password-file` to the file that holds it; see `token_endpoint` for the token URL.\nThe first pass: judge, then run. Token expired? Log in again.\nUse `--token <TOKEN>` or `--api-key env:API_KEY`.\n',
  },
  {
    name: 'a GitHub workflow',
    file: 'release.yml',
    text: 'permissions:\n  contents: write\n  id-token: write # for npm provenance\njobs:\n  release:\n    steps:\n      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n',
  },
  {
    name: 'sshd and nginx configs',
    file: 'server.conf',
    text: 'PasswordAuthentication no\nPermitEmptyPasswords no\nPubkeyAuthentication yes\nauth_basic "Restricted";\nauth_basic_user_file /etc/nginx/.htpasswd;\nauth-user-pass creds.txt\n',
  },
  {
    name: 'Python code',
    file: 'auth.py',
    text: 'class Auth:\n    def check(self, token):\n        if not token:\n            pass\n        password = getpass()\n        pw = self.password\n        token = request.headers.get("Authorization")\n        return token\n',
  },
  {
    name: 'TypeScript code',
    file: 'session.ts',
    text: 'interface Session {\n  token: string;\n  password: BinaryLike;\n}\nconst tokenStart = 0; let lastTokenPos = pos;\nenv.PWD = cwd;\nconst s = "password=" + pw;\nargs.push(`--password=${pw}`);\nXToken = "x-token",\n',
  },
  {
    name: 'a compose file with references',
    file: 'compose.yaml',
    text: 'services:\n  db:\n    environment:\n      - "POSTGRES_PASSWORD=${POSTGRES_PASSWORD}"\n      - POSTGRES_USER=app\n  web:\n    environment:\n      DB_PASSWORD: ${DB_PASSWORD}\n      TOKEN_TTL: 3600\n',
  },
  {
    name: 'a Kubernetes env list with references',
    file: 'deploy.yaml',
    text: 'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password\n  - name: LOG_LEVEL\n    value: info\n',
  },
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
