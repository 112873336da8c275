import { CLEAN_CORPUS, eachReturns, eachUnchanged, fakeToken } from '@holic512/testkit';
import { isSecretName, redact, redactArgs, redactValue } from '../src';
import { forgetGivenTexts } from '../src/redact/gate';
import { isWeakSecretName, weakValue } from '../src/redact/names';

// Issue #43, item 5: a value is read as the syntax around it carries it (an option's shell word,
// a quoted word, a config line), short and compound password names count, and credential
// documents are masked whole. Each class with cases of its own beyond the examples.

/** The gate over its own output, scanned for real. */
const again = (text: string): string => {
  forgetGivenTexts();
  return redact(text);
};

describe('an option, an assignment or a config line keeps all of its value, whatever punctuation it holds', () => {
  eachReturns('%s', redact, [
    // Options: one shell word, or a quoted string with its spaces.
    ['tool --password=p@ss,w0rd;1 --yes', 'tool --password=[redacted password, 11 chars] --yes'],
    ['tool --passwd=a&b=c!x --yes', 'tool --passwd=[redacted passwd, 7 chars] --yes'],
    ['tool --pass=Tr0ub4dor&3', 'tool --pass=[redacted pass, 11 chars]'],
    ['client --api-key=k3y(1)[2]{x}', 'client --api-key=[redacted api-key, 12 chars]'],
    ['mytool --token=abc}def{ghi', 'mytool --token=[redacted token, 11 chars]'],
    ['run --secret=a~b^c|d --x', 'run --secret=[redacted secret, 7 chars] --x'],
    ['Markdown: `--password=hunter22` ends at its backquote', 'Markdown: `--password=[redacted password, 8 chars]` ends at its backquote'],
    ["tool --password 'a b;c' --yes", "tool --password '[redacted password, 5 chars]' --yes"],
    ['tool --password "x\\"y z" --yes', 'tool --password "[redacted password, 6 chars]" --yes'],
    ['tool --password p@ss,w0rd', 'tool --password [redacted password, 9 chars]'],
    ['$(tool --token=abc123def)', '$(tool --token=[redacted token, 9 chars])'],
    // Single-dash long options: Java properties, keytool, PuTTY, openssl.
    ['java -Ddb.password=a,b;c -jar app.jar', 'java -Ddb.password=[redacted Ddb.password, 5 chars] -jar app.jar'],
    ['keytool -storepass ch@ngeit -keypass x,y1', 'keytool -storepass [redacted storepass, 8 chars] -keypass [redacted keypass, 4 chars]'],
    ['plink -pw Secr3t! host', 'plink -pw [redacted pw, 7 chars] host'],
    ['openssl pkcs12 -passin pass:s3cr3t,x -in a.p12', 'openssl pkcs12 -passin [redacted passin, 13 chars] -in a.p12'],
    // An option quoted whole (an argument list, a shell word): to its closing quote.
    ['{"args":["--password=a b;c","--yes"]}', '{"args":["--password=[redacted password, 5 chars]","--yes"]}'],
    ['{"cmd": "run \\"--token=x y\\" now"}', '{"cmd": "run \\"--token=[redacted token, 3 chars]\\" now"}'],
    ['  - "POSTGRES_PASSWORD=two words,x"', '  - "POSTGRES_PASSWORD=[redacted POSTGRES_PASSWORD, 11 chars]"'],
    // Short options of the programs that take a password in one, quoted or not.
    ["mysql -u root -p'p@ss w0rd' app", "mysql -u root -p'[redacted password, 9 chars]' app"],
    ['mysql -pS3c,r;et db', 'mysql -p[redacted password, 8 chars] db'],
    ['docker login -u bob -p S3c,ret! ghcr.io', 'docker login -u bob -p [redacted password, 8 chars] ghcr.io'],
    ['ldapsearch -x -D cn=admin -w s3cr3t! -b dc=x', 'ldapsearch -x -D cn=admin -w [redacted password, 7 chars] -b dc=x'],
    ['sqlcmd -S db -U sa -P "Pa ss;1"', 'sqlcmd -S db -U sa -P "[redacted password, 7 chars]"'],
    ['7z x -pS3cr3t! archive.7z', '7z x -p[redacted password, 7 chars] archive.7z'],
    ['redis-cli -a p@ss,1 ping', 'redis-cli -a [redacted password, 6 chars] ping'],
    // Assignments: a shell word; a config line: the rest of the line, up to a comment.
    ['PGPASSWORD=abc;def psql -h x', 'PGPASSWORD=[redacted PGPASSWORD, 7 chars] psql -h x'],
    ['sudo PGPASSWORD=Ab,cd;ef psql', 'sudo PGPASSWORD=[redacted PGPASSWORD, 8 chars] psql'],
    ['DB_PASSWORD=p@ss;w0rd,x', 'DB_PASSWORD=[redacted DB_PASSWORD, 11 chars]'],
    ['export API_TOKEN=a,b;c', 'export API_TOKEN=[redacted API_TOKEN, 5 chars]'],
    ['user=bob password=p@ss,w0rd ip=1.2.3.4', 'user=bob password=[redacted password, 9 chars] ip=1.2.3.4'],
    ['password: correct horse battery staple', 'password: [redacted password, 28 chars]'],
    ['db.password=my pass phrase', 'db.password=[redacted db.password, 14 chars]'],
    ['password = abc,d ; inline comment', 'password = [redacted password, 5 chars] ; inline comment'],
    ['password: abc!x # comment', 'password: [redacted password, 5 chars] # comment'],
    ["echo 'TOKEN=a b' > x", "echo 'TOKEN=[redacted TOKEN, 3 chars]' > x"],
    // Connection strings: a `;` that starts the next `Name=` ends the value.
    ['Server=db;Password=abc,def;Database=x', 'Server=db;Password=[redacted Password, 7 chars];Database=x'],
    [
      'Data Source=x; User Id=app; Password=a b,c; Initial Catalog=y',
      'Data Source=x; User Id=app; Password=[redacted Password, 5 chars]; Initial Catalog=y',
    ],
    ['Password=a;b', 'Password=[redacted Password, 3 chars]'],
    // URL passwords: any character but white space, a quote and `/ ? #`; the last `@` ends them.
    ['postgres://u:p@ss@h/db', 'postgres://u:[redacted password, 4 chars]@h/db'],
    ['mysql://app:a@;b,c!@db:3306/x', 'mysql://app:[redacted password, 7 chars]@db:3306/x'],
  ]);

  test('every one of them is idempotent', () => {
    for (const text of [
      'tool --password=p@ss,w0rd;1 --yes',
      "mysql -p'a b' x",
      'password: a b c',
      'Server=db;Password=a,b;Database=x',
      '{"args":["--token=a b"]}',
    ]) {
      const once = redact(text);
      expect(again(once)).toBe(once);
    }
  });

  eachUnchanged('code and prose stay: %s', redact, [
    "const s = 'password=' + pw;",
    '"password=%s"',
    'x = {password: pw, user}',
    'f(password=pw)',
    'a.token=e,b.x=1',
    'let tokenStart=0;for(let i=0;i<n;i++)',
    'password = pw',
    '  password: hash(pw),',
    '  lastTokenPos = pos;',
    'env.PWD = cwd;',
    'exports.password = exports.rawlist = void 0;',
    'refresh_token: refreshToken',
    'XToken = "x-token"',
    'vllm serve --api-key: it answered, but wants a key',
    "'-cookie =?', '-crypto'",
    '[--api-key <key|env:VAR>]',
    '--api-key sk-[redacted openai key, 27 chars] --token env:T',
    'tool --password=$DB_PASSWORD --token=${TOKEN} --secret=$(pass show x)',
    'docker run -p 8080:80 image',
    'mysql -p',
  ]);
});

describe('short and compound password names', () => {
  eachReturns('isSecretName(%s) is %s', isSecretName, [
    ['pw', true],
    ['pwd', true],
    ['pass', true],
    ['passwd', true],
    ['db_pw', true],
    ['DB_PW', true],
    ['smtp.pw', true],
    ['mysql_pwd', true],
    ['admin_pass', true],
    ['adminPass', true],
    ['rootpw', true],
    ['bindpw', true],
    ['storepass', true],
    ['keypass', true],
    ['dbpassword', true],
    ['clientsecret', true],
    ['csrftoken', true],
    ['id_token', true],
    ['idToken', true],
    ['-storepass', true],
    ['--passwd', true],
    ['passin', true],
    ['password_min_length', false],
    ['PASSWORD_MIN_LENGTH', false],
    ['password_policy', false],
    ['pass_count', false],
    ['pass_rate', false],
    ['password_file', false],
    ['token_id', false],
    ['api_key_id', false],
    ['private_key_id', false],
    ['cached_tokens', false],
    ['reasoning_tokens', false],
    ['bypass', false],
    ['compass', false],
    ['renderpass', false],
    ['onresumptiontoken', false],
    ['PGPASSFILE', false],
    ['smtp_sasl_password_maps', false],
    ['SSH_AUTH_SOCK', false],
  ]);

  eachReturns('isWeakSecretName(%s) is %s', isWeakSecretName, [
    ['pass', true],
    ['PW', true],
    ['pwd', true],
    ['env.PWD', true],
    ['OLDPWD', true],
    ['db_pass', false],
    ['password', false],
    ['smtp.pw', false],
  ]);

  eachReturns('weakValue(%s, lineStart %s) is %s', weakValue, [
    ['/home/me', true, false],
    ['~/x', false, false],
    ['12', true, false],
    ['194559', false, false],
    ['194559', true, true],
    ['letmein', true, true],
    ['the', false, false],
    ['gate.', false, false],
    ['hunter2', false, true],
    ['xK9#mQ', false, true],
    ['aB', false, false],
  ]);

  eachReturns('%s', redact, [
    ['[mysql]\nuser=root\npwd=S3cr3t;x', '[mysql]\nuser=root\npwd=[redacted pwd, 8 chars]'],
    ['db_pw=Tr0ub4dor&3', 'db_pw=[redacted db_pw, 11 chars]'],
    ['mail.smtp.pw = Xy7!kk', 'mail.smtp.pw = [redacted mail.smtp.pw, 6 chars]'],
    ['ADMIN_PW=xK9#mQ2!', 'ADMIN_PW=[redacted ADMIN_PW, 8 chars]'],
    ['admin:\n  admin_pass: letmein', 'admin:\n  admin_pass: [redacted admin_pass, 7 chars]'],
    ['[ftp]\npass = letmein', '[ftp]\npass = [redacted pass, 7 chars]'],
    ['pw: hunter2', 'pw: [redacted pw, 7 chars]'],
    ['PIN: pass=123456', 'PIN: pass=123456'],
    ['rootpw {SSHA}abc', 'rootpw [redacted rootpw, 9 chars]'],
    ['binddn cn=x\nbindpw s3cret99', 'binddn cn=x\nbindpw [redacted bindpw, 8 chars]'],
    ['account default\nhost smtp.x.com\npassword Hunter2!x', 'account default\nhost smtp.x.com\npassword [redacted password, 9 chars]'],
  ]);

  // `pwd` as a shell word, `pass` in prose and counts, limits and policies under password names.
  eachUnchanged('stays: %s', redact, [
    'password_min_length = 8',
    'PASSWORD_MAX_AGE_DAYS=90',
    'cd $(pwd)',
    'pwd',
    'PWD=/home/me/project',
    'OLDPWD=/tmp/x',
    'you shall not pass: the gate',
    'Tests pass: 5 of 5',
    'PASS = 1',
    'pass: 12\nfail: 0',
    '/** One pass: judge, refuse L2, ask for L1 */',
    'Token expired',
    'PasswordAuthentication no',
    'auth-user-pass creds.txt',
    'auth_basic "Restricted";',
    'permissions:\n  id-token: write # for provenance',
    'smtp_sasl_password_maps = hash:/etc/postfix/sasl_passwd',
    'account default',
    'if x: pass',
  ]);
});

describe("real-looking files with the gate's words and no secret are left as they are (testkit CLEAN_CORPUS)", () => {
  test.each(CLEAN_CORPUS.map((c) => [c.name, c.text] as const))('%s', (_name, text) => {
    expect(redact(text)).toBe(text);
  });
});

const email = `deploy@proj-${fakeToken('t-sa-proj', 6).toLowerCase()}.iam.gserviceaccount.com`;
const sa = {
  type: 'service_account',
  project_id: 'proj-demo-42',
  private_key_id: fakeToken('t-sa-kid', 40, '0123456789abcdef'),
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n',
  client_email: email,
  client_id: '112233445566778899001',
  auth_uri: 'https://accounts.google.com/o/oauth2/auth',
  token_uri: 'https://oauth2.googleapis.com/token',
  client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
  universe_domain: 'googleapis.com',
};

/** The fields of `doc` the gate leaves readable: the same as text (`cat key.json`) and as a structured value. */
function readable(doc: Record<string, unknown>, pretty = true): string[] {
  const asText = JSON.parse(redact(JSON.stringify(doc, null, pretty ? 2 : undefined))) as Record<string, unknown>;
  const asValue = redactValue(doc);
  const kept = (out: Record<string, unknown>) =>
    Object.keys(doc).filter((k) => typeof doc[k] === 'string' && out[k] === doc[k] && doc[k] !== '');
  expect(kept(asValue)).toEqual(kept(asText));
  return kept(asText);
}

describe('credential documents are masked whole, their constant fields kept', () => {
  test('a GCP service-account key: the key id, email, client id, project and certificate URL too', () => {
    expect(readable(sa)).toEqual(['type', 'auth_uri', 'token_uri', 'universe_domain']);
    expect(readable(sa, false)).toEqual(['type', 'auth_uri', 'token_uri', 'universe_domain']);
  });

  test('a part of one (`grep -A2 private_key_id`), in a JSON string, and behind grep prefixes', () => {
    const part = `  "private_key_id": "${sa.private_key_id}",\n  "client_email": "${email}",`;
    for (const text of [
      part,
      JSON.stringify({ stdoutTail: JSON.stringify(sa, null, 2) }),
      JSON.stringify(sa, null, 2)
        .split('\n')
        .map((l, i) => `sa.json:${i + 1}:${l}`)
        .join('\n'),
    ]) {
      const out = redact(text);
      expect(out).not.toContain(sa.private_key_id);
      expect(out).not.toContain(email);
      expect(again(out)).toBe(out);
    }
  });

  test('GCP authorized_user, external_account and impersonation files', () => {
    expect(
      readable({
        account: '',
        client_id: '7640-abc.apps.googleusercontent.com',
        client_secret: 'd-FL95Q19q7MQmFpd7hHD0Ty',
        quota_project_id: 'my-proj',
        refresh_token: '1//0gAbCdEf',
        type: 'authorized_user',
        universe_domain: 'googleapis.com',
      }),
    ).toEqual(['type', 'universe_domain']);
    expect(
      readable({
        type: 'external_account',
        audience: '//iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/p/providers/q',
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        token_url: 'https://sts.googleapis.com/v1/token',
        service_account_impersonation_url: `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/${email}:generateAccessToken`,
      }),
    ).toEqual(['type', 'subject_token_type', 'token_url']);
  });

  test('AWS credentials: sts output and a credential_process output', () => {
    const sts = {
      Credentials: {
        AccessKeyId: 'ASIAQWERTYUIOPASDFGH',
        SecretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYzz',
        SessionToken: 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVz',
        Expiration: '2026-11-30T12:00:00Z',
      },
    };
    const out = redact(JSON.stringify(sts, null, 4));
    for (const v of Object.values(sts.Credentials).slice(1, 3)) expect(out).not.toContain(v);
    expect(out).toContain('"Expiration": "2026-11-30T12:00:00Z"');
    expect(
      readable({
        Version: 1,
        AccessKeyId: 'AKIAQWERTYUIOPASDFGH',
        SecretAccessKey: 'abc/def+ghi',
        SessionToken: 'tok',
        Expiration: 'x',
      } as Record<string, unknown>),
    ).toEqual(['Expiration']);
  });

  test('Azure service principals (create-for-rbac, --sdk-auth)', () => {
    expect(
      readable({
        appId: '2f3c6a1e-8b4d-4c2a-9e7f-1a2b3c4d5e6f',
        displayName: 'ci',
        password: 'Xk8Q~abcDEF.ghi',
        tenant: '72f988bf-86f1-41af-91ab-2d7cd011db47',
      }),
    ).toEqual(['displayName']);
    expect(
      readable({
        clientId: '0c1d2e3f-aaaa-bbbb-cccc-0123456789ab',
        clientSecret: 'b-secret-1',
        subscriptionId: 'c-sub-0001',
        tenantId: 'd-tenant-01',
        activeDirectoryEndpointUrl: 'https://login.microsoftonline.com',
      }),
    ).toEqual(['activeDirectoryEndpointUrl']);
    // An `appId` alone (an app manifest) is no service principal.
    expect(readable({ appId: '9a8b7c6d-1111-4c2a-9e7f-000000000001', displayName: 'web' })).toEqual(['appId', 'displayName']);
  });

  test('a Docker config: every field of a registry entry, not the helper names', () => {
    const docker = {
      auths: {
        'ghcr.io': { username: 'bob', password: 'pw-1', email: 'b@x.io' },
        'r.example.com': { auth: 'Ym9iOmh1bnRlcjI=', identitytoken: 'it-123' },
      },
      credsStore: 'desktop',
    };
    const out = redact(JSON.stringify(docker, null, 2));
    for (const v of ['"bob"', 'pw-1', 'b@x.io', 'Ym9iOmh1bnRlcjI=', 'it-123']) expect(out).not.toContain(v);
    expect(out).toContain('"credsStore": "desktop"');
    const value = JSON.stringify(redactValue(docker));
    for (const v of ['"bob"', 'pw-1', 'b@x.io', 'Ym9iOmh1bnRlcjI=', 'it-123']) expect(value).not.toContain(v);
    expect(value).toContain('"credsStore":"desktop"');
  });

  test('environment lists name their secret values (Kubernetes YAML, ECS JSON), in framings too', () => {
    const yaml = 'env:\n  - name: DB_PASSWORD\n    value: hunter2hunter2\n  - name: LOG_LEVEL\n    value: info\n';
    for (const text of [
      yaml,
      JSON.stringify({ out: yaml }),
      yaml
        .split('\n')
        .map((l, i) => `d.yaml:${i + 1}:${l}`)
        .join('\n'),
    ]) {
      const out = redact(text);
      expect(out).not.toContain('hunter2hunter2');
      expect(out).toContain('info');
    }
    expect(redact('[{"name": "API_TOKEN", "value": "tok-12345"}, {"name": "PORT", "value": "80"}]')).toBe(
      '[{"name": "API_TOKEN", "value": "[redacted API_TOKEN, 9 chars]"}, {"name": "PORT", "value": "80"}]',
    );
  });

  test('.netrc: the password and the account (an ftp password); the login stays', () => {
    expect(redact('machine ftp.example.com login bob password hunter2x account acct-pw-777')).toBe(
      'machine ftp.example.com login bob password [redacted password, 8 chars] account [redacted account, 11 chars]',
    );
  });

  test('kubeconfig: an OIDC id-token without a JWT shape', () => {
    expect(redact('      config:\n        id-token: abcdefghijklmnop1234567890\n')).not.toContain('abcdefghijklmnop1234567890');
  });
});

describe('an argument vector: each word is the whole value', () => {
  eachReturns('%j of %s', redactArgs, [
    [['--password=a b;c', '--yes'], 'tool', ['--password=[redacted password, 5 chars]', '--yes']],
    [['PASSWORD=p@ss,w0rd', 'make'], 'env', ['PASSWORD=[redacted PASSWORD, 9 chars]', 'make']],
    [['login', '-u', 'bob', '-p', 'a b,c'], 'docker', ['login', '-u', 'bob', '-p', '[redacted password, 5 chars]']],
    [['run', '-p', '8080:80', 'img'], 'docker', ['run', '-p', '8080:80', 'img']],
    [['-w', 'p w!', '-b', 'dc=x'], 'ldapsearch', ['-w', '[redacted password, 4 chars]', '-b', 'dc=x']],
    [['-storepass', 'a,b(c)'], 'keytool', ['-storepass', '[redacted storepass, 6 chars]']],
    [['--token=$TOKEN'], 'gh', ['--token=$TOKEN']],
  ]);
});
