import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createSandbox, createToolRunner, exec, type ConfirmRequest, type ExecResult, type SandboxedCommand } from '../src';
import { findProgram } from '../src/sandbox';
import { hostAbis } from '../src/sandbox/seccomp';
import { syscallNumber, type SyscallName } from '../src/sandbox/syscalls';
import { describeWithBwrap } from './bwrap-available';
import { asNobody, NOBODY } from './helpers/other-user';

// What a sandboxed step can do to the sandbox itself (issue #43), with the real bubblewrap, as
// root (CI runs as root) and as a normal user (uid 65534 through setpriv when the tests run as
// root; the tests' own user otherwise). Every payload runs in a temp home and workspace under
// /var/tmp (the L0 sandbox replaces the temp folder) and can only write markers.
const run = describeWithBwrap();

const asRoot = process.getuid?.() === 0;
const setpriv = findProgram('setpriv', process.env);
/** Who the probes run as: root and nobody when the tests run as root (nobody needs setpriv), else the tests' user. */
const USERS: Array<'root' | 'nobody' | 'user'> = asRoot ? (setpriv ? ['root', 'nobody'] : ['root']) : ['user'];

interface Fixture {
  root: string;
  home: string;
  ws: string;
  secret: string;
  env: NodeJS.ProcessEnv;
  box: ReturnType<typeof createSandbox>;
  /** Run a sandboxed command as this fixture's user. */
  run(w: SandboxedCommand, cwd?: string): Promise<ExecResult>;
  /** Run git outside the sandbox as this fixture's user, in the workspace. */
  git(...args: string[]): string;
}

const gitEnv = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
  GIT_CONFIG_NOSYSTEM: '1',
};
const fixtures: string[] = [];
afterAll(() => {
  for (const dir of fixtures) fs.rmSync(dir, { recursive: true, force: true });
});

function chownTree(p: string, uid: number): void {
  fs.lchownSync(p, uid, uid);
  if (fs.lstatSync(p).isDirectory()) for (const name of fs.readdirSync(p)) chownTree(path.join(p, name), uid);
}

/**
 * A home with a secret store and a history, a workspace in it that commits `.env.example` and
 * keeps an untracked `.env` (and an ignored `.env.local`), owned by `user`.
 */
function fixture(user: 'root' | 'nobody' | 'user'): Fixture {
  const root = fs.realpathSync(fs.mkdtempSync(`/var/tmp/sandbox-root-${user}-`));
  fixtures.push(root);
  fs.chmodSync(root, 0o755);
  const home = path.join(root, 'home');
  const ws = path.join(home, 'proj');
  const secret = `secret-${user}-${process.pid}`;
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(home, '.ssh', 'id_probe'), `${secret}-ssh\n`, { mode: 0o600 });
  fs.writeFileSync(path.join(home, '.bash_history'), `${secret}-history\n`, { mode: 0o600 });
  fs.mkdirSync(ws, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, SLOTHTOOL_HOME: path.join(home, '.slothtool'), LANG: 'C', ...gitEnv };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  git('init', '-q');
  fs.writeFileSync(path.join(ws, '.env.example'), 'API_KEY=\nDB_URL=\n');
  fs.writeFileSync(path.join(ws, '.gitignore'), '.env.local\n');
  fs.writeFileSync(path.join(ws, 'app.js'), 'module.exports = 1;\n');
  fs.writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'probe', version: '1.0.0', private: true }));
  git('add', '-A');
  git('commit', '-qm', 'init');
  fs.writeFileSync(path.join(ws, 'app.js'), 'module.exports = 2;\n');
  fs.writeFileSync(path.join(ws, '.env'), `API_KEY=${secret}-env\n`);
  fs.writeFileSync(path.join(ws, '.env.local'), `DB_URL=${secret}-local\n`);
  const box = createSandbox({ workspace: ws, home, slothtoolHome: path.join(home, '.slothtool'), env });
  fs.mkdirSync(path.join(home, '.slothtool'), { recursive: true });
  const runAs = async (w: SandboxedCommand, cwd = ws): Promise<ExecResult> => {
    if (user !== 'nobody') return exec({ ...w, cwd, env, timeoutMs: 60_000 });
    // What the sandbox made for this step (an exclude file) belongs to the user too.
    chownTree(root, NOBODY);
    return exec({
      ...w,
      program: setpriv!,
      args: asNobody(w.program, ...w.args),
      cwd,
      env,
      timeoutMs: 60_000,
    });
  };
  if (user === 'nobody') chownTree(root, NOBODY);
  const outside = (...args: string[]) =>
    user === 'nobody' ? execFileSync(setpriv!, asNobody('git', ...args), { cwd: ws, env }).toString() : git(...args);
  return { root, home, ws, secret, env, box, run: runAs, git: outside };
}

/** The runner in a fixture's workspace with its environment; every question is kept and answered with `action`. */
function fixtureRunner(fx: Fixture, action: 'run' | 'decline') {
  const asked: ConfirmRequest[] = [];
  const runner = createToolRunner({
    cwd: fx.ws,
    workspace: fx.ws,
    lang: 'en',
    env: { ...process.env, ...fx.env },
    confirm: (r) => (asked.push(r), { action }),
  });
  return { runner, asked };
}

const status = (text: string, field: string) => new RegExp(`^${field}:\\s*(\\S+)`, 'm').exec(text)?.[1];

run.each(USERS)('what a step can do to the sandbox, as %s', (user) => {
  let fx: Fixture;
  beforeAll(() => {
    fx = fixture(user);
  });
  const sh = (level: 'L0' | 'L1', script: string, ...args: string[]) =>
    fx.run(fx.box.wrap(level, false, fx.ws, '/bin/sh', ['-c', script, 'sh', ...args])!);

  test.each(['L0', 'L1'] as const)(
    '%s: no capability in any set, no_new_privs, the seccomp filter (read from /proc/self/status inside)',
    async (level) => {
      expect(fx.box.status().degraded).toBeUndefined();
      const r = await fx.run(fx.box.wrap(level, false, fx.ws, 'cat', ['/proc/self/status'])!);
      expect(r.exitCode).toBe(0);
      for (const set of ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb'])
        expect([set, status(r.stdoutTail, set)]).toEqual([set, '0000000000000000']);
      expect(status(r.stdoutTail, 'NoNewPrivs')).toBe('1');
      expect(status(r.stdoutTail, 'Seccomp')).toBe('2');
    },
  );

  test('L1: a file written in the workspace is owned as if written outside (the user namespace maps the user to itself)', async () => {
    const made = path.join(fx.ws, `owned-${user}`);
    const r = await fx.run(fx.box.wrap('L1', false, fx.ws, 'touch', [made])!);
    expect(r.exitCode).toBe(0);
    const uid = user === 'nobody' ? NOBODY : process.getuid!();
    expect(fs.statSync(made)).toMatchObject({ uid, gid: user === 'nobody' ? NOBODY : process.getgid!() });
    fs.rmSync(made);
  });

  test('L1: `mount -o remount,rw /` (and of the folder above the workspace) fails, and the write after it lands nowhere', async () => {
    const marker = path.join(fx.root, 'escaped-remount');
    const r = await sh(
      'L1',
      'mount -o remount,rw /; mount -o remount,rw "$1"; mount --bind "$2" "$1"; echo pwned > "$3"; echo after',
      fx.root,
      fx.ws,
      marker,
    );
    expect(r.stderrTail).toMatch(/permission denied|not permitted|must be superuser/i);
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.readdirSync(fx.root).sort()).toEqual(['home']);
  });

  test('L1: `umount` of a hidden folder (the home’s .ssh) fails and the folder stays hidden; L0: unmounting the private home shows nothing of the real one', async () => {
    const ssh = path.join(fx.home, '.ssh');
    const l1 = await sh('L1', 'umount "$1"; umount -l "$1"; cat "$1/id_probe"; ls -A "$1"', ssh);
    expect(l1.stdoutTail).not.toContain(fx.secret);
    expect(l1.stderrTail).toMatch(/must be superuser|not permitted|permission denied/i);
    const l0 = await sh('L0', 'umount "$1"; umount -l "$1"; cat "$1/.bash_history" "$1/.ssh/id_probe"', fx.home);
    expect(l0.stdoutTail).not.toContain(fx.secret);
    expect(fs.readFileSync(path.join(ssh, 'id_probe'), 'utf8')).toBe(`${fx.secret}-ssh\n`);
  });

  test.each(['L0', 'L1'] as const)('%s: no user namespace can be made (unshare -U, unshare -Ur, a mount namespace)', async (level) => {
    for (const args of [
      ['-U', 'true'],
      ['-Ur', 'id'],
      ['-m', 'true'],
      ['-n', 'true'],
    ]) {
      const r = await fx.run(fx.box.wrap(level, false, fx.ws, 'unshare', args)!);
      expect([args.join(' '), r.exitCode === 0]).toEqual([args.join(' '), false]);
      expect(r.stderrTail).toMatch(/Operation not permitted/);
    }
  });

  test('L1: calls the filter refuses, made directly (python ctypes): each with the errno of the table, not what the kernel would say without it', async () => {
    // the system's python (one a version manager keeps in root's home is out of nobody's reach)
    const python = ['/usr/bin/python3', '/bin/python3'].find((p) => fs.existsSync(p));
    const abi = hostAbis()?.[0];
    if (!python || !abi) return console.warn('no python3 here: direct system calls not tried');
    const nr = (name: SyscallName) => syscallNumber(name, abi)!;
    // [name, number, args]; without the filter each of these would succeed or fail otherwise (EFAULT, EBADF, EINVAL, ENOSPC, ENOTTY)
    const calls: Array<[string, number, number[]]> = [
      ['unshare(CLONE_NEWUSER)', nr('unshare'), [0x10000000]],
      ['setns(-1)', nr('setns'), [-1, 0]],
      ['keyctl(GET_KEYRING_ID, session)', nr('keyctl'), [0, -3, 0]],
      ['add_key(NULL…)', nr('add_key'), [0, 0, 0, 0, -3]],
      ['io_uring_setup(1, NULL)', nr('io_uring_setup'), [1, 0]],
      ['clone3(NULL, 0)', nr('clone3'), [0, 0]],
      ['perf_event_open(NULL…)', nr('perf_event_open'), [0, 0, -1, -1, 0]],
      ['userfaultfd(UFFD_USER_MODE_ONLY)', nr('userfaultfd'), [1]],
      ['kcmp(self, self, KCMP_VM)', nr('kcmp'), [-2, -2, 1, 0, 0]],
      ['process_vm_readv(self, 0 bytes)', nr('process_vm_readv'), [-2, 0, 0, 0, 0, 0]],
      ['ioctl(0, TIOCSTI)', nr('ioctl'), [0, 0x5412, 0]],
      ['pivot_root(NULL, NULL)', nr('pivot_root'), [0, 0]],
      ['open_tree(AT_FDCWD, "/")', nr('open_tree'), [-100, 0, 0]],
      ['bpf(BPF_MAP_CREATE, NULL)', nr('bpf'), [0, 0, 0]],
      // a VM socket is only made, never connected: refused before it exists
      ['socket(AF_VSOCK)', nr('socket'), [40, 1, 0]],
      ['socket(AF_ALG)', nr('socket'), [38, 5, 0]],
    ];
    const want: Record<string, number> = { 'io_uring_setup(1, NULL)': 38, 'clone3(NULL, 0)': 38 };
    const script = [
      'import ctypes, json, os, sys, time',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'libc.syscall.restype = ctypes.c_long',
      'out = {}',
      'for name, nr, args in json.loads(sys.argv[1]):',
      '    args = [os.getpid() if a == -2 else a for a in args]',
      '    ctypes.set_errno(0)',
      '    r = libc.syscall(nr, *[ctypes.c_long(a) for a in args])',
      '    out[name] = 0 if r >= 0 else ctypes.get_errno()',
      // ptrace(PTRACE_ATTACH) of its own child: allowed by every ptrace policy but the filter
      'pid = os.fork()',
      'if pid == 0:',
      '    time.sleep(5); os._exit(0)',
      `r = libc.syscall(${nr('ptrace')}, ctypes.c_long(16), ctypes.c_long(pid), ctypes.c_long(0), ctypes.c_long(0))`,
      "out['ptrace(PTRACE_ATTACH, own child)'] = 0 if r >= 0 else ctypes.get_errno()",
      'os.kill(pid, 9); os.waitpid(pid, 0)',
      'print(json.dumps(out))',
    ].join('\n');
    const r = await fx.run(fx.box.wrap('L1', false, fx.ws, python, ['-c', script, JSON.stringify(calls)])!);
    expect(r.stderrTail).toBe('');
    const got = JSON.parse(r.stdoutTail) as Record<string, number>;
    for (const [name] of [...calls, ['ptrace(PTRACE_ATTACH, own child)']])
      expect([name, got[name as string]]).toEqual([name, want[name as string] ?? 1]);
  });

  test('node, git, python, make and a compiler still run inside (L1), and a debugger still runs what it starts', async () => {
    // builds in a scratch folder of the workspace, removed at the end (the git test reads the status)
    const r = await sh(
      'L1',
      [
        'mkdir -p "$1"',
        `"${process.execPath}" -e "require('child_process').execFileSync('true'); new (require('worker_threads').Worker)('', { eval: true }).on('exit', () => console.log('node ok'))"`,
        'git --version >/dev/null && echo git ok',
        "if command -v python3 >/dev/null; then python3 -c \"import subprocess, threading; subprocess.run(['true']); print('python ok')\"; else echo python ok; fi",
        'if command -v make >/dev/null; then printf "all:\\n\\t@echo make ok\\n" > "$1/Makefile" && make -s -f "$1/Makefile"; else echo make ok; fi',
        'if command -v cc >/dev/null; then printf "int main(void){return 0;}\\n" > "$1/p.c" && cc "$1/p.c" -o "$1/p" && "$1/p" && echo cc ok; else echo cc ok; fi',
        'if command -v strace >/dev/null; then strace -f -o /dev/null true && echo strace ok; else echo strace ok; fi',
        'rm -rf "$1"',
      ].join('\n'),
      path.join(fx.ws, '.build-probe'),
    );
    expect(r.stderrTail).not.toMatch(/not permitted|permission denied/i);
    for (const tool of ['node', 'git', 'python', 'make', 'cc', 'strace']) expect(r.stdoutTail).toContain(`${tool} ok`);
  });

  test('git with a committed .env.example and an untracked .env: status and diff at L0 as outside; add -A and stash at L1 work and never take the hidden .env', async () => {
    const git = fx.git;
    const outside = { status: git('status', '--porcelain'), diff: git('diff') };
    expect(outside.status).toContain('?? .env\n');
    const l0 = (args: string[]) => fx.run(fx.box.wrap('L0', false, fx.ws, 'git', args)!);
    const st = await l0(['status', '--porcelain']);
    expect(st).toMatchObject({ exitCode: 0, stderrTail: '' });
    // the hidden file is absent to git, every other line as outside
    expect(st.stdoutTail).toBe(outside.status.replace('?? .env\n', ''));
    expect(await l0(['diff'])).toMatchObject({ exitCode: 0, stdoutTail: outside.diff, stderrTail: '' });
    expect(await l0(['diff', '--stat', 'HEAD'])).toMatchObject({ exitCode: 0, stderrTail: '' });
    const shown = await l0(['show', 'HEAD:.env.example']);
    expect(shown.stdoutTail).toBe('API_KEY=\nDB_URL=\n');
    const read = await fx.run(fx.box.wrap('L0', false, fx.ws, 'cat', ['.env.example', '.env', '.env.local'])!);
    expect(read.stdoutTail).toBe('API_KEY=\nDB_URL=\n');
    const l1 = await sh(
      'L1',
      'git add -A && git diff --cached --name-only && git stash push -u -q && git status --porcelain && git stash pop -q && git reset -q && echo done',
    );
    expect(l1.stderrTail).toBe('');
    expect(l1.stdoutTail).toBe('app.js\ndone\n');
    expect(fs.readFileSync(path.join(fx.ws, '.env'), 'utf8')).toBe(`API_KEY=${fx.secret}-env\n`);
    expect(git('status', '--porcelain')).toBe(outside.status);
    expect(git('stash', 'list')).toBe('');
  });
});

(asRoot ? run : describe.skip)('the process limit as root: set, not in force, and said', () => {
  test('an L0 step of root starts more processes than the limit and still works; /proc/self/limits shows the limit set; the status says why it does not bind', async () => {
    const fx = fixture('root');
    const box = createSandbox({
      workspace: fx.ws,
      home: fx.home,
      slothtoolHome: path.join(fx.home, '.slothtool'),
      env: fx.env,
      limits: { memoryMb: 512, processes: 4, cpuSeconds: 30 },
    });
    expect(box.status()).toMatchObject({ limits: { processes: 4 }, limitsOff: 'root' });
    const r = await fx.run(
      box.wrap('L0', false, fx.ws, '/bin/sh', [
        '-c',
        'grep "Max processes" /proc/self/limits; for i in 1 2 3 4 5 6 7 8; do sleep 0.2 & done; wait; echo all started',
      ])!,
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdoutTail).toMatch(/Max processes\s+4\s+4/);
    expect(r.stdoutTail).toContain('all started');
  });
});

run('through the runner, as root or the tests’ user: an approved step that tries to escape', () => {
  test('an approved `npm test` whose script remounts / and unmounts ~/.ssh: both fail, nothing is written outside, the secret is not in its output', async () => {
    const fx = fixture(asRoot ? 'root' : 'user');
    const marker = path.join(fx.root, 'escaped-npm-test');
    const pkg = {
      name: 'probe',
      version: '1.0.0',
      private: true,
      scripts: {
        test: `mount -o remount,rw / ; umount ${path.join(fx.home, '.ssh')} ; cat ${path.join(fx.home, '.ssh', 'id_probe')} ; echo pwned > ${marker} ; grep -E '^(CapEff|Seccomp):' /proc/self/status`,
      },
    };
    fs.writeFileSync(path.join(fx.ws, 'package.json'), JSON.stringify(pkg));
    const npm = findProgram('npm', process.env);
    if (!npm) return console.warn('no npm here: the npm test probe not tried');
    const { runner, asked } = fixtureRunner(fx, 'run');
    const r = (await runner.run({ tool: 'exec', program: 'npm', args: ['test'] })) as {
      exitCode?: number;
      stdoutTail?: string;
      stderrTail?: string;
      sandbox?: { level: string };
    };
    expect(asked).toHaveLength(1);
    expect(asked[0].decision.rules.map((x) => x.id)).not.toContain('sandbox.degraded.capabilities');
    expect(r.sandbox?.level).toBe('L1');
    expect(fs.existsSync(marker)).toBe(false);
    expect(`${r.stdoutTail}${r.stderrTail}`).not.toContain(fx.secret);
    expect(r.stdoutTail).toMatch(/CapEff:\s+0000000000000000/);
    expect(r.stdoutTail).toMatch(/Seccomp:\s+2/);
    runner.dispose();
  });

  test('proc.start runs its background process in the same hardened sandbox (the filter reaches it through its own spawn)', async () => {
    const fx = fixture(asRoot ? 'root' : 'user');
    const { runner } = fixtureRunner(fx, 'run');
    const started = (await runner.run({ tool: 'proc.start', program: 'cat', args: ['/proc/self/status'] })) as {
      proc_id?: string;
      sandbox?: { level: string };
    };
    expect(started.proc_id).toBeDefined();
    const done = (await runner.run({ tool: 'proc.status', proc_id: started.proc_id!, wait_ms: 10_000 } as never)) as {
      state?: string;
      output?: string;
      stdoutTail?: string;
    };
    const out = JSON.stringify(done);
    expect(out).toMatch(/CapEff:\\t0000000000000000/);
    expect(out).toMatch(/Seccomp:\\t2/);
    runner.dispose();
  });

  test('git status and git diff are L0 steps that run without a question, in a repository that commits .env.example and keeps an untracked .env', async () => {
    const fx = fixture(asRoot ? 'root' : 'user');
    const { runner, asked } = fixtureRunner(fx, 'decline');
    const status = (await runner.run({ tool: 'exec', program: 'git', args: ['status', '--short'] })) as {
      exitCode?: number;
      stdoutTail?: string;
      stderrTail?: string;
      sandbox?: { level: string };
    };
    const diff = (await runner.run({ tool: 'exec', program: 'git', args: ['diff'] })) as typeof status;
    expect(asked).toEqual([]);
    expect(status).toMatchObject({ exitCode: 0, sandbox: { level: 'L0' } });
    expect(status.stdoutTail).toContain(' M app.js');
    expect(status.stdoutTail).not.toContain('.env');
    expect(diff).toMatchObject({ exitCode: 0, sandbox: { level: 'L0' } });
    expect(diff.stdoutTail).toContain('+module.exports = 2;');
    expect(`${status.stderrTail}${diff.stderrTail}`).not.toMatch(/cannot hash|unable|fatal/i);
    runner.dispose();
  });
});
