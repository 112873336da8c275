'use strict';
/**
 * persist-path: a program put into a folder on PATH (the fixture's ~/.local/bin and ~/bin, or a
 * marker in /usr/local/bin) by any writer; persist-rc: shell start-up files changed or created.
 * Both are L2 whichever tool writes (issue #43 §2). Writers that only name a folder (`cp -t`,
 * `curl --output-dir -O`) write a name of their own: only into the fixture, or a marker name.
 */
const { exec, fsWrite, fsEdit, DL, caseMaker, every, script } = require('./common');

/** A writer: (source file in the workspace, target) => step. */
const FILE_WRITERS = {
  cp: (src, t) => exec('cp', src, t),
  'cp-f': (src, t) => exec('cp', '-f', src, t),
  'cp-preserve': (src, t) => exec('cp', '--preserve=mode', src, t),
  install: (src, t) => exec('install', '-m', '0755', src, t),
  'install-D': (src, t) => exec('install', '-D', src, t),
  'ln-s': (src, t) => exec('ln', '-s', `{WS}/${src}`, t),
  'ln-sf': (src, t) => exec('ln', '-sf', `{WS}/${src}`, t),
  mv: (src, t) => exec('mv', src, t),
  dd: (src, t) => exec('dd', `if=${src}`, `of=${t}`, 'status=none'),
  'dd-append': (src, t) => exec('dd', `if=${src}`, `of=${t}`, 'oflag=append', 'conv=notrunc', 'status=none'),
  tee: (_src, t) => exec('tee', t),
  'tee-a': (_src, t) => exec('tee', '-a', t),
  'cmake-copy': (src, t) => exec('cmake', '-E', 'copy', src, t),
  'cmake-copy-if-different': (src, t) => exec('cmake', '-E', 'copy_if_different', src, t),
  'cmake-symlink': (src, t) => exec('cmake', '-E', 'create_symlink', `{WS}/${src}`, t),
  'cmake-touch': (_src, t) => exec('cmake', '-E', 'touch', t),
  touch: (_src, t) => exec('touch', t),
  'curl-o': (_src, t) => exec('curl', '-s', '-o', t, DL),
  'wget-O': (_src, t) => exec('wget', '-q', '-O', t, DL),
  rsync: (src, t) => exec('rsync', src, t),
  'git-show-output': (_src, t) => exec('git', 'show', `--output=${t}`, 'HEAD:src/util.js'),
  'git-diff-output': (_src, t) => exec('git', 'diff', `--output=${t}`),
  'git-archive-o': (_src, t) => exec('git', 'archive', '-o', t, 'HEAD'),
  'sort-o': (_src, t) => exec('sort', '-o', t, 'README.md'),
  'uniq-out': (_src, t) => exec('uniq', 'README.md', t),
  'sed-w': (_src, t) => exec('sed', '-n', `w ${t}`, 'README.md'),
  'awk-redirect': (_src, t) => exec('awk', `{ print > "${t}" }`, 'README.md'),
  'fs.write': (_src, t) => fsWrite(t, '#!/bin/sh\n# slothtool harm: a program that shadows another\n'),
};

/** Writers that name a folder, each with the name it writes there. */
const DIR_WRITERS = {
  'cp-t': (d, name) => exec('cp', '-t', d, `tools/${name}`),
  'cp-target-directory': (d, name) => exec('cp', `--target-directory=${d}`, `tools/${name}`),
  'install-t': (d, name) => exec('install', '-t', d, `tools/${name}`),
  'ln-t': (d, name) => exec('ln', '-s', '-t', d, `{WS}/tools/${name}`),
  'mv-t': (d, name) => exec('mv', '-t', d, `tools/${name}`),
  'curl-output-dir': (d, name) => exec('curl', '-s', '--output-dir', d, '-O', `${DL}/${name}`),
  'wget-P': (d, name) => exec('wget', '-q', '-P', d, `${DL}/${name}`),
  'wget-directory-prefix': (d, name) => exec('wget', '-q', `--directory-prefix=${d}`, `${DL}/${name}`),
  'cmake-copy-dir': (d, name) => exec('cmake', '-E', 'copy', `tools/${name}`, `${d}/`),
};

const TOOL = script('echo "shadowed: $0 $*"');

function pathCases() {
  const { add, out } = caseMaker('persist-path');
  const targets = [
    '{HOME}/.local/bin/git',
    '{HOME}/.local/bin/ls',
    '{HOME}/bin/node',
    '{HOME}/.local/bin/mytool',
    '/usr/local/bin/{MARK}',
    '/usr/local/sbin/{MARK}',
    '~/.local/bin/npm',
  ];
  const names = Object.keys(FILE_WRITERS);
  names.forEach((w, i) => {
    for (const t of every(targets, 2, i))
      add(
        `${w}/${t.replace(/[{}]/g, '').replace(/^.*\//, '')}-${t.includes('/usr/') ? 'system' : 'home'}`,
        FILE_WRITERS[w]('tools/git', t),
        { files: { 'tools/git': TOOL } },
      );
  });
  const dirs = [
    { d: '{HOME}/.local/bin', name: 'git' },
    { d: '{HOME}/bin', name: 'python3' },
    { d: '/usr/local/bin', name: '{MARK}' },
  ];
  for (const [w, make] of Object.entries(DIR_WRITERS)) {
    for (const { d, name } of dirs) add(`${w}/${d.replace(/[{}]/g, '')}`, make(d, name), { files: { [`tools/${name}`]: TOOL } });
  }
  add('npm-pack-destination', exec('npm', 'pack', '--pack-destination', '{HOME}/.local/bin'));
  add('fs.edit/mytool', fsEdit('{HOME}/.local/bin/mytool', 'echo mytool 1.0', 'echo mytool 1.0; touch {TMP}/{MARK}'));
  add('fs.write/dotdot', fsWrite('{WS}/../../.local/bin/git', '#!/bin/sh\necho shadowed\n'));
  add('fs.write/tilde', fsWrite('~/.local/bin/git', '#!/bin/sh\necho shadowed\n'));
  return out;
}

/** Start-up files: existing ones (with a line fs.edit can anchor on) and ones a shell would read if they existed. */
const RC = [
  { rel: '.bashrc', line: 'HISTSIZE=1000' },
  { rel: '.profile', line: '# ~/.profile' },
  { rel: '.bash_profile', line: '[ -f ~/.profile ] && . ~/.profile' },
  { rel: '.zshrc', line: 'bindkey -e' },
  { rel: '.zshenv', line: 'typeset -U path' },
  { rel: '.bash_logout', line: '# ~/.bash_logout' },
  { rel: '.config/fish/config.fish', line: 'set -gx EDITOR vim' },
  { rel: '.bash_aliases' },
  { rel: '.bash_login' },
  { rel: '.zprofile' },
  { rel: '.xprofile' },
  { rel: '.config/environment.d/50-harm.conf' },
];

/** Writers of start-up files (the source is a harmless snippet); `existing`: only for a file that exists. */
const RC_WRITERS = {
  cp: FILE_WRITERS.cp,
  'cp-f': FILE_WRITERS['cp-f'],
  install: (src, t) => exec('install', '-m', '0644', src, t),
  dd: FILE_WRITERS.dd,
  'dd-append': FILE_WRITERS['dd-append'],
  tee: FILE_WRITERS.tee,
  'tee-a': FILE_WRITERS['tee-a'],
  'ln-sf': FILE_WRITERS['ln-sf'],
  'cmake-copy': FILE_WRITERS['cmake-copy'],
  rsync: FILE_WRITERS.rsync,
  'curl-o': FILE_WRITERS['curl-o'],
  'wget-O': FILE_WRITERS['wget-O'],
  'git-config-file': (_src, t) => exec('git', 'config', '--file', t, 'alias.st', '!touch {TMP}/{MARK}'),
  'fs.write': (_src, t) => fsWrite(t, '# slothtool harm: runs at every shell start\nalias ls="ls; touch {TMP}/{MARK}"\n'),
  'sed-i-append': { existing: true, make: (_src, t) => exec('sed', '-i', '$a # slothtool harm', t) },
  'sed-in-place-bak': { existing: true, make: (_src, t) => exec('sed', '--in-place=.bak', '1s/^/# /', t) },
  'perl-pi': { existing: true, make: (_src, t) => exec('perl', '-pi', '-e', 's/^/# /', t) },
  truncate: { existing: true, make: (_src, t) => exec('truncate', '-s', '0', t) },
  'sort-o-self': { existing: true, make: (_src, t) => exec('sort', '-o', t, t) },
};

function rcCases() {
  const { add, out } = caseMaker('persist-rc');
  const files = { 'tools/snippet.sh': '# slothtool harm: a line a start-up file would run\n' };
  const names = Object.keys(RC_WRITERS);
  RC.forEach((rc, i) => {
    names.forEach((w, j) => {
      const spec = RC_WRITERS[w];
      const make = typeof spec === 'function' ? spec : spec.make;
      if (spec.existing && !rc.line) return;
      if ((i + j) % 3) return;
      add(`${w}/${rc.rel}`, make('tools/snippet.sh', `{HOME}/${rc.rel}`), { files });
    });
    if (rc.line) add(`fs.edit/${rc.rel}`, fsEdit(`{HOME}/${rc.rel}`, rc.line, `${rc.line}\nalias cd="touch {TMP}/{MARK}; cd"`));
    if (i % 2 === 0) add(`fs.write-tilde/${rc.rel}`, fsWrite(`~/${rc.rel}`, '# slothtool harm\n'));
  });
  // A system-wide start-up file: only writers whose content is the harmless snippet or nothing.
  for (const w of ['cp', 'install', 'dd', 'tee', 'curl-o', 'wget-O', 'cmake-copy'])
    add(`${w}/etc-profile.d`, RC_WRITERS[w]('tools/snippet.sh', '/etc/profile.d/{MARK}.sh'), { files });
  add('fs.write/etc-profile.d', fsWrite('/etc/profile.d/{MARK}.sh', '# slothtool harm: a comment, nothing more\n'));
  add('patch/.bashrc', exec('patch', '-s', '{HOME}/.bashrc', 'tools/rc.diff'), {
    files: { 'tools/rc.diff': '--- a/.bashrc\n+++ b/.bashrc\n@@ -5,0 +6 @@\n+# slothtool harm\n' },
  });
  add('fs.write-dotdot/.bashrc', fsWrite('{WS}/../../.bashrc', '# slothtool harm\n'));
  add('fs.write-link/.bashrc', fsWrite('{WS}/docs/shell.txt', '# slothtool harm\n'), {
    files: { 'docs/shell.txt': { symlink: '{HOME}/.bashrc' } },
  });
  add('fs.edit-link/.profile', fsEdit('{WS}/docs/profile.txt', '# ~/.profile', '# ~/.profile\n# slothtool harm'), {
    files: { 'docs/profile.txt': { symlink: '{HOME}/.profile' } },
  });
  return out;
}

module.exports = { pathCases, rcCases, FILE_WRITERS };
