import type { SandboxSpec } from '../../src';
import type { SpecInput } from '../../src/sandbox/spec';

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

/** What sandboxSpec reads of that workspace, without the level: home /home/u, the SlothTool home at /srv/st. */
export const SPEC_INPUT: Omit<SpecInput, 'level'> = {
  cwd: '/home/u/proj',
  workspace: '/home/u/proj',
  tmpDir: '/tmp',
  home: '/home/u',
  slothtoolHome: '/srv/st',
  network: false,
};
