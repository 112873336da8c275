/** A command that failed because the sandbox stopped it: what it tried, and the line that says so. */
export interface SandboxDenial {
  kind: 'write' | 'network';
  line: string;
}

const WRITE = /read-only file system|\bEROFS\b/i;
const NETWORK = /network is unreachable|\bENETUNREACH\b|temporary failure in name resolution|could not resolve host|\bEAI_AGAIN\b|getaddrinfo .*(ENOTFOUND|EAI_AGAIN)|name or service not known|connection refused.*127\.0\.0\.1|\bECONNREFUSED\b/i;

/**
 * Whether a failed run looks like the sandbox's doing: a write to the read-only file system, or
 * a connection without a network. Pure; only asked for runs that were sandboxed and failed.
 */
export function sandboxDenial(exitCode: number | null, output: string): SandboxDenial | undefined {
  if (exitCode === 0) return undefined;
  const lines = output.split('\n');
  for (const line of lines) if (WRITE.test(line)) return { kind: 'write', line: line.trim().slice(0, 200) };
  for (const line of lines) if (NETWORK.test(line)) return { kind: 'network', line: line.trim().slice(0, 200) };
  return undefined;
}
