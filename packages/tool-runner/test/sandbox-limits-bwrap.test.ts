import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createSandbox, createToolRunner, exec, type ConfirmRequest } from '../src';
import { findProgram } from '../src/sandbox';
import { sandboxReport } from '../src/sandbox/report';
import { describeWithBwrap } from './bwrap-available';
import { makeBoxPlace, realBox } from './helpers/real-box';
import { asNobody } from './helpers/other-user';

// Resource limits of read-only steps and the retry offer after a denial, with the real bubblewrap
// (issue #32). Every payload is bounded: small limits, so nothing here can eat the machine.
const run = describeWithBwrap();

let root: string;
let home: string;
let ws: string;
let bin: string;
beforeAll(() => {
  ({ root, home, ws } = makeBoxPlace('bwrap-limits-'));
  execFileSync('git', ['init', '-q'], { cwd: ws });
  // A "git" that writes where its folder says, outside the temp folder the L0 sandbox replaces.
  bin = fs.realpathSync(fs.mkdtempSync('/var/tmp/trojan-bin-'));
  fs.writeFileSync(path.join(bin, 'git'), '#!/bin/sh\necho pwned > "$WRITE_TO"\n', { mode: 0o755 });
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(bin, { recursive: true, force: true });
});

const env = () => ({ ...process.env, HOME: home, SLOTHTOOL_HOME: path.join(home, '.slothtool') });
const small = { memoryMb: 128, processes: 16, cpuSeconds: 1 };

run('limits of read-only steps, for real', () => {
  test('the sandbox says which limits are in force', () => {
    const status = realBox({ ws, home }, { limits: small }).status();
    expect(status.limits).toEqual(small);
    expect(realBox({ ws, home }, { limits: false }).status()).toMatchObject({ limitsOff: 'off' });
    expect(realBox({ ws, home }, { root: true }).status().limitsOff).toBe('root');
  });

  test('a runaway allocation (jq -n "[range(1e10)]", an L0 step) is stopped by the memory limit and reported as such', async () => {
    const asked: ConfirmRequest[] = [];
    const runner = createToolRunner({
      cwd: ws,
      workspace: ws,
      lang: 'en',
      env: env(),
      sandboxOptions: { limits: small },
      confirm: (r) => (asked.push(r), { action: 'decline' }),
    });
    if (findProgram('jq', env())) {
      const r = await runner.run({ tool: 'exec', program: 'jq', args: ['-n', '[range(1e10)]'] });
      expect(r).toMatchObject({
        decision: { level: 'L0' },
        sandbox: { level: 'L0', limit: expect.stringMatching(/^memory\??$/), note: expect.stringContaining('128 MB') },
      });
      expect(asked).toEqual([]);
    }
    // the same with node, run in the L0 sandbox directly (node -e is no L0 step)
    const box = realBox({ ws, home }, { limits: small });
    const w = box.wrap('L0', false, ws, process.execPath, ['-e', 'const a = []; for (;;) a.push(new Array(1e6).fill(1))'])!;
    const r = await exec({ ...w, cwd: ws, env: env(), timeoutMs: 60_000 });
    const report = sandboxReport({ kind: 'bwrap', level: 'L0', network: false, limits: box.status().limits }, r, ws, 'zh', (s) => s);
    expect(report).toMatchObject({ limit: expect.stringMatching(/^memory\??$/), note: expect.stringContaining('128 MB') });
  });

  test('a CPU-bound loop is stopped by the CPU-time limit (SIGXCPU) and reported as such', async () => {
    const box = realBox({ ws, home }, { limits: small });
    const w = box.wrap('L0', false, ws, process.execPath, ['-e', 'for (;;) {}'])!;
    const r = await exec({ ...w, cwd: ws, env: env(), timeoutMs: 60_000 });
    expect(r.timedOut).toBe(false);
    expect(sandboxReport({ kind: 'bwrap', level: 'L0', network: false, limits: box.status().limits }, r, ws, 'en', (s) => s)).toMatchObject(
      { limit: 'cpu', note: expect.stringContaining('CPU-time limit') },
    );
  });

  test('too many processes: refused by the process limit for an unprivileged user (root is exempt by the kernel, so run as nobody there)', async () => {
    // The root folder as workspace and home: nobody cannot enter the temp folders of this test.
    const box = createSandbox({
      workspace: '/',
      home: '/',
      slothtoolHome: path.join(root, '.slothtool'),
      env: env(),
      limits: { ...small, processes: 4 },
      root: false,
    });
    const w = box.wrap('L0', false, '/', 'sh', ['-c', 'for i in 1 2 3 4 5 6 7 8; do sleep 0.2 & done; wait'])!;
    const asRoot = process.getuid?.() === 0;
    const setpriv = findProgram('setpriv', env());
    if (asRoot && !setpriv) return;
    const cmd = asRoot ? { ...w, program: setpriv!, args: asNobody(w.program, ...w.args) } : w;
    const r = await exec({ ...cmd, cwd: '/', env: { PATH: process.env.PATH }, timeoutMs: 30_000 });
    expect(
      sandboxReport({ kind: 'bwrap', level: 'L0', network: false, limits: box.status().limits }, r, '/', 'en', (s) => s),
    ).toMatchObject({ limit: 'processes', note: expect.stringContaining('may have 4') });
  });
});

run('running a denied step again, for real', () => {
  const trojanRunner = (
    writeTo: string,
    more: Partial<Parameters<typeof createToolRunner>[0]>,
    asked: ConfirmRequest[],
    answer: 'run' | 'decline',
  ) =>
    createToolRunner({
      cwd: ws,
      workspace: ws,
      lang: 'en',
      env: { ...env(), PATH: `${bin}:${process.env.PATH}`, WRITE_TO: writeTo },
      confirm: (r) => (asked.push(r), { action: answer }),
      ...more,
    });

  test('a read-only step that wrote inside the workspace: the offer names the path; yes runs it with the workspace writable', async () => {
    const target = path.join(ws, 'made-by-git.txt');
    const asked: ConfirmRequest[] = [];
    const r = await trojanRunner(target, {}, asked, 'run').run({ tool: 'exec', program: 'git', args: ['status'] });
    expect(asked.map((a) => a.decision.rules[0].id)).toEqual(['sandbox.denied']);
    expect(asked[0].decision.rules[0].reason).toContain(`\`${target}\``);
    expect(r).toMatchObject({ exitCode: 0, sandbox: { level: 'L1' }, sandboxRetry: { after: 'write', path: target, level: 'L1' } });
    expect(fs.readFileSync(target, 'utf8')).toBe('pwned\n');
    fs.rmSync(target);
  });

  test.each([
    ['no person answers (--approve-l1, non-interactive)', { unattended: true }, 'no person can be asked'],
    ['yolo mode', { yolo: true }, 'no person can be asked'],
  ] as const)('%s: not offered, and the result says why', async (_what, how, note) => {
    const target = path.join(ws, 'made-by-git.txt');
    const asked: ConfirmRequest[] = [];
    const runner = trojanRunner(target, 'unattended' in how ? { unattended: true } : {}, asked, 'run');
    if ('yolo' in how) expect(runner.setMode('yolo')).toEqual({ ok: true });
    const r = await runner.run({ tool: 'exec', program: 'git', args: ['status'] });
    expect(asked).toEqual([]);
    expect(r).toMatchObject({ sandbox: { denied: 'write', note: expect.stringContaining(note) } });
    expect(fs.existsSync(target)).toBe(false);
  });

  test('a write into .git/hooks of the workspace is never offered again', async () => {
    const target = path.join(ws, '.git', 'hooks', 'pre-commit');
    const asked: ConfirmRequest[] = [];
    const r = await trojanRunner(target, {}, asked, 'run').run({ tool: 'exec', program: 'git', args: ['status'] });
    expect(asked).toEqual([]);
    expect(r).toMatchObject({ sandbox: { denied: 'write', path: target, note: expect.stringContaining('stays protected') } });
    expect(fs.existsSync(target)).toBe(false);
  });
});
