import * as path from 'path';
import { registryEntry, type TempHome } from '@holic512/testkit';
import { linkLocalPlugins } from '../src/link';
import type { HomePaths } from '../src/paths';
import { readRegistry, writeRegistry } from '../src/registry';
import { makePlugin, useHome } from './helpers';

let temp: TempHome;
let paths: HomePaths;
const now = () => new Date('2026-11-22T00:00:00.000Z');

const home = useHome();
beforeEach(() => ({ temp, paths } = home));

test('registers folders in place, then is a no-op; a new version is recorded', async () => {
  const ai = await makePlugin(temp.home, 'plugin-ai', { name: '@holic512/plugin-ai', bin: { ai: 'bin/ai.js' } });
  const first = linkLocalPlugins(paths, [ai], { now });
  expect(first).toEqual([
    {
      status: 'added',
      alias: 'ai',
      entry: { name: '@holic512/plugin-ai', version: '1.0.0', binPath: path.join(ai, 'bin', 'ai.js'), installedAt: now().toISOString() },
    },
  ]);
  expect(linkLocalPlugins(paths, [ai]).map((o) => o.status)).toEqual(['unchanged']);

  await makePlugin(temp.home, 'plugin-ai', { name: '@holic512/plugin-ai', version: '1.1.0', bin: { ai: 'bin/ai.js' } });
  const third = linkLocalPlugins(paths, [ai], { now });
  expect(third[0].status).toBe('updated');
  expect(readRegistry(paths).plugins.ai).toMatchObject({
    version: '1.1.0',
    installedAt: now().toISOString(),
    updatedAt: now().toISOString(),
  });
});

test('an alias pointing elsewhere is a conflict unless forced', async () => {
  const real = registryEntry(
    '@holic512/plugin-ai',
    path.join(temp.slothtoolHome, 'plugins/ai/node_modules/@holic512/plugin-ai/bin/ai.js'),
    { version: '1.0.3' },
  );
  writeRegistry(paths, { plugins: { ai: real } });
  const ai = await makePlugin(temp.home, 'plugin-ai', { name: '@holic512/plugin-ai' });
  const conflict = linkLocalPlugins(paths, [ai]);
  expect(conflict).toMatchObject([{ status: 'conflict', alias: 'ai', previous: real }]);
  expect(readRegistry(paths).plugins.ai).toEqual(real);

  const forced = linkLocalPlugins(paths, [ai], { force: true });
  expect(forced).toMatchObject([{ status: 'replaced', previous: real }]);
  expect(readRegistry(paths).plugins.ai.binPath).toBe(path.join(ai, 'bin', 'cli.js'));
});

test('a folder without bin fails before anything is written', async () => {
  const ok = await makePlugin(temp.home, 'ok', { name: 'plugin-ok' });
  const bad = await makePlugin(temp.home, 'bad', { name: 'plugin-bad', bin: null });
  expect(() => linkLocalPlugins(paths, [ok, bad])).toThrow(expect.objectContaining({ code: 'NO_BIN' }));
  expect(readRegistry(paths)).toEqual({ plugins: {} });
});
