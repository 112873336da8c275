import OpenAI from 'openai';
import { startScriptedServer, ScriptedServer } from '../src/index';

let server: ScriptedServer;
let client: OpenAI;

beforeEach(async () => {
  server = await startScriptedServer();
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0, timeout: 10_000 });
});
afterEach(async () => {
  await server.close();
});

const msgs: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];

test('baseURL is on 127.0.0.1 with a random port', () => {
  expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
});

test('non-streaming completion with usage, recorded request', async () => {
  server.enqueue({ content: 'hello', usage: { prompt_tokens: 7, completion_tokens: 3 } });
  const r = await client.chat.completions.create({ model: 'm1', messages: msgs, temperature: 0.2 });
  expect(r.choices[0].message.content).toBe('hello');
  expect(r.model).toBe('m1');
  expect(r.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  expect(server.requests).toHaveLength(1);
  const req = server.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/v1/chat/completions');
  expect(req.headers.authorization).toBe('Bearer sk-test');
  expect(req.body).toMatchObject({ model: 'm1', temperature: 0.2, messages: msgs });
});

test('{json} replies are serialised; usage: null omits usage', async () => {
  server.enqueue({ json: { type: 'chat', n: 1 }, usage: null });
  const r = await client.chat.completions.create({ model: 'm', messages: msgs });
  expect(JSON.parse(r.choices[0].message.content!)).toEqual({ type: 'chat', n: 1 });
  expect(r.usage).toBeUndefined();
});

test('streaming delivers deltas, a usage chunk when asked, then [DONE]', async () => {
  server.enqueue({ content: '你好, streaming world', usage: { prompt_tokens: 5, completion_tokens: 4 } });
  const stream = await client.chat.completions.create({
    model: 'm',
    messages: msgs,
    stream: true,
    stream_options: { include_usage: true },
  });
  const deltas: string[] = [];
  let usage: OpenAI.CompletionUsage | undefined | null;
  let finish: string | null = null;
  for await (const chunk of stream) {
    const d = chunk.choices[0]?.delta?.content;
    if (d) deltas.push(d);
    if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  expect(deltas.join('')).toBe('你好, streaming world');
  expect(deltas.length).toBeGreaterThan(1);
  expect(finish).toBe('stop');
  expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 4 });
});

test('streaming without include_usage sends no usage chunk; explicit chunks are kept', async () => {
  server.enqueue({ content: 'abc', chunks: ['a', 'bc'] });
  const stream = await client.chat.completions.create({ model: 'm', messages: msgs, stream: true });
  const deltas: string[] = [];
  let sawUsage = false;
  for await (const chunk of stream) {
    if (chunk.usage) sawUsage = true;
    const d = chunk.choices[0]?.delta?.content;
    if (d) deltas.push(d);
  }
  expect(deltas).toEqual(['a', 'bc']);
  expect(sawUsage).toBe(false);
});

test.each([
  [401, OpenAI.AuthenticationError],
  [404, OpenAI.NotFoundError],
  [429, OpenAI.RateLimitError],
  [500, OpenAI.InternalServerError],
  [400, OpenAI.BadRequestError],
])('status %i maps to the SDK error class', async (status, cls) => {
  server.enqueue({ status });
  const err = await client.chat.completions.create({ model: 'm', messages: msgs }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(cls);
  expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
  expect((err as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ type: expect.any(String) });
});

test('custom error body and Retry-After header; the SDK retries after it', async () => {
  server.enqueue(
    { status: 429, retryAfter: 0.01, body: { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit' } } },
    { content: 'ok' },
  );
  const retrying = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 1 });
  const raw = await retrying.chat.completions.create({ model: 'm', messages: msgs }).withResponse();
  expect(raw.data.choices[0].message.content).toBe('ok');
  expect(server.requests).toHaveLength(2);

  server.enqueue({ status: 429, retryAfter: 3, body: { error: { message: 'slow down', type: 'rate_limit_error' } } });
  const err = (await client.chat.completions.create({ model: 'm', messages: msgs }).catch((e: unknown) => e)) as InstanceType<
    typeof OpenAI.APIError
  >;
  expect(err.message).toContain('slow down');
  expect(err.headers?.get('retry-after')).toBe('3');
});

test('an empty script answers 500 saying the script ran out', async () => {
  const err = (await client.chat.completions.create({ model: 'm', messages: msgs }).catch((e: unknown) => e)) as Error;
  expect(err).toBeInstanceOf(OpenAI.InternalServerError);
  expect(err.message).toMatch(/script ran out/);
});

test('delayMs holds the answer; aborting the request frees the client', async () => {
  server.enqueue({ delayMs: 60_000, content: 'late' });
  const ac = new AbortController();
  const p = client.chat.completions.create({ model: 'm', messages: msgs }, { signal: ac.signal }).catch((e: unknown) => e);
  await server.waitForRequests(1);
  ac.abort();
  expect(await p).toBeInstanceOf(OpenAI.APIUserAbortError);
});

test('a short delay is still answered', async () => {
  server.enqueue({ delayMs: 5, content: 'after a while' });
  const r = await client.chat.completions.create({ model: 'm', messages: msgs });
  expect(r.choices[0].message.content).toBe('after a while');
});

test('cutAfterChunks destroys the socket mid-stream', async () => {
  server.enqueue({ content: 'one two three four', chunks: ['one ', 'two ', 'three ', 'four'], cutAfterChunks: 2 });
  const stream = await client.chat.completions.create({ model: 'm', messages: msgs, stream: true });
  const got: string[] = [];
  const err = await (async () => {
    for await (const chunk of stream) {
      const d = chunk.choices[0]?.delta?.content;
      if (d) got.push(d);
    }
  })().catch((e: unknown) => e);
  // undici reports the cut as a TypeError('terminated') from another realm, so no instanceof here.
  expect(err).toMatchObject({ name: 'TypeError', message: 'terminated' });
  expect(got).toEqual(['one ', 'two ']);
});

test('cutAfterChunks on a non-streaming request is a connection error', async () => {
  server.enqueue({ content: 'whole', cutAfterChunks: 0 });
  const err = await client.chat.completions.create({ model: 'm', messages: msgs }).catch((e: unknown) => e);
  expect(err).toMatchObject({ name: 'TypeError', message: 'terminated' });
});

test('hangAfterChunks streams some chunks then waits until the client aborts', async () => {
  server.enqueue({ content: 'abcdef', chunks: ['ab', 'cd', 'ef'], hangAfterChunks: 1 });
  const ac = new AbortController();
  const stream = await client.chat.completions.create({ model: 'm', messages: msgs, stream: true }, { signal: ac.signal });
  const got: string[] = [];
  const err = await (async () => {
    for await (const chunk of stream) {
      const d = chunk.choices[0]?.delta?.content;
      if (d) {
        got.push(d);
        ac.abort();
      }
    }
  })().catch((e: unknown) => e);
  // The SDK ends the iteration quietly on abort; callers check signal.aborted.
  expect(got).toEqual(['ab']);
  expect(err).toBeUndefined();
  expect(ac.signal.aborted).toBe(true);
});

test('drop closes the connection without an answer; the SDK retries it as a connection error', async () => {
  server.enqueue({ drop: true });
  await expect(client.chat.completions.create({ model: 'm', messages: msgs })).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  server.enqueue({ drop: true }, { content: 'second try' });
  const retrying = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 1 });
  const r = await retrying.chat.completions.create({ model: 'm', messages: msgs });
  expect(r.choices[0].message.content).toBe('second try');
  expect(server.requests).toHaveLength(3);
});

test('setHandler computes replies from the request; null goes back to the queue', async () => {
  server.setHandler((req) => ({ content: `model was ${req.body.model}` }));
  const a = await client.chat.completions.create({ model: 'qwen3', messages: msgs });
  expect(a.choices[0].message.content).toBe('model was qwen3');
  server.setHandler(null);
  server.enqueue({ content: 'queued' });
  const b = await client.chat.completions.create({ model: 'x', messages: msgs });
  expect(b.choices[0].message.content).toBe('queued');
  expect(server.pending).toBe(0);
});

test('GET /v1/models lists server.models; null answers 404', async () => {
  server.models = ['llama3', 'qwen3'];
  const page = await client.models.list();
  expect(page.data.map((m) => m.id)).toEqual(['llama3', 'qwen3']);
  const one = await client.models.retrieve('qwen3');
  expect(one.id).toBe('qwen3');
  server.models = null;
  await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'GET /v1/models/qwen3', 'GET /v1/models']);
});

test('close is idempotent and refuses later connections', async () => {
  const url = server.baseURL;
  await server.close();
  await server.close();
  const c = new OpenAI({ baseURL: url, apiKey: 'k', maxRetries: 0 });
  await expect(c.models.list()).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
});

describe('a simulated prefix cache (promptCache)', () => {
  const conversation: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'S'.repeat(400) },
    { role: 'user', content: 'first question' },
  ];
  test.each([
    ['openai', (u: Record<string, any>) => u.prompt_tokens_details?.cached_tokens],
    ['deepseek', (u: Record<string, any>) => u.prompt_cache_hit_tokens],
    ['anthropic', (u: Record<string, any>) => u.cache_read_input_tokens],
  ] as const)('%s: the first request has nothing cached; one that extends it has its prefix cached', async (style, cachedOf) => {
    const cached = await startScriptedServer({ promptCache: style });
    try {
      const c = new OpenAI({ baseURL: cached.baseURL, apiKey: 'sk-test', maxRetries: 0 });
      cached.enqueue({ content: 'one' }, { content: 'two' }, { content: 'three' });
      const first = await c.chat.completions.create({ model: 'm', messages: conversation });
      expect(cachedOf(first.usage as never)).toBe(0);
      const longer = [...conversation, { role: 'assistant' as const, content: 'one' }, { role: 'user' as const, content: 'second' }];
      const second = await c.chat.completions.create({ model: 'm', messages: longer });
      const prefixChars = JSON.stringify(conversation[0]).length + JSON.stringify(conversation[1]).length;
      expect(cachedOf(second.usage as never)).toBe(Math.floor(prefixChars / 4));
      expect(cachedOf(second.usage as never)).toBeLessThan(second.usage!.prompt_tokens);
      // A request that changes its start shares only what is the same up to the change (the first message's leading characters).
      const third = await c.chat.completions.create({ model: 'm', messages: [{ role: 'system', content: 'other' }, ...longer.slice(1)] });
      expect(cachedOf(third.usage as never)).toBe(Math.floor(JSON.stringify({ role: 'system', content: '' }).length / 4));
    } finally {
      await cached.close();
    }
  });

  test('without it, no cached input is reported', async () => {
    server.enqueue({ content: 'a' }, { content: 'b' });
    await client.chat.completions.create({ model: 'm', messages: msgs });
    const r = await client.chat.completions.create({ model: 'm', messages: [...msgs, { role: 'assistant', content: 'a' }] });
    expect(r.usage).not.toHaveProperty('prompt_tokens_details');
  });
});
