import os = require('os');
import { AUDIT_ARCH, syscallNumber, X32_SYSCALL_BIT, type Abi, type SyscallName } from './syscalls';

/**
 * The seccomp filter every sandboxed step runs under (bubblewrap `--seccomp 3`): a classic BPF
 * program built here, at run time, from a table, so nothing is compiled at install time. It
 * refuses what a development step never needs and what turns a contained process into one that
 * is not: changing the file system view (mount, umount, pivot_root and the new mount API), new
 * namespaces (a user namespace gives back every capability inside it), attaching to other
 * processes, kernel keyrings, BPF, modules, perf events, kexec and the like. Everything else is
 * allowed: node, git, npm, python, make and compilers run as they do outside.
 *
 * Followed: Flatpak's blocklist (flatpak-run.c setup_seccomp, itself from Sandstorm and
 * linux-user-chroot), Docker's default profile (moby/profiles seccomp/default.json: what it
 * allows only with a capability a step never has), Chromium's clone3 → ENOSYS. docs/security.md
 * §4a lists the table with why.
 */

/** A refused call; with `when`, only when its argument says so (the low 32 bits of it). */
export interface SeccompRule {
  calls: readonly SyscallName[];
  errno: 'EPERM' | 'ENOSYS';
  when?: { arg: number; anyBit: number } | { arg: number; oneOf: readonly number[] };
  /** Why, for docs/security.md and the self-check. */
  why: string;
}

/** Every CLONE_NEW* flag that clone(2) takes (mount, cgroup, UTS, IPC, user, PID, network). */
const CLONE_NEW_NAMESPACES = 0x7e020000;
/** unshare(2) also takes CLONE_NEWTIME (0x80, which clone(2) reads as part of the exit signal). */
const UNSHARE_NEW_NAMESPACES = CLONE_NEW_NAMESPACES | 0x80;
/** ptrace(2) requests that attach to a running process. */
const PTRACE = { ATTACH: 16, SEIZE: 0x4206 } as const;
/** Terminal ioctls that type into a terminal or a virtual console. */
const TTY = { TIOCSTI: 0x5412, TIOCLINUX: 0x541c } as const;
/** Socket families: the kernel crypto API (AF_ALG) and VM sockets (AF_VSOCK), which no network namespace contains. */
const AF = { ALG: 38, VSOCK: 40 } as const;

export const SECCOMP_RULES: readonly SeccompRule[] = [
  {
    calls: [
      'mount',
      'umount',
      'umount2',
      'pivot_root',
      'chroot',
      'open_tree',
      'open_tree_attr',
      'move_mount',
      'fsopen',
      'fsconfig',
      'fsmount',
      'fspick',
      'mount_setattr',
    ],
    errno: 'EPERM',
    why: 'the file system view stays as the sandbox made it: no remount, no unmount of a hidden folder, no new mounts',
  },
  {
    calls: ['unshare'],
    errno: 'EPERM',
    when: { arg: 0, anyBit: UNSHARE_NEW_NAMESPACES },
    why: 'no new namespaces: a new user namespace holds every capability again',
  },
  {
    calls: ['clone'],
    errno: 'EPERM',
    when: { arg: 0, anyBit: CLONE_NEW_NAMESPACES },
    why: 'no new namespaces (threads and processes are made as usual)',
  },
  {
    calls: ['clone3'],
    errno: 'ENOSYS',
    why: 'its flags are in memory, out of a filter’s reach: ENOSYS makes libc fall back to clone, which is checked',
  },
  { calls: ['setns'], errno: 'EPERM', why: 'no joining other namespaces' },
  {
    calls: ['ptrace'],
    errno: 'EPERM',
    when: { arg: 0, oneOf: [PTRACE.ATTACH, PTRACE.SEIZE] },
    why: 'no attaching to a running process (a debugger still runs the program it starts)',
  },
  {
    calls: ['process_vm_readv', 'process_vm_writev', 'process_madvise', 'pidfd_getfd', 'kcmp', 'move_pages', 'migrate_pages'],
    errno: 'EPERM',
    why: 'no reading, writing or moving another process’s memory or descriptors',
  },
  { calls: ['add_key', 'request_key', 'keyctl'], errno: 'EPERM', why: 'kernel keyrings hold other programs’ credentials' },
  {
    calls: [
      'bpf',
      'init_module',
      'finit_module',
      'delete_module',
      'kexec_load',
      'kexec_file_load',
      'perf_event_open',
      'userfaultfd',
      'fanotify_init',
      'open_by_handle_at',
      'lookup_dcookie',
    ],
    errno: 'EPERM',
    why: 'the kernel itself: BPF programs, modules, a new kernel, profiling, and the calls kernel exploits and handle-based escapes start from',
  },
  {
    calls: ['io_uring_setup', 'io_uring_enter', 'io_uring_register'],
    errno: 'ENOSYS',
    why: 'io_uring runs work no filter sees; ENOSYS makes programs (libuv, tokio) use plain calls',
  },
  {
    calls: [
      'syslog',
      'acct',
      'quotactl',
      'quotactl_fd',
      'swapon',
      'swapoff',
      'reboot',
      'settimeofday',
      'stime',
      'clock_settime',
      'clock_settime64',
      'vhangup',
      'uselib',
    ],
    errno: 'EPERM',
    why: 'the machine: the kernel log, accounting, quotas, swap, reboot, the clock, terminals, legacy loaders',
  },
  { calls: ['iopl', 'ioperm', 'modify_ldt', 'vm86', 'vm86old'], errno: 'EPERM', why: 'x86 port access and legacy modes' },
  {
    calls: ['ioctl'],
    errno: 'EPERM',
    when: { arg: 1, oneOf: [TTY.TIOCSTI, TTY.TIOCLINUX] },
    why: 'no typing into a terminal (TIOCSTI) or a virtual console (TIOCLINUX)',
  },
  {
    calls: ['socket', 'socketpair'],
    errno: 'EPERM',
    when: { arg: 0, oneOf: [AF.VSOCK, AF.ALG] },
    why: 'no VM sockets (they reach the hypervisor’s services, outside every network namespace) and no kernel crypto sockets',
  },
];

const ERRNO: Record<SeccompRule['errno'], number> = { EPERM: 1, ENOSYS: 38 };

/** Classic BPF instruction codes (linux/filter.h: BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, …). */
const BPF = { LD_W_ABS: 0x20, JEQ_K: 0x15, JGE_K: 0x35, JSET_K: 0x45, JA: 0x05, RET_K: 0x06 } as const;
/** What a seccomp filter returns (linux/seccomp.h SECCOMP_RET_*). */
const RET = { KILL_PROCESS: 0x80000000, ALLOW: 0x7fff0000, ERRNO: 0x00050000 } as const;
/** seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (the low half first on a little-endian host). */
const DATA = { NR: 0, ARCH: 4 } as const;
const argLow = (i: number) => 16 + 8 * i;

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const stmt = (code: number, k: number): Insn => ({ code, jt: 0, jf: 0, k });
const jump = (code: number, k: number, jt: number, jf: number): Insn => {
  if (jt > 255 || jf > 255) throw new Error(`seccomp: a jump of ${Math.max(jt, jf)} does not fit`);
  return { code, jt, jf, k };
};
const ret = (k: number) => stmt(BPF.RET_K, k >>> 0);
const refuse = (errno: SeccompRule['errno']) => ret(RET.ERRNO | ERRNO[errno]);

/** What one call's number leads to: refused, or refused when an argument says so. */
interface Entry {
  nr: number;
  body: Insn[];
}

/** The instructions after a call's number matched (each path ends in a return). */
function entryBody(rules: readonly SeccompRule[]): Insn[] {
  const body: Insn[] = [];
  for (const rule of rules) {
    if (!rule.when) return [...body, refuse(rule.errno)];
    const w = rule.when;
    const tests = 'anyBit' in w ? [jump(BPF.JSET_K, w.anyBit, 0, 1)] : w.oneOf.map((v) => jump(BPF.JEQ_K, v, 0, 1));
    for (const t of tests) body.push(stmt(BPF.LD_W_ABS, argLow(w.arg)), t, refuse(rule.errno));
  }
  return [...body, ret(RET.ALLOW)];
}

/** The call numbers of one ABI, sorted, with what each leads to. */
function entries(abi: Abi, rules: readonly SeccompRule[]): Entry[] {
  const byNr = new Map<number, SeccompRule[]>();
  for (const rule of rules) {
    for (const name of rule.calls) {
      const nr = syscallNumber(name, abi);
      if (nr !== undefined) byNr.set(nr, [...(byNr.get(nr) ?? []), rule]);
    }
  }
  return [...byNr.entries()].sort((a, b) => a[0] - b[0]).map(([nr, rs]) => ({ nr, body: entryBody(rs) }));
}

/**
 * A search tree over the sorted numbers (the accumulator holds the number): a few comparisons
 * per call instead of one per rule. Every path ends in a return.
 */
function tree(list: Entry[]): Insn[] {
  if (list.length <= 3) {
    const out: Insn[] = [];
    for (const e of list) out.push(jump(BPF.JEQ_K, e.nr, 0, e.body.length), ...e.body);
    return [...out, ret(RET.ALLOW)];
  }
  const mid = list.length >> 1;
  const high = tree(list.slice(mid));
  const low = tree(list.slice(0, mid));
  return [jump(BPF.JGE_K, list[mid].nr, 0, high.length), ...high, ...low];
}

function abiBlock(abi: Abi, rules: readonly SeccompRule[]): Insn[] {
  const block = [stmt(BPF.LD_W_ABS, DATA.NR)];
  // x32 shares the x86-64 audit arch and numbers its calls with this bit: refused whole, as a
  // kernel built without x32 (most are) refuses it.
  if (abi === 'x86_64') block.push(jump(BPF.JSET_K, X32_SYSCALL_BIT, 0, 1), refuse('ENOSYS'));
  return [...block, ...tree(entries(abi, rules))];
}

/** The ABIs a host's kernel runs: its own and its 32-bit one. */
export function hostAbis(arch: string = process.arch): Abi[] | undefined {
  if (arch === 'x64') return ['x86_64', 'i386'];
  if (arch === 'arm64') return ['aarch64', 'arm'];
  return undefined;
}

/**
 * The filter program for `abis`: the audit arch is checked first (a call of another ABI is
 * judged by that ABI's numbers; an ABI not listed kills the process), then the call number.
 */
export function seccompProgram(abis: readonly Abi[], rules: readonly SeccompRule[] = SECCOMP_RULES): Insn[] {
  const blocks = abis.map((abi) => abiBlock(abi, rules));
  const head: Insn[] = [stmt(BPF.LD_W_ABS, DATA.ARCH)];
  const headLength = 1 + abis.length * 2 + 1;
  let start = headLength;
  abis.forEach((abi, i) => {
    head.push(jump(BPF.JEQ_K, AUDIT_ARCH[abi], 0, 1));
    // A long jump to the ABI's block (past the kill and the blocks before it).
    head.push(stmt(BPF.JA, start - head.length - 1));
    start += blocks[i].length;
  });
  head.push(ret(RET.KILL_PROCESS));
  const program = [...head, ...blocks.flat()];
  if (program.length > 4096) throw new Error(`seccomp: ${program.length} instructions (at most 4096)`);
  return program;
}

/** `struct sock_filter[]` as bubblewrap reads it from `--seccomp FD`: 8 bytes an instruction, host byte order. */
export function serialize(program: readonly Insn[]): Buffer {
  const buf = Buffer.alloc(program.length * 8);
  program.forEach((insn, i) => {
    buf.writeUInt16LE(insn.code, i * 8);
    buf.writeUInt8(insn.jt, i * 8 + 2);
    buf.writeUInt8(insn.jf, i * 8 + 3);
    buf.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return buf;
}

/**
 * The filter of this host, serialized, or undefined where it cannot be built (a host other than
 * x86-64 and aarch64, or big-endian): the sandbox then says it runs without one.
 */
export function hostSeccompFilter(arch: string = process.arch, endianness: 'LE' | 'BE' = os.endianness()): Buffer | undefined {
  const abis = hostAbis(arch);
  return abis && endianness === 'LE' ? serialize(seccompProgram(abis)) : undefined;
}
