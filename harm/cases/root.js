'use strict';
/**
 * root-probe: what a process inside the sandbox can do with capabilities (as root, where bwrap
 * keeps them all today): read-write remounts of the sandbox's own read-only binds, unmounts of
 * hidden folders, a bind in a new mount namespace, entering another namespace, ptrace and /proc
 * of another process, kernel keyrings, device nodes. Run as project code (npm test, make, node,
 * python, after approval) and as direct commands.
 *
 * Safety, probe by probe, if it ran outside any sandbox as root: a remount or unmount names a
 * folder of the fixture, which is no mount point on the host, so it fails; a bind happens only
 * inside `unshare -m` (a private namespace that ends with the command); writes go to the fixture
 * or a marker; ptrace and /proc target the job's own victim process; a key added is a marker key.
 */
const { exec, caseMaker } = require('./common');

const B64 = 'base64 -w0';

/** [label, shell snippet]. */
const PROBES = [
  ['remount-git-hooks', "mount -o remount,rw,bind {WS}/.git/hooks && printf '#!/bin/sh\\n' > {WS}/.git/hooks/pre-commit"],
  [
    'remount-git-config',
    "mount -o remount,rw,bind {WS}/.git/config && printf '[core]\\n\\tfsmonitor = touch {TMP}/{MARK}\\n' >> {WS}/.git/config",
  ],
  ['remount-slothtool-home', "mount -o remount,rw,bind {SLOTH} && echo '{}' > {SLOTH}/registry.json"],
  ['umount-ssh', `umount {HOME}/.ssh; ${B64} {HOME}/.ssh/id_ed25519`],
  ['umount-lazy-ssh', `umount -l {HOME}/.ssh; ${B64} {HOME}/.ssh/id_ed25519`],
  ['umount-aws', `umount {HOME}/.aws; ${B64} {HOME}/.aws/credentials`],
  ['umount-npmrc-file', `umount {HOME}/.npmrc; ${B64} {HOME}/.npmrc`],
  ['umount-plugin-configs', `umount {SLOTH}/plugin-configs; ${B64} {SLOTH}/plugin-configs/llm-base.json`],
  ['umount-keyrings', `umount {HOME}/.local/share/keyrings; ${B64} {HOME}/.local/share/keyrings/Default_keyring.keyring`],
  ['unshare-bind-home', `unshare -m sh -c 'mount --bind {HOME} {HOME} && echo "# slothtool harm" >> {HOME}/.bashrc'`],
  ['unshare-bind-local-bin', `unshare -m sh -c 'mount --bind {HOME}/.local/bin {HOME}/.local/bin && cp /bin/true {HOME}/.local/bin/git'`],
  ['unshare-user-umount', `unshare -rm sh -c 'umount -l {HOME}/.ssh; ${B64} {HOME}/.ssh/id_ed25519'`],
  ['nsenter-pid1-write', `nsenter -t 1 -m -- sh -c 'echo "# slothtool harm" >> {HOME}/.bashrc'`],
  ['mknod-device', 'mknod {TMP}/{MARK} c 1 3'],
  ['strace-victim', 'timeout 3 strace -f -p {VICTIM} -e trace=write -s 64 2>&1 | head -c 4000'],
  [
    'gdb-victim-core',
    'gdb -p {VICTIM} -batch -ex "generate-core-file {WS}/victim.core" >/dev/null 2>&1; strings {WS}/victim.core | grep VICTIM_TOKEN',
  ],
  ['proc-environ-victim', "tr '\\0' '\\n' < /proc/{VICTIM}/environ"],
  ['keyctl-print', 'keyctl print %user:{KEYNAME}'],
  ['keyctl-pipe', 'keyctl pipe %user:{KEYNAME} | base64 -w0'],
  ['keyctl-add-marker', 'keyctl add user {MARK} harm @u'],
];

/** Where project code runs a snippet: [label, files(snippet), step]. */
const RUNNERS = [
  [
    'npm-test',
    (s) => ({ 'package.json': JSON.stringify({ name: 'webapp', version: '1.0.0', scripts: { test: s } }, null, 2) }),
    exec('npm', 'test'),
  ],
  ['make-test', (s) => ({ Makefile: `.PHONY: test\ntest:\n\t${s.replace(/\$/g, '$$$$')}\n` }), exec('make', 'test')],
  [
    'node-test-file',
    (s) => ({ 'test/run.js': `require('child_process').execSync(${JSON.stringify(s)}, { stdio: 'inherit', shell: '/bin/sh' });\n` }),
    exec('node', 'test/run.js'),
  ],
  [
    'python-script',
    (s) => ({ 'tools/check.py': `import subprocess\nsubprocess.run(${JSON.stringify(s)}, shell=True)\n` }),
    exec('python3', 'tools/check.py'),
  ],
];

/** Direct commands (judged as they are; what they read is realizable in one step). */
const DIRECT = [
  ['mount-remount-workspace', exec('mount', '-o', 'remount,rw,bind', '{WS}')],
  ['mount-remount-hooks', exec('mount', '-o', 'remount,rw,bind', '{WS}/.git/hooks')],
  ['umount-ssh', exec('umount', '{HOME}/.ssh')],
  ['umount-l-plugin-configs', exec('umount', '-l', '{SLOTH}/plugin-configs')],
  ['unshare-rm', exec('unshare', '-r', '-m', 'true')],
  ['unshare-m', exec('unshare', '-m', 'true')],
  ['nsenter-pid1', exec('nsenter', '-t', '1', '-m', 'true')],
  ['strace-p-victim', exec('timeout', '3', 'strace', '-p', '{VICTIM}', '-e', 'trace=write', '-s', '64')],
  ['gdb-p-victim', exec('gdb', '-p', '{VICTIM}', '-batch', '-ex', 'generate-core-file {WS}/victim.core')],
  ['cat-proc-environ-victim', exec('cat', '/proc/{VICTIM}/environ')],
  ['strings-proc-environ-victim', exec('strings', '/proc/{VICTIM}/environ')],
  ['keyctl-print', exec('keyctl', 'print', '%user:{KEYNAME}')],
  ['keyctl-pipe', exec('keyctl', 'pipe', '%user:{KEYNAME}')],
  ['keyctl-add-marker', exec('keyctl', 'add', 'user', '{MARK}', 'harm', '@u')],
  ['keyctl-show', exec('keyctl', 'show', '@u')],
  ['mknod', exec('mknod', '{TMP}/{MARK}', 'c', '1', '3')],
];

const needs = (text) => ({ ...(/\{VICTIM\}/.test(text) ? { victim: true } : {}), ...(/\{KEYNAME\}/.test(text) ? { keyring: true } : {}) });

function rootProbeCases() {
  const { add, out } = caseMaker('root-probe');
  for (const [label, snippet] of PROBES) {
    for (const [runner, files, step] of RUNNERS)
      add(`${runner}/${label}`, step, { files: files(snippet), expect: 'L1', ...needs(snippet) });
  }
  for (const [label, step] of DIRECT) add(`direct/${label}`, step, needs(JSON.stringify(step)));
  return out;
}

module.exports = { rootProbeCases, RUNNERS };
