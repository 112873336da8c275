import type { ChildProcess, SpawnOptions } from 'child_process';

/**
 * Bytes a spawned command reads from fds 3, 4, … (a sandboxed command's seccomp filter,
 * sandbox/bwrap.ts SandboxedCommand). A direct spawn (exec.ts, proc.start) makes each a pipe
 * (`'pipe'` in stdio) and writes them; the spawn helper gets them once and hands each command a
 * fresh descriptor of an unlinked file (spawn-helper-child.ts keepData).
 */
export type SpawnOptionsWithData = SpawnOptions & {
  fdData?: readonly Buffer[];
  /** A sandboxed command's start in its args (sandbox/bwrap.ts SandboxedCommand.commandAt): the spawn helper may use a prepared sandbox. */
  commandAt?: number;
};

/** Hand each of `data` to the child's fd 3, 4, … (a pipe each) and close our end of it. */
export function feedFds(child: ChildProcess, data: readonly Buffer[] | undefined): void {
  data?.forEach((bytes, i) => {
    const pipe = child.stdio?.[3 + i] as NodeJS.WritableStream | null | undefined;
    if (!pipe) return;
    // The child may end (or fail to start) before it reads them.
    pipe.on('error', () => undefined);
    pipe.end(bytes);
  });
}
