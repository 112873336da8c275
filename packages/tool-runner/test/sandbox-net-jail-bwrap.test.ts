/**
 * A step granted the network, kept off this machine's loopback (sandbox/net-jail.ts), for real:
 * bubblewrap (with the hardening this host allows, the seccomp filter on fd 3 included) and
 * slirp4netns. A listener on 127.0.0.1 of this machine stands for a Docker API or a database: a
 * step that does not name this machine cannot reach it (not through 127.0.0.1, not through
 * slirp4netns's gateway for the host), while another address of this machine, standing for the
 * internet, stays reachable. Without slirp4netns the step shares the host's network, as before,
 * and the status says why. Skipped, saying so, where bubblewrap or slirp4netns is missing.
 */
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { describeWithBwrap } from './bwrap-available';
import * as http from 'http';
import { createToolRunner, exec, findProgram } from '../src';
import { LAUNCHER, listen, otherAddress, portOf, SLIRP } from './helpers/net-jail';
import { homeEnv, makeBoxPlace, realBox, runInBox } from './helpers/real-box';
import { holderArgs, jailCommand, jailResolvConf, namesThisMachine, tunAccess } from '../src/sandbox/net-jail';
import { loopbackDenial } from '../src/sandbox/denial';

const run = describeWithBwrap();

/** Node code that connects to `host:port` built at run time (so the command names no host), exit 0 connected, 3 refused. */
const connectCode = (parts: number[], port: number) =>
  `require('net').connect(${port},[${parts.join(',')}].join('.')).on('connect',()=>process.exit(0)).on('error',(e)=>{console.error(e.code);process.exit(3)})`;

let root: string;
let ws: string;
let home: string;
beforeAll(() => {
  ({ root, home, ws } = makeBoxPlace('net-jail-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

run('a step granted the network, off the host loopback, for real', () => {
  const servers: net.Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));

  test('with slirp4netns: the loopback listener is out of reach, another address of this machine is not', async () => {
    if (!SLIRP) return console.warn('net-jail test skipped: slirp4netns is not installed');
    const box = realBox({ ws, home }, { slirp: SLIRP, launcher: LAUNCHER });
    const tun = tunAccess();
    if (!tun.ok) {
      // This user cannot open /dev/net/tun here (no udev, a container): said, with what to do.
      expect(box.status().loopback).toEqual({ isolated: false, why: tun.why, cause: tun.cause });
      return console.warn(`net-jail test skipped: ${tun.why}`);
    }
    expect(box.status().loopback).toEqual({ isolated: true });
    const lo = await listen('127.0.0.1');
    servers.push(lo);
    const port = portOf(lo);
    const inBox = (args: string[]) =>
      runInBox(box, { ws, home }, { level: 'L1', network: true, program: process.execPath, args, timeoutMs: 20_000 });
    const loopback = await inBox(['-e', connectCode([127, 0, 0, 1], port)]);
    expect([loopback.exitCode, loopback.stderrTail]).toEqual([3, expect.stringContaining('ECONNREFUSED')]);
    const gateway = await inBox(['-e', connectCode([10, 0, 2, 2], port)]);
    expect(gateway.exitCode).toBe(3);
    const other = otherAddress();
    if (other) {
      const out = await listen(other);
      servers.push(out);
      const reach = await inBox(['-e', connectCode(other.split('.').map(Number), portOf(out))]);
      expect([reach.exitCode, reach.stderrTail]).toEqual([0, '']);
    }
    // A step that names this machine keeps the host's network: the user saw where it goes.
    const named = await inBox(['-e', connectCode([127, 0, 0, 1], port), `http://127.0.0.1:${port}`]);
    expect(named.exitCode).toBe(0);
    // Exit codes and output come through the launcher unchanged.
    const code = await inBox(['-e', 'process.stdout.write("out");process.stderr.write("err");process.exit(7)']);
    expect([code.exitCode, code.stdoutTail, code.stderrTail]).toEqual([7, 'out', 'err']);
  });

  test('through the runner: curl -L from a public address redirected to the loopback finds nothing there', async () => {
    const other = otherAddress();
    if (!SLIRP || !other || !findProgram('curl', process.env) || !tunAccess().ok)
      return console.warn('redirect test skipped: no slirp4netns, curl, second address or /dev/net/tun open to this user');
    const secret = await new Promise<http.Server>((resolve) => {
      const s = http.createServer((_q, a) => a.end('engine-secret'));
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = portOf(secret);
    const redirector = await new Promise<http.Server>((resolve) => {
      const s = http.createServer((_q, a) => a.writeHead(302, { location: `http://127.0.0.1:${port}/containers/json` }).end());
      s.listen(0, other, () => resolve(s));
    });
    try {
      const url = `http://${other}:${portOf(redirector)}/`;
      const runnerWith = (slirp: string | false) =>
        createToolRunner({
          cwd: ws,
          lang: 'en',
          policy: { allowNetwork: true },
          env: homeEnv(home),
          sandbox: realBox({ ws, home }, { slirp, launcher: LAUNCHER }),
          confirm: () => ({ action: 'run' }),
        });
      const step = { tool: 'exec' as const, program: 'curl', args: ['-sS', '-L', url] };
      const jailed = await runnerWith(SLIRP).run(step);
      expect(jailed).toMatchObject({ sandbox: { network: true, isolatedNetwork: true } });
      // The result says why: this machine's own services are out of reach unless the command names them.
      expect((jailed as { sandbox?: { denied?: string; note?: string } }).sandbox).toMatchObject({
        denied: 'network',
        note: expect.stringContaining('this machine’s own services'),
      });
      expect((jailed as { stdoutTail?: string }).stdoutTail ?? '').not.toContain('engine-secret');
      expect((jailed as { exitCode?: number }).exitCode).not.toBe(0);
      // The same step sharing the host's network (slirp4netns off) reaches it: what the jail stops.
      const shared = await runnerWith(false).run(step);
      expect((shared as { stdoutTail?: string }).stdoutTail).toBe('engine-secret');
    } finally {
      secret.close();
      redirector.close();
    }
  });

  test('a server (hostNetwork) and an L0 step are as before: host network, and none', async () => {
    if (!SLIRP) return;
    const box = realBox({ ws, home }, { slirp: SLIRP, launcher: LAUNCHER });
    const served = box.wrap('L1', true, ws, 'true', [], { hostNetwork: true })!;
    expect(served.args).not.toContain('--info-fd');
    expect(served.args).not.toContain('--unshare-net');
    const l0 = box.wrap('L0', false, ws, 'true', [])!;
    expect(l0.args).toContain('--unshare-net');
    expect(l0.args).not.toContain(LAUNCHER);
  });

  test('when the network cannot be set up the command never runs; a failed trial falls back, saying why', async () => {
    if (!SLIRP || !tunAccess().ok) return;
    const marker = path.join(ws, 'ran');
    const box = realBox({ ws, home }, { slirp: SLIRP, launcher: LAUNCHER });
    const w = box.wrap('L1', true, ws, 'touch', [marker])!;
    // The same command line with a slirp4netns that fails at once.
    const broken = { ...w, args: w.args.map((a) => (a === SLIRP ? '/bin/false' : a)) };
    const r = await exec({ ...broken, cwd: ws, env: homeEnv(home), timeoutMs: 20_000 });
    expect([r.exitCode, r.stderrTail]).toEqual([125, expect.stringContaining('did not run')]);
    expect(fs.existsSync(marker)).toBe(false);
    const fallback = realBox({ ws, home }, { slirp: '/bin/false', launcher: LAUNCHER });
    const shared = fallback.wrap('L1', true, ws, 'true', [])!;
    expect(shared.args).not.toContain('--unshare-net');
    expect(fallback.status().loopback).toEqual({ isolated: false, why: expect.stringContaining('slirp4netns exited') });
  });

  test('a signal ends the step through the launcher (the time-out reaches the command)', async () => {
    if (!SLIRP || !tunAccess().ok) return;
    const box = realBox({ ws, home }, { slirp: SLIRP, launcher: LAUNCHER });
    const w = box.wrap('L1', true, ws, process.execPath, ['-e', 'setInterval(() => {}, 1000)'])!;
    const r = await exec({ ...w, cwd: ws, env: homeEnv(home), timeoutMs: 1500, killGraceMs: 2000 });
    expect(r.timedOut).toBe(true);
  });

  test('without slirp4netns the step shares the host network, and the status says why', async () => {
    const box = realBox({ ws, home }, { slirp: false, launcher: LAUNCHER });
    expect(box.status().loopback).toEqual({ isolated: false, why: 'turned off' });
    const w = box.wrap('L1', true, ws, 'true', [])!;
    expect(w.args).not.toContain('--unshare-net');
    const missing = realBox({ ws, home }, { launcher: path.join(root, 'nowhere.js') });
    expect(missing.status().loopback).toMatchObject({ isolated: false, why: expect.stringContaining('nowhere.js') });
    // /dev/net/tun closed to this user (no udev) or missing (a container): no trial, the cause named.
    for (const cause of ['tun-denied', 'tun-missing'] as const) {
      const closed = realBox(
        { ws, home },
        { slirp: SLIRP ?? '/usr/bin/slirp4netns', launcher: LAUNCHER, tunAccess: () => ({ ok: false, cause, why: 'x' }) },
      );
      expect(closed.wrap('L1', true, ws, 'true', [])!.args).not.toContain('--unshare-net');
      expect(closed.status().loopback).toEqual({ isolated: false, why: 'x', cause });
    }
  });
});

describe('net-jail, the pure parts', () => {
  test.each([
    ['curl http://localhost:3000/health', true],
    ['curl http://app.localhost/x', true],
    ['curl http://127.0.0.1:8080', true],
    ['curl -x http://[::1]:3128 https://example.com', true],
    ['nc 0.0.0.0 2375', true],
    ['psql -h localhost', true],
    ['curl https://example.com', false],
    ['curl -L https://localhostel.example/x', false],
    ['npm install --registry=http://127.0.0.1:4873', true],
    ['psql postgres://me@localhost/app', true],
    ['curl -H X-Forwarded-For:127.0.0.1 https://example.com', false],
    ['curl -e localhost.example.com https://example.com', false],
    ['git fetch origin', false],
    ['npm install', false],
  ])('%s names this machine: %s', (line, yes) => {
    const [program, ...args] = line.split(' ');
    expect(namesThisMachine(program, args)).toBe(yes);
  });

  test("the launcher goes in front of an outer bubblewrap that holds the network; the step's own keeps its options; the filter stays fd 3", () => {
    const filter = Buffer.from('f');
    const inner = ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', '--unshare-user', '--disable-userns', '--seccomp', '3'];
    const j = jailCommand(
      { program: '/usr/bin/bwrap', args: [...inner, '--', 'git', 'log', '--', '--unshare-net'], fds: [filter] },
      { node: '/usr/bin/node', launcher: '/l.js', slirp: '/usr/bin/slirp4netns' },
    );
    expect(j).toEqual({
      program: '/usr/bin/node',
      // The step's sandbox makes no network namespace of its own (it would be empty), and the
      // command's words are its own, `--unshare-net` among them.
      args: [
        '/l.js',
        '/usr/bin/slirp4netns',
        '/usr/bin/bwrap',
        ...holderArgs(true),
        '--',
        '/usr/bin/bwrap',
        ...inner.filter((a) => a !== '--unshare-net'),
        '--',
        'git',
        'log',
        '--',
        '--unshare-net',
      ],
      fds: [filter],
      isolatedNetwork: true,
    });
  });

  test.each([
    ['a user namespace (a normal user; root where they are allowed)', ['--unshare-user', '--cap-drop', 'ALL'], true],
    ['none (root in a container without user namespaces): the holder makes none either', ['--cap-drop', 'ALL'], false],
  ])('the outer sandbox owns the network through %s', (_what, hardening, userns) => {
    const j = jailCommand(
      { program: 'bwrap', args: ['--unshare-net', ...hardening, '--', 'true'] },
      { node: 'n', launcher: 'l', slirp: 's' },
    );
    const outer = j.args.slice(3, j.args.indexOf('--'));
    expect(outer).toEqual(holderArgs(userns));
    // It holds the network namespace, and the user namespace that owns it where the step's sandbox has one.
    expect(outer).toContain('--unshare-net');
    expect(outer.includes('--unshare-user')).toBe(userns);
    // The host's file system unchanged (the inner sandbox makes the step's view); gone with the launcher.
    expect(outer.join(' ')).toContain('--dev-bind / /');
    expect(outer).toContain('--die-with-parent');
    // Its pid told, and the inner one started, on the pipes the launcher opens as fds 4 and 5.
    expect(outer.join(' ')).toContain('--info-fd 4 --block-fd 5');
    // The outer one never nests a second user namespace (bubblewrap's --dev, --uid or --disable-userns would).
    expect(outer.some((a) => ['--dev', '--uid', '--disable-userns', '--cap-drop'].includes(a))).toBe(false);
  });

  test.each([
    ["curl: (7) Failed to connect to 127.0.0.1 port 2375 after 0 ms: Couldn't connect to server", true],
    ['Error: connect ECONNREFUSED ::1:5432', true],
    ['npm error request to http://localhost:4873/x failed, reason: connect ECONNREFUSED 127.0.0.1:4873', true],
    ['curl: (6) Could not resolve host: example.com', false],
    ['curl: (7) Failed to connect to example.com port 443: Connection timed out', false],
  ])('a failed connection to this machine, when the step was kept off it: %s → %s', (line, yes) => {
    expect(loopbackDenial(7, `x\n${line}\n`) !== undefined).toBe(yes);
    expect(loopbackDenial(0, line)).toBeUndefined();
  });

  test('a resolver on the host loopback is replaced by slirp4netns own inside', () => {
    expect(jailResolvConf('nameserver 10.255.255.53\n')).toBeUndefined();
    expect(jailResolvConf('nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch lan\n')).toBe(
      'nameserver 10.0.2.3\noptions edns0 trust-ad\nsearch lan\n',
    );
  });
});
