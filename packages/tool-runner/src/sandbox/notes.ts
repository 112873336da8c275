import type { Finding } from '../policy/finding';
import type { SandboxStatus } from './index';

/**
 * What the question of a sandboxed L1 step says of the sandbox it will run in, when that is less
 * than it should be: one finding (level L1, so the level stays as judged) for each thing the
 * sandbox could not take away, or one for no sandbox at all (`auto` without one). Nothing when
 * the sandbox is whole, or turned off in ai.json (the user's own choice). Pure.
 */
export function sandboxFindings(status: Pick<SandboxStatus, 'kind' | 'mode' | 'reason' | 'degraded'>): Finding[] {
  if (status.kind === 'none')
    return status.mode === 'auto' ? [{ id: 'sandbox.unsandboxed', level: 'L1', params: { why: status.reason ?? '?' } }] : [];
  return (status.degraded ?? []).map((d) => ({ id: `sandbox.degraded.${d.what}`, level: 'L1' as const, params: { why: d.why } }));
}
