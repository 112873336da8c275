import { startScriptedOllama, type ScriptedOllama } from '../src';

const HI = [{ role: 'user', content: 'hi' }];

let ollama: ScriptedOllama;
afterEach(async () => ollama?.close());

const post = async (path: string, body: unknown) => fetch(`${ollama.baseURL}${path}`, { method: 'POST', body: JSON.stringify(body) });
/** A JSON answer as the test reads it (fetch types it `unknown`). */
const json = (res: Response): Promise<any> => res.json();
const ndjson = async (res: Response): Promise<any[]> =>
  (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

test('health, version, tags and show (context length, capabilities); a missing model is 404', async () => {
  ollama = await startScriptedOllama({ models: [{ name: 'qwen2.5:7b', contextLength: 32768 }] });
  expect(await (await fetch(ollama.baseURL)).text()).toBe('Ollama is running');
  expect((await json(await fetch(`${ollama.baseURL}/api/version`))).version).toMatch(/^\d+\.\d+\.\d+$/);
  const tags = await json(await fetch(`${ollama.baseURL}/api/tags`));
  expect(tags.models.map((m: { name: string }) => m.name)).toEqual(['qwen2.5:7b']);
  const show = await json(await post('/api/show', { model: 'qwen2.5:7b' }));
  expect(show.model_info['qwen.context_length']).toBe(32768);
  expect(show.capabilities).toContain('tools');
  const missing = await post('/api/show', { model: 'nope:1b' });
  expect(missing.status).toBe(404);
  expect((await json(missing)).error).toContain('not found');
});

test('chat streams NDJSON, loads the model (ps), ends with counts; stream:false answers one object', async () => {
  ollama = await startScriptedOllama();
  ollama.enqueue({ content: 'hello there' }, { json: { type: 'chat', message: 'hi' } });
  expect((await json(await fetch(`${ollama.baseURL}/api/ps`))).models).toEqual([]);
  const lines = await ndjson(
    await post('/api/chat', {
      model: 'qwen2.5:7b',
      messages: [{ role: 'user', content: 'hi' }],
      options: { num_ctx: 16384 },
      keep_alive: '30m',
    }),
  );
  expect(
    lines
      .slice(0, -1)
      .map((l) => l.message.content)
      .join(''),
  ).toBe('hello there');
  expect(lines[lines.length - 1]).toMatchObject({
    done: true,
    done_reason: 'stop',
    eval_count: expect.any(Number),
    prompt_eval_count: expect.any(Number),
  });
  expect((await json(await fetch(`${ollama.baseURL}/api/ps`))).models.map((m: { name: string }) => m.name)).toEqual(['qwen2.5:7b']);
  const one = await json(await post('/api/chat', { model: 'qwen2.5:7b', messages: HI, stream: false }));
  expect(JSON.parse(one.message.content)).toEqual({ type: 'chat', message: 'hi' });
  expect(ollama.requests[1].body).toMatchObject({ options: { num_ctx: 16384 }, keep_alive: '30m' });
});

test('native tool calls arrive in message.tool_calls', async () => {
  ollama = await startScriptedOllama();
  ollama.enqueue({ content: '', toolCalls: [{ name: 'exec', arguments: { program: 'git', args: ['status'] } }] });
  const lines = await ndjson(await post('/api/chat', { model: 'qwen2.5:7b', messages: HI, tools: [] }));
  const calls = lines.flatMap((l) => l.message?.tool_calls ?? []);
  expect(calls).toEqual([{ function: { name: 'exec', arguments: { program: 'git', args: ['status'] } } }]);
});

test('pull streams progress and installs the model; an unknown model fails like Ollama', async () => {
  ollama = await startScriptedOllama({ models: [], library: [{ name: 'llama3.2:3b', size: 2_000_000_000 }], pullSteps: 2 });
  const chatMissing = await post('/api/chat', { model: 'llama3.2:3b', messages: HI });
  expect(chatMissing.status).toBe(404);
  const lines = await ndjson(await post('/api/pull', { model: 'llama3.2:3b' }));
  expect(lines[0]).toEqual({ status: 'pulling manifest' });
  expect(lines.filter((l) => l.total).map((l) => l.completed)).toEqual([1_000_000_000, 2_000_000_000]);
  expect(lines[lines.length - 1]).toEqual({ status: 'success' });
  expect([...ollama.models.keys()]).toEqual(['llama3.2:3b']);
  const bad = await post('/api/pull', { model: 'nope' });
  expect(bad.status).toBe(500);
  expect((await json(bad)).error).toContain('file does not exist');
});

test('an empty generate loads a model (warm-up); keep_alive 0 unloads it', async () => {
  ollama = await startScriptedOllama();
  expect(await json(await post('/api/generate', { model: 'qwen2.5:7b', prompt: '', keep_alive: '30m' }))).toMatchObject({
    done: true,
    done_reason: 'load',
  });
  expect([...ollama.loaded]).toEqual(['qwen2.5:7b']);
  await post('/api/generate', { model: 'qwen2.5:7b', keep_alive: 0 });
  expect([...ollama.loaded]).toEqual([]);
});

test("a hanging reply keeps the request open until the server closes; errors carry Ollama's shape", async () => {
  ollama = await startScriptedOllama();
  ollama.enqueue({ hang: true });
  let settled = false;
  const pending = post('/api/chat', { model: 'qwen2.5:7b', messages: HI })
    .then(
      () => 'answered',
      (e: Error) => `failed: ${e.message}`,
    )
    .finally(() => {
      settled = true;
    });
  await ollama.waitForRequests(1);
  await new Promise((resolve) => setImmediate(resolve));
  expect(settled).toBe(false);
  await ollama.close();
  expect(await pending).toMatch(/^failed: /);

  ollama = await startScriptedOllama();
  ollama.enqueue({ status: 500, error: 'llama runner process has terminated' });
  const res = await post('/api/chat', { model: 'qwen2.5:7b', messages: HI });
  expect(res.status).toBe(500);
  expect(await res.json()).toEqual({ error: 'llama runner process has terminated' });
});

test('a chat without messages only loads the model (keep_alive 0 unloads it), as Ollama does', async () => {
  ollama = await startScriptedOllama();
  const loaded = await json(await post('/api/chat', { model: 'qwen2.5:7b', messages: [], stream: false, keep_alive: '30m' }));
  expect(loaded).toMatchObject({ done: true, done_reason: 'load', message: { content: '' } });
  expect(ollama.loaded.has('qwen2.5:7b')).toBe(true);
  await post('/api/chat', { model: 'qwen2.5:7b', messages: [], stream: false, keep_alive: 0 });
  expect(ollama.loaded.has('qwen2.5:7b')).toBe(false);
});
