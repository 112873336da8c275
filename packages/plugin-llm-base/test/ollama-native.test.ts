import * as path from 'path';
import { closedPort, createTempHome, llmProfile, startScriptedOllama, type ScriptedOllama, type TempHome } from '@holic512/testkit';
import * as api from '../src/index';

// An Ollama profile: llm_chat talks to the native /api/chat with num_ctx (never below the caller's
// budget, capped by the model) and keep_alive on every request; high falls back to low when the
// high model cannot be loaded; doctor and ollama_health name the model's state; warm_up loads it.
let home: TempHome;
let ollama: ScriptedOllama;
const user = [{ role: 'user', content: 'hello' }];
const chatBodies = () => ollama.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as Record<string, any>);

const profile = (extra: Record<string, unknown> = {}) =>
  llmProfile(`${ollama.baseURL}/v1`, {
    low_model: 'qwen2.5:7b',
    high_model: 'qwen2.5:14b',
    provider: 'ollama',
    json_mode: 'response_format',
    ...extra,
  });

beforeEach(async () => {
  home = await createTempHome({ language: 'en' });
  process.env.SLOTHTOOL_HOME = home.slothtoolHome;
  ollama = await startScriptedOllama({
    models: [
      { name: 'qwen2.5:7b', contextLength: 32768 },
      { name: 'qwen2.5:14b', contextLength: 32768 },
      { name: 'tiny:1b', contextLength: 4096 },
    ],
  });
  expect(api.create_profile('local', profile() as never)).toMatchObject({ success: true });
});
afterEach(async () => {
  await ollama.close();
  await home.cleanup();
});

test('every request carries num_ctx ≥ the caller budget, keep_alive and JSON format; usage from eval counts', async () => {
  ollama.enqueue({ json: { type: 'chat', message: 'hi' }, delayMs: 0 }, { content: '{"a":1}', promptEvalCount: 120, evalCount: 9 });
  const r = await api.llm_chat(user, 'low', 'local', { min_context: 20000 });
  expect(r).toMatchObject({ success: true, model: 'qwen2.5:7b', data: { type: 'chat', message: 'hi' } });
  const streamed: string[] = [];
  const s = await api.llm_chat(user, 'low', 'local', { min_context: 20000, onText: (d) => streamed.push(d) });
  expect(s).toMatchObject({ success: true, data: { a: 1 }, usage: { input_tokens: 120, output_tokens: 9 } });
  expect(streamed.join('')).toBe('{"a":1}');
  for (const body of chatBodies()) {
    expect(body.options.num_ctx).toBe(20480);
    expect(body.keep_alive).toBe('30m');
    expect(body.format).toBe('json');
    expect(body.messages[0]).toMatchObject({ role: 'system' });
  }
  expect(chatBodies()[1].stream).toBe(true);
  expect(ollama.requests.some((q) => q.path.startsWith('/v1/'))).toBe(false);
});

test('num_ctx: the profile value when larger, the default without a budget, capped by the model maximum', async () => {
  ollama.setHandler(() => ({ json: { ok: true } }));
  api.update_profile('local', { num_ctx: 24000, keep_alive: '2h' } as never);
  await api.llm_chat(user, 'low', 'local', { min_context: 9000 });
  expect(chatBodies()[0]).toMatchObject({ options: { num_ctx: 24576 }, keep_alive: '2h' });
  api.update_profile('local', { num_ctx: undefined, low_model: 'tiny:1b' } as never);
  await api.llm_chat(user, 'low', 'local');
  expect(chatBodies()[1].options.num_ctx).toBe(4096); // 8192 by default, but tiny:1b holds 4096
});

test('the high model cannot be loaded: the low one answers, and the result says so', async () => {
  ollama.models.delete('qwen2.5:14b');
  ollama.enqueue({ json: { type: 'chat', message: 'from low' } });
  const r = await api.llm_chat(user, 'high', 'local');
  expect(r).toMatchObject({
    success: true,
    model: 'qwen2.5:7b',
    fallback: { from: 'qwen2.5:14b', to: 'qwen2.5:7b', reason: 'not_pulled' },
  });
  ollama.setHandler((req) =>
    (req.body as { model?: string }).model === 'qwen2.5:14b'
      ? { status: 500, error: 'model requires more system memory (18 GiB) than is available (9 GiB)' }
      : { json: { ok: true } },
  );
  ollama.models.set('qwen2.5:14b', { name: 'qwen2.5:14b' });
  expect(await api.llm_chat(user, 'high', 'local')).toMatchObject({ success: true, fallback: { reason: 'cannot_load' } });
});

test('a missing low model is an error that says how to pull it', async () => {
  ollama.models.delete('qwen2.5:7b');
  const r = await api.llm_chat(user, 'low', 'local');
  expect(r).toMatchObject({ success: false, error: { code: 'PROVIDER_ERROR' } });
  expect(!r.success && r.error.message).toContain('slothtool llm-base pull qwen2.5:7b');
});

test('ollama_health: ready, cold, not pulled, not running; warm_up loads with the same num_ctx', async () => {
  expect(await api.ollama_health('local')).toMatchObject({ success: true, data: { state: 'cold', model: 'qwen2.5:7b' } });
  const w = await api.warm_up('local', 'low', { min_context: 20000 });
  expect(w).toEqual({ success: true, data: { model: 'qwen2.5:7b' } });
  expect(chatBodies()[0]).toMatchObject({ messages: [], options: { num_ctx: 20480 }, keep_alive: '30m' });
  expect(ollama.loaded.has('qwen2.5:7b')).toBe(true);
  expect(await api.ollama_health('local')).toMatchObject({ data: { state: 'ready', message: 'the model qwen2.5:7b is loaded' } });
  ollama.models.delete('qwen2.5:14b');
  expect(await api.ollama_health('local', 'high')).toMatchObject({ data: { state: 'not_pulled' } });
  await ollama.close();
  expect(await api.ollama_health('local')).toMatchObject({ data: { state: 'not_running' } });
  ollama = await startScriptedOllama(); // for afterEach
});

test('doctor shows the Ollama check and suggests pulling a missing model', async () => {
  ollama.models.delete('qwen2.5:14b');
  const report = await api.doctor('local');
  const check = report.checks.find((c) => c.id === 'ollama');
  expect(check).toMatchObject({ ok: false });
  expect(check?.message).toContain('the model qwen2.5:14b is not pulled');
  expect(check?.fix).toContain('slothtool llm-base pull qwen2.5:14b');
  expect(report.checks.find((c) => c.id === 'json')).toMatchObject({ skipped: true });
});

test('a profile on port 11434 counts as Ollama without saying so; another provider on that port does not', () => {
  const { isOllamaProfile } = require('../src/ollama-native') as typeof import('../src/ollama-native');
  expect(isOllamaProfile({ base_url: 'http://127.0.0.1:11434/v1' })).toBe(true);
  expect(isOllamaProfile({ base_url: 'http://127.0.0.1:11434/v1', provider: 'openai' })).toBe(false);
  expect(isOllamaProfile({ base_url: 'https://api.deepseek.com/v1' })).toBe(false);
  expect(path.basename('x')).toBe('x');
});

test('native tool calls and a JSON Schema on Ollama: tools sent, calls numbered, the schema as format', async () => {
  const TOOL = {
    type: 'function',
    function: { name: 'fs__read', description: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  };
  ollama.enqueue({
    content: 'Reading.',
    toolCalls: [
      { name: 'fs__read', arguments: { path: 'a.txt' } },
      { name: 'fs__read', arguments: { path: 'b.txt' } },
    ],
  });
  const r = await api.llm_chat(
    [
      { role: 'user', content: 'read' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'fs__read', arguments: '{"path":"x"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_0', content: 'x-content' },
    ] as never,
    'low',
    'local',
    { tools: [TOOL], onText: () => undefined },
  );
  expect(r).toMatchObject({
    success: true,
    text: 'Reading.',
    tool_calls: [
      { id: 'call_0', name: 'fs__read', arguments: '{"path":"a.txt"}' },
      { id: 'call_1', name: 'fs__read', arguments: '{"path":"b.txt"}' },
    ],
  });
  const sent = chatBodies()[0];
  expect(sent.tools).toEqual([TOOL]);
  expect(sent.format).toBeUndefined();
  expect(JSON.stringify(sent.messages)).not.toContain('strict JSON mode');
  // Ollama's own shape: arguments as an object, no ids.
  expect(sent.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'fs__read', arguments: { path: 'x' } } }] });
  expect(sent.messages[2]).toMatchObject({ role: 'tool', content: 'x-content' });

  const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
  ollama.enqueue({ json: { ok: true } });
  expect(await api.llm_chat(user, 'low', 'local', { json_schema: { name: 'r', schema } })).toMatchObject({
    success: true,
    data: { ok: true },
  });
  expect(chatBodies()[1].format).toEqual(schema);
});

test('a key on an Ollama profile goes as a bearer token; no key, no header', async () => {
  ollama.setHandler(() => ({ json: { ok: true } }));
  await api.llm_chat(user, 'low', 'local');
  expect(ollama.requests.find((q) => q.path === '/api/chat')?.headers.authorization).toBeUndefined();
  api.update_profile('local', { api_key: 'ollama-cloud-key-0123456789' } as never);
  await api.llm_chat(user, 'low', 'local');
  expect(ollama.requests.filter((q) => q.path === '/api/chat').at(-1)?.headers.authorization).toBe('Bearer ollama-cloud-key-0123456789');
  // health, warm-up and pull carry it too
  const from = ollama.requests.length;
  await api.ollama_health('local');
  await api.warm_up('local');
  await api.pull_model('qwen2.5:7b', 'local');
  const later = ollama.requests.slice(from);
  expect(later.map((q) => q.path)).toEqual(expect.arrayContaining(['/api/tags', '/api/ps', '/api/chat', '/api/pull']));
  expect(later.every((q) => q.headers.authorization === 'Bearer ollama-cloud-key-0123456789')).toBe(true);
});

test("images in content parts reach Ollama's native API as base64 `images` beside the text", async () => {
  ollama.enqueue({ json: { type: 'chat', message: 'a red square' } });
  const parts = [
    { type: 'text', text: 'what is this?' },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    { type: 'image_url', image_url: { url: 'https://example.com/x.png' } },
  ];
  const r = await api.llm_chat([{ role: 'user', content: parts }], 'low', 'local');
  expect(r).toMatchObject({ success: true });
  const last = chatBodies()[0].messages.at(-1);
  // A URL that is not a data: URL cannot be sent to Ollama (it takes bytes only): left out.
  expect(last).toEqual({ role: 'user', content: 'what is this?', images: ['AAAA'] });
});

describe('refused and cut connections are told apart on the native API, each with its fix (issue #36)', () => {
  test('no server at the address: refused, with the start command, the --base-url fix and doctor for this profile', async () => {
    const port = await closedPort();
    expect(api.create_profile('gone', profile({ base_url: `http://127.0.0.1:${port}/v1` }) as never)).toMatchObject({ success: true });
    const r = await api.llm_chat(user, 'low', 'gone');
    expect(r.success).toBe(false);
    expect(!r.success && r.error).toEqual({
      code: 'NETWORK_ERROR',
      message: `Cannot connect to http://127.0.0.1:${port}/v1 (ECONNREFUSED): nothing is listening there. Start it: ollama serve; or if the address is wrong, set it: slothtool llm-base config update gone --base-url <url>. Check with: slothtool llm-base doctor gone`,
    });
    await home.writeJson('settings.json', { language: 'zh' });
    const zh = await api.llm_chat(user, 'low', 'gone');
    expect(!zh.success && zh.error.message).toBe(
      `无法连接 http://127.0.0.1:${port}/v1（ECONNREFUSED）：那里没有服务在监听。请启动它：ollama serve；如果地址不对，改正它：slothtool llm-base config update gone --base-url <地址>。检查：slothtool llm-base doctor gone`,
    );
  });

  test('the server goes away in the middle of the reply: cut, not "cannot connect"', async () => {
    // A server that starts the streamed answer, then drops the connection.
    const http = await import('http');
    const server = http.createServer((req, res) => {
      req.resume();
      if (req.url !== '/api/chat') return void res.writeHead(404).end('{}');
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(JSON.stringify({ model: 'qwen2.5:7b', message: { role: 'assistant', content: '{"type": "ch' }, done: false }) + '\n', () =>
        res.socket?.destroy(),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as import('net').AddressInfo).port;
    try {
      expect(api.create_profile('dropping', profile({ base_url: `http://127.0.0.1:${port}/v1`, num_ctx: 8192 }) as never)).toMatchObject({
        success: true,
      });
      const r = await api.llm_chat(user, 'low', 'dropping');
      expect(r.success).toBe(false);
      expect(!r.success && r.error.code).toBe('NETWORK_ERROR');
      expect(!r.success && r.error.message).toMatch(
        new RegExp(
          `^The connection to http://127\\.0\\.0\\.1:${port}/v1 was cut in the middle of the reply \\(.+\\): the server may have stopped or restarted\\. Try again; check with: slothtool llm-base doctor dropping$`,
        ),
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

test.each([
  [undefined, undefined],
  ['', undefined],
  ['127.0.0.1:11500', 'http://127.0.0.1:11500/v1'],
  ['0.0.0.0', 'http://127.0.0.1:11434/v1'],
  ['0.0.0.0:8888', 'http://127.0.0.1:8888/v1'],
  ['http://gpu-box:11434', 'http://gpu-box:11434/v1'],
  ['https://ollama.example.com', 'https://ollama.example.com/v1'],
  ['[::1]:11435', 'http://[::1]:11435/v1'],
  ['ftp://x', undefined],
])('OLLAMA_HOST=%s: the Ollama preset at %s (as the ollama CLI reads it); other presets never move', async (value, expected) => {
  const { findPreset, ollamaHostBaseUrl, presetBaseUrl } = await import('../src/presets');
  const env = value === undefined ? {} : { OLLAMA_HOST: value };
  expect(ollamaHostBaseUrl(env)).toBe(expected);
  expect(presetBaseUrl(findPreset('ollama')!, env)).toBe(expected ?? 'http://127.0.0.1:11434/v1');
  expect(presetBaseUrl(findPreset('lmstudio')!, env)).toBe('http://127.0.0.1:1234/v1');
});
