import * as path from 'path';
import { findLong, findShort, isInfoOnly, isLong, operands, shortCluster } from './args';
import { finding, type Finding, type JudgeCtx } from './finding';
import { judgeGit } from './git';
import { CONTROL_RE, isOutsideWorkspace, isSystemPath, secretFindings, writeTargetFindings } from './paths';
import { INVISIBLE_RE, resolveProgram } from './resolve-program';
import { judgeAwk, judgeSed } from './sed-awk';

type Handler = (args: readonly string[], name: string, ctx: JudgeCtx) => Finding[];

const MAX_WRAP_DEPTH = 8;

const readOnly = (name: string): Finding => finding('read.only', 'L0', { p: name });
const writeFile = (name: string): Finding => finding('write.file', 'L1', { p: name }, { cat: ['write'] });
const execArg = (name: string, a: string): Finding => finding('arg.exec', 'L2', { p: name, a });
const writeArg = (name: string, a: string): Finding => finding('arg.write', 'L1', { p: name, a }, { cat: ['write'] });
const writeBlock = (name: string, a: string): Finding => finding('arg.write_block', 'L2', { p: name, a });

/** Programs that only read, whatever their arguments. */
const PLAIN_READERS = [
  'ls', 'dir', 'vdir', 'cat', 'tac', 'head', 'tail', 'wc', 'nl', 'od', 'hexdump', 'strings', 'stat', 'du', 'df',
  'pwd', 'echo', 'printf', 'which', 'whereis', 'realpath', 'readlink', 'basename', 'dirname', 'uname', 'whoami',
  'id', 'groups', 'uptime', 'true', 'false', 'seq', 'cut', 'tr', 'comm', 'diff', 'cmp', 'grep', 'egrep', 'fgrep',
  'column', 'fold', 'fmt', 'expand', 'unexpand', 'paste', 'join', 'rev', 'md5sum', 'sha1sum', 'sha224sum',
  'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'base64', 'base32', 'basenc', 'jq', 'nproc',
  'arch', 'locale', 'test', '[', 'expr', 'factor', 'numfmt', 'getconf', 'lsb_release', 'sw_vers', 'free',
  'vmstat', 'lscpu', 'lsblk', 'ps', 'pgrep', 'lsof', 'w', 'who', 'cal', 'tsort', 'look', 'zcat', 'zgrep',
  'bzcat', 'xzcat', 'nm', 'objdump', 'readelf', 'size', 'md5', 'shasum', 'tty', 'sleep', 'yes', 'diff3', 'sdiff',
  'type', 'hash', 'cloc', 'tokei', 'scc', 'file', 'ldd', 'otool', 'pstree', 'fc-list', 'iostat',
  'netstat', 'ss', 'whatis', 'apropos', 'locate', 'plocate', 'mdfind', 'getent', 'tput', 'eza', 'exa', 'lsd', 'dust', 'duf',
  'hexyl', 'system_profiler', 'last', 'lastlog', 'users', 'lsusb', 'lspci', 'lsmod', 'blkid', 'findmnt', 'sw_vers', 'xxhsum',
];

/** Readers that also list or inspect without reading file contents (no secret-store rule). */
const LISTERS = new Set(['jq', 'ls', 'dir', 'vdir', 'stat', 'du', 'tree', 'find', 'fd', 'realpath', 'readlink', 'basename', 'dirname', 'echo', 'printf', 'which', 'whereis', 'file', 'test', '[']);

const INTERPRETERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'yash', 'pwsh', 'powershell', 'cmd',
  'node', 'nodejs', 'perl', 'ruby', 'irb', 'php', 'lua', 'luajit', 'Rscript', 'R', 'julia', 'osascript', 'tclsh',
  'wish', 'java', 'ts-node', 'tsx', 'groovy', 'scala', 'elixir', 'erl', 'guile', 'racket', 'runghc', 'ghci',
  'pypy', 'pypy3', 'jshell', 'kotlin', 'swift', 'dotnet-script', 'expect', 'gawk-shell', 'vite-node', 'esno',
]);

/** Inline-code option letters by interpreter (short clusters containing one are inline code). */
const INLINE: Record<string, { short: string; long: string[] }> = {
  shell: { short: 'c', long: ['--command', '--init-file', '--rcfile'] },
  node: { short: 'epr', long: ['--eval', '--print', '--require', '--import', '--loader', '--experimental-loader', '--input-type'] },
  python: { short: 'c', long: ['--command'] },
  perl: { short: 'eEnpixM', long: [] },
  ruby: { short: 'eriIn', long: ['--require'] },
  php: { short: 'rRBEFa', long: ['--run'] },
  other: { short: 'e', long: ['--eval', '--execute', '--expression'] },
};

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'yash']);

function interpreterKind(name: string): keyof typeof INLINE {
  if (SHELLS.has(name) || name === 'pwsh' || name === 'powershell' || name === 'cmd') return 'shell';
  if (name === 'node' || name === 'nodejs' || name === 'ts-node' || name === 'tsx' || name === 'vite-node' || name === 'esno') return 'node';
  if (/^python[0-9.]*$/.test(name) || name.startsWith('pypy')) return 'python';
  if (name === 'perl') return 'perl';
  if (name === 'ruby' || name === 'irb') return 'ruby';
  if (name === 'php') return 'php';
  return 'other';
}

const PYTHON_MODULES: Record<string, Finding['level']> = { 'json.tool': 'L1', pytest: 'L1', unittest: 'L1', mypy: 'L1', ruff: 'L1', black: 'L1', 'http.server': 'L1', venv: 'L1', pip: 'L1' };

function judgeInterpreter(args: readonly string[], name: string): Finding[] {
  if (isInfoOnly(args, name === 'node' || name === 'nodejs' ? ['-v'] : ['-v', '-version'])) return [finding('interp.info', 'L0', { p: name })];
  if (args.length === 0) return [finding('interactive', 'L2', { p: name })];
  const kind = interpreterKind(name);
  const spec = INLINE[kind];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--' || !a.startsWith('-') || a === '-') {
      const script = a === '--' ? args[i + 1] : a;
      if (script === undefined || script === '-') return [finding('interactive', 'L2', { p: name })];
      return [finding('interp.script', 'L2', { p: name, a: script }, { allowable: true })];
    }
    if (kind === 'python' && (a === '-m' || (shortCluster(a)?.endsWith('m') ?? false))) {
      const mod = a === '-m' ? (args[i + 1] ?? '') : a.slice(a.indexOf('m') + 1) || (args[i + 1] ?? '');
      if (mod === 'pip') {
        const sub = args[i + 2];
        if (['list', 'show', 'freeze', 'check', '--version'].includes(sub)) return [readOnly(`${name} -m pip ${sub}`)];
        return [finding('install', 'L1', { p: `${name} -m pip`, s: sub ?? '' })];
      }
      const level = PYTHON_MODULES[mod];
      if (level === 'L0') return [readOnly(`${name} -m ${mod}`)];
      if (level === 'L1') return [finding('project.script', 'L1', { p: `${name} -m`, s: mod })];
      return [finding('interp.script', 'L2', { p: `${name} -m`, a: mod }, { allowable: true })];
    }
    const c = shortCluster(a);
    if ((c && [...spec.short].some((l) => c.includes(l))) || spec.long.some((l) => a === l || a.startsWith(l + '='))) {
      return [finding('interp.inline', 'L2', { p: name, a })];
    }
    if (kind === 'node' && (a === '--test' || a === '--run')) return [finding('project.script', 'L1', { p: name, s: a })];
  }
  return [finding('interactive', 'L2', { p: name })];
}

/** Environment variables that change what a program runs or which configuration it reads. */
const SAFE_ENV = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|CI|DEBUG|NODE_ENV|NODE_NO_WARNINGS|GIT_TERMINAL_PROMPT|GIT_OPTIONAL_LOCKS|GIT_AUTHOR_NAME|GIT_AUTHOR_EMAIL|GIT_COMMITTER_NAME|GIT_COMMITTER_EMAIL|GIT_AUTHOR_DATE|GIT_COMMITTER_DATE|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONIOENCODING|RUST_BACKTRACE|RUST_LOG|VERBOSE|TMPDIR)$/;
const DANGEROUS_ENV = /^(LD_|DYLD_|GIT_|NODE_|NPM_|npm_|YARN_|PNPM_|PYTHON|PERL|RUBY|GEM_|BUNDLE_|JAVA|_JAVA|JDK_|CARGO|RUSTC|RUSTFLAGS|GOFLAGS|GOPROXY|CC$|CXX$|MAKEFLAGS|BASH_|ENV$|SHELL|PS[0-4]$|PROMPT|IFS$|PATH$|HOME$|XDG_|PAGER$|MANPAGER|GIT_PAGER|EDITOR$|VISUAL$|BROWSER$|LESS|RIPGREP_CONFIG_PATH$|SSH_|GNUPGHOME|CURL_HOME|WGETRC|ZDOTDIR|TERMINFO|.*_OPTIONS$|.*_OPTS$)/i;

function judgeEnvAssignment(assign: string): Finding[] {
  const name = assign.slice(0, assign.indexOf('='));
  if (SAFE_ENV.test(name)) return [];
  if (DANGEROUS_ENV.test(name)) return [finding('wrapper.env_var', 'L2', { v: name })];
  return [];
}

/** `env [options] [NAME=value]... [command [args]]` */
function judgeEnv(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-i' || a === '--ignore-environment' || a === '-' || a === '-0' || a === '--null' || a === '-v' || a === '--debug') continue;
    if (a === '-C' || a === '--chdir') {
      out.push(...secretFindings([args[++i] ?? '']));
      continue;
    }
    if (a === '-u' || a === '--unset') {
      i++;
      continue;
    }
    if (a.startsWith('--unset=') || a.startsWith('--chdir=') || /^-[uC]./.test(a) || a.startsWith('--default-signal') || a.startsWith('--ignore-signal') || a.startsWith('--block-signal')) continue;
    if (a === '-S' || a.startsWith('-S') || a.startsWith('--split-string') || (shortCluster(a) ?? '').includes('S')) return [...out, execArg(name, a)];
    if (a.startsWith('-')) return [...out, finding('arg.unparsed', 'L2', { p: name, a })];
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      out.push(...judgeEnvAssignment(a));
      continue;
    }
    break;
  }
  if (i >= args.length) return [...out, finding('wrapper.env_print', 'L1')];
  return [...out, ...judgeCommand(args[i], args.slice(i + 1), ctx)];
}

interface WrapperSpec {
  /** Options that take a separate value. */
  valued: string[];
  /** Positional arguments before the command (timeout's DURATION). */
  leading: number;
  /** Options that make the wrapper itself write a file or run something else. */
  writes?: string[];
  execs?: string[];
}

const WRAPPERS: Record<string, WrapperSpec> = {
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], leading: 1 },
  gtimeout: { valued: ['-s', '--signal', '-k', '--kill-after'], leading: 1 },
  nice: { valued: ['-n', '--adjustment'], leading: 0 },
  nohup: { valued: [], leading: 0 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'], leading: 0 },
  time: { valued: ['-f', '--format'], leading: 0, writes: ['-o', '--output', '-a', '--append'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata'], leading: 0, execs: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  setsid: { valued: [], leading: 0 },
  caffeinate: { valued: ['-t', '-w'], leading: 0 },
  unbuffer: { valued: [], leading: 0 },
  command: { valued: [], leading: 0 },
  builtin: { valued: [], leading: 0 },
  exec: { valued: ['-a'], leading: 0 },
};

function judgeWrapper(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const spec = WRAPPERS[name];
  const out: Finding[] = [];
  let i = 0;
  let leading = spec.leading;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (spec.writes?.some((w) => a === w || a.startsWith(w + '='))) {
      out.push(writeArg(name, a));
      if (!a.includes('=')) i++;
      continue;
    }
    if (spec.execs?.includes(a)) return [...out, finding('kill.pid', 'L1', { p: `${name} ${a}` })];
    if (spec.valued.includes(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      // nice -5, stdbuf -oL, timeout --preserve-status, time -p: options without a separate value.
      continue;
    }
    if (leading > 0) {
      leading--;
      continue;
    }
    break;
  }
  if (i >= args.length) {
    return name === 'nice' && out.length === 0 ? [readOnly(name)] : [...out, finding('wrapper.unparsed', 'L2', { p: name })];
  }
  return [...out, ...judgeCommand(args[i], args.slice(i + 1), ctx)];
}

const ESCALATION = new Set(['sudo', 'doas', 'pkexec', 'run0', 'su', 'sudoedit', 'gosu', 'su-exec', 'chroot', 'runuser', 'setpriv', 'nsenter', 'unshare', 'machinectl', 'sg', 'newgrp', 'calife', 'dzdo', 'pfexec']);

function judgeEscalation(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  if (isInfoOnly(args) && name !== 'su') return [finding('interp.info', 'L0', { p: name })];
  if (!ctx.policy.allowSudo || !['sudo', 'doas', 'pkexec', 'run0'].includes(name)) return [finding('escalation', 'L2', { p: name })];
  const valued = ['-u', '--user', '-g', '--group', '-C', '--close-from', '-D', '--chdir', '-h', '--host', '-p', '--prompt', '-r', '--role', '-t', '--type', '-T', '--command-timeout', '-U', '--other-user'];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (['-s', '--shell', '-i', '--login', '-e', '--edit', '-v', '--validate', '-k', '-K', '-l', '--list'].includes(a) || /^-[^-]*[sie]/.test(a)) {
      return [finding('escalation', 'L2', { p: `${name} ${a}` })];
    }
    if (valued.includes(a)) i++;
    else if (!a.startsWith('-')) break;
  }
  if (i >= args.length) return [finding('escalation', 'L2', { p: name })];
  return [finding('escalation.allowed', 'L1', { p: name }), ...judgeCommand(args[i], args.slice(i + 1), ctx)];
}

function judgeFind(args: readonly string[], name: string): Finding[] {
  const out: Finding[] = [];
  for (const a of args) {
    if (['-delete', '-exec', '-execdir', '-ok', '-okdir'].includes(a)) out.push(a === '-delete' ? finding('delete.recursive', 'L2', { p: name, a }) : execArg(name, a));
    else if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(a)) out.push(writeBlock(name, a));
  }
  return out.length ? out : [readOnly(name)];
}

function judgeFd(args: readonly string[], name: string): Finding[] {
  const bad = findLong(args, ['--exec', '--exec-batch']) ?? args.find((a) => /^-[a-zA-Z]*[xX]/.test(a) && !a.startsWith('--'));
  return bad ? [execArg(name, bad)] : [readOnly(name)];
}

function judgeRg(args: readonly string[], name: string): Finding[] {
  const bad = findLong(args, ['--pre', '--hostname-bin']);
  return bad ? [execArg(name, bad)] : [readOnly(name)];
}

function judgeSort(args: readonly string[], name: string): Finding[] {
  const comp = findLong(args, ['--compress-program']);
  if (comp) return [execArg(name, comp)];
  const o = findLong(args, ['--output']) ?? args.find((a) => /^-[a-zA-Z]*o/.test(a) && !a.startsWith('--'));
  return o ? [writeArg(name, o)] : [readOnly(name)];
}

/** `prog [in [out]]` style writers: uniq, xxd, iconv -o. */
function judgePositionalOut(max: number, valued: string[] = [], writes: string[] = []): Handler {
  return (args, name) => {
    const w = args.find((a) => writes.some((x) => a === x || a.startsWith(x + '=') || (x.length === 2 && a.startsWith(x))));
    if (w) return [writeArg(name, w)];
    return operands(args, valued).length > max ? [writeArg(name, args[args.length - 1])] : [readOnly(name)];
  };
}

function judgeTree(args: readonly string[], name: string): Finding[] {
  const o = args.find((a) => a === '-o' || a === '-R' || a.startsWith('--output'));
  return o ? [writeArg(name, o)] : [readOnly(name)];
}

function judgeRm(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const rec = findShort(args, 'rR') ?? findLong(args, ['--recursive', '--no-preserve-root']);
  const sys = operands(args).find((p) => isSystemPath(p, ctx));
  const out: Finding[] = [];
  if (rec) out.push(finding('delete.recursive', 'L2', { p: name, a: rec }));
  if (sys) out.push(finding('write.system_path', 'L2', { a: sys }));
  return out.length ? out : [writeFile(name)];
}

function judgeWriter(destOnly: boolean): Handler {
  return (args, name, ctx) => {
    const ops = operands(args, ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group']);
    const targets = destOnly ? ops.slice(-1) : ops;
    const t = findLong(args, ['--target-directory']) ?? (args.includes('-t') ? args[args.indexOf('-t') + 1] : undefined);
    if (t) targets.push(t.replace(/^--target-directory=/, ''));
    const sys = targets.find((p) => isSystemPath(p, ctx));
    return sys ? [finding('write.system_path', 'L2', { a: sys })] : [writeFile(name)];
  };
}

function judgePerm(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  const rec = findShort(args, 'R') ?? findLong(args, ['--recursive']);
  const ops = operands(args, ['--reference']);
  const targets = name === 'chmod' || name === 'chown' || name === 'chgrp' ? ops.slice(1) : ops;
  if (name === 'chmod' && ops[0] && (/^[0-7]?[2-7][0-7]{3}$/.test(ops[0]) || /[ugoa]*[+=][rwxXt]*s/.test(ops[0]))) out.push(finding('perm.setuid', 'L2', { a: ops[0] }));
  const sys = targets.find((p) => isSystemPath(p, ctx));
  if (sys) out.push(finding('write.system_path', 'L2', { a: sys }));
  const outside = targets.find((p) => isOutsideWorkspace(p, ctx));
  if (rec && outside) out.push(finding('perm.recursive_outside', 'L2', { p: name, a: outside }));
  return out.length ? out : [writeFile(name)];
}

function judgeDd(args: readonly string[], name: string): Finding[] {
  const of = args.find((a) => a.startsWith('of='));
  return of ? [finding('system.change', 'L2', { p: `${name} ${of}` })] : [finding('write.file', 'L1', { p: name })];
}

function judgeKill(args: readonly string[], name: string): Finding[] {
  if (args.some((a) => a === '-l' || a === '-L' || a === '--list' || a === '--table')) return [readOnly(name)];
  const targets = args.filter((a, i) => !(a.startsWith('-') && /^-([A-Za-z0-9]+|s|n)$/.test(a)) && !(i > 0 && (args[i - 1] === '-s' || args[i - 1] === '-n')) && a !== '--');
  const all = args.find((a, i) => (a === '-1' && i > 0) || (/^-\d+$/.test(a) && targets.length === 0 && a === '-1')) ?? targets.find((t) => /^-\d+$/.test(t) || t === '0' || t === '1');
  if (all || args.includes('--') && args[args.indexOf('--') + 1]?.startsWith('-')) return [finding('system.kill_all', 'L2', { a: args.join(' ') })];
  return [finding('kill.pid', 'L1', { p: name })];
}

function judgeTar(args: readonly string[], name: string): Finding[] {
  const out: Finding[] = [];
  const bad = findLong(args, ['--checkpoint-action', '--to-command', '--use-compress-program', '--rsh-command', '--info-script', '--new-volume-script', '--index-file']);
  if (bad) out.push(execArg(name, bad));
  const absolute = findLong(args, ['--absolute-names']) ?? args.find((a) => /^-[a-zA-Z]*P/.test(a) && !a.startsWith('--'));
  if (absolute) out.push(finding('write.system_path', 'L2', { a: absolute }));
  const ioIdx = args.findIndex((a) => a === '-I' || a === '-F');
  if (ioIdx >= 0) out.push(execArg(name, args[ioIdx]));
  let mode = '';
  const first = args[0] ?? '';
  if (first && !first.startsWith('-')) mode += first;
  for (const a of args) {
    const c = shortCluster(a);
    if (c) mode += c;
    if (a === '--list') mode += 't';
    if (['--extract', '--get', '--create', '--append', '--update', '--delete', '--concatenate'].includes(a)) mode += 'x';
  }
  if (out.length) return out;
  if (/[xcruA]/.test(mode) || args.includes('--delete')) return [writeFile(name)];
  return [readOnly(name)];
}

function judgeArchiver(listFlags: string[]): Handler {
  return (args, name) => {
    const listing = args.some((a) => listFlags.includes(a) || (listFlags.some((f) => f.length === 2) && (shortCluster(a) ?? '').split('').some((l) => listFlags.includes('-' + l))));
    return listing ? [readOnly(name)] : [writeFile(name)];
  };
}

function judgeSubcommands(read: string[], opts: { install?: string[]; scripts?: string[]; publish?: string[]; network?: string[]; readValued?: string[] } = {}): Handler {
  return (args, name) => {
    const sub = operands(args, opts.readValued ?? [])[0] ?? '';
    const infoOnly = args.length === 0 || isInfoOnly(args, ['-v']) || (args.length > 0 && args.every((a) => a === '--version' || a === '-v' || a === '--help' || a === '-h'));
    if (infoOnly || read.includes(sub)) return [readOnly(`${name} ${sub}`.trim())];
    if (opts.install?.includes(sub)) return [finding('install', 'L1', { p: name, s: sub })];
    if (opts.publish?.includes(sub)) return [finding('publish', 'L2', { p: name, s: sub })];
    if (opts.network?.includes(sub)) return [finding('network', 'L1', { p: `${name} ${sub}` }, { cat: ['network'] })];
    return [finding('project.script', 'L1', { p: name, s: sub })];
  };
}

const npmLike = judgeSubcommands(
  ['ls', 'list', 'll', 'la', 'view', 'v', 'info', 'show', 'outdated', 'explain', 'why', 'root', 'prefix', 'bin', 'docs-none', 'search', 'audit', 'doctor', 'whoami', 'fund', 'query', 'licenses', 'config-get', 'get'],
  {
    install: ['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'ci', 'clean-install', 'install-clean', 'uninstall', 'un', 'remove', 'rm', 'r', 'unlink', 'update', 'up', 'upgrade', 'dedupe', 'ddp', 'prune', 'rebuild', 'rb', 'link', 'ln', 'install-test', 'it', 'install-ci-test', 'cit', 'global', 'dlx-none', 'import', 'patch', 'patch-commit'],
    publish: ['publish', 'unpublish', 'deprecate', 'undeprecate', 'owner', 'access', 'token', 'adduser', 'login', 'logout', 'team', 'org', 'star', 'unstar', 'hook', 'dist-tag', 'trust'],
  },
);

/** npm configuration keys that hold credentials (`_authToken`, `//host/:_auth`, `_password`, ...). */
const NPM_SECRET_KEY_RE = /token|_auth|password|passwd|secret|otp/i;

/**
 * What npm prints when asked for its configuration: `value` for `npm config get <credential
 * key>`, `npm get <key>` and `npm config get` (a bare secret no redaction pattern recognises),
 * `listing` for `npm config list -l/--json` (`key = value` lines, which redaction masks).
 * Both are secret reads (L1).
 */
export function npmSecretOutput(args: readonly string[]): 'value' | 'listing' | undefined {
  const ops = operands(args);
  const sub = ops[0] ?? '';
  const value = (keys: string[]): 'value' | undefined => (keys.length === 0 || keys.some((k) => NPM_SECRET_KEY_RE.test(k)) ? 'value' : undefined);
  if (sub === 'get') return value(ops.slice(1));
  if (sub !== 'config' && sub !== 'c') return undefined;
  const action = ops[1] ?? '';
  if (action === 'get') return value(ops.slice(2));
  if (action === 'list' || action === 'ls' || action === '') {
    return args.some((a) => a === '-l' || a === '--long' || a === '--json' || a.startsWith('--long=')) ? 'listing' : undefined;
  }
  return undefined;
}

function judgeNpm(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const bad = findLong(args, ['--script-shell', '--node-options', '--call', '--shell', '--userconfig', '--globalconfig', '--git']);
  if (bad) return [execArg(name, bad)];
  const sub = operands(args)[0] ?? '';
  if (['exec', 'x', 'dlx'].includes(sub)) return judgeNpx(args.slice(args.indexOf(sub) + 1), `${name} ${sub}`, ctx);
  if (sub === 'explore' || sub === 'edit' || sub === 'set-script') return [execArg(name, sub)];
  if (npmSecretOutput(args)) return [finding('secret.read', 'L1', { a: `${name} ${operands(args).join(' ')}` })];
  if (sub === 'config' || sub === 'c' || sub === 'pkg') {
    const action = operands(args)[1] ?? '';
    if (['get', 'list', 'ls', 'fix-none'].includes(action) || action === '') return [readOnly(`${name} ${sub} ${action}`.trim())];
    if (action === 'edit') return [finding('interactive', 'L2', { p: `${name} ${sub} edit` })];
    const key = (operands(args)[2] ?? '').split('=')[0].replace(/^scripts\..*/, 'scripts');
    if (['script-shell', 'node-options', 'shell', 'git', 'userconfig', 'globalconfig', 'editor', 'browser', 'viewer', 'onload-script', 'init-module', 'scripts', 'bin'].includes(key)) {
      return [finding('arg.exec', 'L2', { p: `${name} ${sub} ${action}`, a: key })];
    }
    return [writeFile(`${name} ${sub} ${action}`)];
  }
  if (sub === 'cache') return [(operands(args)[1] ?? '') === 'ls' || operands(args)[1] === 'verify' ? readOnly(`${name} cache`) : writeFile(`${name} cache`)];
  if (sub === 'version' && operands(args).length === 1) return [readOnly(`${name} version`)];
  if ((sub === 'run' || sub === 'run-script') && operands(args).length === 1) return [readOnly(`${name} run`)];
  if (sub === 'audit' && operands(args)[1] === 'fix') return [finding('install', 'L1', { p: name, s: 'audit fix' })];
  if (sub === 'init' || sub === 'create') return [finding('npx.run', 'L1', { p: `${name} ${sub}` })];
  return npmLike(args, name, ctx);
}

/**
 * npx / npm exec / yarn dlx / pnpm exec / bunx: the command they run is found on PATH too
 * (`npx -p x -- sh -c ...`), so a known program is judged as itself, and it always asks.
 */
function judgeNpx(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  if (isInfoOnly(args, ['-v'])) return [readOnly(name)];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-c' || a === '--call' || a.startsWith('--call=') || a.startsWith('--node-options') || a.startsWith('--script-shell') || a === '--shell-mode') return [execArg(name, a)];
    if (a === '-p' || a === '--package') {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    break;
  }
  const cmd = args[i];
  if (cmd === undefined) return [finding('npx.run', 'L1', { p: name })];
  const pkg = [cmd, ...args.slice(0, i).filter((a, k) => k > 0 && (args[k - 1] === '-p' || args[k - 1] === '--package'))];
  if (pkg.some((p) => /(^|\/)plugin-ai(@|$)/.test(p) || p === 'ai')) return [finding('plugin.self', 'L2')];
  const run = finding('npx.run', 'L1', { p: `${name} ${cmd}` });
  if (isKnownProgram(cmd) || cmd.includes('/')) return [run, ...judgeCommand(cmd, args.slice(i + 1), ctx)];
  return [run, ...secretFindings(args.slice(i + 1))];
}

function judgeTsc(args: readonly string[], name: string): Finding[] {
  if (isInfoOnly(args, ['-v']) || args.includes('--noEmit') || args.includes('-noEmit') || args.includes('--showConfig') || args.includes('--listFilesOnly')) return [readOnly(name)];
  if (args.includes('--watch') || args.includes('-w')) return [finding('project.script', 'L1', { p: name, s: '--watch' })];
  return [writeFile(name)];
}

function judgeCurl(args: readonly string[], name: string): Finding[] {
  const writes = args.find((a) => ['-K', '--config', '-o', '--output', '-O', '--remote-name', '--remote-name-all', '-D', '--dump-header', '-c', '--cookie-jar', '--output-dir', '-J', '--trace', '--trace-ascii', '--libcurl', '--etag-save', '--hsts', '--alt-svc', '--stderr'].includes(a) || /^-[a-zA-Z]*[oOcDJK]/.test(a));
  const uploads = args.find((a) => ['-T', '--upload-file', '-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--json', '-F', '--form', '-X', '--request', '--form-string'].includes(a) || a.startsWith('--data') || /^-[a-zA-Z]*[TdFX]/.test(a));
  const cat: Array<'network' | 'write'> = writes || uploads ? ['network', 'write'] : ['network'];
  return [finding('network', 'L1', { p: name }, { cat })];
}

function judgeNetworkTool(execFlags: string[] = []): Handler {
  return (args, name) => {
    const bad = args.find((a) => execFlags.some((f) => a === f || a.startsWith(f + '=')) || (execFlags.includes('-e') && /^-[a-zA-Z]*e/.test(a)));
    if (bad) return [execArg(name, bad)];
    return [finding('network', 'L1', { p: name }, { cat: ['network'] })];
  };
}

function judgeRsync(args: readonly string[], name: string): Finding[] {
  const bad = findLong(args, ['--rsh', '--rsync-path', '--info-script']) ?? args.find((a) => /^-[a-zA-Z]*e/.test(a) && !a.startsWith('--'));
  if (bad) return [execArg(name, bad)];
  const del = findLong(args, ['--delete', '--delete-before', '--delete-during', '--delete-after', '--delete-excluded', '--remove-source-files']);
  if (del) return [finding('delete.recursive', 'L2', { p: name, a: del })];
  return [finding('network', 'L1', { p: name }, { cat: ['network', 'write'] })];
}

function judgeDate(args: readonly string[], name: string): Finding[] {
  const set = args.find((a) => a === '-s' || a.startsWith('--set') || /^-[uRr]*s/.test(a) || /^\d{8,12}(\.\d\d)?$/.test(a));
  return set ? [finding('system.change', 'L2', { p: `${name} ${set}` })] : [readOnly(name)];
}

function judgeHostname(args: readonly string[], name: string): Finding[] {
  const ops = operands(args);
  return ops.length > 0 || args.some((a) => a === '-F' || a === '--file' || a === '-b') ? [finding('system.change', 'L2', { p: name })] : [readOnly(name)];
}

function judgeMan(args: readonly string[], name: string): Finding[] {
  const bad = args.find((a) => ['-P', '-H', '-X', '-l', '-Z', '-T'].includes(a) || ['--pager', '--html', '--gxditview', '--local-file', '--troff-device', '--preprocessor'].some((n) => isLong(a, n)) || /^-[a-zA-Z]*[PHp]/.test(a));
  return bad ? [execArg(name, bad)] : [readOnly(name)];
}

function judgeSystemctl(args: readonly string[], name: string): Finding[] {
  const sub = operands(args)[0] ?? '';
  if (['', 'status', 'list-units', 'list-unit-files', 'list-timers', 'list-sockets', 'is-active', 'is-enabled', 'is-failed', 'show', 'cat', 'list-dependencies', 'help'].includes(sub) || isInfoOnly(args)) return [readOnly(`${name} ${sub}`.trim())];
  return [finding('system.change', 'L2', { p: `${name} ${sub}` })];
}

function judgeSimpleMode(readFlags: string[], execFlags: string[] = []): Handler {
  return (args, name) => {
    const e = args.find((a) => execFlags.some((f) => a === f || a.startsWith(f + '=')));
    if (e) return [execArg(name, e)];
    return args.some((a) => readFlags.includes(a)) ? [readOnly(name)] : [writeFile(name)];
  };
}

function judgeDocker(args: readonly string[], name: string): Finding[] {
  const sub = operands(args, ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'])[0] ?? '';
  if (isInfoOnly(args) || ['ps', 'images', 'version', 'info', 'inspect', 'logs', 'top', 'stats-none', 'port', 'diff', 'history', 'search'].includes(sub)) return [readOnly(`${name} ${sub}`.trim())];
  const priv = args.find((a) => a === '--privileged' || a.startsWith('--pid=host') || a.startsWith('--net=host') || a.startsWith('--network=host') || a.startsWith('--cap-add') || /^\/(:|$)/.test(a) || /^\/:/.test(a) || a.startsWith('--volume=/:') || a.startsWith('-v/:') || a === '--security-opt');
  const sock = args.find((a) => a.includes('docker.sock') || a.includes('podman.sock'));
  if (priv || sock) return [finding('escalation', 'L2', { p: `${name} ${priv ?? sock}` })];
  const vIdx = args.findIndex((a, i) => (a === '-v' || a === '--volume') && /^\/(:|$)|^\/(etc|root|var\/run\/docker\.sock)/.test(args[i + 1] ?? ''));
  if (vIdx >= 0) return [finding('escalation', 'L2', { p: `${name} ${args[vIdx]} ${args[vIdx + 1]}` })];
  return [finding('project.script', 'L1', { p: name, s: sub })];
}

function judgeKubectl(args: readonly string[], name: string): Finding[] {
  const sub = operands(args, ['-n', '--namespace', '--context', '-o', '--output', '-l', '--selector'])[0] ?? '';
  if (isInfoOnly(args) || ['get', 'describe', 'logs', 'version', 'explain', 'api-resources', 'api-versions', 'cluster-info', 'top', 'diff'].includes(sub)) return [readOnly(`${name} ${sub}`.trim())];
  if (sub === 'config' && ['view', 'get-contexts', 'current-context', 'get-clusters'].includes(operands(args)[1] ?? '')) return [readOnly(`${name} config`)];
  if (['exec', 'cp', 'debug', 'attach', 'proxy', 'port-forward'].includes(sub)) return [execArg(name, sub)];
  return [finding('project.script', 'L1', { p: name, s: sub })];
}

function judgeGh(args: readonly string[], name: string): Finding[] {
  const ops = operands(args, ['-R', '--repo']);
  const [group, action] = ops;
  if (isInfoOnly(args) || ops.length === 0) return [readOnly(name)];
  if (group === 'auth' && (action === 'token' || args.includes('--show-token') || args.includes('-t'))) return [finding('secret.private_key', 'L2', { a: `${name} auth token` })];
  if (group === 'api') return [finding('network', 'L1', { p: `${name} api` }, { cat: ['network', 'write'] })];
  if (['list', 'view', 'status', 'diff', 'checks', 'search'].includes(action ?? '') || ['status', 'search', 'browse-none'].includes(group)) return [finding('network', 'L1', { p: `${name} ${group} ${action ?? ''}`.trim() }, { cat: ['network'] })];
  return [finding('network', 'L1', { p: `${name} ${group} ${action ?? ''}`.trim() }, { cat: ['network', 'write'] })];
}

function judgeBusybox(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  if (args.length === 0 || isInfoOnly(args)) return [readOnly(name)];
  return judgeCommand(args[0], args.slice(1), ctx);
}

const SYSTEM = [
  'mkfs', 'mke2fs', 'mkswap', 'fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'wipefs', 'swapon', 'swapoff',
  'mount', 'umount', 'losetup', 'cryptsetup', 'diskutil', 'shutdown', 'reboot', 'halt', 'poweroff', 'init', 'telinit',
  'kexec', 'modprobe', 'insmod', 'rmmod', 'iptables', 'ip6tables', 'nft', 'ufw', 'firewall-cmd', 'pfctl',
  'useradd', 'userdel', 'usermod', 'groupadd', 'groupdel', 'passwd', 'chpasswd', 'chsh', 'chfn', 'visudo', 'crontab',
  'launchctl', 'service', 'update-rc.d', 'chattr', 'setcap', 'shred', 'srm', 'wipe', 'blkdiscard', 'hdparm', 'dmsetup',
  'lvremove', 'vgremove', 'pvremove', 'zpool', 'zfs', 'btrfs', 'xfs_repair', 'fsck', 'e2fsck', 'tune2fs', 'debugfs',
  'csrutil', 'nvram', 'bless', 'spctl', 'defaults', 'scutil', 'pmset', 'systemsetup', 'networksetup', 'killall5',
  'route', 'setenforce', 'auditctl', 'truncate-none', 'format', 'diskpart', 'bcdedit', 'reg',
  'vssadmin', 'wevtutil', 'cipher', 'takeown', 'icacls', 'schtasks', 'sc', 'netsh', 'at', 'batch', 'systemd-run',
];

const SYSTEM_SET = new Set(SYSTEM);

const INSTALLERS: Record<string, string[]> = {
  pip: ['list', 'show', 'freeze', 'check', 'search', 'index', 'inspect', 'debug', 'config-list'],
  pip3: ['list', 'show', 'freeze', 'check', 'search', 'index', 'inspect', 'debug'],
  pipx: ['list', 'environment'],
  brew: ['list', 'ls', 'info', 'search', 'deps', 'uses', 'outdated', 'config', 'doctor', 'leaves', 'desc', 'home-none', '--prefix', '--cellar', '--repository', 'commands', 'tap-info'],
  apt: ['list', 'search', 'show', 'policy', 'depends', 'rdepends'],
  'apt-get': ['check', 'changelog-none'],
  'apt-cache': ['search', 'show', 'policy', 'depends', 'rdepends', 'showpkg', 'pkgnames', 'madison', 'stats'],
  dpkg: ['-l', '--list', '-L', '--listfiles', '-s', '--status', '-S', '--search', '--print-architecture', '-c', '--contents', '-I', '--info'],
  yum: ['list', 'info', 'search', 'provides', 'repolist'],
  dnf: ['list', 'info', 'search', 'provides', 'repolist', 'repoquery'],
  pacman: ['-Q', '-Qi', '-Ql', '-Qs', '-Ss', '-Si', '-Qe', '-Qdt'],
  apk: ['info', 'search', 'list', 'policy'],
  gem: ['list', 'search', 'info', 'contents', 'environment', 'query', 'specification', 'which', 'outdated'],
  conda: ['list', 'info', 'search', 'env-list'],
  composer: [],
  poetry: ['show', 'check', 'env-info', 'search', 'config-list'],
  uv: ['tree', 'pip-list'],
  snap: ['list', 'info', 'find'],
  flatpak: ['list', 'info', 'search'],
  winget: ['list', 'search', 'show'],
  choco: ['list', 'search', 'info'],
  scoop: ['list', 'search', 'info'],
  port: ['installed', 'search', 'info', 'contents'],
  nix: ['search', 'eval-none', 'show-config'],
};

function judgeInstaller(read: string[]): Handler {
  return (args, name) => {
    if (args.length === 0 || isInfoOnly(args) || (args[0] === 'config' && args[1] === 'list')) return [readOnly(name)];
    const sub = name === 'dpkg' || name === 'pacman' ? args[0] : operands(args)[0] ?? '';
    if (read.includes(sub)) return [readOnly(`${name} ${sub}`)];
    if (['publish', 'push', 'upload', 'yank', 'owner', 'signin', 'login'].includes(sub)) return [finding('publish', 'L2', { p: name, s: sub })];
    return [finding('install', 'L1', { p: name, s: sub })];
  };
}

const PROJECT_TOOLS: Record<string, string[]> = {
  make: [], gmake: [], cmake: ['--version'], ninja: [], gradle: [], mvn: [], ant: [], bazel: ['version'],
  cargo: ['tree', 'metadata', 'search', 'version', 'locate-project', 'pkgid', 'read-manifest', 'verify-project'],
  go: ['version', 'env', 'list', 'doc', 'help'],
  jest: [], vitest: [], mocha: [], pytest: [], tox: ['-l', '--listenvs'], nox: [],
  eslint: [], prettier: [], biome: [], ruff: [], black: ['--check', '--diff'], mypy: [], pyright: [], flake8: [], pylint: [],
  rake: [], bundle: [], mix: [], dotnet: ['--info', '--list-sdks', '--list-runtimes'],
  swift: [], rustc: ['--print'], gcc: ['-dumpversion', '-dumpmachine', '--print-search-dirs'], 'g++': [], cc: [], clang: [], 'clang++': [], javac: [],
  turbo: [], nx: [], lerna: [], changeset: ['status'], tsup: [], vite: [], webpack: [], rollup: [], esbuild: [], next: ['info'], nuxt: [], playwright: [], cypress: [],
  yarn: [],
  pnpm: ['list', 'ls', 'll', 'la', 'why', 'outdated', 'view', 'info', 'root', 'bin', 'licenses', 'audit', 'store-path'],
  bun: ['pm-ls', 'outdated', 'why'],
  deno: ['info', 'doc', 'types', 'completions-none'],
};

/** Tools that load project-controlled code on every run (yarn's yarnPath and plugins, composer plugins). */
const PROJECT_CODE_ALWAYS = new Set(['yarn', 'composer']);

const PM_INSTALL = ['install', 'i', 'add', 'remove', 'rm', 'uninstall', 'update', 'up', 'upgrade', 'ci', 'link', 'unlink', 'dedupe', 'prune', 'rebuild', 'import', 'global', 'outdated-none'];
const PM_PUBLISH = ['publish', 'unpublish', 'deprecate', 'owner', 'access', 'login', 'logout', 'adduser', 'npm-none', 'token', 'dist-tag'];

function judgeProjectTool(read: string[]): Handler {
  return (args, name, ctx) => {
    if (isInfoOnly(args, ['-v']) && !PROJECT_CODE_ALWAYS.has(name)) return [readOnly(name)];
    const inline = args.find((a) => (name === 'bun' && ['-e', '--eval', '-p', '--print'].includes(a)) || (name === 'deno' && a === 'eval'));
    if (inline) return [finding('interp.inline', 'L2', { p: name, a: inline })];
    const sub = operands(args)[0] ?? '';
    if ((name === 'deno' && sub === 'run') || (name === 'bun' && sub === 'run' && /\.[cm]?[jt]sx?$/.test(operands(args)[1] ?? ''))) {
      return [finding('interp.script', 'L2', { p: `${name} run`, a: operands(args)[1] ?? '' }, { allowable: true })];
    }
    if (name === 'deno' && sub === 'repl') return [finding('interactive', 'L2', { p: name })];
    if ((name === 'bun' || name === 'deno') && /\.([cm]?[jt]sx?|json)$|\//.test(sub)) return [finding('interp.script', 'L2', { p: name, a: sub }, { allowable: true })];
    if (read.some((r) => args[0] === r || sub === r)) return [readOnly(`${name} ${sub || args[0]}`.trim())];
    if (['yarn', 'pnpm', 'bun'].includes(name)) {
      if (PM_INSTALL.includes(sub) || (name === 'yarn' && args.length === 0)) return [finding('install', 'L1', { p: name, s: sub })];
      if (PM_PUBLISH.includes(sub) || (sub === 'npm' && PM_PUBLISH.includes(operands(args)[1] ?? ''))) return [finding('publish', 'L2', { p: name, s: sub })];
      if (['dlx', 'x', 'exec'].includes(sub)) return judgeNpx(args.slice(args.indexOf(sub) + 1), `${name} ${sub}`, ctx);
      if (sub === 'create') return [finding('npx.run', 'L1', { p: `${name} ${sub}` })];
      if (sub === 'node') return [finding('npx.run', 'L1', { p: `${name} node` }), ...judgeCommand('node', args.slice(args.indexOf(sub) + 1), ctx)];
    }
    if (['cargo', 'go'].includes(name) && ['install', 'get', 'add', 'remove', 'update', 'publish'].includes(sub)) {
      return [finding(sub === 'publish' ? 'publish' : 'install', sub === 'publish' ? 'L2' : 'L1', { p: name, s: sub })];
    }
    if (name === 'prettier' && !args.some((a) => a === '--write' || a === '-w')) return [finding('project.script', 'L1', { p: name, s: sub || args.join(' ') })];
    if ((name === 'eslint' || name === 'biome' || name === 'ruff') && (args.includes('--fix') || args.includes('--write') || args.includes('format'))) return [writeFile(`${name} --fix`)];
    return [finding('project.script', 'L1', { p: name, s: sub })];
  };
}

const TABLE = new Map<string, Handler>();
for (const p of PLAIN_READERS) TABLE.set(p, (_a, name) => [readOnly(name)]);
TABLE.set('ps', (args, name) => (args.some((a) => /^[a-zA-Z]*e[a-zA-Z]*$/.test(a) && !a.startsWith('-')) || args.includes('-E') ? [finding('wrapper.env_print', 'L1')] : [readOnly(name)]));
TABLE.set('jq', (args, name) => {
  // The first operand is the filter, not a path; the rest are files (secret stores raise).
  const filter = operands(args, ['--arg', '--argjson', '--slurpfile', '--rawfile', '--indent', '-f', '--from-file', '-L'])[0];
  const files = args.filter((a) => a !== filter);
  const env = args.some((a) => /\$ENV\b|(^|[^.\w$])env\b/.test(a)) ? [finding('wrapper.env_print', 'L1')] : [];
  return [...secretFindings(files), ...env, readOnly(name)];
});
for (const p of INTERPRETERS) TABLE.set(p, judgeInterpreter);
for (const p of ESCALATION) TABLE.set(p, judgeEscalation);
for (const p of Object.keys(WRAPPERS)) TABLE.set(p, judgeWrapper);
for (const p of SYSTEM) TABLE.set(p, (args, name) => (isInfoOnly(args) && !['shutdown', 'halt', 'reboot', 'poweroff'].includes(name) ? [readOnly(name)] : [finding('system.change', 'L2', { p: name })]));
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
for (const p of ['less', 'more', 'most', 'pg', 'zless', 'zmore', 'bzless', 'xzless', 'view']) TABLE.set(p, (_a, name) => [finding('pager', 'L2', { p: name })]);
for (const p of ['vim', 'vi', 'nvim', 'nano', 'emacs', 'ed', 'ex', 'top', 'htop', 'btop', 'watch', 'tmux', 'screen', 'script', 'mc', 'ranger', 'nnn', 'sqlite3', 'mysql', 'psql', 'redis-cli', 'mongo', 'mongosh', 'ftp', 'telnet', 'gdb', 'lldb', 'strace', 'ltrace', 'valgrind', 'perf', 'xargs', 'parallel', 'flock', 'find-exec', 'chronic', 'entr', 'nodemon', 'busybox-sh']) {
  TABLE.set(p, (args, name) => (isInfoOnly(args) ? [readOnly(name)] : p === 'xargs' || p === 'parallel' ? [finding('wrapper.xargs', 'L2', { p: name })] : [finding('interactive', 'L2', { p: name })]));
}
TABLE.set('env', judgeEnv);
TABLE.set('slothtool', (args, name) => {
  const [sub, alias] = operands(args);
  if (sub === 'ai' || (sub === 'run' && alias === 'ai')) return [finding('plugin.self', 'L2')];
  if (sub === undefined || sub === 'list' || sub === 'ls') return [readOnly(`${name} ${sub ?? ''}`.trim())];
  if (['install', 'uninstall', 'update', 'remove'].includes(sub)) return [finding('install', 'L1', { p: name, s: sub })];
  return [finding('plugin.run', 'L1', { p: sub === 'run' ? (alias ?? '') : sub })];
});
TABLE.set('ip', (args, name) => {
  const ops = operands(args, ['-f', '-family', '-n', '-netns']);
  const readOnlyForm = ops.length <= 1 || ['show', 'list', 'ls', 'get', 'lst'].includes(ops[1]) || (ops[0] === 'route' && ops[1] === 'get');
  return readOnlyForm ? [readOnly(`${name} ${ops[0] ?? ''}`.trim())] : [finding('system.change', 'L2', { p: `${name} ${ops.slice(0, 2).join(' ')}` })];
});
TABLE.set('ifconfig', (args, name) => (args.length === 0 || (args.length <= 2 && args.every((a) => a === '-a' || a === '-l' || a === '-s' || /^[a-z]+[0-9]*$/.test(a)) && operands(args).length <= 1) ? [readOnly(name)] : [finding('system.change', 'L2', { p: name })]));
TABLE.set('sysctl', (args, name) => (args.some((a) => a.includes('=') || a === '-w' || a === '--write' || a === '-p' || a === '--load' || a === '--system') ? [finding('system.change', 'L2', { p: name })] : [readOnly(name)]));
TABLE.set('dmesg', (args, name) => (args.some((a) => ['-c', '-C', '--clear', '--read-clear', '-n', '--console-level', '-D', '-E', '--console-off', '--console-on'].includes(a) || /^-[a-zA-Z]*[cCnDE]/.test(a)) ? [finding('system.change', 'L2', { p: `${name} ${args.join(' ')}` })] : [readOnly(name)]));
for (const p of ['bat', 'batcat']) TABLE.set(p, (args, name) => (findLong(args, ['--pager']) ? [execArg(name, '--pager')] : [readOnly(name)]));
TABLE.set('printenv', () => [finding('wrapper.env_print', 'L1')]);
TABLE.set('git', (args, _name, ctx) => judgeGit(args, ctx));
TABLE.set('find', judgeFind);
TABLE.set('fd', judgeFd);
TABLE.set('fdfind', judgeFd);
TABLE.set('rg', judgeRg);
TABLE.set('ag', (args, name) => (findLong(args, ['--pager']) ? [execArg(name, '--pager')] : [readOnly(name)]));
TABLE.set('ack', (args, name) => (findLong(args, ['--pager', '--output']) ? [execArg(name, findLong(args, ['--pager', '--output']) ?? '')] : [readOnly(name)]));
const orRead = (found: Finding[], name: string): Finding[] => (found.length ? found : [readOnly(name)]);
TABLE.set('sed', (args, name) => orRead(judgeSed(args), name));
TABLE.set('gsed', (args, name) => orRead(judgeSed(args), name));
for (const p of ['awk', 'gawk', 'mawk', 'nawk']) TABLE.set(p, (args, name) => orRead(judgeAwk(name, args), name));
TABLE.set('sort', judgeSort);
TABLE.set('uniq', judgePositionalOut(1, ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars']));
TABLE.set('xxd', judgePositionalOut(1, ['-c', '-g', '-l', '-s', '-o', '-n', '-cols', '-len', '-seek']));
TABLE.set('iconv', judgePositionalOut(99, ['-f', '-t'], ['-o', '--output']));
TABLE.set('yq', (args, name) => (args.some((a) => a === '-i' || a === '--inplace' || /^-[a-zA-Z]*i/.test(a)) ? [writeArg(name, '-i')] : [readOnly(name)]));
TABLE.set('shuf', (args, name) => (args.some((a) => a === '-o' || a.startsWith('--output')) ? [writeArg(name, '-o')] : [readOnly(name)]));
TABLE.set('tree', judgeTree);
TABLE.set('tee', (args, name, ctx) => judgeWriter(false)(args, name, ctx));
for (const p of ['cp', 'ln', 'install']) TABLE.set(p, judgeWriter(true));
TABLE.set('mv', judgeWriter(false));
for (const p of ['touch', 'mkdir', 'rmdir', 'unlink', 'truncate', 'mktemp', 'split', 'csplit', 'patch', 'dos2unix', 'unix2dos', 'mkfifo', 'mknod-none', 'link']) TABLE.set(p, judgeWriter(false));
TABLE.set('rm', judgeRm);
for (const p of ['chmod', 'chown', 'chgrp']) TABLE.set(p, judgePerm);
TABLE.set('dd', judgeDd);
for (const p of ['kill', 'skill', 'taskkill']) TABLE.set(p, judgeKill);
for (const p of ['pkill', 'killall']) {
  TABLE.set(p, (args, name) => {
    const everyone = args.find((a) => ['-u', '-U', '-g', '-G', '-s', '-P', '--user', '--uid', '--group', '--session', '--parent', '-v', '--inverse', '-r', '--regexp', '-o', '--older-than', '-y', '--younger-than'].includes(a) || /^(\.\*?|\^|\$|\.\+|\[.*\]\*?)$/.test(a));
    return everyone ? [finding('system.kill_all', 'L2', { a: args.join(' ') })] : [finding('kill.pid', 'L1', { p: name })];
  });
}
TABLE.set('tar', judgeTar);
TABLE.set('bsdtar', judgeTar);
TABLE.set('gtar', judgeTar);
TABLE.set('unzip', judgeArchiver(['-l', '-v', '-t', '-Z', '-z']));
TABLE.set('zip', judgeSimpleMode(['--show-files', '-sf'], ['-TT', '--unzip-command']));
for (const p of ['gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'lz4', 'brotli']) TABLE.set(p, judgeArchiver(['-c', '--stdout', '--to-stdout', '-l', '--list', '-t', '--test']));
TABLE.set('7z', (args, name) => (args[0] === 'l' || args[0] === 't' ? [readOnly(name)] : [writeFile(name)]));
TABLE.set('npm', judgeNpm);
TABLE.set('npx', judgeNpx);
TABLE.set('pnpx', judgeNpx);
TABLE.set('bunx', judgeNpx);
for (const p of ['rimraf', 'del', 'del-cli', 'trash', 'rmrf', 'premove']) TABLE.set(p, (args, name) => [finding('delete.recursive', 'L2', { p: name, a: args.join(' ') })]);
TABLE.set('tsc', judgeTsc);
TABLE.set('curl', judgeCurl);
TABLE.set('wget', (_a, name) => [finding('network', 'L1', { p: name }, { cat: ['network', 'write'] })]);
for (const p of ['ping', 'ping6', 'dig', 'nslookup', 'host', 'traceroute', 'tracepath', 'whois', 'mtr', 'http', 'https', 'xh', 'aria2c']) TABLE.set(p, judgeNetworkTool([]));
for (const p of ['nc', 'ncat', 'netcat']) TABLE.set(p, judgeNetworkTool(['-e', '-c', '--exec', '--sh-exec', '--lua-exec']));
TABLE.set('socat', (args, name) => {
  const bad = args.find((a) => /(^|[!,])\s*(EXEC|SYSTEM|SHELL)[:,]/i.test(a));
  return bad ? [execArg(name, bad)] : [finding('network', 'L1', { p: name }, { cat: ['network', 'write'] })];
});
TABLE.set('ssh', (args, name, ctx) => {
  const found = judgeNetworkTool(['-o', '-F', '-J', '-W', '-L', '-R', '-D', '-w'])(args, name, ctx);
  const ops = operands(args, ['-i', '-l', '-p', '-c', '-m', '-b', '-E', '-e', '-I', '-O', '-Q', '-S', '-B']);
  return ops.length > 1 ? [...found, execArg(name, ops.slice(1).join(' '))] : found;
});
for (const p of ['scp', 'sftp']) TABLE.set(p, judgeNetworkTool(['-o', '-F', '-S', '-J']));
TABLE.set('rsync', judgeRsync);
TABLE.set('date', judgeDate);
TABLE.set('hostname', judgeHostname);
TABLE.set('man', judgeMan);
TABLE.set('info', judgeMan);
TABLE.set('systemctl', judgeSystemctl);
TABLE.set('docker', judgeDocker);
TABLE.set('podman', judgeDocker);
TABLE.set('kubectl', judgeKubectl);
TABLE.set('gh', judgeGh);
TABLE.set('busybox', judgeBusybox);
for (const p of ['open', 'xdg-open', 'gio', 'start', 'explorer']) {
  TABLE.set(p, (args, name) => {
    // Opening a document shows it; opening an app, a script or a .command file runs it.
    const runs = args.find((a) => ['-a', '-b', '-e', '-t', '--args', '-n'].includes(a) || /\.(app|command|tool|sh|bash|zsh|desktop|exe|bat|cmd|com|ps1|jar|py|rb|pl|scpt|applescript|terminal|workflow|pkg|dmg|msi|appimage|run)\/?$/i.test(a));
    return runs ? [execArg(name, runs)] : [finding('arg.exec', 'L1', { p: name, a: 'open' })];
  });
}

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
  args.forEach((a, i) => {
    if (INVISIBLE_RE.test(a) || CONTROL_RE.test(a)) out.push(finding('args.invisible', 'L2', { n: String(i + 1) }));
  });
  const handler = TABLE.get(name) ?? (/^python[0-9.]*$/.test(name) ? judgeInterpreter : undefined);
  if (!handler) return allowByPolicy(program, args, [...out, finding('program.unknown', 'L2', { p: name }, { allowable: true })], ctx);
  if (!WRAPPERS[name] && name !== 'env' && !ESCALATION.has(name) && name !== 'busybox' && !LISTERS.has(name)) out.push(...secretFindings(args));
  if (isInfoOnly(args) && !ESCALATION.has(name) && !SYSTEM_SET.has(name) && !WRAPPERS[name] && !PROJECT_CODE_ALWAYS.has(name) && name !== 'kill' && name !== 'date' && name !== 'hostname') {
    return [...out, finding('interp.info', 'L0', { p: name })];
  }
  const own = handler(args, name, inner);
  out.push(...own);
  if (own.some((f) => f.cat?.includes('write') || f.id === 'write.file' || f.id === 'arg.write' || f.id === 'install')) out.push(...writeTargetFindings(args, ctx));
  return allowByPolicy(program, args, out, ctx);
}

/**
 * An allowedPrograms entry (`"terraform"`, `"node scripts/build.js"`, `"git lg"`) matching this
 * command turns its allowable L2 findings (unknown program, script file, unknown subcommand)
 * into a confirmation. Other findings stay as they are.
 */
function allowByPolicy(program: string, args: readonly string[], found: Finding[], ctx: JudgeCtx): Finding[] {
  const entries = ctx.policy.allowedPrograms ?? [];
  if (!found.some((f) => f.allowable && f.level === 'L2')) return found;
  const match = entries.find((entry) => {
    const [prog, ...prefix] = entry.trim().split(/\s+/);
    return prog === program && prefix.every((p, i) => args[i] === p);
  });
  if (!match) return found;
  return [
    ...found.map((f) => (f.allowable && f.level === 'L2' ? { ...f, level: 'L1' as const } : f)),
    finding('program.allowed_by_policy', 'L1', { p: match }),
  ];
}

/** Base name of a path-like program, for matching allowedPrograms entries. */
export function programBase(program: string): string {
  return path.posix.basename(program.replace(/\\/g, '/'));
}
