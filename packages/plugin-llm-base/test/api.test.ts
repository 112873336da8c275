import { existsSync, promises as fs, statSync } from 'fs';
import * as path from 'path';
import { closedPort, createTempHome, llmProfile, startScriptedServer, ScriptedServer, TempHome } from '@holic512/testkit';
import * as api from '../src/index';

const KEY = 'sk-secret-abcdef1234567890';
let home: TempHome;
let server: ScriptedServer;

const profile = (extra: Record<string, unknown> = {}) => llmProfile(server.baseURL, { api_key: KEY, ...extra });

const configFile = () => path.join(home.slothtoolHome, 'plugin-configs', 'llm-base.json');
const logFile = () => path.join(home.slothtoolHome, 'plugin-configs', 'llm-base.logs.json');
const callsFile = () => path.join(home.slothtoolHome, 'plugin-configs', 'llm-base.calls.jsonl');
const user = [{ role: 'user', content: 'SECRET-USER-TEXT please answer' }];
/** One turn of the event loop: queued call-log lines are written by then. */
const idle = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(async () => {
  home = await createTempHome({ language: 'en' });
  process.env.SLOTHTOOL_HOME = home.slothtoolHome;
  server = await startScriptedServer();
  expect(api.create_profile('test', profile())).toMatchObject({ success: true });
});
afterEach(async () => {
  await server.close();
  await home.cleanup();
});

describe('llm_chat', () => {
  test('success shape, usage, strict-JSON system prompt, low/high model', async () => {
    server.enqueue({ json: { type: 'chat', message: 'hi' }, usage: { prompt_tokens: 11, completion_tokens: 7 } });
    const r = await api.llm_chat(user, 'low', 'test');
    expect(r).toEqual({
      success: true,
      model: 'test-low',
      data: { type: 'chat', message: 'hi' },
      usage: { input_tokens: 11, output_tokens: 7 },
      call_id: expect.any(String),
    });
    expect(Object.keys(r)).toEqual(['success', 'model', 'data', 'usage', 'call_id']);
    const req = server.requests[0];
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body.model).toBe('test-low');
    expect(req.body.messages[0].role).toBe('system');
    expect(req.body.messages[0].content).toMatch(/strict JSON mode/);
    expect(req.body.messages[1]).toEqual(user[0]);
    expect(req.body.response_format).toBeUndefined();
    expect(req.body.stream).toBeUndefined();

    server.enqueue({ json: { ok: true } });
    const high = await api.llm_chat(user, 'high');
    expect(high).toMatchObject({ success: true, model: 'test-high' });
    expect(server.requests[1].body.model).toBe('test-high');
  });

  test('non-JSON output falls back to the DESIGN shape; usage missing counts as 0', async () => {
    server.enqueue({ content: '  Just prose.  ', usage: null });
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({
      success: true,
      data: { result: 'Just prose.', _fallback: true, _reason: 'model_output_was_not_valid_json' },
      usage: { input_tokens: 0, output_tokens: 0 },
    });
  });

  test('model output with a think block and a fence is recovered', async () => {
    server.enqueue({ content: '<think>hmm {x}</think>\n```json\n{"type":"chat","message":"ok",}\n```' });
    const r = await api.llm_chat(user);
    expect(r.success && r.data).toEqual({ type: 'chat', message: 'ok' });
  });

  test('invalid mode is a PROVIDER_ERROR with call_id null and no request', async () => {
    const r = await api.llm_chat(user, 'medium' as 'low');
    expect(r).toEqual({ success: false, error: { code: 'PROVIDER_ERROR', message: expect.stringMatching(/medium/) }, call_id: null });
    expect(server.requests).toHaveLength(0);
  });

  test('per-call temperature and max_tokens are sent', async () => {
    server.enqueue({ json: {} });
    await api.llm_chat(user, 'low', null, { temperature: 0.1, max_tokens: 64 });
    expect(server.requests[0].body).toMatchObject({ temperature: 0.1, max_tokens: 64 });
  });

  test.each([
    [401, 'AUTH_ERROR'],
    [403, 'AUTH_ERROR'],
    [429, 'RATE_LIMIT'],
    [500, 'PROVIDER_ERROR'],
    [404, 'PROVIDER_ERROR'],
    [400, 'PROVIDER_ERROR'],
  ])('HTTP %i maps to %s', async (status, code) => {
    server.enqueue({ status });
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({ success: false, error: { code, status }, call_id: expect.any(String) });
  });

  test('error messages never contain the key or an Authorization header', async () => {
    server.enqueue({
      status: 401,
      body: {
        error: { message: `Incorrect API key provided: ${KEY}. Header was Authorization: Bearer ${KEY}`, type: 'invalid_request_error' },
      },
    });
    const r = await api.llm_chat(user);
    expect(r.success).toBe(false);
    const text = JSON.stringify(r);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('abcdef1234567890');
    expect(r.success === false && r.error.message).toMatch(/API key rejected/);
  });

  test('connection refused is a NETWORK_ERROR', async () => {
    api.update_profile('test', { base_url: `http://127.0.0.1:${await closedPort()}/v1` });
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR', message: expect.stringMatching(/ECONNREFUSED/) } });
  });

  // The "timed out" wording is checked in cli.test.ts: inside jest's sandbox the SDK cannot
  // recognise undici's AbortError (another realm), so only the code is checked here.
  test('a timeout is a NETWORK_ERROR', async () => {
    api.update_profile('test', { timeout: 50 });
    server.enqueue({ delayMs: 30_000, json: {} });
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR' } });
  });

  test('no profile / unknown profile is NO_PROFILE', async () => {
    const r = await api.llm_chat(user, 'low', 'nope');
    expect(r).toMatchObject({ success: false, error: { code: 'NO_PROFILE', message: expect.stringMatching(/nope/) } });
    api.delete_profile('test');
    const r2 = await api.llm_chat(user);
    expect(r2).toMatchObject({ success: false, error: { code: 'NO_PROFILE' } });
  });

  test('SDK retries honour Retry-After (429 then success)', async () => {
    api.update_profile('test', { max_retries: 2 });
    server.enqueue({ status: 429, retryAfter: 0.01 }, { status: 503, retryAfter: 0.01 }, { json: { ok: 1 } });
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({ success: true, data: { ok: 1 } });
    expect(server.requests).toHaveLength(3);
  });

  test('a dropped connection is retried by the SDK', async () => {
    api.update_profile('test', { max_retries: 1 });
    server.enqueue({ drop: true }, { json: { ok: 'again' } });
    expect(await api.llm_chat(user)).toMatchObject({ success: true, data: { ok: 'again' } });
    expect(server.requests).toHaveLength(2);
  });

  test('rate limit that persists is RATE_LIMIT after the retries', async () => {
    api.update_profile('test', { max_retries: 1 });
    server.enqueue({ status: 429, retryAfter: 0.01 }, { status: 429, retryAfter: 0.01 });
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({ success: false, error: { code: 'RATE_LIMIT' } });
    expect(server.requests).toHaveLength(2);
  });

  test('abort while waiting for the answer', async () => {
    server.enqueue({ delayMs: 60_000, json: {} });
    const ac = new AbortController();
    const p = api.llm_chat(user, 'low', null, { signal: ac.signal });
    await server.waitForRequests(1);
    ac.abort();
    expect(await p).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR', message: 'Request aborted' } });
  });

  test('an already aborted signal sends nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await api.llm_chat(user, 'low', null, { signal: ac.signal });
    expect(r).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR' } });
    expect(server.requests).toHaveLength(0);
  });

  test('streaming with onText: deltas arrive in order, data and usage as without streaming', async () => {
    const content = '{"type":"chat","message":"你好，streaming"}';
    server.enqueue({ content, usage: { prompt_tokens: 9, completion_tokens: 5 } });
    const deltas: string[] = [];
    const r = await api.llm_chat(user, 'low', null, { onText: (d) => deltas.push(d) });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(content);
    expect(r).toMatchObject({
      success: true,
      data: { type: 'chat', message: '你好，streaming' },
      usage: { input_tokens: 9, output_tokens: 5 },
    });
    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  test('abort in the middle of a stream', async () => {
    server.enqueue({ content: '{"a":1,"b":2}', chunks: ['{"a":', '1,', '"b":2}'], hangAfterChunks: 1 });
    const ac = new AbortController();
    const deltas: string[] = [];
    const r = await api.llm_chat(user, 'low', null, {
      signal: ac.signal,
      onText: (d) => {
        deltas.push(d);
        ac.abort();
      },
    });
    expect(deltas).toEqual(['{"a":']);
    expect(r).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR', message: 'Request aborted' } });
  });

  test('a stream cut off mid-way is a NETWORK_ERROR', async () => {
    server.enqueue({ content: '{"a":1,"b":2}', chunks: ['{"a":', '1,', '"b":2}'], cutAfterChunks: 2 });
    const deltas: string[] = [];
    const r = await api.llm_chat(user, 'low', null, { onText: (d) => deltas.push(d) });
    expect(deltas).toEqual(['{"a":', '1,']);
    expect(r).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR' } });
  });
});

describe('response_format', () => {
  test('on: sent with the system prompt', async () => {
    api.update_profile('test', { json_mode: 'response_format' });
    server.enqueue({ json: { ok: true } });
    expect(await api.llm_chat(user)).toMatchObject({ success: true, data: { ok: true } });
    expect(server.requests[0].body.response_format).toEqual({ type: 'json_object' });
    expect(server.requests[0].body.messages[0].role).toBe('system');
  });

  test('off (json_mode prompt): not sent', async () => {
    api.update_profile('test', { json_mode: 'prompt' });
    server.enqueue({ json: { ok: true } });
    await api.llm_chat(user);
    expect(server.requests[0].body.response_format).toBeUndefined();
  });

  test('rejected: retried once without it, and remembered for the profile', async () => {
    api.update_profile('test', { json_mode: 'response_format' });
    server.enqueue(
      { status: 400, body: { error: { message: "'response_format.type' must be 'json_schema'", type: 'invalid_request_error' } } },
      { json: { ok: 1 } },
      { json: { ok: 2 } },
    );
    expect(await api.llm_chat(user)).toMatchObject({ success: true, data: { ok: 1 } });
    expect(server.requests.map((r) => r.body.response_format)).toEqual([{ type: 'json_object' }, undefined]);
    const saved = JSON.parse(await fs.readFile(configFile(), 'utf8'));
    expect(saved.profiles.test.json_mode).toBe('prompt');
    expect(await api.llm_chat(user)).toMatchObject({ success: true, data: { ok: 2 } });
    expect(server.requests[2].body.response_format).toBeUndefined();
  });

  test('rejected and the retry fails too: error returned, nothing remembered', async () => {
    api.update_profile('test', { json_mode: 'response_format' });
    server.enqueue({ status: 400 }, { status: 400, body: { error: { message: 'bad messages' } } });
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({ success: false, error: { code: 'PROVIDER_ERROR', message: expect.stringMatching(/bad messages/) } });
    expect(server.requests).toHaveLength(2);
    const saved = JSON.parse(await fs.readFile(configFile(), 'utf8'));
    expect(saved.profiles.test.json_mode).toBe('response_format');
  });
});

describe('llm_raw', () => {
  test('passes the payload through unchanged and returns the provider response', async () => {
    server.enqueue({ content: 'plain text is fine here', usage: { prompt_tokens: 3, completion_tokens: 4 } });
    const payload = { model: 'custom-model', messages: [{ role: 'user', content: 'x' }], temperature: 0, seed: 7, extra_field: { a: 1 } };
    const r = await api.llm_raw(payload, 'test');
    expect(server.requests[0].body).toEqual(payload);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r).toMatchObject({ success: true, model: 'custom-model', usage: { input_tokens: 3, output_tokens: 4 } });
    expect(r.success && (r.data as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe(
      'plain text is fine here',
    );
  });

  test('errors are mapped and masked', async () => {
    server.enqueue({ status: 401, body: { error: { message: `bad key ${KEY}` } } });
    const r = await api.llm_raw({ model: 'm', messages: [] });
    expect(r).toMatchObject({ success: false, error: { code: 'AUTH_ERROR' } });
    expect(JSON.stringify(r)).not.toContain(KEY);
  });

  test('a streamed raw request returns its chunks', async () => {
    server.enqueue({ content: 'abcd', chunks: ['ab', 'cd'] });
    const r = await api.llm_raw({ model: 'm', messages: [], stream: true });
    expect(r.success).toBe(true);
    const chunks = (r.success && (r.data as { chunks: Array<{ choices: Array<{ delta: { content?: string } }> }> }).chunks) || [];
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('abcd');
  });
});

describe('profiles', () => {
  test('create returns the whole config; first profile becomes default; file is 0600', async () => {
    const cfg = JSON.parse(await fs.readFile(configFile(), 'utf8'));
    expect(cfg.default_profile).toBe('test');
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    const r = api.create_profile('second', { base_url: 'http://127.0.0.1:1234/v1' });
    expect(r).toMatchObject({
      success: true,
      data: {
        default_profile: 'test',
        profiles: {
          second: { base_url: 'http://127.0.0.1:1234/v1', api_key: '', low_model: 'gpt-4o-mini', high_model: 'gpt-4o', timeout: 60000 },
        },
      },
    });
    expect(api.set_default_profile('second')).toMatchObject({ success: true, data: { default_profile: 'second' } });
    expect(api.list_profiles()).toMatchObject({ success: true, data: { default_profile: 'second', profiles: { test: {}, second: {} } } });
    expect(api.delete_profile('second')).toMatchObject({ success: true, data: { default_profile: '' } });
    expect(api.delete_profile('second')).toMatchObject({ success: false, error: { code: 'NO_PROFILE' } });
    expect(api.update_profile('zzz', {})).toMatchObject({ success: false, error: { code: 'NO_PROFILE' } });
    expect(api.set_default_profile('zzz')).toMatchObject({ success: false, error: { code: 'NO_PROFILE' } });
  });

  test('inherited property names are not profiles', async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      expect(await api.llm_chat(user, 'low', name)).toMatchObject({ success: false, error: { code: 'NO_PROFILE' } });
      expect(api.set_default_profile(name)).toMatchObject({ success: false, error: { code: 'NO_PROFILE' } });
    }
    expect(api.create_profile('__proto__', profile())).toMatchObject({ success: false });
    expect(server.requests).toHaveLength(0);
  });

  test('invalid profile fields are refused, naming the field', () => {
    const r = api.create_profile('bad', { base_url: 'not a url', timeout: -5 as number });
    expect(r.success).toBe(false);
    expect(!r.success && r.error.message).toMatch(/base_url/);
    expect(!r.success && r.error.message).toMatch(/timeout/);
  });

  test('api_key as an env reference is resolved at call time', async () => {
    process.env.LLM_BASE_TEST_KEY = 'sk-from-env-000011112222';
    try {
      api.update_profile('test', { api_key: 'env:LLM_BASE_TEST_KEY' });
      server.enqueue({ json: {} });
      expect(await api.llm_chat(user)).toMatchObject({ success: true });
      expect(server.requests[0].headers.authorization).toBe('Bearer sk-from-env-000011112222');
      const file = await fs.readFile(configFile(), 'utf8');
      expect(file).toContain('env:LLM_BASE_TEST_KEY');
      expect(file).not.toContain('sk-from-env');
    } finally {
      delete process.env.LLM_BASE_TEST_KEY;
    }
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({ success: false, error: { code: 'AUTH_ERROR', message: expect.stringMatching(/LLM_BASE_TEST_KEY/) } });
    expect(server.requests).toHaveLength(1);
  });

  test('a keyless profile works against a local server', async () => {
    api.update_profile('test', { api_key: '' });
    server.enqueue({ json: { ok: true } });
    expect(await api.llm_chat(user)).toMatchObject({ success: true });
  });
});

describe('corrupt config file', () => {
  test.each([
    ['not JSON', '{"default_profile": "x", '],
    ['wrong field type', JSON.stringify({ default_profile: 'x', profiles: { x: { base_url: 5, low_model: 'a', high_model: 'b' } } })],
    ['missing profiles', JSON.stringify({ default_profile: 'x' })],
  ])('%s: every call reports the file and field, the file is left alone', async (_name, text) => {
    await fs.writeFile(configFile(), text);
    const r = await api.llm_chat(user);
    expect(r).toMatchObject({ success: false, error: { code: 'NO_PROFILE' } });
    expect(!r.success && r.error.message).toContain(configFile());
    expect(api.list_profiles()).toMatchObject({ success: false });
    expect(api.create_profile('new', profile())).toMatchObject({ success: false });
    expect(await fs.readFile(configFile(), 'utf8')).toBe(text);
    expect(server.requests).toHaveLength(0);
  });

  test('the field is named', async () => {
    await fs.writeFile(
      configFile(),
      JSON.stringify({ default_profile: 'x', profiles: { x: { base_url: 5, low_model: 'a', high_model: 'b' } } }),
    );
    const r = api.list_profiles();
    expect(!r.success && r.error.message).toMatch(/profiles\.x\.base_url/);
  });
});

describe('call log', () => {
  test('metadata only, newest first, original entry shape', async () => {
    server.enqueue(
      { json: { a: 1 }, usage: { prompt_tokens: 2, completion_tokens: 3 } },
      { status: 401, body: { error: { message: KEY } } },
    );
    const ok = await api.llm_chat(user);
    const bad = await api.llm_chat(user);
    const calls = api.list_calls();
    expect(calls.success).toBe(true);
    const list = calls.success ? calls.data : [];
    expect(list.map((c) => c.call_id)).toEqual([bad.call_id, ok.call_id]);
    expect(list[1]).toMatchObject({
      call_id: ok.call_id,
      timestamp: expect.any(String),
      profile: 'test',
      model: 'test-low',
      duration_ms: expect.any(Number),
      success: true,
      usage: { input_tokens: 2, output_tokens: 3 },
    });
    expect(list[0]).toMatchObject({ success: false, model: null, usage: null, error_code: 'AUTH_ERROR' });
    expect(api.get_call(ok.call_id!)).toEqual({ success: true, data: list[1] });
    expect(api.get_call('missing')).toEqual({ success: true, data: null });
    const text = await fs.readFile(callsFile(), 'utf8');
    expect(text).not.toContain('SECRET-USER-TEXT');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('strict JSON');
  });

  test('concurrent calls in one process lose no entry', async () => {
    server.setHandler(() => ({ json: { ok: true } }));
    const results = await Promise.all(Array.from({ length: 25 }, () => api.llm_chat(user)));
    expect(results.every((r) => r.success)).toBe(true);
    const calls = api.list_calls();
    const ids = calls.success ? calls.data.map((c) => c.call_id).sort() : [];
    expect(ids).toEqual(results.map((r) => r.call_id).sort());
  });

  test('keeps at most 500 entries, newest first', async () => {
    const old = Array.from({ length: 500 }, (_, i) => ({
      call_id: `old-${i}`,
      timestamp: 't',
      profile: 'p',
      model: 'm',
      duration_ms: 1,
      success: true,
      usage: null,
    }));
    await fs.writeFile(logFile(), JSON.stringify({ calls: old }));
    server.enqueue({ json: {} });
    const r = await api.llm_chat(user);
    const calls = api.list_calls();
    const list = calls.success ? calls.data : [];
    expect(list).toHaveLength(500);
    expect(list[0].call_id).toBe(r.call_id);
    expect(list[499].call_id).toBe('old-498');
  });

  test('a corrupt log is set aside (kept) and a new one started', async () => {
    await fs.writeFile(logFile(), '{"calls": [oops');
    expect(api.list_calls()).toMatchObject({ success: false, error: { message: expect.stringContaining(logFile()) } });
    server.enqueue({ json: {} });
    const r = await api.llm_chat(user);
    expect(r.success).toBe(true);
    const calls = api.list_calls();
    expect(calls.success && calls.data.map((c) => c.call_id)).toEqual([r.call_id]);
    const names = await fs.readdir(path.dirname(logFile()));
    expect(names.some((n) => n.startsWith('llm-base.logs.json.corrupt-'))).toBe(true);
  });
});

describe('module extras', () => {
  test('FEATURES and list_presets', () => {
    expect(api.FEATURES).toEqual({
      chat_options: true,
      streaming: true,
      abort: true,
      response_format: true,
      doctor_profile: true,
      wait_events: true,
      pull: true,
      ollama: true,
      tools: true,
      images: true,
    });
    const presets = api.list_presets();
    expect(presets.map((p) => p.name)).toEqual(['openai', 'deepseek', 'qwen', 'glm', 'kimi', 'ollama', 'lmstudio', 'vllm', 'llamacpp']);
    expect(presets.filter((p) => p.json_mode).map((p) => p.name)).toEqual([
      'openai',
      'deepseek',
      'qwen',
      'glm',
      'kimi',
      'ollama',
      'vllm',
      'llamacpp',
    ]);
    for (const p of presets) {
      expect(Object.keys(p).sort()).toEqual([
        'base_url',
        'high_model',
        ...(p.json_mode ? ['json_mode'] : []),
        'low_model',
        'name',
        'needs_key',
        ...(p.pricing ? ['pricing'] : []),
        ...(p.provider ? ['provider'] : []),
      ]);
      expect(() => new URL(p.base_url)).not.toThrow();
    }
  });
});

describe('doctor on an unsaved profile (options.profile)', () => {
  test('diagnoses the given profile and writes nothing', async () => {
    const before = await fs.readFile(configFile(), 'utf8');
    server.enqueue({ json: { ok: true } });
    const report = await api.doctor('fresh', { profile: profile({ low_model: 'test-high', json_mode: 'response_format' }) });
    expect(report).toMatchObject({ ok: true, profile: 'fresh' });
    expect(report.checks.map((c) => [c.id, c.ok])).toEqual([
      ['profile', true],
      ['api_key', true],
      ['reachable', true],
      ['auth', true],
      ['models', true],
      ['json', true],
    ]);
    expect(server.requests.at(-1)?.body.model).toBe('test-high');
    expect(report.checks[0].message).toBe('profile is valid (not saved yet)');
    expect(await fs.readFile(configFile(), 'utf8')).toBe(before);
  });

  test('a failing unsaved profile: the verdict names the check; the saved config stays as it was', async () => {
    const before = await fs.readFile(configFile(), 'utf8');
    server.models = ['other-model'];
    const report = await api.doctor('fresh', { profile: profile() });
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => !c.ok && !c.skipped)).toMatchObject({ id: 'models', message: expect.stringContaining('test-low') });
    // a 400 to response_format would normally be remembered in the file: not for an unsaved profile
    server.models = ['test-low', 'test-high'];
    server.enqueue({ status: 400 }, { json: { ok: true } });
    const retried = await api.doctor('fresh', { profile: profile({ json_mode: 'response_format' }) });
    expect(retried.ok).toBe(true);
    expect(await fs.readFile(configFile(), 'utf8')).toBe(before);
  });

  test('the round trip of an unsaved profile is one attempt (a setup waits on it)', async () => {
    server.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
    const report = await api.doctor('fresh', { profile: profile({ max_retries: undefined }) });
    expect(report.checks.find((c) => c.id === 'json')).toMatchObject({ ok: false });
    expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
  });

  test('an invalid unsaved profile fails the profile check without a create hint', async () => {
    const report = await api.doctor('fresh', { profile: { base_url: 'not a url' } });
    expect(report.ok).toBe(false);
    expect(report.checks[0]).toMatchObject({ id: 'profile', ok: false });
    expect(report.checks[0].fix).toBeUndefined();
  });
});

test('a broken config file that holds a key does not echo the key in the error', async () => {
  await fs.writeFile(configFile(), `{"default_profile": "a", "profiles": {"a": {"api_key": "${KEY}", "base_url": }}}`);
  const r = await api.llm_chat(user);
  expect(r).toMatchObject({ success: false, error: { code: 'NO_PROFILE' } });
  expect(JSON.stringify(r)).not.toContain(KEY);
  expect(JSON.stringify(api.list_profiles())).not.toContain(KEY);
});

describe('the call log is JSON lines', () => {
  test('the 1.0.x log is moved in once (its entries first), a torn line is skipped, and old entries survive', async () => {
    await fs.writeFile(
      logFile(),
      JSON.stringify({
        calls: [
          { call_id: 'old-2', timestamp: 't', profile: 'p', model: 'm', duration_ms: 1, success: true, usage: null },
          { call_id: 'old-1', timestamp: 't', profile: 'p', model: 'm', duration_ms: 1, success: true, usage: null },
        ],
      }),
    );
    server.enqueue({ json: {} });
    const r = await api.llm_chat(user);
    await fs.appendFile(callsFile(), '{"call_id": "torn\n');
    const calls = api.list_calls();
    expect(calls.success && calls.data.map((c) => c.call_id)).toEqual([r.call_id, 'old-2', 'old-1']);
    const names = await fs.readdir(path.dirname(logFile()));
    expect(names).toContain('llm-base.logs.json.migrated');
    expect(names).not.toContain('llm-base.logs.json');
    expect((await fs.stat(callsFile())).mode & 0o777).toBe(0o600);
  });

  test('an entry is appended, not the whole log rewritten', async () => {
    server.setHandler(() => ({ json: { ok: true } }));
    await api.llm_chat(user);
    await idle();
    const first = await fs.readFile(callsFile(), 'utf8');
    await api.llm_chat(user);
    await idle();
    const second = await fs.readFile(callsFile(), 'utf8');
    expect(second.startsWith(first)).toBe(true);
    expect(second.trim().split('\n')).toHaveLength(2);
  });

  test('the line is written after the caller has its answer: once the event loop is idle, or when the log is read', async () => {
    server.setHandler(() => ({ json: { ok: true } }));
    const r = await api.llm_chat(user);
    // Not yet on disk (the call's critical path ends with its answer; looked at before the
    // event loop turns) …
    expect(existsSync(callsFile())).toBe(false);
    // … but reading the log in this process writes what is queued first.
    const calls = api.list_calls();
    expect(calls.success && calls.data.map((c) => c.call_id)).toEqual([r.call_id]);
    const r2 = await api.llm_chat(user);
    await idle();
    expect(
      (await fs.readFile(callsFile(), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).call_id),
    ).toEqual([r.call_id, r2.call_id]);
  });

  test('a process that exits right after a call still logs it', async () => {
    server.setHandler(() => ({ json: { ok: true } }));
    const code = `require(${JSON.stringify(path.join(__dirname, '..', 'lib', 'index.js'))}).llm_chat([{ role: 'user', content: 'hi' }]).then((r) => { process.stdout.write(r.call_id); process.exit(0); });`;
    // Not execFileSync: the scripted server answers from this process.
    const { execFile } = await import('child_process');
    const callId = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', code], { env: home.env, encoding: 'utf8' }, (err, out) => (err ? reject(err) : resolve(out))),
    );
    expect(callId).not.toBe('');
    const lines = (await fs.readFile(callsFile(), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toMatchObject([{ call_id: callId, success: true }]);
  });

  test('a log that cannot be written costs nothing but its line', async () => {
    server.setHandler(() => ({ json: { ok: true } }));
    // The log's name is taken by a folder: every append fails.
    await fs.mkdir(callsFile(), { recursive: true });
    const r = await api.llm_chat(user);
    expect(r.success).toBe(true);
    await idle();
    const r2 = await api.llm_chat(user);
    expect(r2.success).toBe(true);
  });
});
