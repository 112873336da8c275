import { packageDir } from '@holic512/testkit';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// bin/ai.js runs the CLI from its bundle (dist/cli.js, made by scripts/bundle.js in the build
// `npm test` does first) and llm-base from its own, both with V8's code cache under the
// SlothTool home: written by the first run, used unchanged by the next. A step that runs a
// command works from the bundle too (the spawn helper's child script sits beside it).
const BUNDLE = path.join(packageDir('plugin-ai'), 'dist', 'cli.js');

const fx = useAiFixture();
beforeEach(() => fs.writeFileSync(path.join(fx.cwd, 'marker.txt'), 'x'));

const cacheDir = () => path.join(fx.temp.slothtoolHome, 'cache', 'v8');
const listCache = () => (fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()).sort() : []);

test('the bundles are built (npm test builds them; `npm run build` alone does too)', () => {
  expect(fs.existsSync(BUNDLE)).toBe(true);
  expect(fs.existsSync(path.join(packageDir('plugin-ai'), 'dist', 'spawn-helper-child.js'))).toBe(true);
  expect(fs.existsSync(path.join(packageDir('plugin-llm-base'), 'dist', 'index.js'))).toBe(true);
});

test('the first run writes a private code cache for both bundles; the second uses it unchanged', async () => {
  fx.server.enqueue({ json: { type: 'chat', message: 'first' } }, { json: { type: 'chat', message: 'second' } });
  const first = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
  expect(first).toMatchObject({ code: 0, stdout: 'first\n', stderr: '' });
  const files = listCache();
  expect(files.map((f) => f.replace(/-[0-9a-f]{8}-v\d.*$/, ''))).toEqual(['plugin-ai', 'plugin-llm-base']);
  expect(fs.statSync(cacheDir()).mode & 0o777).toBe(0o700);
  const stamps = files.map((f) => {
    const st = fs.statSync(path.join(cacheDir(), f));
    expect(st.mode & 0o777).toBe(0o600);
    return st.mtimeMs;
  });
  const second = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
  expect(second).toMatchObject({ code: 0, stdout: 'second\n', stderr: '' });
  expect(listCache()).toEqual(files);
  expect(files.map((f) => fs.statSync(path.join(cacheDir(), f)).mtimeMs)).toEqual(stamps);
});

test('steps run their commands through the spawn helper from the bundle (its pipes are FIFOs)', async () => {
  // A session's first step goes direct (node's socketpair) while the helper starts (the model's
  // next reply comes 1.5 s later here); the next gets the helper's FIFOs, which only a helper
  // started from dist/ could hand out.
  const look = {
    json: {
      type: 'cmd',
      message: 'look',
      data: { cwd: null, commands: [{ program: 'stat', args: ['-L', '-c', 'stdout is a %F', '/dev/stdout'] }] },
    },
  };
  fx.server.enqueue(look, { ...look, delayMs: 1500 }, { json: { type: 'chat', message: 'done' } });
  const r = await runAi(['-p', 'look'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('done');
  const seen = JSON.stringify(fx.server.requests.at(-1)!.body.messages);
  expect(seen).toContain('stdout is a fifo');
});

test('a reply from the bundles never loads node’s own fetch classes (undici: 18–24 ms and 6.5 MB)', async () => {
  // llm-base's bundle gives the SDK web-lite's Headers (scripts/bundle.js `inject`) and its fetch
  // answers with web-lite's Response; a streamed reply and a step go the same way.
  const probe = path.join(fx.cwd, 'probe.js');
  fs.writeFileSync(
    probe,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(fx.cwd)} + '/loaded-' + process.pid + '.txt', process.moduleLoadList.join('\\n')));`,
  );
  const look = { json: { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ program: 'ls', args: [] }] } } };
  fx.server.enqueue(look, { json: { type: 'chat', message: 'seen' } });
  const r = await runAi(['-p', 'look'], { env: { ...fx.temp.env, NODE_OPTIONS: `--require ${probe}` }, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('→ exit 0');
  expect(r.stdout).toContain('seen');
  const lists = fs.readdirSync(fx.cwd).filter((f) => f.startsWith('loaded-'));
  expect(lists.length).toBeGreaterThan(0);
  const all = lists.map((f) => fs.readFileSync(path.join(fx.cwd, f), 'utf8')).join('\n');
  expect(all).toContain('NativeModule http'); // the probe saw the request being made
  expect(all).not.toMatch(/undici|http2/);
});

test('a turn that only talks loads the two bundles and zod, and no runner; a turn with a step starts one', async () => {
  // zod loads on every turn: registry.json, llm-base.json and the reply are checked by their
  // schemas (zod's core sets a global when it loads). A turn that only talks requires nothing
  // from node_modules beside the bundles (no MCP SDK, markdown, prompts, yaml, diff) and starts no
  // process (no child_process: the runner, the sandbox and the spawn helper load with a step).
  const probe = path.join(fx.cwd, 'load-probe.js');
  fs.writeFileSync(
    probe,
    `process.on('exit', () => process.stderr.write('loaded: ' + JSON.stringify({ zod: '__zod_globalConfig' in globalThis, childProcess: process.moduleLoadList.includes('NativeModule child_process'), files: Object.keys(require.cache).filter((f) => f !== __filename) }) + '\\n'));`,
  );
  const loaded = (stderr: string) =>
    JSON.parse(/^loaded: (.*)$/m.exec(stderr)![1]) as { zod: boolean; childProcess: boolean; files: string[] };
  const env = { ...fx.temp.env, NODE_OPTIONS: `--require ${probe}` };
  fx.server.enqueue({ json: { type: 'chat', message: 'hello', data: { format: 'plain', suggestions: ['more'] } } });
  const talk = await runAi(['-p', 'hi'], { env, cwd: fx.cwd });
  expect(talk).toMatchObject({ code: 0, stdout: 'hello\n' });
  const llmBase = packageDir('plugin-llm-base');
  expect(loaded(talk.stderr)).toEqual({
    zod: true,
    childProcess: false,
    files: [
      path.join(packageDir('plugin-ai'), 'bin', 'ai.js'),
      path.join(packageDir('plugin-ai'), 'dist', 'load.js'),
      BUNDLE,
      path.join(llmBase, 'dist', 'index.js'),
    ],
  });
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ program: 'ls', args: [] }] } } },
    { json: { type: 'chat', message: 'seen' } },
  );
  const step = await runAi(['-p', 'look'], { env, cwd: fx.cwd });
  expect(step.code).toBe(0);
  expect(loaded(step.stderr)).toMatchObject({ zod: true, childProcess: true });
});

test('run before any SlothTool home exists, it makes none (no cache either)', async () => {
  const bare = path.join(fx.temp.home, 'bare');
  fs.mkdirSync(bare);
  const r = await runAi(['-p', 'hi'], { env: { ...fx.temp.env, HOME: bare, USERPROFILE: bare, SLOTHTOOL_HOME: '' }, cwd: fx.cwd });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('slothtool install');
  expect(fs.readdirSync(bare)).toEqual([]);
});

test('--version and --help need no bundle and leave no cache', async () => {
  const v = await runAi(['--version'], { env: fx.temp.env, cwd: fx.cwd });
  expect(v.stdout).toMatch(/^\d+\.\d+\.\d+/);
  const h = await runAi(['--help'], { env: fx.temp.env, cwd: fx.cwd });
  expect(h.code).toBe(0);
  expect(listCache()).toEqual([]);
});

test("a bundle that cannot be loaded is said so (in the user's language), and lib/ runs instead", async () => {
  // A copy of the package whose dist/cli.js is damaged; lib/ is this package's own.
  const pkgDir = packageDir('plugin-ai');
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-bundle-test-'));
  try {
    fs.mkdirSync(path.join(copy, 'bin'));
    fs.mkdirSync(path.join(copy, 'dist'));
    fs.copyFileSync(path.join(pkgDir, 'bin', 'ai.js'), path.join(copy, 'bin', 'ai.js'));
    fs.copyFileSync(path.join(pkgDir, 'package.json'), path.join(copy, 'package.json'));
    fs.copyFileSync(path.join(pkgDir, 'dist', 'load.js'), path.join(copy, 'dist', 'load.js'));
    fs.symlinkSync(path.join(pkgDir, 'lib'), path.join(copy, 'lib'));
    fs.writeFileSync(
      path.join(copy, 'dist', 'cli.js'),
      '(function (exports, require, module, __filename, __dirname) { this is not javascript',
    );
    fx.server.enqueue({ json: { type: 'chat', message: 'still here' } });
    // Not spawnSync: the scripted model answers from this process.
    const run = () =>
      new Promise<{ stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [path.join(copy, 'bin', 'ai.js'), '-p', 'hi'],
          { env: fx.temp.env, cwd: fx.cwd, encoding: 'utf8' },
          (_err, stdout, stderr) => resolve({ stdout, stderr }),
        );
      });
    const r = await run();
    expect(r.stdout).toBe('still here\n');
    expect(r.stderr).toContain(`ai could not load ${path.join(copy, 'dist', 'cli.js')} (`);
    expect(r.stderr).toContain('slothtool update ai');
    await fx.temp.writeJson('settings.json', { language: 'zh' });
    fx.server.enqueue({ json: { type: 'chat', message: 'ok' } });
    const zh = await run();
    expect(zh.stderr).toContain('ai 无法加载');
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});
