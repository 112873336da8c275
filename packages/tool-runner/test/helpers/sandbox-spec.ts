import type { SandboxSpec } from '../../src';

/** The L0 spec of a workspace at /home/u/proj: no network, nothing hidden, nothing extra read-only. */
export const L0_SPEC: SandboxSpec = {
  level: 'L0',
  cwd: '/home/u/proj',
  workspace: '/home/u/proj',
  tmpDir: '/tmp',
  network: false,
  hide: [],
  readOnly: [],
};
