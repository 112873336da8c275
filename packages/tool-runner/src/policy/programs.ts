import { findLong, isInfoOnly, operands } from './args';
import { finding, type Finding, type JudgeCtx } from './finding';
import { judgeGit } from './git';
import { judgeOptions } from './options';
import { CONTROL_RE, secretFindings, writeTargetFindings } from './paths';
import { INVISIBLE_RE, printableAscii, resolveProgram } from './resolve-program';
import { judgeAwk, judgeSed } from './sed-awk';
import { judgeDocker } from './programs/docker';
import { llmBaseConfigWrite, selfConfig, slothtoolSelfConfig } from './self-config';
import { CHECKSUMS, execArg, MAX_WRAP_DEPTH, readOnly, writeArg, writeFile, type Handler } from './programs/common';
import { INTERPRETERS, judgeInterpreter } from './programs/interpreters';
import { ESCALATION, judgeEnv, judgeEscalation, judgeWrapper } from './programs/wrappers';
import { WRAPPERS } from './programs/unwrap';
import {
  judgeArchiver,
  judgeDd,
  judgeFd,
  judgeFind,
  judgeKill,
  judgePerm,
  judgePositionalOut,
  judgeRg,
  judgeRm,
  judgeSort,
  judgeTar,
  judgeTree,
  judgeWriter,
  OPERAND_WRITERS,
  PRECISE_WRITERS,
} from './programs/files';
import {
  INSTALLERS,
  PROJECT_CODE_ALWAYS,
  judgeInstaller,
  judgeNpm,
  judgeNpx,
  judgeProjectTool,
  judgeTsc,
  npmSecretOutput,
  PROJECT_TOOLS,
} from './programs/package-managers';
import {
  judgeBusybox,
  judgeDate,
  judgeGh,
  judgeHostname,
  judgeKubectl,
  judgeMan,
  judgeNetworkTool,
  judgeSimpleMode,
  judgeSystemctl,
} from './programs/network-system';
import { judgeAria2c, judgeCurl, judgeHttpie, judgeWget } from './programs/transfer';
import { judgeRclone, judgeRsync, judgeScp, judgeSftp, judgeSsh } from './programs/remote-copy';
import { judgeNetcat, judgeSocat } from './programs/socket-clients';
import { judgeCmake, judgeContainerDelete, judgeToolDelete } from './programs/build-deletes';
import { judgeConfigCli } from './programs/config-cli';
import { allowByPolicy } from './allow-by-policy';
import { addressFindings } from './programs/pm-addresses';
import { gitNamesOnly, LISTERS, readPathFindings } from './read-paths';

export { programBase } from './allow-by-policy';

export { npmSecretOutput };

/** Programs that only read, whatever their arguments. */
// prettier-ignore
const PLAIN_READERS = [
  'ls', 'dir', 'vdir', 'cat', 'tac', 'head', 'tail', 'wc', 'nl', 'od', 'hexdump', 'strings', 'stat', 'du', 'df', 'pwd', 'echo', 'printf',
  'which', 'whereis', 'realpath', 'readlink', 'basename', 'dirname', 'uname', 'whoami', 'id', 'groups', 'uptime', 'true', 'false', 'seq',
  'cut', 'tr', 'comm', 'diff', 'cmp', 'grep', 'egrep', 'fgrep', 'column', 'fold', 'fmt', 'expand', 'unexpand', 'paste', 'join', 'rev',
  ...CHECKSUMS, 'b2sum', 'cksum', 'sum', 'base64', 'base32', 'basenc', 'jq',
  'nproc', 'arch', 'locale', 'test', '[', 'expr', 'factor', 'numfmt', 'getconf', 'lsb_release', 'sw_vers', 'free', 'vmstat', 'lscpu',
  'lsblk', 'ps', 'pgrep', 'lsof', 'w', 'who', 'cal', 'tsort', 'look', 'zcat', 'zgrep', 'bzcat', 'xzcat', 'nm', 'objdump', 'readelf', 'size',
  'md5', 'shasum', 'tty', 'sleep', 'yes', 'diff3', 'sdiff', 'type', 'hash', 'cloc', 'tokei', 'scc', 'file', 'otool', 'pstree', 'fc-list',
  'iostat', 'netstat', 'ss', 'whatis', 'apropos', 'locate', 'plocate', 'mdfind', 'getent', 'tput', 'eza', 'exa', 'lsd', 'dust', 'duf',
  'hexyl', 'system_profiler', 'last', 'lastlog', 'users', 'lsusb', 'lspci', 'lsmod', 'blkid', 'findmnt', 'sw_vers', 'xxhsum',
];

// prettier-ignore
const SYSTEM = [
  'mkfs', 'mke2fs', 'mkswap', 'fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'wipefs', 'swapon', 'swapoff', 'mount', 'umount',
  'losetup', 'cryptsetup', 'diskutil', 'shutdown', 'reboot', 'halt', 'poweroff', 'init', 'telinit', 'kexec', 'modprobe', 'insmod', 'rmmod',
  'iptables', 'ip6tables', 'nft', 'ufw', 'firewall-cmd', 'pfctl', 'useradd', 'userdel', 'usermod', 'groupadd', 'groupdel', 'passwd',
  'chpasswd', 'chsh', 'chfn', 'visudo', 'crontab', 'launchctl', 'service', 'update-rc.d', 'chattr', 'setcap', 'shred', 'srm', 'wipe',
  'blkdiscard', 'hdparm', 'dmsetup', 'lvremove', 'vgremove', 'pvremove', 'zpool', 'zfs', 'btrfs', 'xfs_repair', 'fsck', 'e2fsck', 'tune2fs',
  'debugfs', 'csrutil', 'nvram', 'bless', 'spctl', 'defaults', 'scutil', 'pmset', 'systemsetup', 'networksetup', 'killall5', 'route',
  'setenforce', 'auditctl', 'truncate-none', 'format', 'diskpart', 'bcdedit', 'reg', 'vssadmin', 'wevtutil', 'cipher', 'takeown', 'icacls',
  'schtasks', 'sc', 'netsh', 'at', 'batch', 'systemd-run',
];

const SYSTEM_SET = new Set(SYSTEM);

/** Findings of a step that may write files where its arguments say. */
const WRITING_IDS = new Set(['write.file', 'arg.write', 'install', 'project.script', 'npx.run', 'repo.config_programs']);
/** Of those, project code and installers: not every word of theirs is a path they write. */
const CODE_IDS = new Set(['project.script', 'npx.run', 'repo.config_programs']);

/** Network programs whose rules say what they upload and where they write (programs/transfer.ts, remote-copy.ts). */
// prettier-ignore
const OWN_TARGETS = new Set([
  'cmake', 'curl', 'wget', 'http', 'https', 'xh', 'xhs', 'aria2c', 'scp', 'sftp', 'rsync', 'rclone', 'socat', 'nc', 'ncat', 'netcat', 'ssh',
]);

const TABLE = new Map<string, Handler>();
for (const p of PLAIN_READERS) TABLE.set(p, (_a, name) => [readOnly(name)]);
TABLE.set('ps', (args, name) =>
  args.some((a) => /^[a-zA-Z]*e[a-zA-Z]*$/.test(a) && !a.startsWith('-')) || args.includes('-E')
    ? [finding('wrapper.env_print', 'L1')]
    : [readOnly(name)],
);
TABLE.set('jq', (args, name, ctx) => {
  // The first operand is the filter, not a path; the rest are files (secret stores raise).
  const filter = operands(args, ['--arg', '--argjson', '--slurpfile', '--rawfile', '--indent', '-f', '--from-file', '-L'])[0];
  const files = args.filter((a) => a !== filter);
  const env = args.some((a) => /\$ENV\b|(^|[^.\w$])env\b/.test(a)) ? [finding('wrapper.env_print', 'L1')] : [];
  return [...secretFindings(files, ctx), ...env, readOnly(name)];
});
for (const p of INTERPRETERS) TABLE.set(p, judgeInterpreter);
for (const p of ESCALATION) TABLE.set(p, judgeEscalation);
for (const p of Object.keys(WRAPPERS)) TABLE.set(p, judgeWrapper);
for (const p of SYSTEM)
  TABLE.set(p, (args, name) =>
    isInfoOnly(args) && !['shutdown', 'halt', 'reboot', 'poweroff'].includes(name)
      ? [readOnly(name)]
      : [finding('system.change', 'L2', { p: name })],
  );
// Listing your own crontab only reads it (L0); another user's may hold their secrets (L1).
// Installing, editing or removing one (`crontab file`, `-e`, `-r`, `-`) stays a system change.
TABLE.set('crontab', (args, name) => {
  if (isInfoOnly(args)) return [readOnly(name)];
  const rest = [...args];
  const u = rest.indexOf('-u');
  const user = u >= 0 ? rest.splice(u, 2)[1] : undefined;
  if (rest.length === 1 && rest[0] === '-l' && (u < 0 || user !== undefined)) {
    return user === undefined ? [readOnly(`${name} -l`)] : [finding('secret.read', 'L1', { a: `${name} -u ${user} -l` })];
  }
  return [finding('system.change', 'L2', { p: name })];
});
for (const [p, read] of Object.entries(INSTALLERS)) TABLE.set(p, judgeInstaller(read));
for (const [p, read] of Object.entries(PROJECT_TOOLS)) TABLE.set(p, judgeProjectTool(read));
for (const p of ['less', 'more', 'most', 'pg', 'zless', 'zmore', 'bzless', 'xzless', 'view'])
  TABLE.set(p, (_a, name) => [finding('pager', 'L2', { p: name })]);
/** Programs that take over the terminal (editors, monitors, shells, debuggers) or run the commands they read (xargs, parallel). */
// prettier-ignore
const INTERACTIVE = [
  'vim', 'vi', 'nvim', 'nano', 'emacs', 'ed', 'ex', 'top', 'htop', 'btop', 'watch', 'tmux', 'screen', 'script', 'mc', 'ranger', 'nnn',
  'sqlite3', 'mysql', 'psql', 'redis-cli', 'mongo', 'mongosh', 'ftp', 'telnet', 'gdb', 'lldb', 'strace', 'ltrace', 'valgrind', 'perf',
  'xargs', 'parallel', 'flock', 'find-exec', 'chronic', 'entr', 'nodemon', 'busybox-sh',
];
for (const p of INTERACTIVE) {
  TABLE.set(p, (args, name) =>
    isInfoOnly(args)
      ? [readOnly(name)]
      : p === 'xargs' || p === 'parallel'
        ? [finding('wrapper.xargs', 'L2', { p: name })]
        : [finding('interactive', 'L2', { p: name })],
  );
}
TABLE.set('env', judgeEnv);
TABLE.set('slothtool', (args, name) => {
  const [sub, alias] = operands(args);
  if (sub === 'ai' || (sub === 'run' && alias === 'ai')) return [finding('plugin.self', 'L2')];
  const own = slothtoolSelfConfig(args);
  if (own) return [own];
  if (sub === undefined || sub === 'list' || sub === 'ls' || (sub === 'config' && operands(args).length === 1))
    return [readOnly(`${name} ${sub ?? ''}`.trim())];
  return [finding('plugin.run', 'L1', { p: sub === 'run' ? (alias ?? '') : sub })];
});
// llm-base's own bin: its config subcommands are SlothTool's configuration; anything else is as unknown as before.
TABLE.set('llm-base', (args, name) => {
  const write = llmBaseConfigWrite(args);
  return write ? [selfConfig(`${name} ${write}`)] : [finding('program.unknown', 'L2', { p: name }, { allowable: true })];
});
TABLE.set('ip', (args, name) => {
  const ops = operands(args, ['-f', '-family', '-n', '-netns']);
  const readOnlyForm = ops.length <= 1 || ['show', 'list', 'ls', 'get', 'lst'].includes(ops[1]) || (ops[0] === 'route' && ops[1] === 'get');
  return readOnlyForm
    ? [readOnly(`${name} ${ops[0] ?? ''}`.trim())]
    : [finding('system.change', 'L2', { p: `${name} ${ops.slice(0, 2).join(' ')}` })];
});
TABLE.set('ifconfig', (args, name) =>
  args.length === 0 ||
  (args.length <= 2 && args.every((a) => a === '-a' || a === '-l' || a === '-s' || /^[a-z]+[0-9]*$/.test(a)) && operands(args).length <= 1)
    ? [readOnly(name)]
    : [finding('system.change', 'L2', { p: name })],
);
TABLE.set('sysctl', (args, name) =>
  args.some((a) => a.includes('=') || a === '-w' || a === '--write' || a === '-p' || a === '--load' || a === '--system')
    ? [finding('system.change', 'L2', { p: name })]
    : [readOnly(name)],
);
TABLE.set('dmesg', (args, name) =>
  args.some(
    (a) =>
      ['-c', '-C', '--clear', '--read-clear', '-n', '--console-level', '-D', '-E', '--console-off', '--console-on'].includes(a) ||
      /^-[a-zA-Z]*[cCnDE]/.test(a),
  )
    ? [finding('system.change', 'L2', { p: `${name} ${args.join(' ')}` })]
    : [readOnly(name)],
);
for (const p of ['bat', 'batcat'])
  TABLE.set(p, (args, name) => (findLong(args, ['--pager']) ? [execArg(name, '--pager')] : [readOnly(name)]));
TABLE.set('printenv', () => [finding('wrapper.env_print', 'L1')]);
// ldd runs the program it inspects with the loader's trace switched on (some loaders run it for real).
TABLE.set('ldd', (args, name) => (isInfoOnly(args) ? [readOnly(name)] : [finding('program.runs', 'L1', { p: name })]));
TABLE.set('git', (args, _name, ctx) => judgeGit(args, ctx));
TABLE.set('find', judgeFind);
TABLE.set('fd', judgeFd);
TABLE.set('fdfind', judgeFd);
TABLE.set('rg', judgeRg);
TABLE.set('ag', (args, name) => (findLong(args, ['--pager']) ? [execArg(name, '--pager')] : [readOnly(name)]));
TABLE.set('ack', (args, name) =>
  findLong(args, ['--pager', '--output']) ? [execArg(name, findLong(args, ['--pager', '--output']) ?? '')] : [readOnly(name)],
);
const orRead = (found: Finding[], name: string): Finding[] => (found.length ? found : [readOnly(name)]);
TABLE.set('sed', (args, name) => orRead(judgeSed(args), name));
TABLE.set('gsed', (args, name) => orRead(judgeSed(args), name));
for (const p of ['awk', 'gawk', 'mawk', 'nawk']) TABLE.set(p, (args, name) => orRead(judgeAwk(name, args), name));
TABLE.set('sort', judgeSort);
TABLE.set('uniq', judgePositionalOut(1, ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars']));
TABLE.set('xxd', judgePositionalOut(1, ['-c', '-g', '-l', '-s', '-o', '-n', '-cols', '-len', '-seek']));
TABLE.set('iconv', judgePositionalOut(99, ['-f', '-t'], ['-o', '--output']));
TABLE.set('yq', (args, name) =>
  args.some((a) => a === '-i' || a === '--inplace' || /^-[a-zA-Z]*i/.test(a)) ? [writeArg(name, '-i')] : [readOnly(name)],
);
TABLE.set('shuf', (args, name) => (args.some((a) => a === '-o' || a.startsWith('--output')) ? [writeArg(name, '-o')] : [readOnly(name)]));
TABLE.set('tree', judgeTree);
TABLE.set('tee', (args, name, ctx) => judgeWriter(false)(args, name, ctx));
for (const p of ['cp', 'ln', 'install']) TABLE.set(p, judgeWriter(true));
TABLE.set('mv', judgeWriter(false));
for (const p of OPERAND_WRITERS) TABLE.set(p, judgeWriter(false));
TABLE.set('rm', judgeRm);
for (const p of ['chmod', 'chown', 'chgrp']) TABLE.set(p, judgePerm);
TABLE.set('dd', judgeDd);
for (const p of ['kill', 'skill', 'taskkill']) TABLE.set(p, judgeKill);
/** pkill and killall options that pick processes by owner, group, session, parent, age or inverse match: many at once, not one. */
// prettier-ignore
const KILL_SELECTORS = [
  '-u', '-U', '-g', '-G', '-s', '-P', '--user', '--uid', '--group', '--session', '--parent', '-v', '--inverse', '-r', '--regexp', '-o',
  '--older-than', '-y', '--younger-than',
];
for (const p of ['pkill', 'killall']) {
  TABLE.set(p, (args, name) => {
    const everyone = args.find((a) => KILL_SELECTORS.includes(a) || /^(\.\*?|\^|\$|\.\+|\[.*\]\*?)$/.test(a));
    return everyone ? [finding('system.kill_all', 'L2', { a: args.join(' ') })] : [finding('kill.pid', 'L1', { p: name })];
  });
}
TABLE.set('tar', judgeTar);
TABLE.set('bsdtar', judgeTar);
TABLE.set('gtar', judgeTar);
TABLE.set('unzip', judgeArchiver(['-l', '-v', '-t', '-Z', '-z']));
TABLE.set('zip', (args, name, ctx) => {
  // `-m` / `--move` deletes the files it packs (a cluster such as `-rm` too).
  const move = findLong(args, ['--move']) ?? args.find((a) => /^-[a-zA-Z]*m/.test(a) && !a.startsWith('--'));
  return move
    ? [finding('delete.recursive', 'L2', { p: name, a: move })]
    : judgeSimpleMode(['--show-files', '-sf'], ['-TT', '--unzip-command'])(args, name, ctx);
});
for (const p of ['gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'lz4', 'brotli'])
  TABLE.set(p, judgeArchiver(['-c', '--stdout', '--to-stdout', '-l', '--list', '-t', '--test']));
TABLE.set('7z', (args, name) =>
  args.some((a) => /^-sdel$/i.test(a))
    ? [finding('delete.recursive', 'L2', { p: name, a: '-sdel' })]
    : args[0] === 'l' || args[0] === 't'
      ? [readOnly(name)]
      : [writeFile(name)],
);
TABLE.set('npm', judgeNpm);
TABLE.set('npx', judgeNpx);
TABLE.set('pnpx', judgeNpx);
TABLE.set('bunx', judgeNpx);
for (const p of ['rimraf', 'del', 'del-cli', 'trash', 'rmrf', 'premove'])
  TABLE.set(p, (args, name) => [finding('delete.recursive', 'L2', { p: name, a: args.join(' ') })]);
TABLE.set('tsc', judgeTsc);
TABLE.set('curl', judgeCurl);
TABLE.set('wget', judgeWget);
for (const p of ['ping', 'ping6', 'dig', 'nslookup', 'host', 'traceroute', 'tracepath', 'whois', 'mtr']) TABLE.set(p, judgeNetworkTool([]));
for (const p of ['http', 'https', 'xh', 'xhs']) TABLE.set(p, judgeHttpie);
TABLE.set('aria2c', judgeAria2c);
for (const p of ['nc', 'ncat', 'netcat']) TABLE.set(p, judgeNetcat);
TABLE.set('socat', judgeSocat);
TABLE.set('ssh', judgeSsh);
TABLE.set('scp', judgeScp);
TABLE.set('sftp', judgeSftp);
TABLE.set('rsync', judgeRsync);
TABLE.set('rclone', judgeRclone);
TABLE.set('date', judgeDate);
TABLE.set('hostname', judgeHostname);
TABLE.set('man', judgeMan);
TABLE.set('info', judgeMan);
TABLE.set('systemctl', judgeSystemctl);
for (const p of ['docker', 'podman']) TABLE.set(p, (args, name, ctx) => judgeContainerDelete(name, args) ?? judgeDocker(args, name, ctx));
TABLE.set('kubectl', judgeKubectl);
TABLE.set('gh', judgeGh);
TABLE.set('busybox', judgeBusybox);
for (const p of ['open', 'xdg-open', 'gio', 'start', 'explorer']) {
  TABLE.set(p, (args, name) => {
    // Opening a document shows it; opening an app, a script or a .command file runs it.
    const runs = args.find(
      (a) =>
        ['-a', '-b', '-e', '-t', '--args', '-n'].includes(a) ||
        /\.(app|command|tool|sh|bash|zsh|desktop|exe|bat|cmd|com|ps1|jar|py|rb|pl|scpt|applescript|terminal|workflow|pkg|dmg|msi|appimage|run)\/?$/i.test(
          a,
        ),
    );
    return runs ? [execArg(name, runs)] : [finding('arg.exec', 'L1', { p: name, a: 'open' })];
  });
}

// Deletes hidden in subcommands (programs/build-deletes.ts) before each tool's own rules.
const projectCmake = TABLE.get('cmake')!;
TABLE.set('cmake', (args, name, ctx) => judgeCmake(args, name, ctx) ?? projectCmake(args, name, ctx));
// Tools' own commands that change what names their registries and programs (programs/config-cli.ts).
// Each is looked at only when a word that starts one of those subcommands is there.
const DELETE_OR_CONFIG = new Set(['cache', 'c', 'config', 'store', 'pm', 'clean', 'cleanup', 'env', 'sources', 'alias']);
/** Package and build tools whose cache and config subcommands delete files or change what names their registries and programs. */
// prettier-ignore
const CONFIGURABLE_TOOLS = [
  'npm', 'yarn', 'pnpm', 'bun', 'pip', 'pip3', 'uv', 'poetry', 'conda', 'brew', 'deno', 'bazel', 'go', 'cargo', 'gem', 'gh',
];
for (const p of CONFIGURABLE_TOOLS) {
  const own = TABLE.get(p);
  if (own)
    TABLE.set(
      p,
      (args, name, ctx) =>
        (args.some((a) => DELETE_OR_CONFIG.has(a)) ? (judgeToolDelete(name, args, ctx) ?? judgeConfigCli(name, args)) : undefined) ??
        own(args, name, ctx),
    );
}

/** Package managers, installers, project tools and git: every URL among their words is an address they may be sent to. */
const FETCHERS = new Set([...Object.keys(INSTALLERS), ...Object.keys(PROJECT_TOOLS), 'npm', 'npx', 'pnpx', 'bunx', 'git']);

/** Whether `name` is in the built-in program table. */
export function isKnownProgram(name: string): boolean {
  return TABLE.has(name) || /^python[0-9.]*$/.test(name);
}

/**
 * Judge one command (program + argument vector) as it will actually run. Wrappers (env,
 * timeout, nice, sudo with allowSudo) are judged by the command they wrap.
 */
export function judgeCommand(program: string, args: readonly string[], ctx: JudgeCtx): Finding[] {
  if (ctx.depth > MAX_WRAP_DEPTH) return [finding('wrapper.depth', 'L2')];
  const inner: JudgeCtx = { ...ctx, depth: ctx.depth + 1 };
  const resolved = resolveProgram(program);
  if ('block' in resolved) return allowByPolicy(program, args, [resolved.block], ctx);
  const name = resolved.name;
  const out: Finding[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!printableAscii(a) && (INVISIBLE_RE.test(a) || CONTROL_RE.test(a))) out.push(finding('args.invisible', 'L2', { n: String(i + 1) }));
  }
  const handler = TABLE.get(name) ?? (/^python[0-9.]*$/.test(name) ? judgeInterpreter : undefined);
  if (!handler) return allowByPolicy(program, args, [...out, finding('program.unknown', 'L2', { p: name }, { allowable: true })], ctx);
  if (!WRAPPERS[name] && name !== 'env' && !ESCALATION.has(name) && name !== 'busybox' && !LISTERS.has(name) && !gitNamesOnly(name, args))
    out.push(...secretFindings(args, ctx));
  if (
    isInfoOnly(args) &&
    !ESCALATION.has(name) &&
    !SYSTEM_SET.has(name) &&
    !WRAPPERS[name] &&
    !PROJECT_CODE_ALWAYS.has(name) &&
    name !== 'kill' &&
    name !== 'date' &&
    name !== 'hostname'
  ) {
    return [...out, finding('interp.info', 'L0', { p: name })];
  }
  // Where a package manager, installer or git is told to connect (a proxy, a registry, a remote), judged by where it leads.
  const own = handler(args, name, inner).concat(addressFindings(name, args, inner, FETCHERS.has(name)));
  out.push(...own);
  // The program's option table: exec options always, write/network/unknown ones when its rules said read-only.
  if (!WRAPPERS[name] && !ESCALATION.has(name))
    out.push(
      ...judgeOptions(
        name,
        args,
        ctx,
        own.every((f) => f.level === 'L0'),
      ),
    );
  // Project code and installers may write wherever their arguments say (`go build -o ~/.local/bin/x`).
  const writes = own.some((f) => f.cat?.includes('write') || WRITING_IDS.has(f.id));
  // Programs whose rules judge the paths they write: copies by name only here (their sources are no targets), transfers not at all.
  if (writes && !OWN_TARGETS.has(name))
    out.push(...writeTargetFindings(args, ctx, PRECISE_WRITERS.has(name) ? 'names' : own.some((f) => CODE_IDS.has(f.id)) ? 'code' : 'all'));
  else if (!writes && own.every((f) => f.level === 'L0') && !WRAPPERS[name] && !ESCALATION.has(name) && name !== 'env')
    out.push(...readPathFindings(name, args, ctx));
  return allowByPolicy(program, args, out, ctx);
}
