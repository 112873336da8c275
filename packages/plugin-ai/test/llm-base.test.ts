import { createTempHome, type TempHome } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { AiError } from '../src/errors';
import { createLlmClient, loadLlmBase, normalizeResult } from '../src/llm-base';
import { readRegistry } from '../src/registry';
import { writeFakeLlmBase } from './fake-llm-base';

let temp: TempHome;
beforeEach(async () => {
  temp = await createTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

const registry = () => readRegistry(path.join(temp.slothtoolHome, 'registry.json'));

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (AiError.isInstance(err)) return err.code;
    throw err;
  }
  return undefined;
}

test('not installed → LLM_BASE_MISSING with the fixing command', () => {
  expect(codeOf(() => loadLlmBase(registry()))).toBe('LLM_BASE_MISSING');
  expect(() => loadLlmBase(registry())).toThrow('slothtool install @holic512/plugin-llm-base');
});

test('stale binPath → LLM_BASE_STALE', async () => {
  await temp.writeJson('registry.json', { plugins: { 'llm-base': { name: '@holic512/plugin-llm-base', version: '1.0.0', binPath: '/nope/bin/cli.js', installedAt: 'x' } } });
  expect(codeOf(() => loadLlmBase(registry()))).toBe('LLM_BASE_STALE');
});

test.each([
  ['throws on load', "throw new Error('boom');"],
  ['has no llm_chat', 'module.exports = { llm_raw() {} };'],
])('broken module (%s) → LLM_BASE_BROKEN', async (_name, source) => {
  const { root } = await writeFakeLlmBase(temp.slothtoolHome, source);
  await temp.registerPlugin('llm-base', root);
  expect(codeOf(() => loadLlmBase(registry()))).toBe('LLM_BASE_BROKEN');
});

test('corrupt registry names the file', async () => {
  await fs.writeFile(path.join(temp.slothtoolHome, 'registry.json'), '{');
  expect(() => registry()).toThrow(path.join(temp.slothtoolHome, 'registry.json'));
});

test('the 1.0.x shape (llm_chat only, no main) is called with three arguments', async () => {
  const { root } = await writeFakeLlmBase(
    temp.slothtoolHome,
    'module.exports = { llm_chat: async function (m, mode, profile) { return { success: true, data: { args: arguments.length, mode, profile }, usage: { input_tokens: 1, output_tokens: 2 } }; } };',
    { main: null },
  );
  // registered under another alias: found by its npm name
  await temp.registerPlugin('llm', root);
  const { client } = loadLlmBase(registry());
  expect(client.features).toEqual({ options: false, streaming: false, waitEvents: false, tools: false });
  const r = await client.chat([{ role: 'user', content: 'x' }], { mode: 'high', profile: 'p', onText: () => undefined });
  expect(r).toEqual({ ok: true, data: { args: 3, mode: 'high', profile: 'p' }, usage: { input_tokens: 1, output_tokens: 2 }, model: undefined, callId: undefined });
});

test('a module with FEATURES.chat_options gets signal and onText', async () => {
  const seen: unknown[] = [];
  const client = createLlmClient({
    FEATURES: { chat_options: true, streaming: true },
    llm_chat: async (_m: unknown, _mode: unknown, _p: unknown, options: { onText?: (d: string) => void; signal?: AbortSignal }) => {
      seen.push(typeof options.onText, options.signal instanceof AbortSignal);
      options.onText?.('{');
      return { success: true, data: { type: 'chat', message: 'x' }, usage: { input_tokens: 0, output_tokens: 0 } };
    },
  });
  const deltas: string[] = [];
  await client.chat([], { mode: 'low', profile: null, signal: new AbortController().signal, onText: (d) => deltas.push(d) });
  expect(seen).toEqual(['function', true]);
  expect(deltas).toEqual(['{']);
});

test('a thrown error or a non-object result never escapes', async () => {
  const throwing = createLlmClient({ llm_chat: () => { throw new Error('kaput'); } });
  expect(await throwing.chat([], { mode: 'low', profile: null })).toMatchObject({ ok: false, code: 'PROVIDER_ERROR', message: 'kaput' });
  const weird = createLlmClient({ llm_chat: async () => 'nope' });
  expect(await weird.chat([], { mode: 'low', profile: null })).toMatchObject({ ok: false });
});

test('the 1.0.x module without abort support: the wait stops on abort', async () => {
  const client = createLlmClient({ llm_chat: () => new Promise(() => undefined) });
  const controller = new AbortController();
  const pending = client.chat([], { mode: 'low', profile: null, signal: controller.signal });
  controller.abort();
  expect(await pending).toMatchObject({ ok: false, code: 'ABORTED' });
});

test.each([
  [{ success: false, error: { code: 'PROVIDER_ERROR', message: 'The server returned HTTP 404: not found' } }, true],
  [{ success: false, error: { code: 'PROVIDER_ERROR', message: 'x', status: 404 } }, true],
  [{ success: false, error: { code: 'PROVIDER_ERROR', message: 'HTTP 500' } }, false],
  [{ success: false }, false],
])('normalizeResult 404 detection %#', (value, notFound) => {
  expect(normalizeResult(value)).toMatchObject({ ok: false, notFound });
});
