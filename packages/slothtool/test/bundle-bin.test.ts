import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { createTempHome, eachReturns, type TempHome } from '@holic512/testkit';
import { cli } from './helpers';
import { runsAlias } from '../src/commands';

// The host's own commands run from its bundle (dist/cli.js) with V8's code cache; running a
// plugin that runs in this process by its alias loads one small plain file (dist/alias.js, only
// that path); a bundle that cannot be loaded is said so and lib/ runs.
let temp: TempHome;
beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
});
afterEach(async () => {
  await temp.cleanup();
});

const cacheFiles = () => {
  const dir = path.join(temp.slothtoolHome, 'cache', 'v8');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('slothtool-')) : [];
};

test('its own commands run from the bundle and keep a code cache; an alias run does not touch it', () => {
  const notFound = cli(['no-such-plugin'], temp.env);
  expect(notFound.status).not.toBe(0);
  expect(cacheFiles()).toEqual([]);
  const first = cli(['list'], temp.env);
  expect(first.status).toBe(0);
  expect(cacheFiles()).toHaveLength(1);
  const [file] = cacheFiles();
  const stamp = fs.statSync(path.join(temp.slothtoolHome, 'cache', 'v8', file)).mtimeMs;
  expect(cli(['list'], temp.env).stdout).toBe(first.stdout);
  expect(fs.statSync(path.join(temp.slothtoolHome, 'cache', 'v8', file)).mtimeMs).toBe(stamp);
});

eachReturns('runsAlias(%j) is %p', runsAlias, [
  [['ai', '-p', 'x'], true],
  [['some-plugin'], true],
  [['list'], false],
  [['run', 'ai'], false],
  [['install', 'x'], false],
  [['--help'], false],
  [['-v'], false],
  [[], false],
]);

/** A copy of this package (its bin, lib/ linked) with the given files in dist/; removed after `use`. */
function withCopy(dist: Record<string, string>, use: (dir: string) => void): void {
  const pkgDir = path.resolve(__dirname, '..');
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'host-bundle-test-'));
  try {
    for (const sub of ['bin', 'dist']) fs.mkdirSync(path.join(copy, sub));
    fs.copyFileSync(path.join(pkgDir, 'bin', 'slothtool.js'), path.join(copy, 'bin', 'slothtool.js'));
    fs.symlinkSync(path.join(pkgDir, 'lib'), path.join(copy, 'lib'));
    for (const [name, text] of Object.entries(dist)) fs.writeFileSync(path.join(copy, 'dist', name), text);
    use(copy);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

test('a bundle that cannot be loaded is said so, and lib/ runs instead', () => {
  const load = fs.readFileSync(path.join(path.resolve(__dirname, '..'), 'dist', 'load.js'), 'utf8');
  withCopy({ 'load.js': load, 'cli.js': 'broken' }, (copy) => {
    const r = spawnSync(process.execPath, [path.join(copy, 'bin', 'slothtool.js'), 'list'], { env: temp.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(cli(['list'], temp.env).stdout);
    expect(r.stderr).toContain(`slothtool could not load ${path.join(copy, 'dist', 'cli.js')} (`);
  });
});

/** Run the bin with a preload that prints the files `require` loaded, at exit. */
function binLoading(binDir: string, args: string[]) {
  const probe = path.join(temp.home, 'loaded.js');
  fs.writeFileSync(
    probe,
    `process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));`,
  );
  const r = spawnSync(process.execPath, ['-r', probe, path.join(binDir, 'bin', 'slothtool.js'), ...args], {
    env: temp.env,
    encoding: 'utf8',
  });
  const loaded = JSON.parse(/LOADED (.*)/.exec(r.stderr)![1]) as string[];
  return { ...r, stderr: r.stderr.replace(/LOADED .*\n/, ''), loaded };
}

test('an in-process plugin run by its alias loads dist/alias.js and none of lib/ but the test of its words', async () => {
  const pkgDir = path.resolve(__dirname, '..');
  const aiDir = path.resolve(pkgDir, '..', 'plugin-ai');
  await temp.registerPlugin('ai', aiDir);
  const r = binLoading(pkgDir, ['ai', '--version']);
  const direct = spawnSync(process.execPath, [path.join(aiDir, 'bin', 'ai.js'), '--version'], { env: temp.env, encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(r.stdout).toBe(direct.stdout);
  expect(r.loaded).toContain(path.join(pkgDir, 'dist', 'alias.js'));
  expect(r.loaded.filter((f) => f.startsWith(path.join(pkgDir, 'lib') + path.sep))).toEqual([path.join(pkgDir, 'lib', 'commands.js')]);
});

test('an alias that is not installed goes to the whole CLI, which says so as before', () => {
  const pkgDir = path.resolve(__dirname, '..');
  const r = binLoading(pkgDir, ['no-such-plugin']);
  const direct = cli(['no-such-plugin'], temp.env);
  expect(r.status).toBe(direct.status);
  expect(r.status).not.toBe(0);
  expect(r.stderr).toBe(direct.stderr);
  expect(r.loaded).toContain(path.join(pkgDir, 'lib', 'cli.js'));
});

test('an alias bundle that cannot be loaded is said so, and lib/ runs instead', async () => {
  const aiDir = path.resolve(__dirname, '..', '..', 'plugin-ai');
  await temp.registerPlugin('ai', aiDir);
  withCopy({ 'alias.js': 'broken(' }, (copy) => {
    const r = spawnSync(process.execPath, [path.join(copy, 'bin', 'slothtool.js'), 'ai', '--version'], { env: temp.env, encoding: 'utf8' });
    const direct = spawnSync(process.execPath, [path.join(aiDir, 'bin', 'ai.js'), '--version'], { env: temp.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(direct.stdout);
    expect(r.stderr).toContain(`slothtool could not load ${path.join(copy, 'dist', 'alias.js')} (`);
  });
});
