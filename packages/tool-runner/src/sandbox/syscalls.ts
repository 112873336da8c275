/**
 * System call numbers of the ABIs the seccomp filter (seccomp.ts) is built for: a 64-bit host
 * (x86-64, aarch64) and the 32-bit ABI its kernel also runs (i386 on x86-64, 32-bit Arm EABI on
 * aarch64). Taken from libseccomp's table (`src/syscalls.csv`, seccomp/libseccomp 90d3f7d, kernel
 * 7.1), checked against the kernel's uapi headers where they are installed
 * (test/sandbox-seccomp.test.ts). `undefined`: the ABI has no such call (nothing to refuse).
 *
 * Calls numbered 403 and up are numbered alike on every architecture (the kernel's unified table).
 */
export type Abi = 'x86_64' | 'i386' | 'aarch64' | 'arm';

/** [x86_64, i386, aarch64, arm] */
type Row = readonly [number | undefined, number | undefined, number | undefined, number | undefined];

const u = undefined;

export const SYSCALLS = {
  // the file system view: mounts, old and new API
  mount: [165, 21, 40, 21],
  umount: [u, 22, u, u],
  umount2: [166, 52, 39, 52],
  pivot_root: [155, 217, 41, 218],
  chroot: [161, 61, 51, 61],
  open_tree: [428, 428, 428, 428],
  move_mount: [429, 429, 429, 429],
  fsopen: [430, 430, 430, 430],
  fsconfig: [431, 431, 431, 431],
  fsmount: [432, 432, 432, 432],
  fspick: [433, 433, 433, 433],
  mount_setattr: [442, 442, 442, 442],
  open_tree_attr: [467, 467, 467, 467],
  // namespaces
  unshare: [272, 310, 97, 337],
  clone: [56, 120, 220, 120],
  clone3: [435, 435, 435, 435],
  setns: [308, 346, 268, 375],
  // other processes
  ptrace: [101, 26, 117, 26],
  process_vm_readv: [310, 347, 270, 376],
  process_vm_writev: [311, 348, 271, 377],
  process_madvise: [440, 440, 440, 440],
  pidfd_getfd: [438, 438, 438, 438],
  kcmp: [312, 349, 272, 378],
  move_pages: [279, 317, 239, 344],
  migrate_pages: [256, 294, 238, 400],
  // kernel keyrings
  add_key: [248, 286, 217, 309],
  request_key: [249, 287, 218, 310],
  keyctl: [250, 288, 219, 311],
  // the kernel itself: programs, modules, profiling, the running kernel and the machine
  bpf: [321, 357, 280, 386],
  init_module: [175, 128, 105, 128],
  finit_module: [313, 350, 273, 379],
  delete_module: [176, 129, 106, 129],
  perf_event_open: [298, 336, 241, 364],
  kexec_load: [246, 283, 104, 347],
  kexec_file_load: [320, u, 294, 401],
  userfaultfd: [323, 374, 282, 388],
  io_uring_setup: [425, 425, 425, 425],
  io_uring_enter: [426, 426, 426, 426],
  io_uring_register: [427, 427, 427, 427],
  fanotify_init: [300, 338, 262, 367],
  open_by_handle_at: [304, 342, 265, 371],
  lookup_dcookie: [212, 253, 18, 249],
  syslog: [103, 103, 116, 103],
  acct: [163, 51, 89, 51],
  quotactl: [179, 131, 60, 131],
  quotactl_fd: [443, 443, 443, 443],
  swapon: [167, 87, 224, 87],
  swapoff: [168, 115, 225, 115],
  reboot: [169, 88, 142, 88],
  settimeofday: [164, 79, 170, 79],
  stime: [u, 25, u, u],
  clock_settime: [227, 264, 112, 262],
  clock_settime64: [u, 404, u, 404],
  vhangup: [153, 111, 58, 111],
  uselib: [134, 86, u, 86],
  // x86 hardware access and legacy modes
  iopl: [172, 110, u, u],
  ioperm: [173, 101, u, u],
  modify_ldt: [154, 123, u, u],
  vm86: [u, 166, u, u],
  vm86old: [u, 113, u, u],
  // by argument: terminal input injection, socket families
  ioctl: [16, 54, 29, 54],
  socket: [41, 359, 198, 281],
  socketpair: [53, 360, 199, 288],
} as const satisfies Record<string, Row>;

export type SyscallName = keyof typeof SYSCALLS;

const COLUMN: Record<Abi, 0 | 1 | 2 | 3> = { x86_64: 0, i386: 1, aarch64: 2, arm: 3 };

/** The number of `name` in `abi`, or undefined when that ABI has no such call. */
export function syscallNumber(name: SyscallName, abi: Abi): number | undefined {
  return SYSCALLS[name][COLUMN[abi]];
}

/** `AUDIT_ARCH_*` of each ABI: what the kernel puts in `seccomp_data.arch` (linux/audit.h). */
export const AUDIT_ARCH: Record<Abi, number> = {
  x86_64: 0xc000003e,
  i386: 0x40000003,
  aarch64: 0xc00000b7,
  arm: 0x40000028,
};

/** On x86-64, x32 calls carry this bit in their number, under the x86-64 audit arch. */
export const X32_SYSCALL_BIT = 0x40000000;
