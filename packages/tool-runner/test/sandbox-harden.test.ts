import { bwrapArgs, createSandbox, createToolRunner, renderVerdict, type Sandbox, type SandboxSpec, type SandboxStatus } from '../src';
import { detectBwrap, parseInside, type Trial } from '../src/sandbox/detect';
import { wrapWithBwrap } from '../src/sandbox/bwrap';
import { sandboxFindings } from '../src/sandbox/notes';

// How the sandbox takes a step's privileges away, and says so when it cannot (issue #43): the
// hardening options bubblewrap gets, the ladder that finds the strongest that works here, what
// /proc/self/status inside says, and the note every L1 question then carries.

const base: SandboxSpec = {
  level: 'L0',
  cwd: '/home/u/proj',
  workspace: '/home/u/proj',
  tmpDir: '/tmp',
  network: false,
  hide: [],
  readOnly: [],
};
const FULL = { userns: true, disableUserns: true, capDrop: true, seccomp: true };

const STATUS = (caps: string, nnp = 1, seccomp = 2) =>
  [
    'Name:\tcat',
    `NoNewPrivs:\t${nnp}`,
    `Seccomp:\t${seccomp}`,
    'Seccomp_filters:\t1',
    `CapInh:\t${caps}`,
    `CapPrm:\t${caps}`,
    `CapEff:\t${caps}`,
    `CapBnd:\t${caps}`,
    'CapAmb:\t0000000000000000',
  ].join('\n');
const NONE = '0000000000000000';
const ROOT = '000001fffeffffff';

describe('bwrapArgs with hardening', () => {
  test('user namespace, no further user namespaces, no capabilities, the filter from fd 3 — the same at both levels', () => {
    for (const level of ['L0', 'L1'] as const) {
      const args = bwrapArgs({ ...base, level, hardening: FULL });
      expect(args.join(' ')).toContain('--unshare-user --disable-userns --cap-drop ALL --seccomp 3 --chdir /home/u/proj');
    }
    expect(bwrapArgs({ ...base, hardening: { userns: false, disableUserns: false, capDrop: true, seccomp: false } }).join(' ')).toContain(
      '--cap-drop ALL --chdir',
    );
    expect(bwrapArgs(base)).not.toContain('--cap-drop');
  });
  test('the command carries the filter as the bytes of fd 3; a spec that asks for one without it is an error, not a silent gap', () => {
    const filter = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(wrapWithBwrap('/usr/bin/bwrap', { ...base, hardening: FULL }, 'ls', ['-l'], filter)).toMatchObject({
      program: '/usr/bin/bwrap',
      fds: [filter],
    });
    expect(() => wrapWithBwrap('/usr/bin/bwrap', { ...base, hardening: FULL }, 'ls', [])).toThrow(/seccomp filter/);
    expect(wrapWithBwrap('/usr/bin/bwrap', base, 'ls', []).fds).toBeUndefined();
  });
});

describe('parseInside', () => {
  test.each([
    ['a whole sandbox', STATUS(NONE), { noNewPrivs: true, seccomp: true, caps: NONE }],
    ['root with every capability, no filter', STATUS(ROOT, 0, 0), { noNewPrivs: false, seccomp: false, caps: ROOT }],
    ['seccomp in strict mode is not the filter', STATUS(NONE, 1, 1), { noNewPrivs: true, seccomp: false, caps: NONE }],
  ])('%s', (_what, text, want) => {
    expect(parseInside(text)).toMatchObject({
      noNewPrivs: want.noNewPrivs,
      seccomp: want.seccomp,
      capabilities: { effective: want.caps, bounding: want.caps, ambient: NONE },
    });
  });
  test('missing lines (a kernel without them, output that is not /proc/self/status): undefined', () => {
    expect(parseInside('hello')).toBeUndefined();
    expect(parseInside('CapEff:\t0\nCapPrm:\t0')).toBeUndefined();
  });
});

describe('detectBwrap: the strongest hardening that works, and what it could not have', () => {
  const filter = Buffer.alloc(8);
  const reader = ['/usr/bin/cat', '/proc/self/status'];
  /** A bubblewrap that refuses the named options and prints `status` inside. */
  const fakeBwrap = (refuses: string[], status = STATUS(NONE)): Trial & { calls: string[][] } => {
    const calls: string[][] = [];
    const trial = ((_p: string, args: string[], fds: readonly Buffer[] = []) => {
      calls.push(args);
      const bad = refuses.find((o) => args.includes(o));
      if (bad)
        return {
          status: 1,
          stderr: `bwrap: ${bad === '--disable-userns' ? 'Unknown option --disable-userns' : `${bad} failed: Operation not permitted`}\n`,
        };
      if (args.includes('--seccomp') && fds.length !== 1) return { status: 1, stderr: 'bwrap: Invalid fd' };
      return { status: 0, stdout: args.includes('--cap-drop') ? status : STATUS(ROOT, 1, 0), stderr: '' };
    }) as Trial & { calls: string[][] };
    trial.calls = calls;
    return trial;
  };

  test('bubblewrap 0.8 with user namespaces: the whole set at once, one trial', () => {
    const trial = fakeBwrap([]);
    expect(detectBwrap('bwrap', ['--ro-bind', '/', '/'], reader, trial, filter)).toEqual({
      ok: true,
      hardening: FULL,
      inside: expect.objectContaining({ seccomp: true }),
      degraded: [],
    });
    expect(trial.calls).toHaveLength(1);
    expect(trial.calls[0].slice(-2)).toEqual(reader);
  });
  test('an older bubblewrap (no --disable-userns): the rest still, not weakened (the filter refuses new user namespaces)', () => {
    const d = detectBwrap('bwrap', [], reader, fakeBwrap(['--disable-userns']), filter);
    expect(d).toMatchObject({ ok: true, hardening: { userns: true, disableUserns: false, capDrop: true, seccomp: true }, degraded: [] });
  });
  test('no user namespaces (a container as root): capabilities dropped and the filter all the same', () => {
    const d = detectBwrap('bwrap', [], reader, fakeBwrap(['--unshare-user']), filter);
    expect(d).toMatchObject({ ok: true, hardening: { userns: false, capDrop: true, seccomp: true }, degraded: [] });
  });
  test('a kernel that refuses the filter: the rest, and the missing filter said with why', () => {
    const d = detectBwrap('bwrap', [], reader, fakeBwrap(['--seccomp'], STATUS(NONE, 1, 0)), filter);
    expect(d).toMatchObject({
      ok: true,
      hardening: { userns: true, disableUserns: true, capDrop: true, seccomp: false },
      degraded: [{ what: 'seccomp', why: expect.stringContaining('--seccomp failed') }],
    });
  });
  test('no filter for this host: said as such', () => {
    const d = detectBwrap('bwrap', [], reader, fakeBwrap([], STATUS(NONE, 1, 0)), undefined);
    expect(d).toMatchObject({
      ok: true,
      hardening: { seccomp: false },
      degraded: [{ what: 'seccomp', why: expect.stringContaining('no filter is built for') }],
    });
  });
  test('a bubblewrap that takes no --cap-drop (setuid, run by a user): the filter still, capabilities read back as gone', () => {
    const trial = fakeBwrap(['--cap-drop'], STATUS(NONE));
    const setuid: Trial = (p, args, fds) =>
      args.includes('--cap-drop')
        ? trial(p, args, fds)
        : { status: 0, stdout: STATUS(NONE, 1, args.includes('--seccomp') ? 2 : 0), stderr: '' };
    expect(detectBwrap('bwrap', [], reader, setuid, filter)).toMatchObject({
      ok: true,
      hardening: { userns: true, capDrop: false, seccomp: true },
      degraded: [],
    });
  });
  test('the same bubblewrap run by root, where capabilities stay: capabilities said missing, the filter in force', () => {
    const root: Trial = (_p, args) =>
      args.includes('--cap-drop')
        ? { status: 1, stderr: 'bwrap: Unknown option --cap-drop' }
        : { status: 0, stdout: STATUS(ROOT, 1, args.includes('--seccomp') ? 2 : 0), stderr: '' };
    const d = detectBwrap('bwrap', [], reader, root, filter);
    expect(d).toMatchObject({
      ok: true,
      hardening: { capDrop: false, seccomp: true },
      degraded: [{ what: 'capabilities', why: expect.stringContaining('Unknown option --cap-drop') }],
    });
  });
  test('a bubblewrap with neither: both said missing', () => {
    const old: Trial = (_p, args) =>
      args.includes('--cap-drop') || args.includes('--seccomp')
        ? { status: 1, stderr: 'bwrap: Unknown option' }
        : { status: 0, stdout: STATUS(ROOT, 0, 0), stderr: '' };
    const d = detectBwrap('bwrap', [], reader, old, filter);
    expect(d).toMatchObject({
      ok: true,
      hardening: { capDrop: false, seccomp: false },
      degraded: [{ what: 'capabilities' }, { what: 'no_new_privs' }, { what: 'seccomp' }],
    });
  });
  test('no sandbox at all: the plain trial fails too, and says why (two trials, not the whole ladder)', () => {
    const trial = (() => ({ status: 1, stderr: 'bwrap: No permissions to creating new namespace' })) as unknown as Trial;
    let n = 0;
    const d = detectBwrap('bwrap', [], reader, (...a) => (n++, trial(...a)), filter);
    expect(d).toEqual({ ok: false, reason: 'bwrap: No permissions to creating new namespace' });
    expect(n).toBe(2);
  });
});

describe('createSandbox reports what it found', () => {
  const opts = {
    workspace: '/w',
    home: '/home/u',
    slothtoolHome: '/home/u/.slothtool',
    probe: (p: string) => (p === '/usr/bin/cat' || p === '/usr/bin/prlimit' ? ('file' as const) : undefined),
    platform: 'linux' as const,
    env: { PATH: '/usr/bin:/bin' },
  };
  test('whole: the hardening, what a step holds inside, no degradation; every command carries the filter', () => {
    const filter = Buffer.alloc(16, 7);
    const box = createSandbox({
      ...opts,
      seccompFilter: filter,
      trial: (_p, _a, fds) => ({ status: 0, stdout: STATUS(NONE), stderr: '', ...(fds?.length === 1 ? {} : { status: 1 }) }),
    });
    expect(box.status()).toMatchObject({ kind: 'bwrap', hardening: FULL, inside: { noNewPrivs: true, seccomp: true } });
    expect(box.status().degraded).toBeUndefined();
    for (const level of ['L0', 'L1'] as const)
      expect(box.wrap(level, false, '/w', 'ls', [])).toMatchObject({
        args: expect.arrayContaining(['--cap-drop', 'ALL', '--seccomp', '3']),
        fds: [filter],
      });
  });
  test('weakened: the status says what and why', () => {
    const box = createSandbox({ ...opts, seccompFilter: null, trial: () => ({ status: 0, stdout: STATUS(NONE, 1, 0), stderr: '' }) });
    expect(box.status()).toMatchObject({ kind: 'bwrap', degraded: [{ what: 'seccomp' }] });
    expect(box.wrap('L1', false, '/w', 'ls', [])?.fds).toBeUndefined();
  });
});

describe('the question of an L1 step says when its sandbox is weakened or missing', () => {
  test.each([
    [{ kind: 'bwrap', mode: 'auto' }, []],
    [{ kind: 'bwrap', mode: 'auto', degraded: [{ what: 'seccomp', why: 'no filter is built for riscv64' }] }, ['sandbox.degraded.seccomp']],
    [
      {
        kind: 'bwrap',
        mode: 'required',
        degraded: [
          { what: 'capabilities', why: 'x' },
          { what: 'no_new_privs', why: 'x' },
        ],
      },
      ['sandbox.degraded.capabilities', 'sandbox.degraded.no_new_privs'],
    ],
    [{ kind: 'none', mode: 'auto', reason: 'bubblewrap (bwrap) is not installed' }, ['sandbox.unsandboxed']],
    [{ kind: 'none', mode: 'off', reason: 'sandbox is "off" in ai.json' }, []],
  ] as Array<[Pick<SandboxStatus, 'kind' | 'mode' | 'reason' | 'degraded'>, string[]]>)('%j → %j', (status, ids) => {
    expect(sandboxFindings(status).map((f) => f.id)).toEqual(ids);
  });

  const weakened = (status: Partial<SandboxStatus>): Sandbox => ({
    status: () => ({ mode: 'auto', kind: 'bwrap', ...status }) as SandboxStatus,
    spec: () => ({ ...base }),
    wrap: (_level, _network, _cwd, program, args) => ({ program, args: [...args] }),
  });
  test('in both languages, beside the rules that made it L1; L0 steps and tools outside the sandbox do not carry it', async () => {
    const asked: Array<{ rules: string[]; zh: string; en: string }> = [];
    const runner = createToolRunner({
      cwd: '/w',
      lang: 'en',
      sandbox: weakened({ degraded: [{ what: 'seccomp', why: 'no filter is built for riscv64 (only x86-64 and aarch64)' }] }),
      confirm: (r) => (
        asked.push({
          rules: r.decision.rules.map((x) => x.id),
          zh: renderVerdict(r.verdict, 'zh')
            .rules.map((x) => x.reason)
            .join('\n'),
          en: r.decision.rules.map((x) => x.reason).join('\n'),
        }),
        { action: 'decline' }
      ),
      deps: {
        exec: async () => ({
          exitCode: 0,
          signal: null,
          timedOut: false,
          aborted: false,
          durationMs: 1,
          stdoutTail: '',
          stderrTail: '',
          truncated: false,
          stdoutBytes: 0,
          stderrBytes: 0,
        }),
      },
    });
    await runner.run({ tool: 'exec', program: 'npm', args: ['test'] });
    expect(asked).toHaveLength(1);
    expect(asked[0].rules).toContain('sandbox.degraded.seccomp');
    expect(asked[0].en).toContain('it runs in a weakened sandbox: no seccomp filter (no filter is built for riscv64');
    expect(asked[0].zh).toContain('被削弱的沙箱');
    expect(runner.verdict({ tool: 'exec', program: 'ls', args: [] }).findings.map((f) => f.id)).not.toContain('sandbox.degraded.seccomp');
    expect(runner.verdict({ tool: 'fs.write', path: '/w/x.txt', content: 'x' } as never).findings.map((f) => f.id)).not.toContain(
      'sandbox.degraded.seccomp',
    );
    const missing = createToolRunner({
      cwd: '/w',
      lang: 'zh',
      sandbox: { ...weakened({}), status: () => ({ mode: 'auto', kind: 'none', reason: 'bubblewrap (bwrap) is not installed' }) },
      confirm: () => ({ action: 'decline' }),
    });
    const rules = missing.judge({ tool: 'exec', program: 'npm', args: ['test'] }).rules;
    expect(rules.find((r) => r.id === 'sandbox.unsandboxed')).toMatchObject({
      reason: expect.stringContaining('操作系统沙箱之外运行'),
      hint: expect.stringContaining('bubblewrap'),
    });
  });
});
