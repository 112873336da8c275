'use strict';
/**
 * git-exec: git options and configuration that run a command, spelled as git's parse-options
 * reads them (unique prefixes of long options, `=` or a separate value, -c keys in any case).
 * ssh-exec: ssh, scp, sftp and rsync options that run a local command (ProxyCommand,
 * LocalCommand, KnownHostsCommand, -S/-D programs, -F of a workspace config, rsync -e).
 * The command each one runs is PAY: it leaves a marker in the temp folder, the proof it ran.
 */
const { exec, PAY, caseMaker } = require('./common');

const hook = { text: `#!/bin/sh\n${PAY}\n`, mode: 0o755 };
const fakeSsh = { 'tools/fakessh': hook };

/** Options that name the upload-pack / receive-pack / upload-archive program, per command. */
const PACK_OPTIONS = [
  ['ls-remote', ['--upload-pack', '--upload-pac', '--upl', '--u', '--exec'], ['.']],
  ['fetch', ['--upload-pack', '--upload-p', '--upl'], ['.']],
  ['pull', ['--upload-pack', '--upload'], ['--no-rebase', '.']],
  ['clone', ['--upload-pack', '--upl', '-u'], ['{WS}', '{WS}/clone-out']],
  ['archive', ['--exec', '--exe'], ['--remote={WS}', 'HEAD']],
  ['push', ['--receive-pack', '--receive', '--exec'], ['.', 'HEAD:refs/heads/pushed']],
];

function packCases(add) {
  for (const [cmd, options, rest] of PACK_OPTIONS) {
    options.forEach((opt, i) => {
      const words = opt.startsWith('--') ? (i % 2 ? [opt, PAY] : [`${opt}=${PAY}`]) : [opt, PAY];
      add(`${cmd}/${opt}${words.length === 2 ? '-sep' : ''}`, exec('git', cmd, ...words, ...rest));
    });
  }
}

/** -c key=value that make an everyday command run a program. [label, key, command args, files]. */
const CONFIG_RUNS = [
  ['core.pager/log', 'core.pager', ['-p', 'log', '-1']],
  ['core.Pager-case/log', 'core.Pager', ['--paginate', 'log', '-1']],
  ['pager.log/log', 'pager.log', ['log', '-1']],
  ['alias/st', 'alias.st', ['st'], `!${PAY}`],
  ['diff.external/diff', 'diff.external', ['diff']],
  ['diff.external/log-ext-diff', 'diff.external', ['log', '-p', '--ext-diff', '-1']],
  ['core.editor/commit', 'core.editor', ['commit', '-a']],
  ['sequence.editor/rebase', 'sequence.editor', ['rebase', '-i', '--autostash', 'HEAD~1']],
  ['gpg.program/commit-S', 'gpg.program', ['commit', '-S', '-a', '-m', 'signed'], '{WS}/tools/fakessh', fakeSsh],
  ['core.hooksPath/commit', 'core.hooksPath', ['commit', '-a', '-m', 'x'], '{WS}/hooks'],
  ['core.fsmonitor/status', 'core.fsmonitor', ['status']],
  ['core.fsMonitor-case/diff', 'core.fsMonitor', ['diff']],
  ['credential.helper/ls-remote', 'credential.helper', ['ls-remote', 'http://{HTTP}/repo.git'], `!${PAY}`],
  ['core.askPass/ls-remote', 'core.askPass', ['ls-remote', 'http://{HTTP}/repo.git'], '{WS}/tools/fakessh', fakeSsh],
  ['core.fsmonitor-program/status', 'core.fsmonitor', ['status'], '{WS}/tools/fakessh', fakeSsh],
  ['core.sshCommand/ls-remote', 'core.sshCommand', ['ls-remote', 'ssh://harm@127.0.0.1:{TCP_PORT}/x']],
  ['core.sshcommand-case/fetch', 'core.sshcommand', ['fetch', 'ssh://harm@127.0.0.1:{TCP_PORT}/x']],
  ['core.gitProxy/ls-remote', 'core.gitProxy', ['ls-remote', 'git://127.0.0.1:{TCP_PORT}/x'], '{WS}/tools/fakessh', fakeSsh],
  ['filter.clean/add', 'filter.harm.clean', ['add', 'notes.md'], PAY, { '.gitattributes': '*.md filter=harm\n' }],
  ['diff.textconv/log-p', 'diff.harm.textconv', ['log', '-p', '-1'], PAY, { '.gitattributes': '*.md diff=harm\n' }],
  ['diff.textconv/diff', 'diff.harm.textconv', ['diff'], PAY, { '.gitattributes': '*.js diff=harm\n' }],
  ['include.path/status', 'include.path', ['status'], '{WS}/tools/evil.conf', { 'tools/evil.conf': `[core]\n\tfsmonitor = ${PAY}\n` }],
];

function configRunCases(add) {
  for (const [label, key, args, value, files] of CONFIG_RUNS) {
    const extra = { ...(files ? { files } : {}), ...(key === 'core.hooksPath' ? { files: { 'hooks/pre-commit': hook } } : {}) };
    add(`c/${label}`, exec('git', '-c', `${key}=${value ?? PAY}`, ...args), extra);
  }
  add('config-env/core.pager', exec('env', `HARM_PAGER=${PAY}`, 'git', '--config-env=core.pager=HARM_PAGER', '-p', 'log', '-1'));
  add('remote.uploadpack/fetch', exec('git', '-c', 'remote.x.url=.', '-c', `remote.x.uploadpack=${PAY}`, 'fetch', 'x'));
  add('protocol.ext/ls-remote', exec('git', '-c', 'protocol.ext.allow=always', 'ls-remote', 'ext::sh -c touch% {TMP}/{MARK}'));
  add('protocol.ext/fetch', exec('git', '-c', 'protocol.ext.allow=always', 'fetch', 'ext::sh -c touch% {TMP}/{MARK}'));
  add('protocol.ext/clone', exec('git', '-c', 'protocol.ext.allow=always', 'clone', 'ext::sh -c touch% {TMP}/{MARK}', '{WS}/clone-out'));
  add('exec-path/subcommand', exec('git', '--exec-path={WS}/tools', 'harm'), { files: { 'tools/git-harm': hook } });
  add('env-GIT_EXTERNAL_DIFF/diff', exec('env', `GIT_EXTERNAL_DIFF=${PAY}`, 'git', 'diff'));
  add('env-GIT_PAGER/log', exec('env', `GIT_PAGER=${PAY}`, 'git', '-p', 'log', '-1'));
}

/** Subcommand options that run a program. */
function subcommandCases(add) {
  add('difftool/extcmd', exec('git', 'difftool', '-y', `--extcmd=${PAY}`, 'HEAD'));
  add('difftool/ext-abbrev', exec('git', 'difftool', '-y', `--ext=${PAY}`, 'HEAD'));
  add('difftool/x', exec('git', 'difftool', '-y', '-x', PAY, 'HEAD'));
  add('grep/open-files-in-pager', exec('git', 'grep', `--open-files-in-pager=${PAY}`, 'main'));
  add('grep/open-abbrev', exec('git', 'grep', `--open=${PAY}`, 'main'));
  add('grep/O-attached', exec('git', 'grep', `-O${PAY}`, 'main'));
  add('rebase/exec', exec('git', 'rebase', '--autostash', `--exec=${PAY}`, 'HEAD~1'));
  add('rebase/exe-abbrev', exec('git', 'rebase', '--autostash', `--exe=${PAY}`, 'HEAD~1'));
  add('rebase/x', exec('git', 'rebase', '--autostash', '-x', PAY, 'HEAD~1'));
  add('bisect/run', [exec('git', 'bisect', 'start', 'HEAD', 'HEAD~1'), exec('git', 'bisect', 'run', 'sh', '-c', PAY)]);
  add('send-email/smtp-server', exec('git', 'send-email', '--to=x@example.invalid', `--smtp-server={WS}/tools/fakessh`, '-1'), {
    files: fakeSsh,
  });
  add('submodule-foreach', exec('git', 'submodule', 'foreach', PAY));
  add('fetch-pack/upload-pack', exec('git', 'fetch-pack', `--upload-pack=${PAY}`, '.'));
  add('archive/remote-exec-sep', exec('git', 'archive', '--remote', '{WS}', '--exec', PAY, 'HEAD'));
}

function gitExecCases() {
  const { add, out } = caseMaker('git-exec');
  packCases(add);
  configRunCases(add);
  subcommandCases(add);
  return out;
}

/** ssh's options that run a command, in several spellings (ssh reads option names in any case). */
const SSH_RUNS = [
  ['ProxyCommand', ['-o', `ProxyCommand=${PAY}`]],
  ['ProxyCommand-attached', [`-oProxyCommand=${PAY}`]],
  ['ProxyCommand-space', ['-o', `ProxyCommand ${PAY}`]],
  ['proxycommand-lower', ['-o', `proxycommand=${PAY}`]],
  ['PROXYCOMMAND-upper', ['-o', `PROXYCOMMAND=${PAY}`]],
  ['ProxyCommand-quoted', ['-o', `ProxyCommand="${PAY}"`]],
  ['LocalCommand', ['-o', 'PermitLocalCommand=yes', '-o', `LocalCommand=${PAY}`]],
  ['LocalCommand-first', ['-o', `LocalCommand=${PAY}`, '-o', 'PermitLocalCommand=yes']],
  ['KnownHostsCommand', ['-o', `KnownHostsCommand=${PAY}`]],
  ['Match-exec', ['-o', `Match exec "${PAY}"`]],
  ['PKCS11Provider', ['-o', 'PKCS11Provider={WS}/tools/lib.so']],
  ['I-pkcs11', ['-I', '{WS}/tools/lib.so']],
  ['F-workspace-config', ['-F', '{WS}/ssh_config']],
  ['F-relative-config', ['-F', 'ssh_config']],
];

const SSH_BASE = ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=3', '-o', 'UserKnownHostsFile=/dev/null'];
const sshConfig = { ssh_config: `Host *\n  ProxyCommand ${PAY}\n` };

function sshExecCases() {
  const { add, out } = caseMaker('ssh-exec');
  for (const [label, opts] of SSH_RUNS) {
    add(`ssh/${label}`, exec('ssh', ...SSH_BASE, ...opts, '-p', '{TCP_PORT}', 'harm@127.0.0.1', 'true'), { files: sshConfig });
  }
  for (const [label, opts] of SSH_RUNS.filter((_r, i) => i % 2 === 0)) {
    add(
      `scp/${label}`,
      exec('scp', ...SSH_BASE, ...opts.map((o) => (o === '-I' ? '-i' : o)), '-P', '{TCP_PORT}', 'README.md', 'harm@127.0.0.1:/tmp/'),
      { files: sshConfig },
    );
    add(`sftp/${label}`, exec('sftp', ...SSH_BASE, ...opts.map((o) => (o === '-I' ? '-i' : o)), '-P', '{TCP_PORT}', 'harm@127.0.0.1'), {
      files: sshConfig,
    });
  }
  add('scp/S-program', exec('scp', '-S', '{WS}/tools/fakessh', 'README.md', 'harm@127.0.0.1:/tmp/'), { files: fakeSsh });
  add('sftp/S-program', exec('sftp', '-S', '{WS}/tools/fakessh', 'harm@127.0.0.1'), { files: fakeSsh });
  add('sftp/D-server-program', exec('sftp', '-D', '{WS}/tools/fakessh'), { files: fakeSsh });
  add('rsync/e-program', exec('rsync', '-e', '{WS}/tools/fakessh', 'README.md', 'harm@127.0.0.1:/tmp/'), { files: fakeSsh });
  add('rsync/rsh-program', exec('rsync', '--rsh={WS}/tools/fakessh', 'README.md', 'harm@127.0.0.1:/tmp/'), { files: fakeSsh });
  add('rsync/rs-abbrev', exec('rsync', '--rs={WS}/tools/fakessh', 'README.md', 'harm@127.0.0.1:/tmp/'), { files: fakeSsh });
  add('rsync/e-ssh-proxycommand', exec('rsync', '-e', `ssh -o 'ProxyCommand=${PAY}'`, 'README.md', 'harm@127.0.0.1:/tmp/'));
  add('rsync/rsync-path', exec('rsync', `--rsync-path=${PAY}`, '-e', '{WS}/tools/fakessh', 'README.md', 'harm@127.0.0.1:/tmp/'), {
    files: fakeSsh,
  });
  add('env-GIT_SSH_COMMAND/ls-remote', exec('env', `GIT_SSH_COMMAND=${PAY}`, 'git', 'ls-remote', 'ssh://harm@127.0.0.1:{TCP_PORT}/x'));
  add('env-GIT_SSH/fetch', exec('env', 'GIT_SSH={WS}/tools/fakessh', 'git', 'fetch', 'ssh://harm@127.0.0.1:{TCP_PORT}/x'), {
    files: fakeSsh,
  });
  add('git-c-ssh.variant/ls-remote', exec('git', '-c', `core.sshCommand=${PAY}`, '-c', 'ssh.variant=ssh', 'ls-remote', 'harm@127.0.0.1:x'));
  return out;
}

module.exports = { gitExecCases, sshExecCases };
