import { pathProbe } from '@holic512/testkit';
import { bwrapArgs, DEFAULT_LIMITS, homeBinds, limitHit, sandboxSpec, seatbeltProfile, type SandboxSpec } from '../src';
import { wrapWithBwrap } from '../src/sandbox/bwrap';
import { deniedPath, sandboxDenial } from '../src/sandbox/denial';
import { linkedGitDirs } from '../src/sandbox/home-view';
import { prlimitArgv } from '../src/sandbox/limits';
import { retryRefusal } from '../src/sandbox/retry';

// Pure tables of the private home (issue #32): what the L0 sandbox shows of the home, the limits
// it sets, and when a denied step is offered again. The real bubblewrap runs in sandbox-bwrap*.test.ts.

const base: SandboxSpec = {
  level: 'L0',
  cwd: '/home/u/proj',
  workspace: '/home/u/proj',
  tmpDir: '/tmp',
  network: false,
  hide: [],
  readOnly: [],
};
const binds = [
  { from: '/home/u/.gitconfig', to: '/home/u/.gitconfig' },
  { from: '/home/u/.cargo', to: '/home/u/.cargo' },
];

describe('bwrapArgs: the private home', () => {
  test('L0: the home becomes an empty tmpfs, the allow-list is bound back read-only, then the workspace inside it, then what stays hidden', () => {
    const args = bwrapArgs({
      ...base,
      privateHome: { path: '/home/u', binds },
      hide: [{ path: '/home/u/.cargo/credentials.toml', kind: 'file' }],
    }).join(' ');
    expect(args).toContain(
      '--tmpfs /tmp --tmpfs /home/u --ro-bind /home/u/.gitconfig /home/u/.gitconfig --ro-bind /home/u/.cargo /home/u/.cargo --ro-bind /home/u/proj /home/u/proj --ro-bind /dev/null /home/u/.cargo/credentials.toml --unshare-net',
    );
  });
  test.each([
    ['the workspace is the home itself: not bound back (the home stays private)', '/home/u', '/home/u', ''],
    ['the workspace is above the home: not bound over it', '/home', '/home/u', ''],
    ['the workspace outside the home: visible already, nothing to bind', '/srv/proj', '/home/u', ''],
  ])('%s', (_what, workspace, home, expected) => {
    const args = bwrapArgs({ ...base, cwd: workspace, workspace, privateHome: { path: home, binds: [] } });
    expect(args.filter((a, i) => args[i - 1] === '--ro-bind' && a === workspace).join('')).toBe(expected);
    expect(args.join(' ')).toContain(`--tmpfs ${home}`);
  });
  test('a home under the temp folder with the workspace in it: the workspace is bound once, after the home', () => {
    const args = bwrapArgs({
      ...base,
      cwd: '/tmp/t/home/proj',
      workspace: '/tmp/t/home/proj',
      privateHome: { path: '/tmp/t/home', binds: [] },
    }).join(' ');
    expect(args).toContain('--tmpfs /tmp --tmpfs /tmp/t/home --ro-bind /tmp/t/home/proj /tmp/t/home/proj --unshare-net');
  });
  test('a workspace above a home under the temp folder: bound first, then covered by the private home', () => {
    const args = bwrapArgs({ ...base, cwd: '/tmp/t', workspace: '/tmp/t', privateHome: { path: '/tmp/t/home', binds: [] } }).join(' ');
    expect(args).toContain('--tmpfs /tmp --ro-bind /tmp/t /tmp/t --tmpfs /tmp/t/home --unshare-net');
  });
  test('a temp folder inside the home (TMPDIR=~/tmp) is made again inside the private home', () => {
    const args = bwrapArgs({ ...base, tmpDir: '/home/u/tmp', privateHome: { path: '/home/u', binds } }).join(' ');
    expect(args).toContain(
      '--tmpfs /tmp --tmpfs /home/u --ro-bind /home/u/.gitconfig /home/u/.gitconfig --ro-bind /home/u/.cargo /home/u/.cargo --tmpfs /home/u/tmp --ro-bind /home/u/proj',
    );
  });
  test('L1 keeps the whole home (no private home even when a spec carries one)', () => {
    const args = bwrapArgs({ ...base, level: 'L1', readOnly: [] }).join(' ');
    expect(args).not.toContain('--tmpfs /home/u');
  });
  test('limits: prlimit runs inside the sandbox, just before the program', () => {
    const w = wrapWithBwrap('/usr/bin/bwrap', { ...base, limits: { ...DEFAULT_LIMITS, prlimit: '/usr/bin/prlimit' } }, 'jq', ['-n', '1']);
    expect(w.args.slice(w.args.indexOf('--'))).toEqual([
      '--',
      '/usr/bin/prlimit',
      '--data=4294967296',
      '--nproc=512',
      '--cpu=120:125',
      '--',
      'jq',
      '-n',
      '1',
    ]);
    expect(wrapWithBwrap('/usr/bin/bwrap', base, 'jq', []).args.slice(-2)).toEqual(['--', 'jq']);
    expect(prlimitArgv('/usr/bin/prlimit', { memoryMb: 0, processes: 0, cpuSeconds: 3 })).toEqual(['/usr/bin/prlimit', '--cpu=3:8', '--']);
    expect(prlimitArgv('/usr/bin/prlimit', { memoryMb: 0, processes: 0, cpuSeconds: 0 })).toEqual([]);
  });
});

describe('sandboxSpec: what the private home hides, and L1 secret classes', () => {
  const probe = pathProbe({
    dirs: [
      '/home/u',
      '/home/u/.ssh',
      '/home/u/.codex',
      '/home/u/.mozilla',
      '/home/u/.config/rclone',
      '/home/u/.local/share/keyrings',
      '/srv/st/plugin-configs',
    ],
    files: ['/home/u/.bash_history', '/home/u/.claude/.credentials.json', '/home/u/.cargo/credentials.toml', '/home/u/proj/.env'],
  });
  const input = {
    cwd: '/home/u/proj',
    workspace: '/home/u/proj',
    tmpDir: '/tmp',
    home: '/home/u',
    slothtoolHome: '/srv/st',
    network: false,
    workspaceEntries: ['.env'],
    homeBinds: binds,
  };
  test('L0: only what the step can see is hidden (inside a bound place, the workspace, or outside the home); nothing is made in the empty home', () => {
    const spec = sandboxSpec({ ...input, level: 'L0' }, probe);
    expect(spec.privateHome).toEqual({ path: '/home/u', binds });
    expect(spec.hide.map((h) => h.path)).toEqual(['/home/u/.cargo/credentials.toml', '/srv/st/plugin-configs', '/home/u/proj/.env']);
  });
  test('L1: the whole home, with every secret class of the table hidden', () => {
    const spec = sandboxSpec({ ...input, level: 'L1' }, probe);
    expect(spec.privateHome).toBeUndefined();
    expect(spec.hide.map((h) => h.path)).toEqual([
      '/home/u/.ssh',
      '/home/u/.local/share/keyrings',
      '/home/u/.config/rclone',
      '/home/u/.cargo/credentials.toml',
      '/home/u/.bash_history',
      '/home/u/.codex',
      '/home/u/.claude/.credentials.json',
      '/home/u/.mozilla',
      '/srv/st/plugin-configs',
      '/home/u/proj/.env',
    ]);
  });
  test('limits are set at L0 only', () => {
    const limits = { ...DEFAULT_LIMITS, prlimit: '/usr/bin/prlimit' };
    expect(sandboxSpec({ ...input, level: 'L0', limits }, probe).limits).toEqual(limits);
    expect(sandboxSpec({ ...input, level: 'L1', limits }, probe).limits).toBeUndefined();
  });
});

describe('homeBinds: the allow-list, globs and links', () => {
  // a fake home: real paths, and links (name → real path)
  const files = new Set([
    '/h/.gitconfig',
    '/h/.cargo',
    '/h/.rustup',
    '/h/.local/lib/python3.11',
    '/h/.local/lib/node',
    '/h/.npm/_cacache',
    '/h/dotfiles/gitconfig',
    '/opt/cargo',
    '/h/.ssh/config',
    '/h/.m2/repository',
    '/h/tools',
  ]);
  const links: Record<string, string> = {};
  const vfs = {
    realpath: (p: string) => {
      for (const [from, to] of Object.entries(links)) if (p === from || p.startsWith(`${from}/`)) return to + p.slice(from.length);
      return files.has(p) ? p : undefined;
    },
    readdir: (p: string) =>
      [...files].filter((f) => f.startsWith(`${p}/`) && !f.slice(p.length + 1).includes('/')).map((f) => f.slice(p.length + 1)),
  };
  afterEach(() => {
    for (const k of Object.keys(links)) delete links[k];
  });
  test('what exists of the default list, with `python*` expanded; extra entries from ai.json; nothing outside the home', () => {
    const b = homeBinds('/h', ['~/tools', '/etc/other', '~/nope'], vfs);
    expect(b.map((x) => x.to)).toEqual([
      '/h/.gitconfig',
      '/h/.cargo',
      '/h/.rustup',
      '/h/.npm/_cacache',
      '/h/.local/lib/python3.11',
      '/h/.m2/repository',
      '/h/tools',
    ]);
    expect(b.every((x) => x.from === x.to)).toBe(true);
  });
  test.each([
    ['a link into an unlisted home folder is not bound', { '/h/.gitconfig': '/h/dotfiles/gitconfig' }, []],
    ['a link into a secret store is not bound', { '/h/.gitconfig': '/h/.ssh/config' }, []],
    ['a link out of the home is bound as its target', { '/h/.cargo': '/opt/cargo' }, [{ from: '/opt/cargo', to: '/h/.cargo' }]],
    [
      'a link to another allowed place is bound as its target',
      { '/h/.gitconfig': '/h/.m2/repository' },
      [{ from: '/h/.m2/repository', to: '/h/.gitconfig' }],
    ],
  ])('%s', (_what, link, expected) => {
    Object.assign(links, link);
    const b = homeBinds('/h', [], vfs).filter((x) => x.to === Object.keys(link)[0]);
    expect(b).toEqual(expected);
  });
  test('a link anywhere along the path counts (a linked folder above the entry)', () => {
    links['/h/.local'] = '/h/dotfiles/local';
    files.add('/h/dotfiles/local/lib/python3.11');
    expect(homeBinds('/h', [], vfs).map((x) => x.to)).not.toContain('/h/.local/lib/python3.11');
  });
  test('an allowRead entry inside a secret store or the SlothTool home is never bound', () => {
    expect(homeBinds('/h', ['~/.ssh/config', '~/.m2/repository'], vfs).map((x) => x.to)).toEqual([
      '/h/.gitconfig',
      '/h/.cargo',
      '/h/.rustup',
      '/h/.npm/_cacache',
      '/h/.local/lib/python3.11',
      '/h/.m2/repository',
    ]);
    expect(homeBinds('/h', ['~/tools'], vfs, ['/h/tools']).map((x) => x.to)).not.toContain('/h/tools');
  });
});

test.each([
  ['a plain repository', {}, []],
  [
    'a worktree: its git dir and the common dir',
    { '/h/wt/.git': 'gitdir: /h/main/.git/worktrees/wt\n', '/h/main/.git/worktrees/wt/commondir': '../..\n' },
    ['/h/main/.git/worktrees/wt', '/h/main/.git'],
  ],
  ['a submodule: a relative git dir', { '/h/wt/.git': 'gitdir: ../main/.git/modules/wt\n' }, ['/h/main/.git/modules/wt']],
] as const)('linkedGitDirs, %s', (_what, files, expected) => {
  expect(linkedGitDirs('/h/wt', (p) => (files as Record<string, string>)[p])).toEqual(expected);
});

test('the Seatbelt profile of the private home: the home denied, the allow-list and the workspace allowed after it', () => {
  const p = seatbeltProfile({
    ...base,
    privateHome: {
      path: '/home/u',
      binds: [
        { from: '/opt/cargo', to: '/home/u/.cargo' },
        { from: '/home/u/.config/git', to: '/home/u/.config/git' },
      ],
    },
  });
  expect(p).toContain('(allow file-read-metadata (literal "/home/u") (literal "/home/u/.config"))');
  const deny = p.indexOf('(deny file-read* (subpath "/home/u"))');
  expect(deny).toBeGreaterThan(-1);
  expect(
    p.indexOf(
      '(allow file-read* (subpath "/home/u/.cargo") (subpath "/opt/cargo") (subpath "/home/u/.config/git") (subpath "/home/u/proj"))',
    ),
  ).toBeGreaterThan(deny);
  expect(seatbeltProfile({ ...base, cwd: '/home/u', workspace: '/home/u', privateHome: { path: '/home/u', binds: [] } })).not.toContain(
    '(allow file-read* (subpath "/home/u"))',
  );
});

describe('the path a read-only error names', () => {
  test.each([
    ["touch: cannot touch '/etc/x': Read-only file system", '/etc/x'],
    ['touch: cannot touch ‘rel/x’: Read-only file system', '/w/rel/x'],
    ["Error: EROFS: read-only file system, open '/home/u/x'", '/home/u/x'],
    ["OSError: [Errno 30] Read-only file system: 'out.txt'", '/w/out.txt'],
    ['sh: 1: cannot create /var/tmp/p: Read-only file system', '/var/tmp/p'],
    ['bash: /var/tmp/p: Read-only file system', '/var/tmp/p'],
    ["fatal: Unable to create '/w/.git/index.lock': Read-only file system", '/w/.git/index.lock'],
    ["mv: cannot move 'a' to 'b/c': Read-only file system", '/w/b/c'],
    ['write error: Read-only file system', undefined],
  ])('%j → %s', (line, expected) => {
    expect(deniedPath(line, '/w')).toBe(expected);
  });
  test('a program that names the path on an earlier line (cargo)', () => {
    const out =
      'error: failed to write /w/Cargo.lock\n\nCaused by:\n  failed to open: /w/Cargo.lock\n\nCaused by:\n  Read-only file system (os error 30)';
    expect(sandboxDenial(101, out, '/w')).toEqual({ kind: 'write', line: 'Read-only file system (os error 30)', path: '/w/Cargo.lock' });
  });
});

describe('limitHit: which limit a failed run hit', () => {
  const all = DEFAULT_LIMITS;
  test.each([
    [{ exitCode: 152, output: '' }, all, 'cpu'],
    [{ exitCode: null, signal: 'SIGXCPU', output: '' }, all, 'cpu'],
    [{ exitCode: 5, output: 'error: cannot allocate memory' }, all, 'memory'],
    [{ exitCode: 1, output: 'MemoryError' }, all, 'memory'],
    [{ exitCode: 134, output: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory' }, all, 'memory'],
    [{ exitCode: 134, output: "terminate called after throwing an instance of 'std::bad_alloc'" }, all, 'memory'],
    [{ exitCode: 134, output: '' }, all, 'memory?'],
    [{ exitCode: 139, output: '' }, all, 'memory?'],
    [{ exitCode: 2, output: 'sh: 1: Cannot fork' }, all, 'processes'],
    [{ exitCode: 128, output: 'bash: fork: retry: Resource temporarily unavailable' }, all, 'processes'],
    [{ exitCode: 1, output: 'Error: spawn EAGAIN' }, all, 'processes'],
    [{ exitCode: 0, output: 'cannot allocate memory' }, all, undefined],
    [{ exitCode: 1, output: 'grep: x: No such file or directory' }, all, undefined],
    [{ exitCode: 134, output: '' }, { ...all, memoryMb: 0 }, undefined],
    [{ exitCode: 152, output: '' }, { ...all, cpuSeconds: 0 }, undefined],
  ] as const)('%j → %s', (run, limits, expected) => {
    expect(limitHit(run, limits)).toBe(expected);
  });
});

describe('retryRefusal: a denied read-only step is offered again only for a nameable write inside the workspace', () => {
  const places = {
    workspace: '/home/u/proj',
    home: '/home/u',
    slothtoolHome: '/home/u/.slothtool',
    real: (p: string) => (p === '/home/u/proj/out' ? '/home/u/.bashrc' : p),
  };
  test.each([
    [{ kind: 'write', path: '/home/u/proj/Cargo.lock' }, 'L0', true, undefined],
    [{ kind: 'write', path: '/home/u/proj/Cargo.lock' }, 'L0', false, 'no_person'],
    [{ kind: 'write' }, 'L0', true, 'no_path'],
    [{ kind: 'network' }, 'L0', true, 'network'],
    [{ kind: 'write', path: '/var/tmp/pwned' }, 'L0', true, 'outside'],
    [{ kind: 'write', path: '/home/u/proj/out' }, 'L0', true, 'outside'],
    [{ kind: 'write', path: '/home/u/proj/.git/hooks/pre-commit' }, 'L0', true, 'protected'],
    [{ kind: 'write', path: '/home/u/proj/.git/config' }, 'L0', true, 'protected'],
    [{ kind: 'write', path: '/home/u/proj/.env.local' }, 'L0', true, 'protected'],
    [{ kind: 'write', path: '/home/u/proj/src/a.ts' }, 'L1', true, 'protected'],
  ] as const)('%j at %s (a person: %s) → %s', (denied, level, person, expected) => {
    expect(retryRefusal(denied, level, places, person)).toBe(expected);
  });
  test('a workspace that is the home (or above it) is no place to write', () => {
    expect(retryRefusal({ kind: 'write', path: '/home/u/.bashrc' }, 'L0', { ...places, workspace: '/home/u' }, true)).toBe('outside');
    expect(
      retryRefusal(
        { kind: 'write', path: '/home/u/proj/x' },
        'L0',
        { ...places, workspace: '/home/u/proj', slothtoolHome: '/home/u/proj/.st' },
        true,
      ),
    ).toBeUndefined();
    expect(
      retryRefusal({ kind: 'write', path: '/home/u/proj/.st/registry.json' }, 'L0', { ...places, slothtoolHome: '/home/u/proj/.st' }, true),
    ).toBe('protected');
  });
});
