import { promises as fsp } from 'fs';
import * as path from 'path';
import { createToolRunner, type ConfirmAnswer, type ConfirmRequest, type ToolRunnerOptions } from '../../src';

/**
 * The runner over a temp world (`tempWorld()`), its workspace as cwd and its home as HOME: the
 * questions it asks are kept in `asked`, answered from `answers` in order and declined after them.
 */
export function worldRunner(world: { ws: string; home: string }, answers: ConfirmAnswer[] = [], opts: Partial<ToolRunnerOptions> = {}) {
  const asked: ConfirmRequest[] = [];
  const runner = createToolRunner({
    cwd: world.ws,
    workspace: world.ws,
    lang: 'en',
    env: { ...process.env, HOME: world.home, SLOTHTOOL_HOME: path.join(world.home, '.slothtool') },
    confirm: async (req) => {
      asked.push(req);
      return answers.shift() ?? { action: 'decline' };
    },
    ...opts,
  });
  return { runner, asked };
}

/** An ssh private key at `<home>/.ssh/id_ed25519`, the secret the tests try to reach; its path. */
export async function plantSshKey(home: string): Promise<string> {
  const key = path.join(home, '.ssh', 'id_ed25519');
  await fsp.mkdir(path.dirname(key));
  await fsp.writeFile(key, '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n');
  return key;
}
