import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { closedPort, createTempHome, packageDir, runProcess, startScriptedServer, ScriptedServer, TempHome } from '@holic512/testkit';

const BIN = path.join(packageDir('plugin-llm-base'), 'bin', 'llm-base.js');
const LIB = path.join(packageDir('plugin-llm-base'), 'lib', 'index.js');
const KEY = 'sk-cli-secret-9876543210abcdef';

let home: TempHome;
let server: ScriptedServer;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const run = (args: string[], env: NodeJS.ProcessEnv = home.env, bin = BIN): Promise<Run> =>
  runProcess(process.execPath, [bin, ...args], { env });
const node = (script: string, env: NodeJS.ProcessEnv = home.env): Promise<Run> => runProcess(process.execPath, ['-e', script], { env });

const createArgs = (name = 'local') => [
  'config',
  'create',
  name,
  '--base-url',
  server.baseURL,
  '--api-key',
  KEY,
  '--low-model',
  'test-low',
  '--high-model',
  'test-high',
  '--timeout',
  '5000',
  '--max-retries',
  '0',
];

beforeEach(async () => {
  home = await createTempHome({ language: 'en' });
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
  await home.cleanup();
});

test('a bundle that cannot be loaded is said so, and lib/ runs instead', async () => {
  const pkgDir = packageDir('plugin-llm-base');
  const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'llm-base-bundle-test-'));
  try {
    await fs.mkdir(path.join(copy, 'bin'));
    await fs.mkdir(path.join(copy, 'dist'));
    await fs.copyFile(path.join(pkgDir, 'bin', 'llm-base.js'), path.join(copy, 'bin', 'llm-base.js'));
    await fs.copyFile(path.join(pkgDir, 'dist', 'load.js'), path.join(copy, 'dist', 'load.js'));
    await fs.symlink(path.join(pkgDir, 'lib'), path.join(copy, 'lib'));
    await fs.writeFile(path.join(copy, 'dist', 'cli.js'), 'not a bundle');
    const r = await run(['--help'], home.env, path.join(copy, 'bin', 'llm-base.js'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('llm-base');
    expect(r.stderr).toContain(`llm-base could not load ${path.join(copy, 'dist', 'cli.js')} (`);
  } finally {
    await fs.rm(copy, { recursive: true, force: true });
  }
});

test('the bin runs its bundle (dist/cli.js) and keeps its code cache under the SlothTool home', async () => {
  expect(await fs.stat(path.join(packageDir('plugin-llm-base'), 'dist', 'cli.js'))).toBeTruthy();
  const first = await run(createArgs());
  expect(first.code).toBe(0);
  const cacheDir = path.join(home.slothtoolHome, 'cache', 'v8');
  const files = (await fs.readdir(cacheDir)).filter((f) => f.startsWith('plugin-llm-base-'));
  expect(files).toHaveLength(1);
  const before = (await fs.stat(path.join(cacheDir, files[0]))).mtimeMs;
  const listed = await run(['config', 'list']);
  expect(listed.stdout).toContain('local');
  expect((await fs.stat(path.join(cacheDir, files[0]))).mtimeMs).toBe(before);
});

test('config create with options; show / export / list never print the key', async () => {
  const created = await run(createArgs());
  expect(created.code).toBe(0);
  expect(created.stdout).toContain('Profile "local" created');
  const file = await home.readJson<{ profiles: { local: { api_key: string } } }>('plugin-configs/llm-base.json');
  expect(file.profiles.local.api_key).toBe(KEY);
  for (const args of [['config', 'show', 'local'], ['config', 'show'], ['config', 'export'], ['config', 'list'], createArgs('again')]) {
    const r = await run(args);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(r.stdout + r.stderr).not.toContain('9876543210');
  }
  const show = JSON.parse((await run(['config', 'show', 'local'])).stdout);
  expect(show).toEqual({
    profile_id: 'local',
    profile: {
      base_url: server.baseURL,
      api_key: 'sk-***cdef',
      low_model: 'test-low',
      high_model: 'test-high',
      timeout: 5000,
      max_retries: 0,
    },
  });
  expect(JSON.parse((await run(['config', 'list'])).stdout)).toEqual({ default_profile: 'local', profiles: ['local', 'again'] });
});

test('config create --preset for every preset', async () => {
  const presets = ['openai', 'deepseek', 'qwen', 'glm', 'kimi', 'ollama', 'lmstudio', 'vllm', 'llamacpp'];
  for (const p of presets) expect((await run(['config', 'create', '--preset', p])).code).toBe(0);
  const cfg = await home.readJson<{ default_profile: string; profiles: Record<string, { base_url: string; api_key: string }> }>(
    'plugin-configs/llm-base.json',
  );
  expect(Object.keys(cfg.profiles)).toEqual(presets);
  expect(cfg.default_profile).toBe('openai');
  expect(cfg.profiles.deepseek.api_key).toBe('env:DEEPSEEK_API_KEY');
  expect(cfg.profiles.ollama).toMatchObject({ base_url: 'http://127.0.0.1:11434/v1', api_key: '' });
  const bad = await run(['config', 'create', '--preset', 'nope']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(
    /^Invalid usage: unknown preset "nope" \(available: openai, .*\)\. Run `slothtool llm-base --help` for the options\.\n$/,
  );
});

test('update / set-default / delete', async () => {
  await run(createArgs('a'));
  await run(createArgs('b'));
  expect((await run(['config', 'update', 'b', '--high-model', 'bigger', '--json-mode', 'response_format'])).code).toBe(0);
  expect((await run(['config', 'set-default', 'b'])).code).toBe(0);
  let cfg = await home.readJson<{ default_profile: string; profiles: Record<string, Record<string, unknown>> }>(
    'plugin-configs/llm-base.json',
  );
  expect(cfg.default_profile).toBe('b');
  expect(cfg.profiles.b).toMatchObject({ high_model: 'bigger', json_mode: 'response_format' });
  expect((await run(['config', 'delete', 'b'])).code).toBe(0);
  cfg = await home.readJson('plugin-configs/llm-base.json');
  expect(Object.keys(cfg.profiles)).toEqual(['a']);
  const r = await run(['config', 'delete', 'b']);
  expect(r.code).toBe(1);
  expect(JSON.parse(r.stderr).error.code).toBe('NO_PROFILE');
  const badTimeout = await run(['config', 'update', 'a', '--timeout', 'soon']);
  expect(badTimeout.code).toBe(2);
  expect(badTimeout.stderr).toMatch(/^Invalid usage: invalid arguments: .*timeout/);
});

test('chat prints the result JSON; failures go to stderr with exit 1 and no key', async () => {
  await run(createArgs());
  server.enqueue({ json: { type: 'chat', message: 'hello' }, usage: { prompt_tokens: 1, completion_tokens: 2 } });
  const ok = await run(['chat', 'say', 'hello', '--mode', 'high']);
  expect(ok.code).toBe(0);
  expect(JSON.parse(ok.stdout)).toMatchObject({ success: true, model: 'test-high', data: { type: 'chat', message: 'hello' } });
  expect(server.requests[0].body.messages[1]).toEqual({ role: 'user', content: 'say hello' });

  server.enqueue({ status: 401, body: { error: { message: `bad key ${KEY}` } } });
  const bad = await run(['chat', 'hi']);
  expect(bad.code).toBe(1);
  expect(JSON.parse(bad.stderr)).toMatchObject({ success: false, error: { code: 'AUTH_ERROR' } });
  expect(bad.stderr).not.toContain(KEY);
});

test('a timeout says so (real process, not the jest sandbox)', async () => {
  await run([...createArgs(), '--timeout', '100']);
  server.enqueue({ delayMs: 30_000, json: {} });
  const r = await run(['chat', 'hi']);
  expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'NETWORK_ERROR', message: expect.stringMatching(/timed out after 100 ms/) });
});

test('raw passes the payload through', async () => {
  await run(createArgs());
  server.enqueue({ content: 'raw answer' });
  const payload = { model: 'x', messages: [{ role: 'user', content: 'q' }], top_p: 0.5 };
  const r = await run(['raw', JSON.stringify(payload)]);
  expect(r.code).toBe(0);
  expect(server.requests[0].body).toEqual(payload);
  expect(JSON.parse(r.stdout).data.choices[0].message.content).toBe('raw answer');
  const bad = await run(['raw', '{not json']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/^Invalid usage: invalid arguments: .*JSON/);
  expect(server.requests).toHaveLength(1);
});

test('output follows settings.json language, else the locale', async () => {
  await fs.rm(path.join(home.slothtoolHome, 'settings.json'));
  const zhEnv = { ...home.env, LC_ALL: 'zh_CN.UTF-8' };
  const zh = await run(['--help'], zhEnv);
  expect(zh.stdout).toContain('用法');
  const noProfile = await run(['chat', 'hi'], zhEnv);
  expect((await run(['--help'], { ...home.env, LC_ALL: 'en_US.UTF-8' })).stdout).toContain('Usage');
  expect(JSON.parse(noProfile.stderr).error).toMatchObject({ code: 'NO_PROFILE', message: expect.stringContaining('没有默认 profile') });
  await home.writeJson('settings.json', { language: 'en' });
  expect((await run(['--help'])).stdout).toContain('Usage');
});

test('a corrupt config file is reported with its path and field, and left alone', async () => {
  const text = JSON.stringify({
    default_profile: 'local',
    profiles: { local: { base_url: 'http://x/v1', low_model: 7, high_model: 'h' } },
  });
  const file = await home.writeJson('plugin-configs/llm-base.json', JSON.parse(text));
  const before = await fs.readFile(file, 'utf8');
  for (const args of [['chat', 'hi'], ['config', 'list'], createArgs('other')]) {
    const r = await run(args);
    expect(r.code).toBe(1);
    const err = JSON.parse(r.stderr).error;
    expect(err.message).toContain(file);
    expect(err.message).toContain('profiles.local.low_model');
  }
  expect(await fs.readFile(file, 'utf8')).toBe(before);
  const doc = await run(['doctor']);
  expect(doc.code).toBe(1);
  expect(doc.stdout).toContain('profiles.local.low_model');
});

test('two processes calling at once lose no log entry', async () => {
  await run(createArgs());
  server.setHandler(() => ({ json: { ok: true } }));
  const script = `
    const api = require(${JSON.stringify(LIB)});
    Promise.all(Array.from({length: 15}, () => api.llm_chat([{role: 'user', content: 'x'}])))
      .then((rs) => { console.log(JSON.stringify(rs.map((r) => r.success ? r.call_id : 'FAIL'))); });
  `;
  const [a, b] = await Promise.all([node(script), node(script)]);
  const ids = [...JSON.parse(a.stdout), ...JSON.parse(b.stdout)] as string[];
  expect(ids).toHaveLength(30);
  expect(ids).not.toContain('FAIL');
  const lines = (await fs.readFile(path.join(home.slothtoolHome, 'plugin-configs', 'llm-base.calls.jsonl'), 'utf8')).trim().split('\n');
  expect(lines.map((l) => JSON.parse(l).call_id).sort()).toEqual([...ids].sort());
});

describe('doctor: the states a local server goes through', () => {
  test('not running → reachable fails with how to start it', async () => {
    await run(['config', 'create', 'ol', '--preset', 'ollama', '--base-url', `http://127.0.0.1:${await closedPort()}/v1`]);
    const r = await run(['doctor', '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.profile).toBe('ol');
    expect(report.checks.map((c: { id: string; ok: boolean }) => [c.id, c.ok])).toEqual([
      ['profile', true],
      ['api_key', true],
      ['reachable', false],
      ['auth', false],
      ['models', false],
      ['json', false],
    ]);
    expect(report.checks[2].message).toMatch(/ECONNREFUSED/);
    expect(report.checks[2].fix).toMatch(/start the local server/);
    const human = await run(['doctor']);
    expect(human.stdout).toMatch(/✗ reachable/);
  });

  test('model missing → says which and how to get it', async () => {
    await run(createArgs());
    server.models = ['some-other-model'];
    const r = await run(['doctor', 'local', '--json']);
    expect(r.code).toBe(1);
    const models = JSON.parse(r.stdout).checks.find((c: { id: string }) => c.id === 'models');
    expect(models).toMatchObject({ ok: false, message: expect.stringMatching(/test-low, test-high.*some-other-model/) });
    expect(models.fix).toMatch(/config update local/);
    // Only the one-token probes were sent, no JSON round trip.
    const chats = server.requests.filter((q) => q.path.includes('chat'));
    expect(chats.map((q) => [q.body.model, q.body.max_tokens])).toEqual([
      ['test-low', 1],
      ['test-high', 1],
    ]);
  });

  test('models not listed but accepted (llama.cpp serves one model under any name) pass', async () => {
    await run(createArgs());
    server.models = ['/models/qwen2.5-7b-instruct-q4_k_m.gguf'];
    server.enqueue({ content: 'p' }, { content: 'p' }, { json: { ok: true } });
    const r = await run(['doctor', '--json']);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(true);
    expect(report.checks.find((c: { id: string }) => c.id === 'models').message).toMatch(/accepts them: test-low, test-high/);
  });

  test('ready → every check passes, with a strict-JSON round trip', async () => {
    await run(createArgs());
    server.enqueue({ json: { ok: true } });
    const r = await run(['doctor']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ json/);
    expect(r.stdout).toMatch(/All checks passed/);
  });

  test("no /models on the server → a rejected key is reported (by the high model's probe here)", async () => {
    await run(createArgs());
    server.models = null;
    server.enqueue({ status: 401 });
    const r = await run(['doctor', '--json']);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(false);
    expect(report.checks.map((c: { id: string; ok: boolean }) => [c.id, c.ok])).toEqual([
      ['profile', true],
      ['api_key', true],
      ['reachable', true],
      ['auth', false],
      ['models', false],
      ['json', false],
    ]);
    expect(report.checks.find((c: { id: string }) => c.id === 'models')).toMatchObject({ skipped: true });
    expect(r.stdout).not.toContain(KEY);
  });

  test('no /models, one model for both tiers → the round trip alone decides; a rejected key is reported', async () => {
    await run(createArgs().map((a) => (a === 'test-high' ? 'test-low' : a)));
    server.models = null;
    server.enqueue({ status: 401 });
    const report = JSON.parse((await run(['doctor', '--json'])).stdout);
    expect(report.checks.map((c: { id: string; ok: boolean }) => [c.id, c.ok])).toEqual([
      ['profile', true],
      ['api_key', true],
      ['reachable', true],
      ['auth', false],
      ['models', true],
      ['json', false],
    ]);
    expect(server.requests.filter((q) => q.path.includes('chat'))).toHaveLength(1);
  });

  test('no /models and the high model does not exist → said before the user first switches to it', async () => {
    await run(createArgs());
    server.models = null;
    server.enqueue({
      status: 404,
      body: { error: { message: 'The model `test-high` does not exist', type: 'invalid_request_error', code: 'model_not_found' } },
    });
    const report = JSON.parse((await run(['doctor', '--json'])).stdout);
    expect(report.ok).toBe(false);
    const models = report.checks.find((c: { id: string }) => c.id === 'models');
    expect(models).toMatchObject({
      ok: false,
      message: expect.stringContaining('test-high'),
      fix: expect.stringMatching(/config update local/),
    });
    expect(report.checks.find((c: { id: string }) => c.id === 'json')).toMatchObject({ skipped: true });
    const chats = server.requests.filter((q) => q.path.includes('chat'));
    expect(chats.map((q) => [q.body.model, q.body.max_tokens])).toEqual([['test-high', 1]]);
  });

  test('no /models, both models answer → the high one by its probe, the low one by the round trip', async () => {
    await run(createArgs());
    server.models = null;
    server.enqueue({ content: 'p' }, { json: { ok: true } });
    const report = JSON.parse((await run(['doctor', '--json'])).stdout);
    expect(report.ok).toBe(true);
    expect(report.checks.find((c: { id: string }) => c.id === 'models').message).toMatch(
      /high model \(test-high\) answered a one-token request/,
    );
    // (then the transport probe a passing doctor runs on a saved profile)
    expect(
      server.requests
        .filter((q) => q.path.includes('chat'))
        .map((q) => q.body.model)
        .slice(0, 2),
    ).toEqual(['test-high', 'test-low']);
  });

  test('model answers prose → json check fails with a fix', async () => {
    await run(createArgs());
    server.enqueue({ content: 'I am a helpful assistant.' });
    const report = JSON.parse((await run(['doctor', '--json'])).stdout);
    expect(report.checks.at(-1)).toMatchObject({ id: 'json', ok: false, fix: expect.any(String) });
  });

  test('env key not set → says which variable', async () => {
    await run(['config', 'create', 'ds', '--preset', 'deepseek', '--base-url', server.baseURL]);
    const env = { ...home.env };
    delete env.DEEPSEEK_API_KEY;
    const report = JSON.parse((await run(['doctor', '--json'], env)).stdout);
    expect(report.checks[1]).toMatchObject({ id: 'api_key', ok: false, fix: 'export DEEPSEEK_API_KEY=<your key>' });
  });
});

test('requiring lib/index.js loads neither the openai SDK nor zod (plugin-ai start-up)', async () => {
  const r = await node(`
    require(${JSON.stringify(LIB)});
    const loaded = Object.keys(require.cache).filter((k) => /node_modules[\\\\/](openai|zod|jsonrepair|proper-lockfile|write-file-atomic|prompts)[\\\\/]/.test(k));
    console.log(JSON.stringify(loaded));
  `);
  expect(JSON.parse(r.stdout)).toEqual([]);
});
