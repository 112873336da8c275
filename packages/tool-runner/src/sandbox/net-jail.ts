import fs = require('fs');
import path = require('path');
import type { SandboxedCommand } from './bwrap';
import type { Probe } from './spec';

/**
 * A step granted the network, kept off this machine's own services: bubblewrap gives it a network
 * namespace of its own (`--unshare-net`) and slirp4netns joins that to the outside with a
 * user-mode network stack that refuses the host's loopback (`--disable-host-loopback`). Inside,
 * 127.0.0.1 is the namespace's own; an HTTP redirect from a public URL to the host's loopback (a
 * Docker API on 127.0.0.1:2375, a database, a dev server) finds nothing there. bubblewrap makes the
 * namespace, so a launcher (net-jail-launcher.ts) starts slirp4netns on it once bubblewrap says
 * its pid (`--info-fd`) and only then lets the command start (`--block-fd`). Steps that name this
 * machine themselves (`curl http://localhost:3000`, the user saw that) and servers (`proc.start`)
 * keep the host's network, as before.
 */

/** slirp4netns from a system folder only: the program that builds a step's network is not one the home or workspace ships. */
export function findSlirp(probe: Probe): string | undefined {
  return ['/usr/bin/slirp4netns', '/bin/slirp4netns', '/usr/local/bin/slirp4netns'].find((p) => probe(p) === 'file');
}

/**
 * A word that is an address of this machine: a URL or `host[:port]` whose host is `localhost` (or
 * `*.localhost`), a loopback address or the unspecified one (`http://localhost:3000/x`,
 * `127.0.0.1:4873`, `postgres://u@localhost/db`, `[::1]:3128`, `0.0.0.0`). A word that merely
 * mentions one (`X-Forwarded-For: 127.0.0.1`) is none.
 */
const THIS_MACHINE =
  /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^/@\s]*@)?(?:(?:[a-z0-9-]+\.)*localhost\.?|127(?:\.\d{1,3}){1,3}|0\.0\.0\.0|\[(?:::1|::|::ffff:127(?:\.\d{1,3}){3})\]|::1)(?::\d*)?(?:[/?#].*)?$/i;

/**
 * Whether a command names this machine as a place it connects to (a word, or an option's value
 * after `=`, that is an address of this machine): it is meant to reach a local service, and keeps
 * the host's network. The user saw that address in the question.
 */
export function namesThisMachine(program: string, args: readonly string[]): boolean {
  return [program, ...args].some(
    (a) => THIS_MACHINE.test(a) || (a.startsWith('-') && a.includes('=') && THIS_MACHINE.test(a.slice(a.indexOf('=') + 1))),
  );
}

/** Where bubblewrap tells the launcher its sandbox's pid, and where it waits for the go: fds of bubblewrap as the launcher starts it. */
export const INFO_FD = 4;
export const BLOCK_FD = 5;

/**
 * bubblewrap options of the outer sandbox that holds a jailed step's network namespace: that and
 * the user namespace that owns it (when the step's sandbox has one), the host's file system
 * unchanged (the inner sandbox makes the step's view), its pid told on the info fd and the inner
 * one started only once the block fd says go.
 *
 * Why two: slirp4netns must join the user namespace that owns the network namespace, or setns is
 * refused (the kernel's rule: CAP_SYS_ADMIN in the namespace's owner). A sandbox that makes the
 * network namespace itself does not keep its owner joinable: unprivileged, bubblewrap maps the
 * user to uid 0 first (to mount devpts for `--dev`) and then, as with `--disable-userns` for root
 * too, moves into a second user namespace below it, so /proc/PID/ns/user names a child of the
 * owner, where no capability over the network namespace is had (and before the move, a race).
 * The outer sandbox makes no second one (no `--dev`, its own uid, no `--disable-userns`): its
 * user namespace owns the network namespace for as long as the step runs, and the inner sandbox
 * keeps every option it has without the jail.
 */
export function holderArgs(userns: boolean): string[] {
  return [
    '--dev-bind',
    '/',
    '/',
    '--unshare-net',
    ...(userns ? ['--unshare-user'] : []),
    '--die-with-parent',
    '--info-fd',
    String(INFO_FD),
    '--block-fd',
    String(BLOCK_FD),
  ];
}

/**
 * The command line that runs a bubblewrap command (one with `--unshare-net`) behind the launcher,
 * in an outer sandbox that holds its network namespace ({@link holderArgs}):
 * `node launcher slirp4netns bwrap [outer options] -- bwrap [the command's options, but
 * --unshare-net] -- command`. The seccomp filter stays fd 3 (the launcher hands its own fd 3 on,
 * the outer sandbox passes it through to the inner one).
 */
export function jailCommand(cmd: SandboxedCommand, jail: { node: string; launcher: string; slirp: string }): SandboxedCommand {
  const end = cmd.args.indexOf('--');
  const own = end < 0 ? cmd.args : cmd.args.slice(0, end);
  const inner = [...own.filter((a) => a !== '--unshare-net'), ...(end < 0 ? [] : cmd.args.slice(end))];
  return {
    program: jail.node,
    args: [jail.launcher, jail.slirp, cmd.program, ...holderArgs(own.includes('--unshare-user')), '--', cmd.program, ...inner],
    ...(cmd.fds ? { fds: cmd.fds } : {}),
    isolatedNetwork: true,
  };
}

/** The launcher beside this file (in the bundle, beside it in dist/). */
export const launcherPath = (): string => path.join(__dirname, 'net-jail-launcher.js');

/** The resolver the step sees when the host's is on its loopback (systemd-resolved's 127.0.0.53): slirp4netns's own. */
export const SLIRP_DNS = '10.0.2.3';

/** A resolv.conf for inside the jail: the host's, with loopback name servers replaced by slirp4netns's; undefined when none is on the loopback. */
export function jailResolvConf(host: string): string | undefined {
  const loopback = /^\s*nameserver\s+(127\.\S*|::1)\s*$/m;
  if (!loopback.test(host)) return undefined;
  const lines = host.split('\n').filter((l) => !/^\s*nameserver\s/.test(l) || !/^\s*nameserver\s+(127\.\S*|::1)\s*$/.test(l));
  return [`nameserver ${SLIRP_DNS}`, ...lines].join('\n');
}

/**
 * Why a jail cannot be had that the user can fix: slirp4netns opens /dev/net/tun to make the
 * step's network device, and the kernel lets a user open it only as its mode allows (a capability
 * in a user namespace does not count for a device node owned by the host's root). udev makes it
 * 0666 on most systems; without udev (some VMs) it stays 0600, root only; a container may have none.
 */
export type JailCause = 'tun-missing' | 'tun-denied';

/** Whether steps granted the network are kept off the host's loopback here, and why not (SandboxStatus.loopback). */
export type LoopbackStatus = { isolated: true } | { isolated: false; why: string; cause?: JailCause };

/** Whether this process may open /dev/net/tun, and if not what it is (its mode and owner), for the reason. */
export function tunAccess(): { ok: true } | { ok: false; cause: JailCause; why: string } {
  const tun = '/dev/net/tun';
  try {
    fs.accessSync(tun, fs.constants.R_OK | fs.constants.W_OK);
    return { ok: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, cause: 'tun-missing', why: `there is no ${tun} here` };
    const st = fs.statSync(tun, { throwIfNoEntry: false });
    const mode = st ? `mode ${(st.mode & 0o777).toString(8)}, owner uid ${st.uid}` : 'cannot be read';
    return { ok: false, cause: 'tun-denied', why: `${tun} (${mode}) is not open to uid ${String(process.getuid?.())}` };
  }
}

type Found = { slirp: string } | { why: string; cause?: JailCause };

/**
 * The jail of one sandbox: slirp4netns found (in a system folder), the launcher there and
 * /dev/net/tun open to this user, then tried once, on the first step that would be jailed (a
 * trivial command through the launcher, `trial`: its first line of stderr is why not). Until that
 * trial the status says what was found.
 */
export class NetJail {
  private found: Found | undefined;
  private tried = false;

  constructor(
    private readonly o: {
      slirp?: string | false;
      launcher: string;
      probe: Probe;
      exists: (p: string) => boolean;
      tun: () => ReturnType<typeof tunAccess>;
    },
    private readonly trial: (slirp: string) => string | undefined,
  ) {}

  private find(): Found {
    const { slirp, launcher, probe, exists } = this.o;
    if (slirp === false) return { why: 'turned off' };
    if (!exists(launcher)) return { why: `${launcher} is missing` };
    const s = slirp ?? findSlirp(probe);
    if (!s) return { why: 'slirp4netns is not installed (Debian/Ubuntu: apt-get install slirp4netns)' };
    const tun = this.o.tun();
    return tun.ok ? { slirp: s } : { why: tun.why, cause: tun.cause };
  }

  status(): LoopbackStatus {
    const f = (this.found ??= this.find());
    return 'slirp' in f ? { isolated: true } : { isolated: false, ...f };
  }

  /** slirp4netns for a step, or false: not here, or its trial failed (said by {@link status} from then on). */
  slirp(): string | false {
    const f = (this.found ??= this.find());
    if (!('slirp' in f)) return false;
    if (!this.tried) {
      this.tried = true;
      const failed = this.trial(f.slirp);
      if (failed !== undefined) {
        this.found = { why: failed };
        return false;
      }
    }
    return f.slirp;
  }
}
