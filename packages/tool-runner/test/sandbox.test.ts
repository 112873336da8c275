import { pathProbe } from '@holic512/testkit';
import { bwrapArgs, createSandbox, createToolRunner, sandboxDenial, sandboxSpec, seatbeltProfile, type SandboxSpec } from '../src';

const base: SandboxSpec = {
  level: 'L0',
  cwd: '/home/u/proj',
  workspace: '/home/u/proj',
  tmpDir: '/tmp',
  network: false,
  hide: [],
  readOnly: [],
};

describe('bwrapArgs', () => {
  test('L0: everything read-only, a private /tmp, no network, new namespaces, dies with its parent', () => {
    expect(bwrapArgs(base)).toEqual([
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--unshare-net',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--die-with-parent',
      '--chdir',
      '/home/u/proj',
    ]);
  });
  test('L0 with a workspace under the temp folder: it is put back read-only over the private /tmp', () => {
    const args = bwrapArgs({ ...base, cwd: '/tmp/w/sub', workspace: '/tmp/w', tmpDir: '/var/tmp/x' });
    expect(args.join(' ')).toContain('--tmpfs /tmp --tmpfs /var/tmp/x --ro-bind /tmp/w /tmp/w --ro-bind /tmp/w/sub /tmp/w/sub');
  });
  test('L1: workspace and temp writable; hooks, git config and the SlothTool home re-bound read-only after; network only when asked', () => {
    const spec: SandboxSpec = {
      ...base,
      level: 'L1',
      network: true,
      readOnly: ['/home/u/proj/.git/hooks', '/home/u/proj/.git/config', '/home/u/.slothtool'],
    };
    const args = bwrapArgs(spec).join(' ');
    expect(args).toContain('--bind /tmp /tmp --bind /home/u/proj /home/u/proj');
    expect(args.indexOf('--ro-bind /home/u/proj/.git/hooks')).toBeGreaterThan(args.indexOf('--bind /home/u/proj'));
    // hidden after the read-only re-binds, so the SlothTool home does not bring its configs back
    const withHide = bwrapArgs({ ...spec, hide: [{ path: '/home/u/.slothtool/plugin-configs', kind: 'dir' }] }).join(' ');
    expect(withHide.indexOf('--tmpfs /home/u/.slothtool/plugin-configs')).toBeGreaterThan(
      withHide.indexOf('--ro-bind /home/u/.slothtool /home/u/.slothtool'),
    );
    expect(args).toContain('--ro-bind /home/u/.slothtool /home/u/.slothtool');
    expect(args).not.toContain('--unshare-net');
    expect(bwrapArgs({ ...spec, network: false })).toContain('--unshare-net');
  });
  test('a command that may outlive the runner (detached proc.start) is built without --die-with-parent, nothing else changes', () => {
    const plain = bwrapArgs(base);
    const outlive = bwrapArgs({ ...base, outlive: true });
    expect(outlive).not.toContain('--die-with-parent');
    expect(outlive).toEqual(plain.filter((a) => a !== '--die-with-parent'));
  });
  test('secret stores: folders behind an empty read-only tmpfs, files behind /dev/null', () => {
    const args = bwrapArgs({
      ...base,
      hide: [
        { path: '/home/u/.ssh', kind: 'dir' },
        { path: '/home/u/.npmrc', kind: 'file' },
        { path: '/home/u/my proj/.env', kind: 'file' },
      ],
    });
    expect(args.join('|')).toContain(
      '--tmpfs|/home/u/.ssh|--remount-ro|/home/u/.ssh|--ro-bind|/dev/null|/home/u/.npmrc|--ro-bind|/dev/null|/home/u/my proj/.env',
    );
  });
});

describe('sandboxSpec: what exists is hidden, nothing else', () => {
  const probe = pathProbe({
    dirs: ['/home/u/.ssh', '/home/u/.aws', '/srv/st/plugin-configs', '/home/u/proj/.git/hooks', '/srv/st'],
    files: ['/home/u/.docker/config.json', '/home/u/.npmrc', '/home/u/proj/.env', '/home/u/proj/.env.local', '/home/u/proj/.git/config'],
  });
  test.each([
    ['L0', []],
    ['L1', ['/home/u/proj/.git/hooks', '/home/u/proj/.git/config', '/srv/st']],
  ] as const)('%s', (level, readOnly) => {
    const spec = sandboxSpec(
      {
        level,
        cwd: '/home/u/proj',
        workspace: '/home/u/proj',
        tmpDir: '/tmp',
        home: '/home/u',
        slothtoolHome: '/srv/st',
        network: false,
        workspaceEntries: ['.env', '.env.local', '.envrc-not', 'src', '.environment'],
      },
      probe,
    );
    expect(spec.hide).toEqual([
      { path: '/home/u/.ssh', kind: 'dir' },
      { path: '/home/u/.aws', kind: 'dir' },
      { path: '/home/u/.npmrc', kind: 'file' },
      { path: '/home/u/.docker/config.json', kind: 'file' },
      { path: '/srv/st/plugin-configs', kind: 'dir' },
      { path: '/home/u/proj/.env', kind: 'file' },
      { path: '/home/u/proj/.env.local', kind: 'file' },
    ]);
    expect(spec.readOnly).toEqual(readOnly);
  });
});

test('the Seatbelt profile has the same rules', () => {
  const p = seatbeltProfile({
    ...base,
    level: 'L1',
    hide: [
      { path: '/Users/u/.ssh', kind: 'dir' },
      { path: '/Users/u/.npmrc', kind: 'file' },
    ],
    readOnly: ['/home/u/proj/.git/hooks'],
  });
  expect(p).toContain('(deny default)');
  expect(p).toContain('(deny file-read* (subpath "/Users/u/.ssh"))');
  expect(p).toContain('(deny file-read* (literal "/Users/u/.npmrc"))');
  expect(p).toContain('(allow file-write* (subpath "/home/u/proj") (subpath "/tmp"))');
  expect(p).toContain('(deny file-write* (subpath "/home/u/proj/.git/hooks"))');
  expect(p).toContain('(deny network-outbound (remote ip))');
  const l0 = seatbeltProfile(base);
  expect(l0).not.toContain('(subpath "/home/u/proj")');
  expect(seatbeltProfile({ ...base, level: 'L1', network: true })).toContain('(allow network*)');
});

describe('sandboxDenial', () => {
  test.each([
    [1, "touch: cannot touch '/etc/x': Read-only file system", 'write'],
    [1, "Error: EROFS: read-only file system, open '/home/u/x'", 'write'],
    [6, 'curl: (6) Could not resolve host: example.com', 'network'],
    [7, 'connect: Network is unreachable', 'network'],
    [1, 'getaddrinfo EAI_AGAIN registry.npmjs.org', 'network'],
    [1, 'fatal: unable to access: Temporary failure in name resolution', 'network'],
    [0, 'Read-only file system', undefined],
    [2, 'grep: x: No such file or directory', undefined],
  ])('exit %d, %j → %s', (code, out, kind) => {
    expect(sandboxDenial(code, out)?.kind).toBe(kind);
  });
});

describe('createSandbox: found once, visible when missing', () => {
  const opts = { workspace: '/w', home: '/home/u', slothtoolHome: '/home/u/.slothtool', probe: () => undefined };
  test('bwrap missing, not working, working; off; other platforms', () => {
    expect(createSandbox({ ...opts, platform: 'linux', env: { PATH: '/nonexistent' } }).status()).toEqual({
      mode: 'auto',
      kind: 'none',
      reason: 'bubblewrap (bwrap) is not installed',
    });
    let trials = 0;
    const broken = createSandbox({
      ...opts,
      platform: 'linux',
      env: { PATH: '/usr/bin:/bin' },
      trial: () => (trials++, { status: 1, stderr: 'bwrap: No permissions to creating new namespace' }),
    });
    expect(broken.status().reason).toContain('No permissions to creating new namespace');
    broken.status();
    // the strongest sandbox, then the plain one: neither works, so there is none (found once)
    expect(trials).toBe(2);
    expect(broken.wrap('L0', false, '/w', 'ls', [])).toBeUndefined();
    expect(createSandbox({ ...opts, mode: 'off', platform: 'linux' }).status()).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('"off"'),
    });
    expect(createSandbox({ ...opts, platform: 'win32' }).status()).toMatchObject({ kind: 'none', reason: 'no sandbox for win32' });
    expect(
      createSandbox({ ...opts, platform: 'darwin', probe: (p) => (p === '/usr/bin/sandbox-exec' ? 'file' : undefined) }).wrap(
        'L0',
        false,
        '/w',
        'ls',
        ['-l'],
      ),
    ).toMatchObject({ program: '/usr/bin/sandbox-exec', args: ['-p', expect.stringContaining('(deny default)'), 'ls', '-l'] });
  });

  test('sandbox "required" without one: command steps are refused with how to fix it; other tools still run', async () => {
    const none = createSandbox({ ...opts, mode: 'required', platform: 'linux', env: { PATH: '/nonexistent' } });
    const runner = createToolRunner({
      cwd: '/w',
      lang: 'en',
      sandbox: none,
      confirm: () => ({ action: 'run' }),
      deps: {
        exec: async () => {
          throw new Error('must not run');
        },
      },
    });
    const r = await runner.run({ tool: 'exec', program: 'ls', args: [] });
    expect(r).toMatchObject({
      status: 'blocked',
      decision: { level: 'L2', rules: [{ id: 'sandbox.required', hint: expect.stringContaining('bubblewrap') }] },
    });
    expect(runner.sandboxStatus()).toMatchObject({ mode: 'required', kind: 'none' });
  });
});
