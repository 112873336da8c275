/**
 * The launcher of a step kept off the host's loopback (net-jail.ts): its own process, started as
 * `node net-jail-launcher.js SLIRP4NETNS BWRAP [outer options with --info-fd 4 --block-fd 5] --
 * BWRAP [the step's sandbox options] -- command`. It starts the outer bubblewrap, which holds the
 * step's network namespace and the user namespace that owns it (net-jail.ts, holderArgs; the
 * seccomp filter, when there is one, stays fd 3 and reaches the inner sandbox), reads that
 * sandbox's pid from the info fd, starts slirp4netns on its network namespace, waits until
 * slirp4netns is ready and only then lets the step's own sandbox start through the block fd. It
 * ends with the command's exit (or signal); slirp4netns ends when the launcher's end of its exit
 * pipe closes. When the network cannot be set up, the command never starts: the launcher says
 * why on stderr and exits 125. An entry file: it prints and exits.
 */
import { spawn, type ChildProcess } from 'child_process';
import fs = require('fs');
import os = require('os');
import path = require('path');
import { BLOCK_FD, INFO_FD, jailResolvConf } from './net-jail';

const FAILED = 125;
/** The resolv.conf made for this step's sandbox, removed when the launcher ends. */
let resolvFile: string | undefined;

function cleanUp(): void {
  if (resolvFile) fs.rmSync(path.dirname(resolvFile), { recursive: true, force: true });
}

/**
 * Say why and end, the command never started: the sandbox (blocked on its block fd, which lets it
 * go on end of file) is killed before this process's exit closes that fd, then bubblewrap.
 */
function fail(why: string, bwrap?: ChildProcess, pid?: number): never {
  process.stderr.write(`slothtool: the step's network could not be set up (${why}); the command did not run\n`);
  if (pid !== undefined) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  bwrap?.kill('SIGKILL');
  cleanUp();
  process.exit(FAILED);
}

/**
 * bubblewrap's args with a resolv.conf naming slirp4netns's resolver bound in (into the outer
 * sandbox, whose whole tree the step's sandbox binds again), when the host's is on its loopback;
 * and the file to remove.
 */
function withResolver(args: string[]): { args: string[]; file?: string } {
  let conf: string | undefined;
  try {
    conf = jailResolvConf(fs.readFileSync('/etc/resolv.conf', 'utf8'));
  } catch {
    conf = undefined;
  }
  if (conf === undefined) return { args };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slothtool-net-'));
  const file = path.join(dir, 'resolv.conf');
  fs.writeFileSync(file, conf, { mode: 0o644 });
  const end = args.indexOf('--');
  return { args: [...args.slice(0, end), '--ro-bind', file, '/etc/resolv.conf', ...args.slice(end)], file };
}

/** The sandbox's pid, from bubblewrap's info fd (`{"child-pid": N, …}`). */
function childPid(info: NodeJS.ReadableStream): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    info.on('data', (b: Buffer) => {
      text += b.toString('utf8');
      const m = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    info.on('end', () => reject(new Error(`bubblewrap gave no pid${text ? `: ${text.trim()}` : ''}`)));
  });
}

/** Whether the namespace of `pid` has its loopback up (its routing table lists 127.0.0.1). */
function loopbackUp(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/net/fib_trie`, 'utf8').includes('127.0.0.1');
  } catch {
    return false;
  }
}

/**
 * Resolves once the sandbox has its loopback up: bubblewrap says the pid before its child has set
 * up the namespace (user mapping, loopback), and slirp4netns joining earlier is refused or breaks
 * that setup. Its routing table (`/proc/PID/net/fib_trie`) lists 127.0.0.1 only then.
 */
async function namespaceReady(pid: number, ended: () => boolean): Promise<void> {
  const limit = Date.now() + 10_000;
  for (;;) {
    if (loopbackUp(pid)) return;
    if (ended()) throw new Error('bubblewrap ended before its sandbox was set up');
    if (Date.now() > limit) throw new Error("the sandbox's loopback did not come up");
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** slirp4netns on the sandbox's network namespace; resolves once it says it is ready. */
function startSlirp(slirp: string, pid: number, userns: boolean): Promise<ChildProcess> {
  const args = ['--configure', '--mtu=65520', '--disable-host-loopback', '--ready-fd=3', '--exit-fd=4'];
  // The network namespace belongs to the outer sandbox's user namespace (`--unshare-user`): joined
  // first, or setns is refused, root or not. That one stays put (net-jail.ts, holderArgs).
  if (userns) args.push(`--userns-path=/proc/${pid}/ns/user`);
  const child = spawn(slirp, [...args, String(pid), 'tap0'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.stdio[3]!.once('data', () => resolve(child));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`slirp4netns exited ${String(code)}: ${err.trim().split('\n').slice(-3).join(' / ')}`)));
  });
}

async function main(argv: string[]): Promise<void> {
  const [slirp, bwrap, ...given] = argv;
  if (!slirp || !bwrap || !given.includes('--')) fail('usage: net-jail-launcher SLIRP4NETNS BWRAP OUTER-ARGS -- BWRAP ARGS -- COMMAND');
  const { args, file } = withResolver(given);
  resolvFile = file;
  const filter = args.includes('--seccomp') ? 3 : 'ignore';
  const box = spawn(bwrap, args, { stdio: ['inherit', 'inherit', 'inherit', filter, 'pipe', 'pipe'] });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    box.once('exit', (code, signal) => resolve({ code, signal })),
  );
  box.once('error', (e) => fail(`bubblewrap: ${e.message}`));
  // The pipes to bubblewrap break when it ends early (it says why on stderr): its exit decides.
  for (const fd of [INFO_FD, BLOCK_FD]) (box.stdio[fd] as unknown as NodeJS.EventEmitter | null)?.on('error', () => undefined);
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => box.kill(sig));
  let net: ChildProcess | undefined;
  let pid: number | undefined;
  try {
    pid = await childPid(box.stdio[INFO_FD] as unknown as NodeJS.ReadableStream);
    await namespaceReady(pid, () => box.exitCode !== null || box.signalCode !== null);
    net = await startSlirp(slirp, pid, args.slice(0, args.indexOf('--')).includes('--unshare-user'));
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e), box, pid);
  }
  (box.stdio[BLOCK_FD as number] as unknown as NodeJS.WritableStream).end('1');
  const { code, signal } = await done;
  net.removeAllListeners('exit');
  (net.stdio[4] as NodeJS.WritableStream).end();
  cleanUp();
  if (signal) {
    // Ended by a signal: end the same way (the forwarding handlers off first, or they would catch it).
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? FAILED);
}

void main(process.argv.slice(2));
