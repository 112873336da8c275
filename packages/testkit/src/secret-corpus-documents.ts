/** Secret samples as config syntax, short password names and whole credential documents carry them (issue #43). */
import { B64, DIGITS, HEX, LOWER, type SecretSample, UPPER, b64, fakeToken, joined, pem, sample, uuid } from './secret-sample';

/** Values as the syntax around them carries them: option words and quoted words with any punctuation (issue #43). */
export const SYNTAX_SAMPLES: SecretSample[] = [
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
export const SHORT_NAME_SAMPLES: SecretSample[] = [
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
export const DOCUMENT_SAMPLES: SecretSample[] = [
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
