import { spawnSync } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, packageDir, registryEntry, type TempHome } from '@holic512/testkit';
import { cli } from './helpers';

const root = path.resolve(__dirname, '..', '..', '..');
const SETUP = path.join(root, 'scripts', 'setup.js');
const START = path.join(root, 'scripts', 'start.js');

let temp: TempHome;
beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
});
afterEach(() => temp.cleanup());

/** The build already ran (npm test builds before jest); setup only registers here. */
function setup(...args: string[]) {
  return spawnSync(process.execPath, [SETUP, '--no-build', ...args], { env: temp.env, cwd: root, encoding: 'utf8' });
}

interface Registry {
  plugins: Record<string, { name: string; version: string; binPath: string; installedAt: string }>;
}

test('registers the checkout plugins in place under their aliases and says how to run slothtool', async () => {
  const r = setup();
  expect(r.stderr).not.toContain('setup failed');
  expect(r.status).toBe(0);
  const reg = await temp.readJson<Registry>('registry.json');
  expect(reg.plugins['llm-base']).toMatchObject({
    name: '@holic512/plugin-llm-base',
    binPath: path.join(packageDir('plugin-llm-base'), 'bin', 'llm-base.js'),
  });
  expect(reg.plugins.ai).toMatchObject({ name: '@holic512/plugin-ai', binPath: path.join(packageDir('plugin-ai'), 'bin', 'ai.js') });
  expect(Object.keys(reg.plugins).sort()).toEqual(['ai', 'llm-base']);
  expect(r.stdout).toContain(path.join(temp.slothtoolHome, 'registry.json'));
  expect(r.stdout).toContain('node packages/slothtool/bin/slothtool.js');
  await expect(fs.access(path.join(temp.slothtoolHome, 'plugins'))).rejects.toThrow(); // nothing copied
});

test('the registered llm-base runs through slothtool exactly as its own bin does', () => {
  expect(setup().status).toBe(0);
  const direct = spawnSync(process.execPath, [path.join(packageDir('plugin-llm-base'), 'bin', 'llm-base.js'), '--help'], {
    env: temp.env,
    encoding: 'utf8',
  });
  const viaHost = cli(['llm-base', '--help'], temp.env);
  expect(viaHost.status).toBe(direct.status);
  expect(viaHost.stdout).toBe(direct.stdout);
});

test('a second run changes nothing and says so', async () => {
  expect(setup().status).toBe(0);
  const file = path.join(temp.slothtoolHome, 'registry.json');
  const before = await fs.readFile(file, 'utf8');
  const mtime = (await fs.stat(file)).mtimeMs;
  const again = setup();
  expect(again.status).toBe(0);
  expect(again.stdout).toContain('= ai');
  expect(again.stdout).toContain('(already registered)');
  expect(await fs.readFile(file, 'utf8')).toBe(before);
  expect((await fs.stat(file)).mtimeMs).toBe(mtime);
});

test('an alias registered elsewhere is reported and kept; --force replaces it', async () => {
  const real = registryEntry(
    '@holic512/plugin-ai',
    path.join(temp.slothtoolHome, 'plugins', 'ai', 'node_modules', '@holic512', 'plugin-ai', 'bin', 'ai.js'),
    { version: '1.0.3' },
  );
  await temp.writeJson('registry.json', { plugins: { ai: real } });
  const r = setup();
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('ai left unchanged: it is registered to @holic512/plugin-ai 1.0.3');
  expect(r.stdout).toContain('npm run setup -- --force');
  let reg = await temp.readJson<Registry>('registry.json');
  expect(reg.plugins.ai).toEqual(real);
  expect(reg.plugins['llm-base']).toBeDefined();

  const start = spawnSync(process.execPath, [START], {
    env: { ...temp.env, SLOTHTOOL_SKIP_BUILD: '1' },
    cwd: root,
    encoding: 'utf8',
  });
  expect(start.status).toBe(1);
  expect(start.stderr).toContain('not to this checkout, so it was not started');

  const forced = setup('--force');
  expect(forced.status).toBe(0);
  expect(forced.stdout).toContain('slothtool install @holic512/plugin-ai');
  reg = await temp.readJson<Registry>('registry.json');
  expect(reg.plugins.ai.binPath).toBe(path.join(packageDir('plugin-ai'), 'bin', 'ai.js'));
});

test('a corrupt registry stops setup with the file named, untouched', async () => {
  const file = path.join(temp.slothtoolHome, 'registry.json');
  await fs.writeFile(file, 'not json');
  const r = setup();
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`the registry file is corrupt: ${file}`);
  expect(await fs.readFile(file, 'utf8')).toBe('not json');
});
