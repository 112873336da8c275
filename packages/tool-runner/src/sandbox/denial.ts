import path = require('path');

/** A command that failed because the sandbox stopped it: what it tried, the line that says so, and the path it tried to write when that line names one. */
export interface SandboxDenial {
  kind: 'write' | 'network';
  line: string;
  /** The path the write was refused for, absolute (resolved against the command's folder). */
  path?: string;
}

const WRITE = /read-only file system|\bEROFS\b/i;
const NETWORK =
  /network is unreachable|\bENETUNREACH\b|temporary failure in name resolution|could not resolve host|\bEAI_AGAIN\b|getaddrinfo .*(ENOTFOUND|EAI_AGAIN)|name or service not known|connection refused.*127\.0\.0\.1|\bECONNREFUSED\b/i;

/**
 * Where the path stands in the usual read-only error lines:
 * `touch: cannot touch '/x': Read-only file system` (coreutils, also with curly quotes),
 * `EROFS: read-only file system, open '/x'` (node), `[Errno 30] Read-only file system: '/x'`
 * (python), `sh: 1: cannot create /x: Read-only file system` (dash), `bash: /x: Read-only file system`,
 * `fatal: Unable to create '/x/.git/index.lock': Read-only file system` (git).
 */
const QUOTED = /['\u2018"`]([^'\u2019"`\n]+)['\u2019"`]/g;
const UNQUOTED = [/cannot create (?:regular file |directory )?([^\s:'\u2018]+): read-only/i, /(?:^|\s)(\/[^\s:]*): read-only file system/i];

/** A line before the read-only one that names the path (cargo: `failed to open: /x` ... `Read-only file system (os error 30)`). */
const BEFORE = /(?:failed to|could not|cannot|unable to)\b[^/\n]{0,40}?(\/[^\s'"`]+)/i;

/** The path a read-only error line names, absolute, or undefined when it names none. Pure. */
export function deniedPath(line: string, cwd: string): string | undefined {
  const quoted = [...line.matchAll(QUOTED)].map((m) => m[1]).filter((q) => !/\s/.test(q) || q.includes('/'));
  let found = quoted.length ? quoted[quoted.length - 1] : undefined;
  if (!found) for (const re of UNQUOTED) found ??= re.exec(line)?.[1];
  if (!found || found.includes('\0')) return undefined;
  return path.resolve(cwd, found);
}

/**
 * Whether a failed run looks like the sandbox's doing: a write to the read-only file system, or
 * a connection without a network. Pure; only asked for runs that were sandboxed and failed.
 * `cwd` (the command's folder) resolves a relative path in the line.
 */
export function sandboxDenial(exitCode: number | null, output: string, cwd?: string): SandboxDenial | undefined {
  if (exitCode === 0) return undefined;
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!WRITE.test(line)) continue;
    let p = cwd === undefined ? undefined : deniedPath(line, cwd);
    // Up to four lines back, for programs that say the path first and the cause after it.
    for (let j = i - 1; cwd !== undefined && !p && j >= Math.max(0, i - 4); j--) {
      const m = BEFORE.exec(lines[j]);
      if (m) p = path.resolve(cwd, m[1]);
    }
    return { kind: 'write', line: line.trim().slice(0, 200), ...(p ? { path: p } : {}) };
  }
  for (const line of lines) if (NETWORK.test(line)) return { kind: 'network', line: line.trim().slice(0, 200) };
  return undefined;
}

/** A connection to this machine that failed (`curl: (7) Failed to connect to 127.0.0.1 port 2375 …`, `connect ECONNREFUSED ::1:5432`). */
const LOOPBACK_FAILED =
  /(?:failed to connect|couldn'?t connect|could not connect|connection refused|ECONNREFUSED|ENETUNREACH|network is unreachable)[^\n]*?(?:127\.\d+\.\d+\.\d+|localhost|::1|10\.0\.2\.2)|(?:127\.\d+\.\d+\.\d+|localhost|::1)[^\n]*?(?:connection refused|ECONNREFUSED|couldn'?t connect)/i;

/**
 * A step kept off the host's loopback (net-jail.ts) that failed connecting to this machine: most
 * likely a service there it did not name (a redirect, a registry in a config file). Pure.
 */
export function loopbackDenial(exitCode: number | null, output: string): SandboxDenial | undefined {
  if (exitCode === 0) return undefined;
  const line = output.split('\n').find((l) => LOOPBACK_FAILED.test(l));
  return line === undefined ? undefined : { kind: 'network', line: line.trim().slice(0, 200) };
}
