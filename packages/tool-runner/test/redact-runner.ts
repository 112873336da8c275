import * as path from 'path';
import { createToolRunner } from '../src';

/** A runner over a temp world's workspace that approves every question (the redaction tests look at what comes back). */
export function approvingRunner(world: { ws: string; home: string }, policy: { allowPrivateNetwork?: boolean } = {}) {
  return createToolRunner({
    cwd: world.ws,
    workspace: world.ws,
    lang: 'en',
    env: { ...process.env, HOME: world.home, SLOTHTOOL_HOME: path.join(world.home, '.slothtool') },
    policy,
    allowedRoots: [world.ws],
    confirm: async () => ({ action: 'run' }),
  });
}
