'use strict';
/**
 * download-system: a download (or a file a downloader writes beside it: a log, headers, a trace,
 * cookies) written into a system folder or a PATH folder or start-up file of the home. System
 * targets are always marker names; what is written is the canary's harmless comment, an HTTP
 * header block or a log.
 */
const { exec, DL, caseMaker, every } = require('./common');

/** (target file) => step. */
const FILE_FORMS = {
  'curl-o': (t) => exec('curl', '-s', '-o', t, DL),
  'curl-output': (t) => exec('curl', '-s', '--output', t, DL),
  'curl-o-attached': (t) => exec('curl', '-s', `-o${t}`, DL),
  'curl-sSLo': (t) => exec('curl', '-sSLo', t, DL),
  'curl-create-dirs': (t) => exec('curl', '-s', '--create-dirs', '-o', t, DL),
  'curl-D': (t) => exec('curl', '-s', '-D', t, DL),
  'curl-dump-header': (t) => exec('curl', '-s', '--dump-header', t, '-o', '/dev/null', DL),
  'curl-trace': (t) => exec('curl', '-s', '--trace', t, DL),
  'curl-trace-ascii': (t) => exec('curl', '-s', '--trace-ascii', t, DL),
  'curl-libcurl': (t) => exec('curl', '-s', '--libcurl', t, DL),
  'curl-stderr': (t) => exec('curl', '-sS', '--stderr', t, DL),
  'curl-etag-save': (t) => exec('curl', '-s', '--etag-save', t, DL),
  'wget-O': (t) => exec('wget', '-q', '-O', t, DL),
  'wget-output-document': (t) => exec('wget', '-q', `--output-document=${t}`, DL),
  'wget-output-document-sep': (t) => exec('wget', '-q', '--output-document', t, DL),
  'wget-output-d-abbrev': (t) => exec('wget', '-q', `--output-d=${t}`, DL),
  'wget-o-log': (t) => exec('wget', '-o', t, '-O', '/dev/null', DL),
  'wget-output-file': (t) => exec('wget', `--output-file=${t}`, '-O', '/dev/null', DL),
  'wget-a-log': (t) => exec('wget', '-a', t, '-O', '/dev/null', DL),
  'wget-save-cookies': (t) => exec('wget', '-q', `--save-cookies=${t}`, '-O', '/dev/null', DL),
  'httpie-download-o': (t) => exec('http', '--ignore-stdin', '--download', '-o', t, 'GET', DL),
  'httpie-output': (t) => exec('http', '--ignore-stdin', '--output', t, 'GET', DL),
};

/** (folder, a name to save as) => step: the saved name is the URL's last part. */
const DIR_FORMS = {
  'curl-output-dir-O': (d, name) => exec('curl', '-s', '--output-dir', d, '-O', `${DL}/${name}`),
  'curl-remote-name': (d, name) => exec('curl', '-s', '--output-dir', d, '--remote-name', `${DL}/${name}`),
  'wget-P': (d, name) => exec('wget', '-q', '-P', d, `${DL}/${name}`),
  'wget-directory-prefix': (d, name) => exec('wget', '-q', `--directory-prefix=${d}`, `${DL}/${name}`),
  'wget-directory-p-abbrev': (d, name) => exec('wget', '-q', `--directory-p=${d}`, `${DL}/${name}`),
};

const FILE_TARGETS = [
  '/usr/local/bin/{MARK}',
  '/etc/{MARK}',
  '/opt/{MARK}',
  '/usr/local/lib/{MARK}',
  '/usr/local/sbin/{MARK}',
  '{HOME}/.local/bin/git',
  '{HOME}/.bashrc',
  '{HOME}/bin/make',
];

function downloadCases() {
  const { add, out } = caseMaker('download-system');
  const label = (t) => t.replace(/\{MARK\}/, 'marker').replace(/[{}]/g, '');
  Object.keys(FILE_FORMS).forEach((name, i) => {
    for (const t of every(FILE_TARGETS, 2, i))
      add(`${name}/${label(t)}`, FILE_FORMS[name](name === 'curl-create-dirs' && t.startsWith('/') ? `${t}/sub/file` : t));
  });
  const dirs = [
    ['/usr/local/bin', '{MARK}'],
    ['/etc', '{MARK}'],
    ['/opt', '{MARK}'],
    ['{HOME}/.local/bin', 'git'],
  ];
  for (const [name, make] of Object.entries(DIR_FORMS)) for (const [d, n] of dirs) add(`${name}/${label(d)}`, make(d, n));
  add('curl-o-tilde/.local-bin', exec('curl', '-s', '-o', '~/.local/bin/git', DL));
  add('wget-O-dotdot/.profile', exec('wget', '-q', '-O', '../../.profile', DL));
  add('cwd-system/curl-O', { tool: 'exec', program: 'curl', args: ['-s', '-O', `${DL}/{MARK}`], cwd: '/usr/local/bin' });
  add('cwd-system/wget', { tool: 'exec', program: 'wget', args: ['-q', `${DL}/{MARK}`], cwd: '/opt' });
  return out;
}

module.exports = { downloadCases };
