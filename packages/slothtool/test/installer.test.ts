import { promises as fs } from 'fs';
import * as path from 'path';
import { registryEntry, type TempHome } from '@holic512/testkit';
import { installPlugin, type InstallerDeps } from '../src/installer';
import { npmEnv, type RunNpm } from '../src/npm';
import type { HomePaths } from '../src/paths';
import { readRegistry, writeRegistry } from '../src/registry';
import { entries, makePlugin, useHome } from './helpers';

let temp: TempHome;
let paths: HomePaths;

const home = useHome();
beforeEach(() => ({ temp, paths } = home));

/** A stand-in for npm that "installs" a fixture package into the prefix the way npm lays it out. */
function fakeNpm(pkg: { name: string; version: string }, hook?: () => void) {
  const calls: string[][] = [];
  const runNpm: RunNpm = async (args) => {
    calls.push(args);
    const prefix = args[args.indexOf('--prefix') + 1];
    await fs.writeFile(path.join(prefix, 'package.json'), JSON.stringify({ dependencies: { [pkg.name]: `^${pkg.version}` } }));
    await makePlugin(path.join(prefix, 'node_modules'), pkg.name, { name: pkg.name, version: pkg.version });
    hook?.();
    return { code: 0, signal: null, output: '' };
  };
  return { calls, runNpm };
}

function deps(runNpm: RunNpm): InstallerDeps {
  return { runNpm, now: () => new Date('2026-11-22T01:02:03.000Z'), env: temp.env, cwd: temp.home, isAlive: (pid) => pid === process.pid };
}

test('npm gets an argument vector with an absolute path and --install-links for a folder', async () => {
  const src = await makePlugin(temp.home, 'src', { name: '@acme/plugin-x' });
  const npm = fakeNpm({ name: '@acme/plugin-x', version: '1.0.0' });
  const r = await installPlugin(paths, './src', deps(npm.runNpm));
  const [args] = npm.calls;
  const staging = args[3];
  expect(args).toEqual(['install', src, '--prefix', staging, '--no-audit', '--no-fund', '--no-update-notifier', '--install-links']);
  expect(path.dirname(staging)).toBe(paths.plugins); // a sibling of plugins/<alias>
  expect(r.alias).toBe('x');
  expect(readRegistry(paths).plugins.x).toEqual({
    name: '@acme/plugin-x',
    version: '1.0.0',
    binPath: path.join(paths.plugins, 'x', 'node_modules', '@acme', 'plugin-x', 'bin', 'cli.js'),
    installedAt: '2026-11-22T01:02:03.000Z',
  });
  expect(await entries(paths.plugins)).toEqual(['x']);
});

test('a registry name already installed under its alias is answered without running npm', async () => {
  writeRegistry(paths, {
    plugins: { ai: registryEntry('@holic512/plugin-ai', '/x/ai.js') },
  });
  const npm = fakeNpm({ name: '@holic512/plugin-ai', version: '1.0.0' });
  await expect(installPlugin(paths, '@holic512/plugin-ai@latest', deps(npm.runNpm))).rejects.toMatchObject({ code: 'ALREADY_INSTALLED' });
  expect(npm.calls).toEqual([]);
});

test('a plugin folder left behind without a registry entry is replaced', async () => {
  await fs.mkdir(path.join(paths.plugins, 'x', 'junk'), { recursive: true });
  const npm = fakeNpm({ name: 'plugin-x', version: '2.0.0' });
  await installPlugin(paths, 'plugin-x', deps(npm.runNpm));
  expect(await entries(path.join(paths.plugins, 'x'))).toEqual(['node_modules', 'package.json']);
  expect(await entries(paths.plugins)).toEqual(['x']);
});

test('aborting during npm is INTERRUPTED and leaves nothing behind', async () => {
  const controller = new AbortController();
  const npm = fakeNpm({ name: 'plugin-x', version: '1.0.0' }, () => controller.abort());
  await expect(installPlugin(paths, 'plugin-x', deps(npm.runNpm), { signal: controller.signal })).rejects.toMatchObject({
    code: 'INTERRUPTED',
  });
  expect(await entries(paths.plugins)).toEqual([]);
  expect(readRegistry(paths)).toEqual({ plugins: {} });
});

test('a failing registry write removes the moved folder', async () => {
  const npm = fakeNpm({ name: 'plugin-x', version: '1.0.0' }, () => {
    // Another process breaks the registry while npm runs.
    require('fs').writeFileSync(paths.registry, '{broken');
  });
  await expect(installPlugin(paths, 'plugin-x', deps(npm.runNpm))).rejects.toMatchObject({ code: 'REGISTRY_CORRUPT' });
  expect(await entries(paths.plugins)).toEqual([]);
});

test('work folders of a killed install are swept; those of a running one stay', async () => {
  const dead = path.join(paths.plugins, '.staging-4242-abcdef');
  const aside = path.join(paths.plugins, '.old-4242-abcd-x');
  const live = path.join(paths.plugins, `.staging-${process.pid}-123456`);
  for (const d of [dead, aside, live]) await fs.mkdir(path.join(d, 'node_modules'), { recursive: true });
  const npm = fakeNpm({ name: 'plugin-y', version: '1.0.0' });
  await installPlugin(paths, 'plugin-y', deps(npm.runNpm));
  expect(await entries(paths.plugins)).toEqual([path.basename(live), 'y']);
});

test('npmEnv drops npm settings inherited from an outer npm run that would fight --prefix', () => {
  expect(
    npmEnv({ PATH: '/bin', npm_config_prefix: '/x', npm_config_global: 'true', npm_config_workspace: 'a', npm_config_offline: 'true' }),
  ).toEqual({ PATH: '/bin', npm_config_offline: 'true' });
});
