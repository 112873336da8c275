/**
 * Secret formats for redaction tests: each entry is a file a user could have in a workspace
 * (`text`) and the secret value in it that must never leave the process (`secret`). Values are
 * made up, but have the exact shape of the real thing.
 */
import { B64, HEX, type SecretSample, UPPER, b64, fakeToken, gcpKey, jwt, keySample, kubeKey, lines64, pem, sample } from './secret-sample';
import { SYNTAX_SAMPLES, SHORT_NAME_SAMPLES, DOCUMENT_SAMPLES } from './secret-corpus-documents';

export { fakeToken, findLeak, leakForms, type SecretSample } from './secret-sample';

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
