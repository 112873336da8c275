import OpenAI from 'openai';
import { startScriptedOllama, startScriptedServer, type ScriptedOllama, type ScriptedServer } from '@holic512/testkit';
import { createHttpFetch } from '../src/http-fetch';
import { ollamaClient } from '../src/ollama-native';

// llm-base hands the openai and ollama SDKs a fetch whose answers are web-lite's Response, which
// has only what those SDKs read of one (package.json pins the openai SDK to the version read for
// it). The requests llm-base makes run here through both SDKs with every answer and its headers
// behind a recorder; a member of node's own Response or Headers that an SDK touched and
// web-lite's lacks fails the test (an SDK update that reads something new).

const touched = { response: new Set<PropertyKey>(), headers: new Set<PropertyKey>() };

/** `target` behind a Proxy that notes every property read (methods bound to the target: its private fields stay reachable). */
function recorder<T extends object>(target: T, seen: Set<PropertyKey>, inner?: (key: PropertyKey, value: unknown) => unknown): T {
  return new Proxy(target, {
    get(t, key) {
      seen.add(key);
      const value = Reflect.get(t, key, t) as unknown;
      if (inner) {
        const replaced = inner(key, value);
        if (replaced !== undefined) return replaced;
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}

const httpFetch = createHttpFetch();
const recordingFetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const response = await httpFetch(input, init);
  return recorder(response, touched.response, (key, value) => (key === 'headers' ? recorder(value as object, touched.headers) : undefined));
}) as typeof fetch;

/** Keys `seen` read that node's own `sample` has and web-lite's `ours` lacks. */
function missing(seen: Set<PropertyKey>, sample: object, ours: object): string[] {
  return [...seen].filter((key) => key in sample && !(key in ours)).map(String);
}

let server: ScriptedServer;
let ollama: ScriptedOllama;
beforeAll(async () => {
  server = await startScriptedServer();
  ollama = await startScriptedOllama({ models: [{ name: 'qwen2.5:7b' }] });
});
afterAll(async () => {
  await server.close();
  await ollama.close();
});

test('the openai SDK reads nothing of an answer that web-lite lacks (chat, streamed chat, models, errors, a retry)', async () => {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, fetch: recordingFetch, maxRetries: 1 });
  const messages = [{ role: 'user' as const, content: 'hi' }];
  server.enqueue(
    { content: 'plain' },
    { content: 'streamed' },
    { status: 500, body: { error: { message: 'busy' } } },
    { content: 'after a retry' },
    { status: 401, body: { error: { message: 'bad key' } } },
  );
  const plain = await client.chat.completions.create({ model: 'test-low', messages });
  expect(plain.choices[0].message.content).toBe('plain');
  let text = '';
  for await (const chunk of await client.chat.completions.create({ model: 'test-low', messages, stream: true }))
    text += chunk.choices[0]?.delta?.content ?? '';
  expect(text).toBe('streamed');
  const retried = await client.chat.completions.create({ model: 'test-low', messages });
  expect(retried.choices[0].message.content).toBe('after a retry');
  await expect(client.chat.completions.create({ model: 'test-low', messages })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  expect((await client.models.list()).data.length).toBeGreaterThan(0);
  const r = await httpFetch(server.baseURL + '/models');
  expect(missing(touched.response, new Response(''), r)).toEqual([]);
  expect(missing(touched.headers, new Headers(), r.headers)).toEqual([]);
  // What makes this test worth anything: the SDK did read answers through the recorder.
  expect([...touched.response]).toEqual(expect.arrayContaining(['status', 'headers', 'body', 'ok', 'url']));
});

test('the ollama SDK reads nothing of an answer that web-lite lacks (chat, streamed chat, show, list, ps, an error)', async () => {
  const client = ollamaClient({ base_url: `${ollama.baseURL}/v1` }, recordingFetch);
  ollama.enqueue({ content: 'plain' }, { content: 'streamed', chunks: ['str', 'eamed'] }, { status: 404, error: 'model "nope" not found' });
  const messages = [{ role: 'user', content: 'hi' }];
  expect((await client.chat({ model: 'qwen2.5:7b', messages, stream: false })).message.content).toBe('plain');
  let text = '';
  for await (const part of await client.chat({ model: 'qwen2.5:7b', messages, stream: true })) text += part.message.content;
  expect(text).toBe('streamed');
  await expect(client.chat({ model: 'nope', messages, stream: false })).rejects.toThrow(/not found/);
  await client.show({ model: 'qwen2.5:7b' });
  await client.list();
  await client.ps();
  const r = await httpFetch(`${ollama.baseURL}/api/tags`);
  expect(missing(touched.response, new Response(''), r)).toEqual([]);
  expect(missing(touched.headers, new Headers(), r.headers)).toEqual([]);
  expect([...touched.response]).toEqual(expect.arrayContaining(['ok', 'body', 'json']));
});
