import { until, useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// An Ollama profile through the real `ai` bin and this repo's llm-base: every request carries a
// num_ctx that holds the prompt budget, `ai -i` warms the model up when it starts, and a high model
// that cannot be loaded falls back to the low one, said once.
const fx = useAiFixture({
  ollama: { models: [{ name: 'qwen2.5:7b' }, { name: 'qwen2.5:14b' }], library: [{ name: 'qwen2.5:7b' }] },
  profile: { low_model: 'qwen2.5:7b', high_model: 'qwen2.5:14b', json_mode: 'response_format' },
});
const ai = (args: string[], input?: string) => runAi(args, { env: fx.env, cwd: fx.cwd, input });
const chats = () => fx.server.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as Record<string, any>);
// plugin-ai's default request budget (16000) plus room for the answer (4096), rounded up to 1024s.
const BUDGET_CTX = 20480;

beforeEach(() => fx.server.setHandler(() => ({ json: { type: 'chat', message: 'hello from ollama' } })));

test('ai -p: the request carries num_ctx for the whole prompt budget and keep_alive', async () => {
  const r = await ai(['-p', 'hi']);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('hello from ollama');
  expect(chats()).toHaveLength(1);
  expect(chats()[0]).toMatchObject({ model: 'qwen2.5:7b', options: { num_ctx: BUDGET_CTX }, keep_alive: '30m', format: 'json' });
});

test('ai -i warms the model up at start with the same num_ctx as the turns', async () => {
  // The turn's answer waits for the warm-up, as a person typing would take longer than it.
  fx.server.setHandler(async () => {
    await until(() => chats().some((b) => Array.isArray(b.messages) && b.messages.length === 0));
    return { json: { type: 'chat', message: 'hello from ollama' } };
  });
  const r = await ai(['-i'], 'hi\n');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('hello from ollama');
  const warm = chats().filter((b) => Array.isArray(b.messages) && b.messages.length === 0);
  expect(warm).toHaveLength(1);
  expect(chats().every((b) => b.options?.num_ctx === BUDGET_CTX)).toBe(true);
});

test('the high model cannot be loaded: the low one answers and the user is told once', async () => {
  fx.server.models.delete('qwen2.5:14b');
  const r = await ai(['-p', 'hi', '--mode', 'high']);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('hello from ollama');
  expect(r.stderr).toContain(
    'The high model qwen2.5:14b could not be loaded here (not_pulled); the answer comes from the low model qwen2.5:7b instead',
  );
});

test('ai -i offers /pull for a missing model and downloads it with progress', async () => {
  fx.server.models.delete('qwen2.5:7b');
  const r = await ai(['-i'], '/pull\n');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('The model qwen2.5:7b is not on your Ollama server yet: /pull downloads it');
  expect(r.stdout).toMatch(/qwen2\.5:7b: pulling \w+ 100%/);
  expect(r.stdout).toContain('Downloaded qwen2.5:7b.');
  expect(fx.server.models.has('qwen2.5:7b')).toBe(true);
});
