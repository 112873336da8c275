import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner, type ConfirmRequest } from '../src';
import { describeWithBwrap } from './bwrap-available';
import { realBox, runInBox } from './helpers/real-box';

// The real bubblewrap (skipped, with a line saying so, where it does not work; CI requires it).
const run = describeWithBwrap();

let root: string;
let home: string;
let ws: string;
const SECRET = 'PRIVATE-KEY-0c1d2e3f';
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bwrap-')));
  home = path.join(root, 'home');
  ws = path.join(home, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), SECRET);
  fs.mkdirSync(path.join(home, '.slothtool', 'plugin-configs'), { recursive: true });
  fs.writeFileSync(path.join(home, '.slothtool', 'plugin-configs', 'llm-base.json'), '{"api_key":"sk-hidden-0000"}');
  fs.mkdirSync(ws, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: ws });
  fs.writeFileSync(path.join(ws, 'readme.txt'), 'hello workspace\n');
  fs.writeFileSync(path.join(ws, '.env'), 'TOKEN=env-secret-1234\n');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const env = () => ({ ...process.env, HOME: home, SLOTHTOOL_HOME: path.join(home, '.slothtool') });
const box = () => realBox({ ws, home });
const inBox = (level: 'L0' | 'L1', network: boolean, program: string, args: string[]) =>
  runInBox(box(), { ws, home }, { level, program, args, network, timeoutMs: 20_000 });

run('bubblewrap sandbox, for real', () => {
  test('L0: the workspace is readable', async () => {
    const r = await inBox('L0', false, 'cat', ['readme.txt']);
    expect([r.exitCode, r.stdoutTail]).toEqual([0, 'hello workspace\n']);
  });

  test('L0: a write is refused (read-only file system) or lands in the private /tmp; nothing appears outside', async () => {
    for (const target of [path.join(ws, 'new.txt'), '/usr/local/sandbox-probe', `/var/tmp/sandbox-probe-${process.pid}`]) {
      const r = await inBox('L0', false, 'touch', [target]);
      expect(r.exitCode).not.toBe(0);
      expect(r.stderrTail).toMatch(/Read-only file system/);
      expect(fs.existsSync(target)).toBe(false);
    }
    // the temp folder is private and thrown away: a write there succeeds inside and leaves nothing
    const scratch = path.join(home, 'scratch.txt');
    expect((await inBox('L0', false, 'touch', [scratch])).exitCode).toBe(0);
    expect(fs.existsSync(scratch)).toBe(false);
  });

  test('L0: no network (a listener on 127.0.0.1 of this machine is out of reach)', async () => {
    const server = net.createServer((s) => {
      s.on('error', () => undefined);
      s.end('hi');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const code = `require('net').connect(${port},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',(e)=>{console.error(e.code);process.exit(3)})`;
      const r = await inBox('L0', false, process.execPath, ['-e', code]);
      expect(r.exitCode).toBe(3);
      const open = await inBox('L1', true, process.execPath, ['-e', code]);
      expect(open.exitCode).toBe(0);
    } finally {
      server.close();
    }
  });

  test('secret stores, the SlothTool configs and the workspace .env are hidden at both levels', async () => {
    for (const level of ['L0', 'L1'] as const) {
      const key = await inBox(level, false, 'cat', [path.join(home, '.ssh', 'id_ed25519')]);
      expect(key.stdoutTail).not.toContain(SECRET);
      const cfg = await inBox(level, false, 'cat', [path.join(home, '.slothtool', 'plugin-configs', 'llm-base.json')]);
      expect(cfg.stdoutTail).not.toContain('sk-hidden');
      const dotenv = await inBox(level, false, 'cat', [path.join(ws, '.env')]);
      expect(dotenv.stdoutTail).not.toContain('env-secret');
    }
  });

  test("the spawn helper's pipe folder (<SlothTool home>/run) is made before the first command and hidden at both levels", async () => {
    const run = path.join(home, '.slothtool', 'run');
    fs.rmSync(run, { recursive: true, force: true });
    const sandbox = box();
    sandbox.wrap('L1', false, ws, 'true', []);
    expect(fs.statSync(run).mode & 0o777).toBe(0o700);
    for (const level of ['L0', 'L1'] as const) {
      // A pipe folder made while a command runs (a background process) stays out of its reach.
      const pending = inBox(level, false, 'sh', ['-c', `sleep 1; ls -A "${run}"`]);
      await new Promise((r) => setTimeout(r, 300));
      fs.mkdirSync(path.join(run, `pipes-${level}`));
      fs.writeFileSync(path.join(run, `pipes-${level}`, 'marker'), 'x');
      const r = await pending;
      // at L0 the whole SlothTool home under the private home is not there at all
      expect([r.exitCode, r.stdoutTail.trim()]).toEqual([level === 'L1' ? 0 : 2, '']);
      expect((await inBox(level, false, 'ls', ['-A', run])).stdoutTail.trim()).toBe('');
    }
  });

  test('L1: the workspace is writable; .git/hooks, .git/config and the SlothTool home are not', async () => {
    const ok = await inBox('L1', false, 'touch', [path.join(ws, 'made.txt')]);
    expect(ok.exitCode).toBe(0);
    expect(fs.existsSync(path.join(ws, 'made.txt'))).toBe(true);
    for (const target of [
      path.join(ws, '.git', 'hooks', 'pre-commit'),
      path.join(ws, '.git', 'config'),
      path.join(home, '.slothtool', 'registry.json'),
    ]) {
      const before = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined;
      const r = await inBox('L1', false, 'sh', ['-c', `echo x >> "${target}"`]);
      expect(r.exitCode).not.toBe(0);
      expect(fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined).toBe(before);
    }
  });

  test('through the runner: L0 steps run sandboxed; a background process is sandboxed and killed with its group', async () => {
    const runner = createToolRunner({ cwd: ws, workspace: ws, lang: 'en', env: env(), confirm: () => ({ action: 'decline' }) });
    expect(runner.sandboxStatus().kind).toBe('bwrap');
    const cat = await runner.run({ tool: 'exec', program: 'cat', args: ['readme.txt'] });
    expect(cat).toMatchObject({ exitCode: 0, stdoutTail: 'hello workspace\n', sandbox: { kind: 'bwrap', level: 'L0', network: false } });
    const started = (await runner.run({ tool: 'proc.start', program: 'sleep', args: ['30'] })) as { proc_id: string; pid?: number };
    expect(started.proc_id).toBe('proc_1');
    const killed = await runner.run({ tool: 'proc.kill', proc_id: 'proc_1' });
    expect(killed).toMatchObject({ state: 'exited' });
    const alive =
      started.pid !== undefined &&
      (() => {
        try {
          process.kill(started.pid!, 0);
          return true;
        } catch {
          return false;
        }
      })();
    expect(alive).toBe(false);
    runner.dispose();
  });

  test('a read-only command whose program writes outside the workspace after all (a trojaned git on PATH): the sandbox stops it and says so; running it again is not offered', async () => {
    const marker = `/var/tmp/pwned-by-git-${process.pid}`;
    // outside the temp folder, which the L0 sandbox replaces with an empty one
    const bin = fs.mkdtempSync('/var/tmp/trojan-bin-');
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho pwned > "${marker}"\n`, { mode: 0o755 });
    const asked: ConfirmRequest[] = [];
    const runner = createToolRunner({
      cwd: ws,
      workspace: ws,
      lang: 'en',
      env: { ...env(), PATH: `${bin}:${process.env.PATH}` },
      confirm: (r) => (asked.push(r), { action: 'decline' }),
    });
    const r = await runner.run({ tool: 'exec', program: 'git', args: ['status'] });
    expect(r).toMatchObject({
      decision: { level: 'L0' },
      sandbox: { kind: 'bwrap', level: 'L0', denied: 'write', path: marker, note: expect.stringContaining('outside the workspace') },
    });
    expect(fs.existsSync(marker)).toBe(false);
    expect(asked).toEqual([]);
    fs.rmSync(bin, { recursive: true, force: true });
  });
});
