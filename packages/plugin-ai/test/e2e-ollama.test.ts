import { createTempHome, packageDir, startScriptedOllama, until, type ScriptedOllama, type TempHome } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { runAi } from './run-bin';

// An Ollama profile through the real `ai` bin and this repo's llm-base: every request carries a
// num_ctx that holds the prompt budget, `ai -i` warms the model up when it starts, and a high model
// that cannot be loaded falls back to the low one, said once.
let temp: TempHome;
let ollama: ScriptedOllama;
let cwd: string;
const chats = () => ollama.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as Record<string, any>);
// plugin-ai's default request budget (16000) plus room for the answer (4096), rounded up to 1024s.
const BUDGET_CTX = 20480;

beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
  ollama = await startScriptedOllama({ models: [{ name: 'qwen2.5:7b' }, { name: 'qwen2.5:14b' }], library: [{ name: 'qwen2.5:7b' }] });
  cwd = path.join(temp.home, 'project');
  await fs.mkdir(cwd);
  await temp.registerPlugin('llm-base', packageDir('plugin-llm-base'));
  await temp.writeJson('plugin-configs/llm-base.json', {
    default_profile: 'local',
    profiles: { local: { base_url: `${ollama.baseURL}/v1`, provider: 'ollama', api_key: '', low_model: 'qwen2.5:7b', high_model: 'qwen2.5:14b', timeout: 10000, max_retries: 0, json_mode: 'response_format' } },
  });
  ollama.setHandler(() => ({ json: { type: 'chat', message: 'hello from ollama' } }));
});
afterEach(async () => {
  await ollama.close();
  await temp.cleanup();
});

test('ai -p: the request carries num_ctx for the whole prompt budget and keep_alive', async () => {
  const r = await runAi(['-p', 'hi'], { env: temp.env, cwd });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('hello from ollama');
  expect(chats()).toHaveLength(1);
  expect(chats()[0]).toMatchObject({ model: 'qwen2.5:7b', options: { num_ctx: BUDGET_CTX }, keep_alive: '30m', format: 'json' });
});

test('ai -i warms the model up at start with the same num_ctx as the turns', async () => {
  // The turn's answer waits for the warm-up, as a person typing would take longer than it.
  ollama.setHandler(async () => {
    await until(() => chats().some((b) => Array.isArray(b.messages) && b.messages.length === 0));
    return { json: { type: 'chat', message: 'hello from ollama' } };
  });
  const r = await runAi(['-i'], { env: temp.env, cwd, input: 'hi\n' });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('hello from ollama');
  const warm = chats().filter((b) => Array.isArray(b.messages) && b.messages.length === 0);
  expect(warm).toHaveLength(1);
  expect(chats().every((b) => b.options?.num_ctx === BUDGET_CTX)).toBe(true);
});

test('the high model cannot be loaded: the low one answers and the user is told once', async () => {
  ollama.models.delete('qwen2.5:14b');
  const r = await runAi(['-p', 'hi', '--mode', 'high'], { env: temp.env, cwd });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('hello from ollama');
  expect(r.stderr).toContain('The high model qwen2.5:14b could not be loaded here (not_pulled); the answer comes from the low model qwen2.5:7b instead');
});

test('ai -i offers /pull for a missing model and downloads it with progress', async () => {
  ollama.models.delete('qwen2.5:7b');
  const r = await runAi(['-i'], { env: temp.env, cwd, input: '/pull\n' });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('The model qwen2.5:7b is not on your Ollama server yet: /pull downloads it');
  expect(r.stdout).toMatch(/qwen2\.5:7b: pulling \w+ 100%/);
  expect(r.stdout).toContain('Downloaded qwen2.5:7b.');
  expect(ollama.models.has('qwen2.5:7b')).toBe(true);
});
