import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { createTempHome, eachReturns, type TempHome } from '@holic512/testkit';
import { cli } from './helpers';
import { runsAlias } from '../src/commands';

// The host's own commands run from its bundle (dist/cli.js) with V8's code cache; running a
// plugin by its alias loads one plain file (dist/alias.js); a bundle that cannot be loaded is
// said so and lib/ runs.
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

test('a bundle that cannot be loaded is said so, and lib/ runs instead', () => {
  const pkgDir = path.resolve(__dirname, '..');
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'host-bundle-test-'));
  try {
    fs.mkdirSync(path.join(copy, 'bin'));
    fs.mkdirSync(path.join(copy, 'dist'));
    fs.copyFileSync(path.join(pkgDir, 'bin', 'slothtool.js'), path.join(copy, 'bin', 'slothtool.js'));
    fs.copyFileSync(path.join(pkgDir, 'dist', 'load.js'), path.join(copy, 'dist', 'load.js'));
    fs.symlinkSync(path.join(pkgDir, 'lib'), path.join(copy, 'lib'));
    fs.writeFileSync(path.join(copy, 'dist', 'cli.js'), 'broken');
    const r = spawnSync(process.execPath, [path.join(copy, 'bin', 'slothtool.js'), 'list'], { env: temp.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(cli(['list'], temp.env).stdout);
    expect(r.stderr).toContain(`slothtool could not load ${path.join(copy, 'dist', 'cli.js')} (`);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

test('an alias run loads dist/alias.js and none of lib/ but the bin\'s test of its words', () => {
  const pkgDir = path.resolve(__dirname, '..');
  const probe = path.join(temp.home, 'loaded.js');
  fs.writeFileSync(probe, `process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));`);
  const r = spawnSync(process.execPath, ['-r', probe, path.join(pkgDir, 'bin', 'slothtool.js'), 'no-such-plugin'], { env: temp.env, encoding: 'utf8' });
  expect(r.status).toBe(cli(['no-such-plugin'], temp.env).status);
  const loaded = JSON.parse(/LOADED (.*)/.exec(r.stderr)![1]) as string[];
  expect(loaded).toContain(path.join(pkgDir, 'dist', 'alias.js'));
  expect(loaded.filter((f) => f.startsWith(path.join(pkgDir, 'lib') + path.sep))).toEqual([path.join(pkgDir, 'lib', 'commands.js')]);
  expect(r.stderr.replace(/LOADED .*\n/, '')).toBe(cli(['no-such-plugin'], temp.env).stderr);
});

test('an alias bundle that cannot be loaded is said so, and lib/ runs instead', () => {
  const pkgDir = path.resolve(__dirname, '..');
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'host-alias-test-'));
  try {
    fs.mkdirSync(path.join(copy, 'bin'));
    fs.mkdirSync(path.join(copy, 'dist'));
    fs.copyFileSync(path.join(pkgDir, 'bin', 'slothtool.js'), path.join(copy, 'bin', 'slothtool.js'));
    fs.symlinkSync(path.join(pkgDir, 'lib'), path.join(copy, 'lib'));
    fs.writeFileSync(path.join(copy, 'dist', 'alias.js'), 'broken(');
    const r = spawnSync(process.execPath, [path.join(copy, 'bin', 'slothtool.js'), 'no-such-plugin'], { env: temp.env, encoding: 'utf8' });
    const direct = cli(['no-such-plugin'], temp.env);
    expect(r.status).toBe(direct.status);
    expect(r.stderr).toContain(`slothtool could not load ${path.join(copy, 'dist', 'alias.js')} (`);
    expect(r.stderr).toContain(direct.stderr.trim());
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});
