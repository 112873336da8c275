/**
 * Resource limits of read-only (L0) steps: memory (RLIMIT_DATA: the heap and private mappings,
 * which is what a runaway `jq -n '[range(1e10)]'` grows; an address-space limit would also break
 * programs that only reserve address space, such as WebAssembly in node), processes
 * (RLIMIT_NPROC) and CPU time (RLIMIT_CPU: SIGXCPU at the limit, SIGKILL 5 s later). node cannot
 * call setrlimit, so `prlimit` (util-linux, installed on every Debian) sets them inside the
 * sandbox, just before the program: it runs after bubblewrap made its user namespace, so the
 * process count is this step's own processes (an unprivileged user, Linux 5.14 or later, where the
 * count is per user namespace), not all of the user's.
 * The kernel skips the RLIMIT_NPROC check for a process whose real user is root of the machine
 * (copy_process: `real_cred->user == INIT_USER`), whatever its capabilities and user namespace;
 * steps of root run as root of the machine (so what they write stays root's), so as root the
 * process limit is set but not in force, and the sandbox status says so (`limitsOff: 'root'`).
 */
export interface SandboxLimits {
  /** Heap and private memory of each process, MB; 0 = no limit. */
  memoryMb: number;
  /** Processes of the step (an unprivileged user); 0 = no limit. */
  processes: number;
  /** CPU seconds of each process; 0 = no limit. */
  cpuSeconds: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { memoryMb: 4096, processes: 512, cpuSeconds: 120 };

/** Which limit a run hit. `memory?`: it died the way a process out of memory usually does, without saying so. */
export type LimitHit = 'memory' | 'memory?' | 'processes' | 'cpu';

/** The prlimit command line that applies `limits` to `program` (empty when no limit is set). */
export function prlimitArgv(prlimit: string, limits: SandboxLimits): string[] {
  const opts: string[] = [];
  if (limits.memoryMb > 0) opts.push(`--data=${limits.memoryMb * 1024 * 1024}`);
  if (limits.processes > 0) opts.push(`--nproc=${limits.processes}`);
  if (limits.cpuSeconds > 0) opts.push(`--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 5}`);
  return opts.length ? [prlimit, ...opts, '--'] : [];
}

const SIGNALS: Record<string, number> = { SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGXCPU: 24 };
const MEMORY =
  /cannot allocate memory|out of memory|\bENOMEM\b|std::bad_alloc|\bMemoryError\b|memory allocation of \d+ bytes failed|could not allocate memory|failed to allocate|allocation failed/i;
const PROCESSES =
  /\bfork\b.*(resource temporarily unavailable|\bEAGAIN\b|failed)|can(no|')t fork|\bspawn\b.*\bEAGAIN\b|retry: resource temporarily unavailable|pthread_create.*(resource temporarily unavailable|EAGAIN)/i;

/**
 * The limit a failed run hit, read from how it ended: a CPU-time signal, a fork that was refused,
 * an allocation that failed, or an abort / segmentation fault with a memory limit in force.
 * A program inside bubblewrap that dies of signal N shows as exit code 128 + N. Pure.
 */
export function limitHit(
  run: { exitCode: number | null; signal?: string | null; output: string },
  limits: SandboxLimits,
): LimitHit | undefined {
  if (run.exitCode === 0) return undefined;
  const died = (name: string) => run.signal === name || run.exitCode === 128 + SIGNALS[name];
  if (limits.cpuSeconds > 0 && died('SIGXCPU')) return 'cpu';
  if (limits.processes > 0 && PROCESSES.test(run.output)) return 'processes';
  if (limits.memoryMb > 0 && MEMORY.test(run.output)) return 'memory';
  if (limits.memoryMb > 0 && (died('SIGABRT') || died('SIGSEGV'))) return 'memory?';
  return undefined;
}
