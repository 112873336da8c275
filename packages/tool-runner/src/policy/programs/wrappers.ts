/** Wrappers that run another command (env, timeout, nice, ...) and privilege escalation. */
import { commandStart, isInfoOnly, shortCluster } from '../args';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { isOutsideWorkspace, normalisePathArg, secretFindings } from '../paths';
import { judgeCommand } from '../programs';
import { execArg, readOnly, writeArg } from './common';
import { envParts, WRAPPERS, wrapperStart } from './unwrap';
import { engineUrlFinding } from '../engine-sockets';
import { namesEngine } from './pm-addresses';

/**
 * Environment variables set for a command (`env NAME=value prog`): the ones known to change only
 * presentation run as judged, the ones known to make a program run code, load a library or use
 * another configuration are refused, and any other asks.
 */
export const SAFE_ENV =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|CI|DEBUG|NODE_ENV|NODE_NO_WARNINGS|GIT_TERMINAL_PROMPT|GIT_OPTIONAL_LOCKS|GIT_AUTHOR_NAME|GIT_AUTHOR_EMAIL|GIT_COMMITTER_NAME|GIT_COMMITTER_EMAIL|GIT_AUTHOR_DATE|GIT_COMMITTER_DATE|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONIOENCODING|RUST_BACKTRACE|RUST_LOG|VERBOSE|TMPDIR)$/;
export const DANGEROUS_ENV =
  /^(LD_|DYLD_|GIT_|NODE_|NPM_|npm_|YARN_|PNPM_|PYTHON|PERL|RUBY|GEM_|BUNDLE_|JAVA|_JAVA|JDK_|CARGO|RUSTC|RUSTFLAGS|GOFLAGS|GOPROXY|CC$|CXX$|MAKEFLAGS|BASH_|ENV$|SHELL|PS[0-4]$|PROMPT|IFS$|PATH$|HOME$|XDG_|PAGER$|MANPAGER|GIT_PAGER|EDITOR$|VISUAL$|BROWSER$|LESS|RIPGREP_CONFIG_PATH$|SSH_|GNUPGHOME|CURL_HOME|WGETRC|ZDOTDIR|TERMINFO|.*_OPTIONS$|.*_OPTS$|GCONV_PATH$|LOCPATH$|NLSPATH$|MANROFFOPT$|MANOPT$|MANPATH$|GROFF_|AWKPATH$|AWKLIBPATH$|OPENSSL_|PIP_|UV_|POETRY_|CONDA_|DOCKER_|KUBECONFIG$|EXINIT$|VIMINIT$|MYVIMRC$|INPUTRC$|HISTFILE$|XZ_|GZIP$|BZIP2?$|ZSTD_|TAR_|SUDO_|.*_PROXY$|DBUS_|JQ_|RIPGREP_|FZF_|GREP_|SYSTEMD_|RSYNC_|RCLONE_|CVS_RSH$|SVN_SSH$|HTTPIE_|XH_|APT_CONFIG$)/i;

export function judgeEnvAssignment(assign: string): Finding[] {
  const name = assign.slice(0, assign.indexOf('='));
  if (SAFE_ENV.test(name)) return [];
  if (DANGEROUS_ENV.test(name)) return [finding('wrapper.env_var', 'L2', { v: name })];
  // A variable that tells a program where the engine is (`BUN_CONFIG_REGISTRY=http://127.0.0.1:2375`) hands it the host.
  if (namesEngine(assign.slice(name.length + 1))) return [engineUrlFinding('env', assign)];
  // Any other variable may be read by the program as configuration nobody has judged.
  return [finding('wrapper.env_unknown', 'L1', { v: name })];
}

/** `env [options] [NAME=value]... [command [args]]` */
export function judgeEnv(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const parts = envParts(args);
  const out: Finding[] = [...parts.chdir.flatMap((d) => secretFindings([d], ctx)), ...parts.assigns.flatMap(judgeEnvAssignment)];
  if (parts.stop !== undefined) {
    const a = parts.stop;
    if (a === '-S' || a.startsWith('-S') || a.startsWith('--split-string') || (shortCluster(a) ?? '').includes('S'))
      return [...out, execArg(name, a)];
    return [...out, finding('arg.unparsed', 'L2', { p: name, a })];
  }
  if (parts.start >= args.length) return [...out, finding('wrapper.env_print', 'L1')];
  // `env -C dir cmd` runs cmd in dir: judged there, and asked when dir is outside the workspace (like a step's cwd).
  const dir = parts.chdir[parts.chdir.length - 1];
  if (dir === undefined) return [...out, ...judgeCommand(args[parts.start], args.slice(parts.start + 1), ctx)];
  const at = normalisePathArg(dir, ctx) ?? dir;
  if (isOutsideWorkspace(at, { ...ctx, runCwd: undefined })) out.push(finding('cwd.outside', 'L1', { p: args[parts.start], d: dir }));
  return [...out, ...judgeCommand(args[parts.start], args.slice(parts.start + 1), { ...ctx, runCwd: at })];
}

export function judgeWrapper(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const spec = WRAPPERS[name];
  const start = wrapperStart(spec, args);
  const out: Finding[] = [];
  for (const a of args.slice(0, start)) {
    if (spec.execs?.includes(a)) return [...out, finding('kill.pid', 'L1', { p: `${name} ${a}` })];
    if (spec.writes?.some((w) => a === w || a.startsWith(w + '='))) out.push(writeArg(name, a));
  }
  if (start >= args.length) {
    return name === 'nice' && out.length === 0 ? [readOnly(name)] : [...out, finding('wrapper.unparsed', 'L2', { p: name })];
  }
  return [...out, ...judgeCommand(args[start], args.slice(start + 1), ctx)];
}

export const ESCALATION = new Set([
  'sudo',
  'doas',
  'pkexec',
  'run0',
  'su',
  'sudoedit',
  'gosu',
  'su-exec',
  'chroot',
  'runuser',
  'setpriv',
  'nsenter',
  'unshare',
  'machinectl',
  'sg',
  'newgrp',
  'calife',
  'dzdo',
  'pfexec',
]);

export function judgeEscalation(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  if (isInfoOnly(args) && name !== 'su') return [finding('interp.info', 'L0', { p: name })];
  if (!ctx.policy.allowSudo || !['sudo', 'doas', 'pkexec', 'run0'].includes(name)) return [finding('escalation', 'L2', { p: name })];
  const valued = [
    '-u',
    '--user',
    '-g',
    '--group',
    '-C',
    '--close-from',
    '-D',
    '--chdir',
    '-h',
    '--host',
    '-p',
    '--prompt',
    '-r',
    '--role',
    '-t',
    '--type',
    '-T',
    '--command-timeout',
    '-U',
    '--other-user',
  ];
  const { start: i, stop } = commandStart(args, (a) => {
    // A shell, a login, an editor or a query of sudo's own: never the command the user allowed.
    if (
      ['-s', '--shell', '-i', '--login', '-e', '--edit', '-v', '--validate', '-k', '-K', '-l', '--list'].includes(a) ||
      /^-[^-]*[sie]/.test(a)
    )
      return 'stop';
    if (valued.includes(a)) return 1;
    return a.startsWith('-') ? 0 : 'command';
  });
  if (stop !== undefined) return [finding('escalation', 'L2', { p: `${name} ${stop}` })];
  if (i >= args.length) return [finding('escalation', 'L2', { p: name })];
  return [finding('escalation.allowed', 'L1', { p: name }), ...judgeCommand(args[i], args.slice(i + 1), ctx)];
}
