/** Package managers, installers and project tools (npm, npx, pip, cargo, jest, eslint, ...). */
import { commandStart, findLong, isInfoOnly, operands } from '../args';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { secretFindings } from '../paths';
import { judgeCommand, isKnownProgram } from '../programs';
import { execArg, readOnly, writeFile, type Handler } from './common';
import { scriptFinding } from './interpreters';

export function judgeSubcommands(
  read: string[],
  opts: { install?: string[]; scripts?: string[]; publish?: string[]; network?: string[]; readValued?: string[] } = {},
): Handler {
  return (args, name) => {
    const sub = operands(args, opts.readValued ?? [])[0] ?? '';
    const infoOnly =
      args.length === 0 ||
      isInfoOnly(args, ['-v']) ||
      (args.length > 0 && args.every((a) => a === '--version' || a === '-v' || a === '--help' || a === '-h'));
    if (infoOnly || read.includes(sub)) return [readOnly(`${name} ${sub}`.trim())];
    if (opts.install?.includes(sub)) return [finding('install', 'L1', { p: name, s: sub })];
    if (opts.publish?.includes(sub)) return [finding('publish', 'L2', { p: name, s: sub })];
    if (opts.network?.includes(sub)) return [finding('network', 'L1', { p: `${name} ${sub}` }, { cat: ['network'] })];
    return [finding('project.script', 'L1', { p: name, s: sub })];
  };
}

// prettier-ignore
export const npmLike = judgeSubcommands(
  ['ls', 'list', 'll', 'la', 'explain', 'why', 'root', 'prefix', 'bin', 'fund', 'query', 'config-get', 'get'],
  {
    // These ask the registry: without the network (an L0 sandbox) they would only fail.
    network: ['view', 'v', 'info', 'show', 'outdated', 'search', 'audit', 'doctor', 'whoami', 'ping'],
    install: [
      'install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'ci', 'clean-install',
      'install-clean', 'uninstall', 'un', 'remove', 'rm', 'r', 'unlink', 'update', 'up', 'upgrade', 'dedupe', 'ddp', 'prune', 'rebuild',
      'rb', 'link', 'ln', 'install-test', 'it', 'install-ci-test', 'cit', 'global', 'dlx-none', 'import', 'patch', 'patch-commit',
    ],
    publish: [
      'publish', 'unpublish', 'deprecate', 'undeprecate', 'owner', 'access', 'token', 'adduser', 'login', 'logout', 'team', 'org', 'star',
      'unstar', 'hook', 'dist-tag', 'trust',
    ],
  },
);

/** npm configuration keys that hold credentials (`_authToken`, `//host/:_auth`, `_password`, ...). */
export const NPM_SECRET_KEY_RE = /token|_auth|password|passwd|secret|otp/i;

/**
 * What npm prints when asked for its configuration: `value` for `npm config get <credential
 * key>`, `npm get <key>` and `npm config get` (a bare secret no redaction pattern recognises),
 * `listing` for `npm config list -l/--json` (`key = value` lines, which redaction masks).
 * Both are secret reads (L1).
 */
export function npmSecretOutput(args: readonly string[]): 'value' | 'listing' | undefined {
  const ops = operands(args);
  const sub = ops[0] ?? '';
  const value = (keys: string[]): 'value' | undefined =>
    keys.length === 0 || keys.some((k) => NPM_SECRET_KEY_RE.test(k)) ? 'value' : undefined;
  if (sub === 'get') return value(ops.slice(1));
  if (sub !== 'config' && sub !== 'c') return undefined;
  const action = ops[1] ?? '';
  if (action === 'get') return value(ops.slice(2));
  if (action === 'list' || action === 'ls' || action === '') {
    return args.some((a) => a === '-l' || a === '--long' || a === '--json' || a.startsWith('--long=')) ? 'listing' : undefined;
  }
  return undefined;
}

export function judgeNpm(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
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
    if (
      [
        'script-shell',
        'node-options',
        'shell',
        'git',
        'userconfig',
        'globalconfig',
        'editor',
        'browser',
        'viewer',
        'onload-script',
        'init-module',
        'scripts',
        'bin',
      ].includes(key)
    ) {
      return [finding('arg.exec', 'L2', { p: `${name} ${sub} ${action}`, a: key })];
    }
    return [writeFile(`${name} ${sub} ${action}`)];
  }
  if (sub === 'cache')
    return [(operands(args)[1] ?? '') === 'ls' || operands(args)[1] === 'verify' ? readOnly(`${name} cache`) : writeFile(`${name} cache`)];
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
export function judgeNpx(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  if (isInfoOnly(args, ['-v'])) return [readOnly(name)];
  const { start: i, stop } = commandStart(args, (a) => {
    if (
      a === '-c' ||
      a === '--call' ||
      a.startsWith('--call=') ||
      a.startsWith('--node-options') ||
      a.startsWith('--script-shell') ||
      a === '--shell-mode'
    )
      return 'stop';
    if (a === '-p' || a === '--package') return 1;
    return a.startsWith('-') ? 0 : 'command';
  });
  if (stop !== undefined) return [execArg(name, stop)];
  const cmd = args[i];
  if (cmd === undefined) return [finding('npx.run', 'L1', { p: name })];
  const pkg = [cmd, ...args.slice(0, i).filter((a, k) => k > 0 && (args[k - 1] === '-p' || args[k - 1] === '--package'))];
  if (pkg.some((p) => /(^|\/)plugin-ai(@|$)/.test(p) || p === 'ai')) return [finding('plugin.self', 'L2')];
  const run = finding('npx.run', 'L1', { p: `${name} ${cmd}` });
  // `npx @holic512/slothtool@1 install x` is slothtool itself.
  if (/^(@holic512\/)?slothtool(@[^/]*)?$/.test(cmd)) return [run, ...judgeCommand('slothtool', args.slice(i + 1), ctx)];
  if (isKnownProgram(cmd) || cmd.includes('/')) return [run, ...judgeCommand(cmd, args.slice(i + 1), ctx)];
  return [run, ...secretFindings(args.slice(i + 1), ctx)];
}

export function judgeTsc(args: readonly string[], name: string): Finding[] {
  if (
    isInfoOnly(args, ['-v']) ||
    args.includes('--noEmit') ||
    args.includes('-noEmit') ||
    args.includes('--showConfig') ||
    args.includes('--listFilesOnly')
  )
    return [readOnly(name)];
  if (args.includes('--watch') || args.includes('-w')) return [finding('project.script', 'L1', { p: name, s: '--watch' })];
  return [writeFile(name)];
}

// prettier-ignore
export const INSTALLERS: Record<string, string[]> = {
  pip: ['list', 'show', 'freeze', 'check', 'search', 'index', 'inspect', 'debug', 'config-list'],
  pip3: ['list', 'show', 'freeze', 'check', 'search', 'index', 'inspect', 'debug'],
  pipx: ['list', 'environment'],
  brew: [
    'list', 'ls', 'info', 'search', 'deps', 'uses', 'outdated', 'config', 'doctor', 'leaves', 'desc', 'home-none', '--prefix', '--cellar',
    '--repository', 'commands', 'tap-info',
  ],
  apt: ['list', 'search', 'show', 'policy', 'depends', 'rdepends'],
  'apt-get': ['check', 'changelog-none'],
  'apt-cache': ['search', 'show', 'policy', 'depends', 'rdepends', 'showpkg', 'pkgnames', 'madison', 'stats'],
  dpkg: [
    '-l', '--list', '-L', '--listfiles', '-s', '--status', '-S', '--search', '--print-architecture', '-c', '--contents', '-I', '--info',
  ],
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

/** Read sub-commands of installers that ask a remote index. */
const INSTALLER_NETWORK: Record<string, string[]> = {
  pip: ['search', 'index'],
  pip3: ['search', 'index'],
  brew: ['search'],
  gem: ['search'],
  conda: ['search'],
  poetry: ['search'],
  snap: ['find', 'info'],
  flatpak: ['search'],
  winget: ['search', 'show'],
  choco: ['search', 'info'],
  scoop: ['search'],
  nix: ['search'],
};

export function judgeInstaller(read: string[]): Handler {
  return (args, name) => {
    if (args.length === 0 || isInfoOnly(args) || (args[0] === 'config' && args[1] === 'list')) return [readOnly(name)];
    const sub = name === 'dpkg' || name === 'pacman' ? args[0] : (operands(args)[0] ?? '');
    if (INSTALLER_NETWORK[name]?.includes(sub)) return [finding('network', 'L1', { p: `${name} ${sub}` }, { cat: ['network'] })];
    if (read.includes(sub)) return [readOnly(`${name} ${sub}`)];
    if (['publish', 'push', 'upload', 'yank', 'owner', 'signin', 'login'].includes(sub))
      return [finding('publish', 'L2', { p: name, s: sub })];
    return [finding('install', 'L1', { p: name, s: sub })];
  };
}

export const PROJECT_TOOLS: Record<string, string[]> = {
  make: [],
  gmake: [],
  cmake: ['--version'],
  ninja: [],
  gradle: [],
  mvn: [],
  ant: [],
  bazel: ['version'],
  // metadata and tree run rustc as the repository's .cargo/config.toml names it (build.rustc,
  // build.rustc-wrapper): not in this list, so they ask (repo.config_programs).
  cargo: ['version', 'locate-project', 'pkgid', 'read-manifest', 'verify-project'],
  go: ['version', 'env', 'list', 'doc', 'help'],
  jest: [],
  vitest: [],
  mocha: [],
  pytest: [],
  tox: ['-l', '--listenvs'],
  nox: [],
  eslint: [],
  prettier: [],
  biome: [],
  ruff: [],
  black: ['--check', '--diff'],
  mypy: [],
  pyright: [],
  flake8: [],
  pylint: [],
  rake: [],
  bundle: [],
  mix: [],
  dotnet: ['--info', '--list-sdks', '--list-runtimes'],
  swift: [],
  rustc: ['--print'],
  gcc: ['-dumpversion', '-dumpmachine', '--print-search-dirs'],
  'g++': [],
  cc: [],
  clang: [],
  'clang++': [],
  javac: [],
  turbo: [],
  nx: [],
  lerna: [],
  changeset: ['status'],
  tsup: [],
  vite: [],
  webpack: [],
  rollup: [],
  esbuild: [],
  next: ['info'],
  nuxt: [],
  playwright: [],
  cypress: [],
  yarn: [],
  // pnpm loads the repository's .pnpmfile.cjs (code) for most commands: only these stay read-only.
  pnpm: ['root', 'bin', 'store-path'],
  bun: ['pm-ls', 'outdated', 'why'],
  deno: ['info', 'doc', 'types', 'completions-none'],
};

/** Tools that load project-controlled code on every run (yarn's yarnPath and plugins, composer plugins). */
export const PROJECT_CODE_ALWAYS = new Set(['yarn', 'composer', 'mvn', 'gradle', 'sbt']);

/** Read-only sub-commands that still run programs the repository's configuration names. */
const CONFIG_RUNS_PROGRAMS: Record<string, string[]> = {
  cargo: ['metadata', 'tree'],
  pnpm: ['list', 'ls', 'll', 'la', 'why', 'outdated', 'view', 'info', 'licenses', 'audit'],
};

// prettier-ignore
export const PM_INSTALL = [
  'install', 'i', 'add', 'remove', 'rm', 'uninstall', 'update', 'up', 'upgrade', 'ci', 'link', 'unlink', 'dedupe', 'prune', 'rebuild',
  'import', 'global', 'outdated-none',
];
// prettier-ignore
export const PM_PUBLISH = [
  'publish', 'unpublish', 'deprecate', 'owner', 'access', 'login', 'logout', 'adduser', 'npm-none', 'token', 'dist-tag',
];

/**
 * Whether `script` is surely the file bun or deno runs: every option before it is one known to
 * take no separate value (`-A`, `--allow-net`) or has its value attached (`--config=x.json`);
 * after `--config x.json` the first operand is only the option's value.
 */
function surelyTheScript(args: readonly string[], script: string): boolean {
  const before = args.slice(0, args.indexOf(script));
  return before.every((a) => a === 'run' || /^(-[Aq]+|--(allow|deny)-[a-z-]+(=.*)?|--[a-z][\w-]*=.*)$/.test(a));
}

export function judgeProjectTool(read: string[]): Handler {
  return (args, name, ctx) => {
    if (isInfoOnly(args, ['-v']) && !PROJECT_CODE_ALWAYS.has(name)) return [readOnly(name)];
    const inline = args.find((a) => (name === 'bun' && ['-e', '--eval', '-p', '--print'].includes(a)) || (name === 'deno' && a === 'eval'));
    if (inline) return [finding('interp.inline', 'L2', { p: name, a: inline })];
    const sub = operands(args)[0] ?? '';
    if ((name === 'deno' && sub === 'run') || (name === 'bun' && sub === 'run' && /\.[cm]?[jt]sx?$/.test(operands(args)[1] ?? ''))) {
      const script = operands(args)[1] ?? '';
      return [scriptFinding(`${name} run`, script, ctx, surelyTheScript(args, script))];
    }
    if (name === 'deno' && sub === 'repl') return [finding('interactive', 'L2', { p: name })];
    if ((name === 'bun' || name === 'deno') && /\.([cm]?[jt]sx?|json)$|\//.test(sub))
      return [scriptFinding(name, sub, ctx, surelyTheScript(args, sub))];
    if (read.some((r) => args[0] === r || sub === r)) return [readOnly(`${name} ${sub || args[0]}`.trim())];
    if (CONFIG_RUNS_PROGRAMS[name]?.includes(sub)) return [finding('repo.config_programs', 'L1', { p: `${name} ${sub}` })];
    if (PROJECT_CODE_ALWAYS.has(name) && (name === 'mvn' || name === 'gradle' || name === 'sbt') && isInfoOnly(args, ['-v']))
      return [finding('repo.config_programs', 'L1', { p: name })];
    if (['yarn', 'pnpm', 'bun'].includes(name)) {
      if (PM_INSTALL.includes(sub) || (name === 'yarn' && args.length === 0)) return [finding('install', 'L1', { p: name, s: sub })];
      if (PM_PUBLISH.includes(sub) || (sub === 'npm' && PM_PUBLISH.includes(operands(args)[1] ?? '')))
        return [finding('publish', 'L2', { p: name, s: sub })];
      if (['dlx', 'x', 'exec'].includes(sub)) return judgeNpx(args.slice(args.indexOf(sub) + 1), `${name} ${sub}`, ctx);
      if (sub === 'create') return [finding('npx.run', 'L1', { p: `${name} ${sub}` })];
      if (sub === 'node')
        return [finding('npx.run', 'L1', { p: `${name} node` }), ...judgeCommand('node', args.slice(args.indexOf(sub) + 1), ctx)];
    }
    if (['cargo', 'go'].includes(name) && ['install', 'get', 'add', 'remove', 'update', 'publish'].includes(sub)) {
      return [finding(sub === 'publish' ? 'publish' : 'install', sub === 'publish' ? 'L2' : 'L1', { p: name, s: sub })];
    }
    if (name === 'prettier' && !args.some((a) => a === '--write' || a === '-w'))
      return [finding('project.script', 'L1', { p: name, s: sub || args.join(' ') })];
    if (
      (name === 'eslint' || name === 'biome' || name === 'ruff') &&
      (args.includes('--fix') || args.includes('--write') || args.includes('format'))
    )
      return [writeFile(`${name} --fix`)];
    return [finding('project.script', 'L1', { p: name, s: sub })];
  };
}
