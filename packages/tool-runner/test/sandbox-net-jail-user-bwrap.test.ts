/**
 * The loopback jail for a normal user, for real (sandbox/net-jail.ts). When the tests run as root
 * (CI, containers), a runner of uid 65534 (through setpriv) builds its sandbox from lib/ (what the
 * package ships) and runs L1 steps granted the network: the first-step trial passes (the jail is
 * on), the step cannot reach a listener on this machine's 127.0.0.1 (held here, on port 0), not
 * through slirp4netns's gateway for the host (10.0.2.2) either, it still reaches another address
 * of this machine (the internet's stand-in), and it holds nothing: no capability in any set,
 * no_new_privs, the seccomp filter, the user mapped to itself.
 *
 * slirp4netns opens /dev/net/tun, which udev makes 0666 on most systems. Where it is root's only
 * (no udev, as on some VMs), that user runs in a mount namespace of its own where a 0666 node of
 * the same device is bound over it, as udev would have made it; the machine's stays as it is.
 */
import { runProcess } from '@holic512/testkit';
import * as fs from 'fs';
import * as path from 'path';
import { findProgram } from '../src';
import { describeWithBwrap } from './bwrap-available';
import { LAUNCHER, listen, otherAddress, portOf, SLIRP } from './helpers/net-jail';
import { asNobody, NOBODY, nobodyCanRead, nobodyPlace } from './helpers/other-user';

const LIB = path.join(__dirname, '..', 'lib', 'index.js');
const run = describeWithBwrap();

/** What the runner of that user does: a sandbox from lib/, four jailed L1 steps, what came of them on stdout. */
const SCRIPT = `
  const o = JSON.parse(process.env.JAIL);
  const { createSandbox, exec, parseInside } = require(o.lib);
  const env = { ...process.env, HOME: o.home, SLOTHTOOL_HOME: o.home + '/.slothtool' };
  const box = createSandbox({ workspace: o.ws, home: o.home, slothtoolHome: o.home + '/.slothtool', env, slirp: o.slirp, launcher: o.launcher });
  const connect = (host, port) =>
    "require('net').connect(" + port + ",[" + host.split('.').join(',') + "].join('.')).on('connect',()=>process.exit(0)).on('error',(e)=>{console.error(e.code);process.exit(3)})";
  const step = async (args) => {
    const w = box.wrap('L1', true, o.ws, process.execPath, args);
    const r = await exec({ ...w, cwd: o.ws, env, timeoutMs: 30000 });
    return { jailed: w.isolatedNetwork === true, exitCode: r.exitCode, out: r.stdoutTail, err: r.stderrTail };
  };
  (async () => {
    const loopback = await step(['-e', connect('127.0.0.1', o.port)]);
    const gateway = await step(['-e', connect('10.0.2.2', o.port)]);
    const other = o.other ? await step(['-e', connect(o.other, o.otherPort)]) : undefined;
    const inside = await step(['-e', "process.stdout.write(require('fs').readFileSync('/proc/self/status','utf8'))"]);
    const s = box.status();
    process.stdout.write(JSON.stringify({ uid: process.getuid(), loopback, gateway, other, inside: parseInside(inside.out), insideUid: /^Uid:\\s*(\\d+)/m.exec(inside.out)?.[1], status: s.loopback, hardening: s.hardening }));
  })();`;

/** sh that gives this mount namespace a 0666 /dev/net/tun (the same device, as udev makes it), then runs "$@". */
const TUN_AS_UDEV =
  'set -e; mount -t tmpfs -o mode=755 tmpfs "$TUN_DIR"; mknod -m 666 "$TUN_DIR/tun" c 10 200; mount --bind "$TUN_DIR/tun" /dev/net/tun; exec "$@"';

let root: string;
let home: string;
let ws: string;
let tmp: string;
beforeAll(() => {
  ({ root, home, ws, tmp } = nobodyPlace('net-jail-user-', ['tun']));
});
// The child (and the mount namespace with it) has exited when the test ends.
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

run('the loopback jail for an unprivileged user, for real', () => {
  test(`a runner of uid ${NOBODY}: the trial passes, the host's loopback and 10.0.2.2 are out of reach, the outside is not, the step holds nothing`, async () => {
    const setpriv = findProgram('setpriv', process.env);
    const unshare = findProgram('unshare', process.env);
    if (process.getuid?.() !== 0 || !setpriv || !unshare || !SLIRP || !fs.existsSync('/dev/net/tun'))
      return console.warn(
        'net-jail-user test skipped: needs root (to become another user), setpriv, unshare, slirp4netns and /dev/net/tun',
      );
    if (!nobodyCanRead(setpriv, LAUNCHER))
      return console.warn(`net-jail-user test SKIPPED: uid ${NOBODY} cannot read this checkout (${LAUNCHER})`);
    const servers = [await listen('127.0.0.1')];
    const other = otherAddress();
    if (other) servers.push(await listen(other));
    try {
      const open = (fs.statSync('/dev/net/tun').mode & 0o006) === 0o006;
      const user = [setpriv, ...asNobody(process.execPath, '-e', SCRIPT)];
      const [program, ...args] = open ? user : [unshare, '-m', '--propagation', 'private', 'sh', '-c', TUN_AS_UDEV, 'sh', ...user];
      const jail = {
        lib: LIB,
        launcher: LAUNCHER,
        slirp: SLIRP,
        ws,
        home,
        port: portOf(servers[0]),
        other,
        otherPort: other && portOf(servers[1]),
      };
      const { code, stdout, stderr } = await runProcess(program, args, {
        cwd: ws,
        env: { PATH: process.env.PATH, HOME: home, TMPDIR: tmp, TUN_DIR: path.join(root, 'tun'), JAIL: JSON.stringify(jail) },
      });
      expect([code, stderr]).toEqual([0, '']);
      const r = JSON.parse(stdout);
      expect(r.uid).toBe(NOBODY);
      // The jail is on: the trial passed, `ai sandbox` says so.
      expect(r.status).toEqual({ isolated: true });
      expect([r.loopback.jailed, r.loopback.exitCode, r.loopback.err]).toEqual([true, 3, expect.stringContaining('ECONNREFUSED')]);
      expect([r.gateway.jailed, r.gateway.exitCode]).toEqual([true, 3]);
      if (other) expect([r.other.jailed, r.other.exitCode, r.other.err]).toEqual([true, 0, '']);
      // The step's own sandbox keeps every hardening this host allows, the jail or not.
      expect(r.hardening).toMatchObject({ userns: true, capDrop: true });
      expect(r.inside).toEqual({
        capabilities: {
          effective: '0000000000000000',
          permitted: '0000000000000000',
          bounding: '0000000000000000',
          ambient: '0000000000000000',
        },
        noNewPrivs: true,
        seccomp: r.hardening.seccomp,
      });
      expect(r.insideUid).toBe(String(NOBODY));
    } finally {
      for (const s of servers) s.close();
    }
  });
});
