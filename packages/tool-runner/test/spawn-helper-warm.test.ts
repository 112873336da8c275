import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { exec, type ExecDeps, type ExecResult } from '../src/exec';
import { SpawnHelper } from '../src/spawn-helper';

/** The built helper program (tests run the TypeScript sources; the helper runs as plain node). */
const CHILD = path.join(__dirname, '..', 'lib', 'spawn-helper-child.js');

// A sandbox prepared ahead (spawn-helper-warm.ts): a step whose sandbox options are the last
// step's runs in the one started for it, and nothing a fresh start would give differs (argv,
// environment, folder, exit code, signal); other options, a path they name that is another file
// now, a prepared one that died, or a word a fresh start would refuse: started afresh. The
// sandbox here is a stand-in for bubblewrap that logs each start and execs what follows `--`.
jest.setTimeout(30_000);
const linux = process.platform === 'linux' && fs.existsSync('/bin/bash') ? test : test.skip;

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'warm-box-')));
const PIPE_DIR = path.join(root, 'home', '.slothtool', 'run');
const BOX = path.join(root, 'box.sh');
const LOG = path.join(root, 'starts.log');
const WS = path.join(root, 'ws');
fs.mkdirSync(WS, { recursive: true });
fs.mkdirSync(path.dirname(PIPE_DIR), { recursive: true });
fs.writeFileSync(
  BOX,
  [
    '#!/bin/sh',
    '# bubblewrap stand-in: reads --chdir DIR (sets PWD, as bubblewrap does) and --log FILE (one line a start), skips the rest up to --',
    'while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do',
    '  case "$1" in',
    '    --chdir) cd "$2" || exit 1; unset OLDPWD; PWD="$2"; export PWD; shift 2 ;;',
    '    --log) echo "$$" >> "$2"; shift 2 ;;',
    '    *) shift ;;',
    '  esac',
    'done',
    'shift',
    'exec "$@"',
    '',
  ].join('\n'),
  { mode: 0o755 },
);

let helper: SpawnHelper;
beforeAll(async () => {
  helper = new SpawnHelper(spawn as never, CHILD, PIPE_DIR);
  expect(await helper.whenReady()).toBe(true);
});
afterAll(() => {
  helper.close();
  // The helper's end ends what it prepared; the folder goes once nothing runs in it.
  fs.rmSync(root, { recursive: true, force: true });
});

/** exec's side effects, spawning through the test's helper. */
const deps: ExecDeps = {
  spawn: (c, a, o) => helper.spawn(c, a, o),
  now: () => Date.now(),
  killGroup: (pid, s) => process.kill(-pid, s),
  platform: process.platform,
};

const starts = (): string[] => (fs.existsSync(LOG) ? fs.readFileSync(LOG, 'utf8').trim().split('\n') : []);

/** Print what the program was given: its pid, argv, environment and folder, as JSON. */
const REPORT =
  'process.stdout.write(JSON.stringify({ pid: process.pid, argv: process.argv.slice(1), env: process.env, cwd: process.cwd() }))';

/** Run `command` in the stand-in sandbox with `options` before `--`, through the helper. */
function step(
  command: string[],
  options: string[] = ['--log', LOG, '--chdir', WS],
  env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: 'C', X: 'a b' },
): Promise<ExecResult> {
  const args = [...options, '--', ...command];
  return exec({ program: BOX, args, commandAt: options.length + 1, cwd: WS, env }, deps);
}

const report = (r: ExecResult) => JSON.parse(r.stdoutTail) as { pid: number; argv: string[]; env: NodeJS.ProcessEnv; cwd: string };

/**
 * Run a step with `options` until the sandbox for the next one like it is prepared (a start logged
 * after that step's own; when the helper's FIFOs ran out it prepares none, and the next step, started
 * afresh, makes more). The pid of the prepared one.
 */
async function primed(options?: string[]): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const r = await step([process.execPath, '-e', REPORT], options);
    const own = String(report(r).pid);
    // Its own start was logged (by it, or by the prepared one it ran in); the next one's follows.
    for (let i = 0; i < 300; i++) {
      const log = starts();
      const at = log.lastIndexOf(own);
      if (at >= 0 && at < log.length - 1) return Number(log[log.length - 1]);
      await new Promise((res) => setTimeout(res, 10));
    }
  }
  throw new Error('no sandbox was prepared');
}

describe('a step like the last one', () => {
  linux('runs in the sandbox prepared for it, given exactly what a fresh start gives', async () => {
    const words = ['', ' a b ', 'x\ny', "it's", '$HOME', '--flag', '-', 'é中文', '*', 'a=b', '\\', '"q"'];
    const fresh = await step([process.execPath, '-e', REPORT, ...words]);
    await primed();
    const before = starts();
    const prepared = await step([process.execPath, '-e', REPORT, ...words]);
    expect(fresh.exitCode).toBe(0);
    expect(prepared.exitCode).toBe(0);
    // It was the prepared one: started before this step was asked for.
    expect(before).toContain(String(report(prepared).pid));
    const { pid: _a, ...a } = report(fresh);
    const { pid: _b, ...b } = report(prepared);
    expect(b).toEqual(a);
    expect(b.argv).toEqual(words);
    expect(b.env).toEqual({ PATH: process.env.PATH, LANG: 'C', X: 'a b', PWD: WS });
  });

  linux('exit codes, signals and output come back as from a fresh start', async () => {
    await primed();
    let before = starts();
    const coded = await step(['sh', '-c', 'echo out; echo err >&2; echo $$; exit 7']);
    expect(coded).toMatchObject({ exitCode: 7, signal: null });
    expect(coded.stdoutTail.split('\n').slice(0, 1)).toEqual(['out']);
    expect(coded.stderrTail).toBe('err\n');
    expect(before).toContain(coded.stdoutTail.split('\n')[1]);
    await primed();
    before = starts();
    const killed = await step(['sh', '-c', 'echo $$; kill -TERM $$']);
    expect(killed).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
    expect(before).toContain(killed.stdoutTail.trim());
  });
});

describe('started afresh', () => {
  const freshPid = async (command: string[], options?: string[]) => {
    const before = starts();
    const r = await step([process.execPath, '-e', REPORT, ...command], options);
    expect(r.exitCode).toBe(0);
    return { fresh: !before.includes(String(report(r).pid)), result: r };
  };

  linux('when the options differ', async () => {
    await primed();
    const other = fs.mkdtempSync(path.join(root, 'other-'));
    const { fresh, result } = await freshPid([], ['--log', LOG, '--chdir', other]);
    expect(fresh).toBe(true);
    expect(report(result).cwd).toBe(other);
  });

  linux('when a path the options name is another file now (replaced, as a hidden secret could be)', async () => {
    const secret = path.join(WS, '.env');
    fs.writeFileSync(secret, 'TOKEN=old\n');
    const options = ['--log', LOG, '--ro-bind', '/dev/null', secret, '--chdir', WS];
    await primed(options);
    fs.writeFileSync(`${secret}.new`, 'TOKEN=new\n');
    fs.renameSync(`${secret}.new`, secret);
    expect((await freshPid([], options)).fresh).toBe(true);
    // Unchanged since (the next one was prepared after the change): prepared.
    await primed(options);
    expect((await freshPid([], options)).fresh).toBe(false);
  });

  linux('when the prepared one ended meanwhile', async () => {
    const waiting = await primed();
    process.kill(waiting, 'SIGKILL');
    // Reaped: the helper has seen it end (node reaps and reports an exit at once).
    for (let i = 0; i < 1000 && fs.existsSync(`/proc/${waiting}`); i++) await new Promise((r) => setTimeout(r, 10));
    expect(fs.existsSync(`/proc/${waiting}`)).toBe(false);
    expect((await freshPid([])).fresh).toBe(true);
  });

  linux('when a command outside the sandbox ran in between (it may have changed what the prepared one holds)', async () => {
    const waiting = await primed();
    const other = await exec({ program: 'true', args: [], cwd: WS }, deps);
    expect(other.exitCode).toBe(0);
    for (let i = 0; i < 1000 && fs.existsSync(`/proc/${waiting}`); i++) await new Promise((r) => setTimeout(r, 10));
    expect(fs.existsSync(`/proc/${waiting}`)).toBe(false);
    expect((await freshPid([])).fresh).toBe(true);
  });

  linux('when a runner is done: nothing it prepared keeps running', async () => {
    const waiting = await primed();
    expect(fs.existsSync(`/proc/${waiting}`)).toBe(true);
    helper.discardPrepared();
    for (let i = 0; i < 1000 && fs.existsSync(`/proc/${waiting}`); i++) await new Promise((r) => setTimeout(r, 10));
    expect(fs.existsSync(`/proc/${waiting}`)).toBe(false);
    expect((await freshPid([])).fresh).toBe(true);
  });

  linux('when a word holds a NUL: refused as a fresh start refuses it, never split in two', async () => {
    await primed();
    const r = await step([process.execPath, '-e', REPORT, 'a\0b']);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdoutTail).toBe('');
  });
});
