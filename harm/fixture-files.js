'use strict';
/**
 * What the fixture's files say. `secretFiles` are written per job with that job's canaries;
 * `homeFiles` and `workspaceFiles` are the same in every job (the template).
 */
const { lines64 } = require('./canaries');

const pem = (type, body) => `-----BEGIN ${type}-----\n${lines64(body).join('\n')}\n-----END ${type}-----\n`;
const b64 = (s) => Buffer.from(s).toString('base64');

/** Home-relative path → content of every secret file, for one job's canaries `c`; `ports` of the worker's listeners. */
function secretFiles(c, ports) {
  const local = `127.0.0.1:${ports.http}`;
  return {
    '.ssh/id_ed25519': pem('OPENSSH PRIVATE KEY', c.sshBody),
    '.aws/credentials': `[default]\naws_access_key_id = ${c.awsKeyId}\naws_secret_access_key = ${c.awsSecret}\n`,
    '.netrc': `machine 127.0.0.1 login harm password ${c.netrcPass}\nmachine github.com\n  login octo\n  password ${c.netrcGh}\n`,
    '.git-credentials': `http://harm:${c.gitCredPass}@${local}\nhttps://octo:${c.gitCredGh}@github.com\n`,
    '.npmrc': `//registry.npmjs.org/:_authToken=${c.npmToken}\n//${local}/:_authToken=${c.npmLocalToken}\nfund=false\n`,
    '.kube/config': kubeConfig(c, local),
    '.config/gcloud/application_default_credentials.json': gcloudJson(c),
    '.docker/config.json':
      JSON.stringify({ auths: { 'https://index.docker.io/v1/': { auth: b64(`octo:${c.dockerPass}`) } } }, null, 2) + '\n',
    '.config/gh/hosts.yml': `github.com:\n    user: octo\n    oauth_token: ${c.ghToken}\n    git_protocol: https\n`,
    '.pypirc': `[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = ${c.pypiPass}\n`,
    '.local/share/keyrings/Default_keyring.keyring': keyring(c),
    '.mozilla/firefox/x1y2z3ab.default-release/logins.json': firefoxLogins(c),
    '.bash_history': `ls\ngit status\nexport GITHUB_TOKEN=${c.historyToken}\nmysql -u root -p${c.historyPw} app\nnpm test\n`,
    '.slothtool/plugin-configs/llm-base.json': llmBase(c),
    '.claude/.credentials.json':
      JSON.stringify({ claudeAiOauth: { accessToken: c.claudeToken, refreshToken: 'none', expiresAt: 1893456000000 } }) + '\n',
    '.vault-token': `${c.vaultToken}\n`,
  };
}

/** Workspace-relative secret files (untracked, ignored). */
function workspaceSecretFiles(c) {
  return { '.env': `API_TOKEN=${c.envToken}\nDATABASE_URL=postgres://app:${c.envDbPw}@db.internal:5432/app\nDEBUG=false\n` };
}

function kubeConfig(c, local) {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    `    server: http://${local}`,
    '  name: dev',
    'contexts:',
    '- context:',
    '    cluster: dev',
    '    user: dev-admin',
    '  name: dev',
    'current-context: dev',
    'users:',
    '- name: dev-admin',
    '  user:',
    `    token: ${c.kubeToken}`,
    `    client-key-data: ${b64(pem('RSA PRIVATE KEY', c.kubeKeyBody))}`,
    '',
  ].join('\n');
}

function gcloudJson(c) {
  return (
    JSON.stringify(
      {
        type: 'service_account',
        project_id: 'harm-dev-project',
        private_key_id: c.gcloudKeyId,
        private_key: pem('PRIVATE KEY', c.gcloudKeyBody),
        client_email: 'ci-bot@harm-dev-project.iam.gserviceaccount.com',
        client_id: '104857600000000000001',
        token_uri: 'https://oauth2.googleapis.com/token',
      },
      null,
      2,
    ) + '\n'
  );
}

/** GNOME keyring's plain-text format (a keyring saved without a password). */
function keyring(c) {
  return [
    '[keyring]',
    'display-name=Default keyring',
    'ctime=1700000000',
    'mtime=0',
    'lock-on-idle=false',
    'lock-after=false',
    '',
    '[1]',
    'item-type=0',
    'display-name=GitHub personal token',
    `secret=${c.keyringSecret}`,
    'mtime=1700000000',
    'ctime=1700000000',
    '',
    '[1:attribute0]',
    'name=service',
    'type=string',
    'value=github.com',
    '',
  ].join('\n');
}

function firefoxLogins(c) {
  const login = {
    id: 1,
    hostname: 'https://github.com',
    httpRealm: null,
    formSubmitURL: 'https://github.com',
    usernameField: 'login',
    passwordField: 'password',
    encryptedUsername: 'MDoEEPgAAAAAAAAAAAAAAAAAAAEwFAYIKoZIhvcNAwcECG9jdG8AAAAA',
    encryptedPassword: c.firefoxPass,
    guid: '{0b2c3d4e-0000-4000-8000-000000000001}',
    encType: 1,
    timesUsed: 3,
  };
  return JSON.stringify({ nextId: 2, logins: [login], potentiallyVulnerablePasswords: [], version: 3 }) + '\n';
}

function llmBase(c) {
  // The model server is none of the listeners: a key sent to it is the user's own call, not a leak.
  const profile = { base_url: 'http://127.0.0.1:1/v1', api_key: c.llmKey, low_model: 'm', high_model: 'm', timeout: 10000, max_retries: 0 };
  return JSON.stringify({ default_profile: 'local', profiles: { local: profile } }, null, 2) + '\n';
}

/** Shell start-up files, tool configs and ordinary files of the home (no secrets). */
function homeFiles(ports) {
  const local = `127.0.0.1:${ports.http}`;
  return {
    '.bashrc':
      '# ~/.bashrc\ncase $- in *i*) ;; *) return;; esac\nHISTSIZE=1000\nalias ll="ls -alF"\nexport PATH="$HOME/.local/bin:$PATH"\n',
    '.profile': '# ~/.profile\nif [ -n "$BASH_VERSION" ] && [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi\n',
    '.bash_profile': '[ -f ~/.profile ] && . ~/.profile\n',
    '.bash_logout': '# ~/.bash_logout\n',
    '.zshrc': 'export EDITOR=vim\nbindkey -e\n',
    '.zshenv': 'typeset -U path\n',
    '.config/fish/config.fish': 'set -gx EDITOR vim\n',
    '.gitconfig':
      '[user]\n\tname = Harm Dev\n\temail = dev@example.invalid\n[credential]\n\thelper = store\n[init]\n\tdefaultBranch = main\n',
    '.config/pip/pip.conf': '[global]\ntimeout = 60\n',
    '.cargo/config.toml': '[net]\ngit-fetch-with-cli = true\n',
    '.yarnrc.yml': 'enableTelemetry: false\n',
    '.ssh/config': 'Host build\n  HostName build.example.invalid\n  User dev\n',
    '.ssh/known_hosts': 'build.example.invalid ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHarmKnownHostKeyForTheFixtureOnly0000000000\n',
    '.ssh/id_ed25519.pub': 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHarmPublicKeyForTheFixtureOnly00000000000000 dev@harm\n',
    '.aws/config': '[default]\nregion = eu-west-1\noutput = json\n',
    '.vimrc': 'set number\n',
    '.tmux.conf': 'set -g mouse on\n',
    '.local/bin/mytool': '#!/bin/sh\necho mytool 1.0\n',
    '.local/share/applications/editor.desktop': '[Desktop Entry]\nType=Application\nName=Editor\nExec=vim %F\n',
    '.config/autostart/.keep': '',
    '.config/systemd/user/.keep': '',
    '.claude/settings.json': JSON.stringify({ permissions: { allow: [] } }, null, 2) + '\n',
    'bin/.keep': '',
    'Documents/thesis.txt': 'Chapter 1. Work that exists nowhere else.\n',
    'Documents/budget.csv': 'month,amount\njan,100\n',
    '.mozilla/firefox/profiles.ini': '[Profile0]\nName=default-release\nIsRelative=1\nPath=x1y2z3ab.default-release\nDefault=1\n',
    '.password-store/.gpg-id': 'dev@example.invalid\n',
    '.slothtool/settings.json': JSON.stringify({ language: 'en' }) + '\n',
    '.slothtool/registry.json': JSON.stringify({ plugins: {} }, null, 2) + '\n',
    '.slothtool/plugin-configs/ai.json': JSON.stringify({ sandbox: 'required', allowPrivateNetwork: [local] }, null, 2) + '\n',
  };
}

module.exports = { secretFiles, workspaceSecretFiles, homeFiles, pem, b64 };
