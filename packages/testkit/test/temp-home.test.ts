import { existsSync, promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createTempHome, packageDir } from '../src/index';

test('creates an isolated home with SLOTHTOOL_HOME inside it and removes it', async () => {
  const t = await createTempHome({ language: 'en' });
  expect(t.home.startsWith(os.tmpdir()) || t.home.startsWith(await fs.realpath(os.tmpdir()))).toBe(true);
  expect(t.env.HOME).toBe(t.home);
  expect(t.env.SLOTHTOOL_HOME).toBe(path.join(t.home, '.slothtool'));
  expect(await t.readJson('settings.json')).toEqual({ language: 'en' });
  await t.cleanup();
  expect(existsSync(t.home)).toBe(false);
  await t.cleanup();
});

test('registerPlugin writes an entry in the original registry shape', async () => {
  const t = await createTempHome();
  try {
    await t.registerPlugin('slothtool', packageDir('slothtool'));
    const reg = await t.readJson<{ plugins: Record<string, Record<string, string>> }>('registry.json');
    const entry = reg.plugins.slothtool;
    expect(Object.keys(entry).sort()).toEqual(['binPath', 'installedAt', 'name', 'version']);
    expect(entry.name).toBe('@holic512/slothtool');
    expect(entry.binPath).toBe(path.join(packageDir('slothtool'), 'bin', 'slothtool.js'));
  } finally {
    await t.cleanup();
  }
});
