import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheFileFor, codeCacheDir, loadBundle } from '../src/code-cache';

// A bundle loads with V8's code cache: written at the exit of the run that had none, used by the
// next, kept apart per bundle file, replaced when V8 rejects it, and never in the way.
let root: string;
beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'))));
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const LOADER = path.join(__dirname, '..', 'lib', 'code-cache.js');

function writeBundle(body: string, name = 'pkg'): string {
  const file = path.join(root, name, 'dist', 'index.js');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(path.join(path.dirname(file), 'dep.js'), 'module.exports = 41;');
  fs.writeFileSync(file, `(function (exports, require, module, __filename, __dirname) {${body}\n})`);
  return file;
}

/** Load `file` in a fresh node process (as a bin does); returns what it printed: the cache state, then the result. */
function loadInChild(
  file: string,
  cacheDir: string,
  extra = { options: '', call: 'm.value()' },
): { state: string; value: string; status: number | null; stderr: string } {
  const code = `const { loadBundle } = require(${JSON.stringify(LOADER)});
    let state = '';
    const m = loadBundle(${JSON.stringify(file)}, { cacheDir: ${JSON.stringify(cacheDir)}, parent: module, onCache: (s) => (state = s)${extra.options} });
    process.stdout.write(state + '\\n' + JSON.stringify(${extra.call}));`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  const [state, value] = r.stdout.split('\n');
  return { state, value, status: r.status, stderr: r.stderr };
}

const BODY = `const dep = require('./dep'); module.exports = { value: () => ({ sum: dep + 1, dir: __dirname, file: __filename, isModule: typeof module.id }) };`;

test('the first run writes the cache (0700 folder, 0600 file) at exit; the next one uses it', () => {
  const file = writeBundle(BODY);
  const cacheDir = path.join(root, 'home', 'cache', 'v8');
  const first = loadInChild(file, cacheDir);
  expect(first.stderr).toBe('');
  expect(first.state).toBe('none');
  expect(JSON.parse(first.value)).toEqual({ sum: 42, dir: path.dirname(file), file, isModule: 'string' });
  const cacheFile = cacheFileFor(file, cacheDir);
  expect(fs.readdirSync(cacheDir)).toEqual([path.basename(cacheFile)]);
  expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
  expect(fs.statSync(cacheFile).mode & 0o777).toBe(0o600);
  const written = fs.statSync(cacheFile).mtimeMs;
  const second = loadInChild(file, cacheDir);
  expect(second.state).toBe('used');
  expect(JSON.parse(second.value).sum).toBe(42);
  expect(fs.statSync(cacheFile).mtimeMs).toBe(written); // not written again
});

test('a changed bundle never runs the old code: its cache is refused and replaced; caches for another node go', () => {
  const file = writeBundle(BODY);
  const cacheDir = path.join(root, 'cache');
  loadInChild(file, cacheDir);
  const cacheFile = cacheFileFor(file, cacheDir);
  const otherNode = cacheFile.replace(process.version, 'v18.0.0');
  fs.writeFileSync(otherNode, 'made by another node');
  const before = fs.readFileSync(cacheFile);
  const changed = BODY.replace('dep + 1', 'dep + 2');
  expect(changed.length).toBe(BODY.length);
  fs.writeFileSync(file, `(function (exports, require, module, __filename, __dirname) {${changed}\n})`);
  const r = loadInChild(file, cacheDir);
  expect(r.state).toBe('rejected');
  expect(JSON.parse(r.value).sum).toBe(43);
  expect(fs.readdirSync(cacheDir)).toEqual([path.basename(cacheFile)]);
  expect(fs.readFileSync(cacheFile).equals(before)).toBe(false);
  expect(loadInChild(file, cacheDir).state).toBe('used');
});

test('a long run that compiled more rewrites a usable cache; a short one, or one that compiled nothing new, does not', () => {
  // \`small\` is all the first run compiles; \`big\` (a long function) only later runs.
  const big = Array.from({ length: 400 }, (_, i) => `t += (x * ${i}) % 7;`).join(' ');
  const file = writeBundle(`module.exports = { value: () => 1, small: () => 2, big: (x) => { let t = 0; ${big} return t; } };`);
  const cacheDir = path.join(root, 'cache');
  const cacheFile = cacheFileFor(file, cacheDir);
  loadInChild(file, cacheDir, { options: '', call: 'm.small()' });
  const thin = fs.statSync(cacheFile).size;
  // short (the default threshold is a second): kept as it is, though it compiled big
  expect(loadInChild(file, cacheDir, { options: '', call: 'm.big(3)' }).state).toBe('used');
  expect(fs.statSync(cacheFile).size).toBe(thin);
  // long enough, nothing new compiled: kept
  loadInChild(file, cacheDir, { options: ', refreshAfterMs: 0', call: 'm.small()' });
  expect(fs.statSync(cacheFile).size).toBe(thin);
  // long enough and big compiled: rewritten with more, and used by the next run
  expect(loadInChild(file, cacheDir, { options: ', refreshAfterMs: 0', call: 'm.big(3)' }).value).toBe(
    String(Array.from({ length: 400 }, (_, i) => (3 * i) % 7).reduce((a, b) => a + b, 0)),
  );
  expect(fs.statSync(cacheFile).size).toBeGreaterThan(thin * 1.1);
  expect(loadInChild(file, cacheDir, { options: '', call: 'm.big(3)' }).state).toBe('used');
});

test('a bundle with its build id (as scripts/bundle.js writes it) is named by the id and its stamp: a changed file never runs old code', () => {
  const id = 'a'.repeat(40);
  const file = writeBundle(`/*sha1:${id}*/` + BODY);
  const cacheDir = path.join(root, 'cache');
  expect(loadInChild(file, cacheDir).state).toBe('none');
  expect(loadInChild(file, cacheDir).state).toBe('used');
  // Edited by hand, the id left as it was: another size or time stamp, so compiled anew.
  fs.writeFileSync(
    file,
    `(function (exports, require, module, __filename, __dirname) {/*sha1:${id}*/${BODY.replace('dep + 1', 'dep + 2')}\n})`,
  );
  fs.utimesSync(file, new Date(), new Date(Date.now() + 3000));
  const r = loadInChild(file, cacheDir);
  expect(r.state).toBe('rejected');
  expect(JSON.parse(r.value).sum).toBe(43);
  expect(loadInChild(file, cacheDir).state).toBe('used');
});

test('two bundles keep two caches', () => {
  const a = writeBundle(BODY, 'a');
  const b = writeBundle(BODY, 'b');
  const cacheDir = path.join(root, 'cache');
  loadInChild(a, cacheDir);
  loadInChild(b, cacheDir);
  expect(
    fs
      .readdirSync(cacheDir)
      .sort()
      .map((n) => n[0]),
  ).toEqual(['a', 'b']);
  expect(loadInChild(a, cacheDir).state).toBe('used');
  expect(loadInChild(b, cacheDir).state).toBe('used');
});

// V8 checks that its data fits this node and this text, not that its bytes are intact: given
// damaged data, node crashes (SIGSEGV). Every cache carries its own SHA-1, checked first.
test.each([
  ['bytes overwritten past the header', (b: Buffer) => Buffer.concat([b.subarray(0, 64), Buffer.alloc(b.length - 64, 0x5a)])],
  [
    'one bit flipped in V8 data',
    (b: Buffer) => {
      const c = Buffer.from(b);
      c[c.length >> 1] ^= 1;
      return c;
    },
  ],
  ['cut short', (b: Buffer) => b.subarray(0, b.length >> 1)],
  ['only the header', (b: Buffer) => b.subarray(0, 48)],
  ['V8 data without our header', (b: Buffer) => b.subarray(48)],
  ['empty', () => Buffer.alloc(0)],
])('a damaged cache (%s) is refused, the bundle still loads, and the cache is written anew', (_what, damage) => {
  const file = writeBundle(BODY);
  const cacheDir = path.join(root, 'cache');
  loadInChild(file, cacheDir);
  const cacheFile = cacheFileFor(file, cacheDir);
  fs.writeFileSync(cacheFile, damage(fs.readFileSync(cacheFile)));
  const r = loadInChild(file, cacheDir);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.state).toBe('rejected');
  expect(JSON.parse(r.value).sum).toBe(42);
  expect(loadInChild(file, cacheDir).state).toBe('used');
});

test('a bundle rewritten in place with the same size, time stamp and inode runs its new code', () => {
  const file = writeBundle(BODY);
  const cacheDir = path.join(root, 'cache');
  loadInChild(file, cacheDir);
  const stamp = fs.statSync(file);
  const other = `(function (exports, require, module, __filename, __dirname) {${BODY.replace('dep + 1', 'dep + 3')}\n})`;
  fs.writeFileSync(file, other);
  fs.utimesSync(file, stamp.atime, stamp.mtime); // as npm's tarballs do: every file has the same time stamp
  expect(fs.statSync(file).ino).toBe(stamp.ino);
  const r = loadInChild(file, cacheDir);
  expect(r.status).toBe(0);
  expect(JSON.parse(r.value).sum).toBe(44);
});

test('a cache folder that cannot be made costs only the speed', () => {
  const file = writeBundle(BODY);
  const blocked = path.join(root, 'not-a-folder');
  fs.writeFileSync(blocked, 'x');
  const r = loadInChild(file, path.join(blocked, 'v8'));
  expect(r.status).toBe(0);
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.value).sum).toBe(42);
});

test('a bundle that is not ASCII (written by hand) is read as UTF-8', () => {
  const file = writeBundle(`module.exports = { value: () => ({ sum: 42, text: '你好…' }) };`);
  const r = loadInChild(file, path.join(root, 'cache'));
  expect(JSON.parse(r.value)).toEqual({ sum: 42, text: '你好…' });
  expect(JSON.parse(loadInChild(file, path.join(root, 'cache')).value).text).toBe('你好…');
});

test('the cache lives in <SlothTool home>/cache/v8, and never makes a SlothTool home of its own', () => {
  const home = path.join(root, 'home', '.slothtool');
  expect(codeCacheDir({ SLOTHTOOL_HOME: home })).toBeUndefined();
  fs.mkdirSync(home, { recursive: true });
  expect(codeCacheDir({ SLOTHTOOL_HOME: home })).toBe(path.join(home, 'cache', 'v8'));
  expect(codeCacheDir({ HOME: path.join(root, 'home') })).toBe(path.join(home, 'cache', 'v8'));
});

test('a bundle is loaded once per process, and require() of it gives the same module', () => {
  const file = writeBundle(
    `module.exports = { value: () => ({ sum: 42, runs: (globalThis.__bundleRuns = (globalThis.__bundleRuns || 0) + 1) }) };`,
  );
  const code = `const { loadBundle } = require(${JSON.stringify(LOADER)});
    const a = loadBundle(${JSON.stringify(file)});
    const b = loadBundle(${JSON.stringify(file.replace('/dist/', '/dist/../dist/'))});
    a.value();
    process.stdout.write(JSON.stringify({ same: a === b && require(${JSON.stringify(file)}) === a, runs: b.value().runs }));`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual({ same: true, runs: 2 });
});

test('a bundle whose own code throws is not kept: the next load runs it again', () => {
  const file = writeBundle(
    `if (!globalThis.__second) { globalThis.__second = true; throw new Error('first load fails'); } module.exports = { value: () => 'ok' };`,
  );
  const code = `const { loadBundle } = require(${JSON.stringify(LOADER)});
    let first = '';
    try { loadBundle(${JSON.stringify(file)}); } catch (e) { first = e.message; }
    process.stdout.write(JSON.stringify({ first, second: loadBundle(${JSON.stringify(file)}).value() }));`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  expect(JSON.parse(r.stdout)).toEqual({ first: 'first load fails', second: 'ok' });
});

test('a file that is not one function expression is refused, with its name', () => {
  const file = path.join(root, 'plain.js');
  fs.writeFileSync(file, 'module.exports = 1;');
  expect(() => loadBundle(file)).toThrow(`${file} is not a bundle`);
  expect(() => loadBundle(path.join(root, 'missing.js'))).toThrow(/ENOENT/);
});
