import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, startPty, type TempHome } from '@holic512/testkit';
import { makePlugin, offlineEnv } from './helpers';

// `slothtool uninstall <alias> --purge` on a terminal asks before it deletes config files
// (profiles, keys): "n" (or just Enter) keeps everything, "y" removes the plugin and its configs.
const BIN = path.resolve(__dirname, '..', 'bin', 'slothtool.js');

let temp: TempHome;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
  env = offlineEnv(temp.env);
  const dir = await makePlugin(path.join(temp.home), 'greet', { name: '@acme/plugin-greet' });
  await temp.registerPlugin('greet', dir);
});
afterEach(() => temp.cleanup());

/** Run `slothtool uninstall greet --purge` in a terminal and answer its question with `reply`. */
async function answer(reply: string): Promise<{ code: number; screen: string }> {
  const term = startPty(process.execPath, [BIN, 'uninstall', 'greet', '--purge'], { cols: 120, rows: 30, cwd: temp.home, env });
  try {
    await term.waitFor('[y/N]', 15000);
  } catch (err) {
    term.kill();
    throw err;
  }
  term.write(`${reply}\r`);
  return { code: await term.exited, screen: term.raw() };
}

test('answering n keeps the plugin and its config files', async () => {
  const config = await temp.writeJson('plugin-configs/greet.json', { api_key: 'sk-keep-me' });
  const r = await answer('n');
  expect(r.screen).toContain('Delete these config files');
  expect(r.screen).toContain('Cancelled; nothing was removed.');
  await expect(fs.readFile(config, 'utf8')).resolves.toContain('sk-keep-me');
  expect(Object.keys((await temp.readJson<{ plugins: Record<string, unknown> }>('registry.json')).plugins)).toContain('greet');
});

test('answering y removes the plugin and its config files', async () => {
  const config = await temp.writeJson('plugin-configs/greet.json', { api_key: 'sk-remove-me' });
  const r = await answer('y');
  expect(r.code).toBe(0);
  await expect(fs.access(config)).rejects.toThrow();
  expect(Object.keys((await temp.readJson<{ plugins: Record<string, unknown> }>('registry.json')).plugins)).not.toContain('greet');
});
