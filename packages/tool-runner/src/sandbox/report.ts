import { message } from '../i18n';
import type { Lang } from '../types';
import { loopbackDenial, sandboxDenial } from './denial';
import { limitHit, type LimitHit, type SandboxLimits } from './limits';

/** How a sandboxed run is reported in its tool_result. */
export interface SandboxReport {
  kind: 'bwrap' | 'seatbelt';
  level: 'L0' | 'L1';
  network: boolean;
  /** Granted the network, but kept off this machine's loopback (net-jail.ts). */
  isolatedNetwork?: boolean;
  /** What the sandbox stopped: a write, a connection. */
  denied?: 'write' | 'network';
  /** The line that says so. */
  line?: string;
  /** The path the refused write named, when the line names one. */
  path?: string;
  /** The resource limit the run hit (`memory?`: probably the memory limit). */
  limit?: LimitHit;
  /** What happened, in the user's language: the limit hit, or why no retry was offered. */
  note?: string;
}

/**
 * The sandbox part of a run's result: where it ran, and, when it failed, whether the sandbox
 * stopped a write or a connection (with the path it named) or the run hit a resource limit.
 * Output passes `redact` before it is quoted.
 */
export function sandboxReport(
  sandbox: { kind: 'bwrap' | 'seatbelt'; level: 'L0' | 'L1'; network: boolean; limits?: SandboxLimits; isolatedNetwork?: boolean },
  r: { exitCode: number | null; signal?: string | null; stdoutTail: string; stderrTail: string },
  cwd: string,
  lang: Lang,
  redact: (text: string) => string,
): SandboxReport {
  const base: SandboxReport = { kind: sandbox.kind, level: sandbox.level, network: sandbox.network };
  if (sandbox.isolatedNetwork) base.isolatedNetwork = true;
  if (r.exitCode === 0) return base;
  const output = `${r.stderrTail}\n${r.stdoutTail}`;
  const hit = sandbox.limits ? limitHit({ exitCode: r.exitCode, signal: r.signal, output }, sandbox.limits) : undefined;
  if (hit && sandbox.limits) {
    const setting = hit === 'processes' ? 'processes' : hit === 'cpu' ? 'cpuSeconds' : 'memoryMb';
    const what = message(`sandbox.limit.${hit}`, lang, { n: sandbox.limits[setting] }).reason;
    return {
      ...base,
      limit: hit,
      note: `${what}${lang === 'zh' ? '。' : '. '}${message('sandbox.limit.setting', lang, { setting }).reason}`,
    };
  }
  const denied = (sandbox.isolatedNetwork ? loopbackDenial(r.exitCode, output) : undefined) ?? sandboxDenial(r.exitCode, output, cwd);
  return denied ? { ...base, denied: denied.kind, line: redact(denied.line), ...(denied.path ? { path: denied.path } : {}) } : base;
}
