import * as fs from 'fs';
import { hostAbis, hostSeccompFilter, SECCOMP_RULES, seccompProgram, serialize } from '../src/sandbox/seccomp';
import { AUDIT_ARCH, SYSCALLS, syscallNumber, type Abi, type SyscallName } from '../src/sandbox/syscalls';

// The seccomp filter of every sandboxed step (issue #43), run here by a small classic-BPF
// interpreter over the bytes bubblewrap reads: what each ABI refuses, with which errno, and what
// it lets through. The real kernel runs it in the bwrap tests (sandbox-root-bwrap.test.ts).

const ALLOW = 0x7fff0000;
const KILL_PROCESS = 0x80000000;
const errno = (n: number) => 0x00050000 | n;
const EPERM = errno(1);
const ENOSYS = errno(38);

/** Run a serialized `struct sock_filter[]` over one seccomp_data (nr, arch, six 64-bit args). */
function runFilter(prog: Buffer, nr: number, arch: number, args: bigint[] = []): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  for (let i = 0; i < 6; i++) data.writeBigUInt64LE(BigInt.asUintN(64, args[i] ?? 0n), 16 + 8 * i);
  let a = 0;
  for (let pc = 0, steps = 0; pc < prog.length / 8; pc++, steps++) {
    if (steps > 10_000) throw new Error('loop');
    const code = prog.readUInt16LE(pc * 8);
    const jt = prog.readUInt8(pc * 8 + 2);
    const jf = prog.readUInt8(pc * 8 + 3);
    const k = prog.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20: // ld w abs
        a = data.readUInt32LE(k);
        break;
      case 0x15: // jeq k
        pc += a === k ? jt : jf;
        break;
      case 0x35: // jge k
        pc += a >= k ? jt : jf;
        break;
      case 0x45: // jset k
        pc += (a & k) >>> 0 ? jt : jf;
        break;
      case 0x05: // ja
        pc += k;
        break;
      case 0x06: // ret k
        return k >>> 0;
      default:
        throw new Error(`unexpected opcode ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('fell off the end');
}

const x64 = serialize(seccompProgram(hostAbis('x64')!));
const arm64 = serialize(seccompProgram(hostAbis('arm64')!));
const HOSTS: Array<[string, Buffer, Abi[]]> = [
  ['x86-64 host', x64, ['x86_64', 'i386']],
  ['aarch64 host', arm64, ['aarch64', 'arm']],
];

/** Everyday calls per ABI (read, write, openat, execve, mmap, close): never refused. */
const EVERYDAY: Record<Abi, number[]> = {
  x86_64: [0, 1, 257, 59, 9, 3, 435 - 1],
  i386: [3, 4, 295, 11, 192, 6],
  aarch64: [63, 64, 56, 221, 222, 57],
  arm: [3, 4, 322, 11, 192, 6],
};

describe('the seccomp filter, by ABI', () => {
  test.each(HOSTS)(
    '%s: every unconditional rule refuses its calls with its errno, in the host ABI and its 32-bit one',
    (_host, prog, abis) => {
      for (const abi of abis) {
        for (const rule of SECCOMP_RULES.filter((r) => !r.when)) {
          for (const name of rule.calls) {
            const nr = syscallNumber(name, abi);
            if (nr === undefined) continue;
            expect([abi, name, runFilter(prog, nr, AUDIT_ARCH[abi])]).toEqual([abi, name, rule.errno === 'EPERM' ? EPERM : ENOSYS]);
          }
        }
      }
    },
  );

  test.each(HOSTS)('%s: everyday calls pass in both ABIs', (_host, prog, abis) => {
    for (const abi of abis)
      for (const nr of EVERYDAY[abi]) expect([abi, nr, runFilter(prog, nr, AUDIT_ARCH[abi])]).toEqual([abi, nr, ALLOW]);
  });

  test.each(HOSTS)('%s: an ABI the host does not run is killed, before any number is read', (_host, prog, abis) => {
    const other = (Object.keys(AUDIT_ARCH) as Abi[]).filter((a) => !abis.includes(a));
    for (const abi of other) expect(runFilter(prog, 0, AUDIT_ARCH[abi])).toBe(KILL_PROCESS);
    expect(runFilter(prog, 0, 0xdeadbeef)).toBe(KILL_PROCESS);
  });

  test('x32 calls (the x86-64 audit arch with bit 30 in the number) are refused whole, as a kernel without x32 does', () => {
    for (const nr of [0, 1, 59, 165, 512, 521]) expect(runFilter(x64, 0x40000000 + nr, AUDIT_ARCH.x86_64)).toBe(ENOSYS);
  });

  type Case = [string, SyscallName, bigint[], number];
  const CLONE_NEWUSER = 0x10000000n;
  const cases: Case[] = [
    ['fork-like clone (SIGCHLD)', 'clone', [17n], ALLOW],
    ['a thread (CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|…)', 'clone', [0x3d0f00n], ALLOW],
    ['clone into a new user namespace', 'clone', [CLONE_NEWUSER | 17n], EPERM],
    ['clone into a new mount namespace', 'clone', [0x20000n | 17n], EPERM],
    ['clone into a new network namespace', 'clone', [0x40000000n], EPERM],
    ['clone with CLONE_NEWUSER and high bits set', 'clone', [(1n << 40n) | CLONE_NEWUSER], EPERM],
    ['unshare(CLONE_FS | CLONE_FILES)', 'unshare', [0x600n], ALLOW],
    ['unshare(CLONE_NEWUSER)', 'unshare', [CLONE_NEWUSER], EPERM],
    ['unshare(CLONE_NEWNS)', 'unshare', [0x20000n], EPERM],
    ['unshare(CLONE_NEWTIME)', 'unshare', [0x80n], EPERM],
    ['unshare(CLONE_NEWCGROUP)', 'unshare', [0x02000000n], EPERM],
    ['ptrace(PTRACE_TRACEME): a debugger runs the program it starts', 'ptrace', [0n], ALLOW],
    ['ptrace(PTRACE_PEEKDATA) of its own tracee', 'ptrace', [2n, 5n], ALLOW],
    ['ptrace(PTRACE_ATTACH)', 'ptrace', [16n, 1n], EPERM],
    ['ptrace(PTRACE_SEIZE)', 'ptrace', [0x4206n, 1n], EPERM],
    ['ioctl(TCGETS)', 'ioctl', [1n, 0x5401n], ALLOW],
    ['ioctl(TIOCSTI)', 'ioctl', [0n, 0x5412n], EPERM],
    ['ioctl(TIOCSTI) with high bits set (the kernel reads an unsigned int)', 'ioctl', [0n, (1n << 32n) | 0x5412n], EPERM],
    ['ioctl(TIOCLINUX)', 'ioctl', [0n, 0x541cn], EPERM],
    ['clone3 (flags in memory: ENOSYS, so libc falls back to clone)', 'clone3', [], ENOSYS],
    ['socket(AF_INET)', 'socket', [2n, 1n], ALLOW],
    ['socket(AF_UNIX)', 'socket', [1n, 1n], ALLOW],
    ['socket(AF_NETLINK)', 'socket', [16n, 3n], ALLOW],
    ['socket(AF_VSOCK)', 'socket', [40n, 1n], EPERM],
    ['socketpair(AF_VSOCK)', 'socketpair', [40n, 1n, 0n], EPERM],
    ['socket(AF_ALG)', 'socket', [38n, 5n], EPERM],
  ];
  test.each(HOSTS)('%s: calls judged by their arguments', (_host, prog, abis) => {
    for (const abi of abis) {
      for (const [what, name, args, want] of cases)
        expect([abi, what, runFilter(prog, syscallNumber(name, abi)!, AUDIT_ARCH[abi], args)]).toEqual([abi, what, want]);
    }
  });

  test('one filter per host: none where it cannot be built (another architecture, a big-endian host); it fits the kernel limit', () => {
    expect(hostSeccompFilter('x64', 'LE')).toEqual(x64);
    expect(hostSeccompFilter('arm64', 'LE')).toEqual(arm64);
    expect(hostSeccompFilter('riscv64', 'LE')).toBeUndefined();
    expect(hostSeccompFilter('s390x', 'BE')).toBeUndefined();
    expect(hostSeccompFilter('x64', 'BE')).toBeUndefined();
    for (const prog of [x64, arm64]) expect(prog.length / 8).toBeLessThanOrEqual(4096);
  });

  test('the rules name only calls of the table, each once', () => {
    const named = SECCOMP_RULES.flatMap((r) => r.calls);
    expect(new Set(named).size).toBe(named.length);
    for (const c of named) expect(SYSCALLS).toHaveProperty(c);
  });
});

/** `#define __NR_name 123` lines of an installed uapi header, or undefined when it is not installed. */
function header(file: string, prefix = '__NR_'): Map<string, number> | undefined {
  if (!fs.existsSync(file)) return undefined;
  const out = new Map<string, number>();
  for (const m of fs.readFileSync(file, 'utf8').matchAll(new RegExp(`^#define ${prefix}(\\w+)\\s+(\\d+)\\s*$`, 'gm')))
    out.set(m[1], Number(m[2]));
  return out;
}

describe('the numbers agree with the kernel headers installed here (skipped where there are none)', () => {
  const HEADERS: Array<[Abi, string[]]> = [
    ['x86_64', ['/usr/include/x86_64-linux-gnu/asm/unistd_64.h', '/usr/include/asm/unistd_64.h']],
    ['i386', ['/usr/include/x86_64-linux-gnu/asm/unistd_32.h', '/usr/include/asm/unistd_32.h']],
    // aarch64 uses the generic table
    ['aarch64', ['/usr/include/asm-generic/unistd.h']],
  ];
  test.each(HEADERS)('%s', (abi, files) => {
    const table = files.map((f) => header(f)).find((t) => t !== undefined);
    if (!table) return;
    let compared = 0;
    for (const name of Object.keys(SYSCALLS) as SyscallName[]) {
      const theirs = table.get(name);
      // the generic table also lists the 32-bit time calls, which a 64-bit ABI leaves out
      if (theirs === undefined || (abi === 'aarch64' && name.endsWith('time64'))) continue;
      compared++;
      expect([name, syscallNumber(name, abi)]).toEqual([name, theirs]);
    }
    expect(compared).toBeGreaterThan(30);
  });
});
