import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, type TempHome } from '@holic512/testkit';
import { cli, entries, makePlugin, offlineEnv, pack, startCli } from './helpers';

interface Registry {
  plugins: Record<string, { name: string; version: string; binPath: string; installedAt: string; updatedAt?: string }>;
}

let temp: TempHome;
let env: NodeJS.ProcessEnv;
let work: string;
let plugins: string;

beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
  env = offlineEnv(temp.env);
  work = path.join(temp.home, 'work');
  plugins = path.join(temp.slothtoolHome, 'plugins');
  await fs.mkdir(work);
});
afterEach(() => temp.cleanup());

const registry = (): Promise<Registry> => temp.readJson<Registry>('registry.json');

describe('install from a folder', () => {
  test('alias comes from the real package name, not the folder; the plugin is copied, not linked', async () => {
    await makePlugin(work, 'some-checkout', { name: '@acme/plugin-greet', version: '1.2.3' });
    const r = cli(['install', './some-checkout'], env, work);
    expect(r.stderr).not.toMatch(/Unexpected/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('"greet"');

    const { plugins: entries_ } = await registry();
    expect(Object.keys(entries_)).toEqual(['greet']);
    const e = entries_.greet;
    expect(e).toEqual({
      name: '@acme/plugin-greet',
      version: '1.2.3',
      binPath: path.join(plugins, 'greet', 'node_modules', '@acme', 'plugin-greet', 'bin', 'cli.js'),
      installedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(Object.keys(e)).toEqual(['name', 'version', 'binPath', 'installedAt']);
    const pkgDir = path.join(plugins, 'greet', 'node_modules', '@acme', 'plugin-greet');
    expect((await fs.lstat(pkgDir)).isSymbolicLink()).toBe(false);
    expect(await entries(plugins)).toEqual(['greet']); // no staging folder left

    // the registry file is the original host's format: 2-space JSON
    const text = await fs.readFile(path.join(temp.slothtoolHome, 'registry.json'), 'utf8');
    expect(text).toBe(JSON.stringify(await registry(), null, 2));

    const run = cli(['greet', 'a', 'b c'], env, work);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ args: ['a', 'b c'] });
  });

  test('the first bin entry wins; an unscoped name without plugin- keeps its name', async () => {
    await makePlugin(work, 'p', {
      name: 'tool-two',
      bin: { first: 'bin/first.js', second: 'bin/second.js' },
      files: { 'bin/first.js': 'console.log("first")', 'bin/second.js': 'console.log("second")' },
    });
    expect(cli(['install', path.join(work, 'p')], env).status).toBe(0);
    expect((await registry()).plugins['tool-two'].binPath).toMatch(/bin[\\/]first\.js$/);
    expect(cli(['tool-two'], env).stdout.trim()).toBe('first');
  });

  test('installing an installed alias says so and what to do, and changes nothing', async () => {
    await makePlugin(work, 'v1', { name: '@acme/plugin-greet', version: '1.0.0' });
    await makePlugin(work, 'v2', { name: '@other/plugin-greet', version: '2.0.0' });
    expect(cli(['install', './v1'], env, work).status).toBe(0);
    const before = await registry();
    const r = cli(['install', './v2'], env, work);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Plugin "greet" is already installed (@acme/plugin-greet 1.0.0)');
    expect(r.stderr).toContain('slothtool update greet');
    expect(r.stderr).toContain('slothtool uninstall greet');
    expect(await registry()).toEqual(before);
    expect(await entries(plugins)).toEqual(['greet']);
    expect(cli(['greet'], env).status).toBe(0);
  });
});

describe('install from a tarball', () => {
  test('npm pack output installs under its alias', async () => {
    const dir = await makePlugin(work, 'src', { name: '@acme/plugin-packed', version: '0.3.0' });
    const tgz = pack(dir, work, env);
    const r = cli(['install', tgz], env);
    expect(r.status).toBe(0);
    const e = (await registry()).plugins.packed;
    expect(e.name).toBe('@acme/plugin-packed');
    expect(e.version).toBe('0.3.0');
    expect(e.binPath).toBe(path.join(plugins, 'packed', 'node_modules', '@acme', 'plugin-packed', 'bin', 'cli.js'));
    expect(cli(['run', 'packed', '--exit', '0'], env).stdout).toContain('"--exit"');
  });

  test('update reinstalls from the same tarball path and keeps installedAt', async () => {
    const dir = await makePlugin(work, 'src', { name: '@acme/plugin-packed', version: '0.3.0' });
    const tgz = pack(dir, work, env);
    expect(cli(['install', tgz], env).status).toBe(0);
    const first = (await registry()).plugins.packed;

    await makePlugin(work, 'src', { name: '@acme/plugin-packed', version: '0.4.0' });
    const tgz2 = pack(dir, work, env);
    await fs.rename(tgz2, tgz); // same path, new contents
    const r = cli(['update', 'packed'], env);
    expect(r.stderr).not.toMatch(/Unexpected/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('0.3.0 -> 0.4.0');
    const after = (await registry()).plugins.packed;
    expect(after).toEqual({ ...first, version: '0.4.0', updatedAt: expect.any(String) });
    expect(await entries(plugins)).toEqual(['packed']);
  });
});

describe('a failed install leaves no folder and no entry', () => {
  async function expectClean(): Promise<void> {
    expect(await entries(plugins)).toEqual([]);
    await expect(fs.access(path.join(temp.slothtoolHome, 'registry.json'))).rejects.toThrow();
  }

  test('package without bin', async () => {
    await makePlugin(work, 'nobin', { name: '@acme/plugin-nobin', bin: null, files: {} });
    const r = cli(['install', './nobin'], env, work);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('has no "bin"');
    await expectClean();
  });

  test('bin declared but not in the package', async () => {
    await makePlugin(work, 'lost', { name: '@acme/plugin-lost', files: {} });
    const r = cli(['install', './lost'], env, work);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bin/cli.js');
    await expectClean();
  });

  test('npm fails (a broken tarball); its output is shown', async () => {
    await fs.writeFile(path.join(work, 'broken.tgz'), 'this is not a tarball');
    const r = cli(['install', './broken.tgz'], env, work);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Install failed: npm exited with');
    expect(r.stderr).toContain('Nothing was left behind');
    await expectClean();
  });

  test('npm fails (a registry name while offline)', async () => {
    const r = cli(['install', '@holic512/plugin-does-not-exist-here'], env, work);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('npm exited with');
    await expectClean();
  });

  test('a folder that does not exist never reaches npm', async () => {
    const r = cli(['install', './nowhere'], env, work);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(path.join(work, 'nowhere'));
    await expectClean();
  });

  test('an existing registry is left exactly as it was', async () => {
    await temp.writeJson('registry.json', { plugins: {} });
    const before = await fs.readFile(path.join(temp.slothtoolHome, 'registry.json'), 'utf8');
    await makePlugin(work, 'nobin', { name: 'plugin-nobin', bin: null, files: {} });
    expect(cli(['install', './nobin'], env, work).status).toBe(1);
    expect(await fs.readFile(path.join(temp.slothtoolHome, 'registry.json'), 'utf8')).toBe(before);
    expect(await entries(plugins)).toEqual([]);
  });
});

describe('npm trouble', () => {
  test('no npm on PATH is explained, nothing left behind', async () => {
    await makePlugin(work, 'p', { name: 'plugin-p' });
    const r = cli(['install', './p'], { ...env, PATH: path.join(temp.home, 'empty-bin') }, work);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Cannot find npm');
    expect(await entries(plugins)).toEqual([]);
  });

  test('SIGTERM while npm runs stops npm and cleans up (exit 130)', async () => {
    const binDir = path.join(temp.home, 'fake-bin');
    await fs.mkdir(binDir);
    const fake = path.join(binDir, 'npm');
    await fs.writeFile(fake, `#!${process.execPath}\nprocess.stdout.write('fake npm ready\\n');\nsetInterval(() => {}, 1000);\n`);
    await fs.chmod(fake, 0o755);
    await makePlugin(work, 'p', { name: 'plugin-p' });
    const run = startCli(
      ['install', path.join(work, 'p'), '--verbose'], // --verbose passes npm's output to stderr
      { ...env, PATH: `${binDir}${path.delimiter}${env.PATH}` },
      'fake npm ready',
      'stderr',
    );
    await run.ready;
    run.child.kill('SIGTERM');
    const r = await run.exited;
    expect(r.status).toBe(130);
    expect(r.stderr).toContain('Interrupted');
    expect(await entries(plugins)).toEqual([]);
  });
});

describe('interactive plugins', () => {
  test('install prints the interactive command a plugin declares', async () => {
    await makePlugin(work, 'chat', {
      name: '@acme/plugin-chat',
      extra: { slothtool: { interactive: true, interactiveFlag: '--tui' } },
    });
    const r = cli(['install', './chat'], env, work);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Interactive mode: slothtool chat --tui');
  });

  test('update of a plugin installed from a folder reinstalls from that folder', async () => {
    await makePlugin(work, 'chat', { name: '@acme/plugin-chat', version: '1.0.0' });
    expect(cli(['install', './chat'], env, work).status).toBe(0);
    await makePlugin(work, 'chat', { name: '@acme/plugin-chat', version: '1.1.0' });
    const r = cli(['update', 'chat'], env, temp.home); // another cwd: the recorded path is used
    expect(r.stderr).not.toMatch(/Unexpected/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('1.0.0 -> 1.1.0');
  });
});
