import { useAiFixture, writeFiles } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { AiError } from '../src/errors';
import { createLlmClient, loadLlmBase, normalizeResult } from '../src/config/llm-base';
import { readRegistry } from '../src/config/registry';
import { writeFakeLlmBase } from './fake-llm-base';

// Finding and loading llm-base in this process: the fixture's home starts with none registered
// (each test registers its own) and no settings (the locale decides the language).
const fx = useAiFixture({ llmBase: false, profile: false, language: null });

const registry = () => readRegistry(path.join(fx.temp.slothtoolHome, 'registry.json'));
/** An llm-base 9.9.9 whose package.json names a bundle (`dist/index.js`), laid out where `slothtool install` puts it and
 * registered; `files` are the rest of the package, `dependencies` its package.json's. */
async function installBundled(files: Record<string, string | object>, dependencies?: Record<string, string>): Promise<string> {
  const root = path.join(fx.temp.slothtoolHome, 'plugins', 'llm-base', 'node_modules', '@holic512', 'plugin-llm-base');
  await writeFiles(root, {
    'package.json': {
      name: '@holic512/plugin-llm-base',
      version: '9.9.9',
      main: 'lib/index.js',
      bin: { 'llm-base': 'bin/llm-base.js' },
      slothtool: { bundle: 'dist/index.js' },
      ...(dependencies ? { dependencies } : {}),
    },
    'bin/llm-base.js': '',
    ...files,
  });
  await fx.temp.registerPlugin('llm-base', root);
  return root;
}

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
  await fx.temp.writeJson('registry.json', {
    plugins: { 'llm-base': { name: '@holic512/plugin-llm-base', version: '1.0.0', binPath: '/nope/bin/cli.js', installedAt: 'x' } },
  });
  expect(codeOf(() => loadLlmBase(registry()))).toBe('LLM_BASE_STALE');
});

test.each([
  ['throws on load', "throw new Error('boom');"],
  ['has no llm_chat', 'module.exports = { llm_raw() {} };'],
])('broken module (%s) → LLM_BASE_BROKEN', async (_name, source) => {
  const { root } = await writeFakeLlmBase(fx.temp.slothtoolHome, source);
  await fx.temp.registerPlugin('llm-base', root);
  expect(codeOf(() => loadLlmBase(registry()))).toBe('LLM_BASE_BROKEN');
});

test('corrupt registry names the file', async () => {
  await fs.writeFile(path.join(fx.temp.slothtoolHome, 'registry.json'), '{');
  expect(() => registry()).toThrow(path.join(fx.temp.slothtoolHome, 'registry.json'));
});

test('a registry of valid JSON the schema refuses names the file and the field', async () => {
  await fx.temp.writeJson('registry.json', { plugins: { 'llm-base': { name: '@holic512/plugin-llm-base', version: '1.0.0' } } });
  expect(codeOf(registry)).toBe('REGISTRY_CORRUPT');
  expect(() => registry()).toThrow(path.join(fx.temp.slothtoolHome, 'registry.json'));
  expect(() => registry()).toThrow('plugins.llm-base.binPath: ');
});

test('the 1.0.x shape (llm_chat only, no main) is called with three arguments', async () => {
  const { root } = await writeFakeLlmBase(
    fx.temp.slothtoolHome,
    'module.exports = { llm_chat: async function (m, mode, profile) { return { success: true, data: { args: arguments.length, mode, profile }, usage: { input_tokens: 1, output_tokens: 2 } }; } };',
    { main: null },
  );
  // registered under another alias: found by its npm name
  await fx.temp.registerPlugin('llm', root);
  const { client } = loadLlmBase(registry());
  expect(client.features).toEqual({ options: false, streaming: false, waitEvents: false, tools: false, images: false });
  const r = await client.chat([{ role: 'user', content: 'x' }], { mode: 'high', profile: 'p', onText: () => undefined });
  expect(r).toEqual({
    ok: true,
    data: { args: 3, mode: 'high', profile: 'p' },
    usage: { input_tokens: 1, output_tokens: 2 },
    model: undefined,
    callId: undefined,
  });
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
  const throwing = createLlmClient({
    llm_chat: () => {
      throw new Error('kaput');
    },
  });
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

describe('llm-base from its bundle (ai run from its own: preferBundles)', () => {
  /** An llm-base package whose bundle reports the zod it was given, with a zod of its own in its node_modules. */
  async function writeBundledLlmBase(zodRange: string, sharedRange = '^0.0.0-none'): Promise<string> {
    return installBundled(
      {
        'dist/index.js': `(function (exports, require, module, __filename, __dirname) {
      module.exports = { llm_chat: async () => ({ success: true }), zodSeen: require('zod'), homeSeen: () => require('@holic512/shared/lib/home') };
    })`,
        // Its own zod and its own @holic512/shared, each of which says so.
        'node_modules/zod/package.json': { name: 'zod', version: '4.0.0', main: 'index.js' },
        'node_modules/zod/index.js': 'module.exports = { own: true };',
        'node_modules/@holic512/shared/package.json': { name: '@holic512/shared', version: '0.0.1', main: 'lib/index.js' },
        'node_modules/@holic512/shared/lib/home.js': 'module.exports = { own: true };',
      },
      { zod: zodRange, '@holic512/shared': sharedRange },
    );
  }

  test.each([
    ['^4.0.0 admits ours: the bundle gets our zod, so the process has one', '^4.0.0', 'ours'],
    ['>=4 <5, as npm reads ranges: ours', '>=4 <5', 'ours'],
    ['^5.0.0 does not: it loads its own', '^5.0.0', 'own'],
    ['a range npm cannot read: its own', 'not a range', 'own'],
  ])('%s', async (_what, range, expected) => {
    await writeBundledLlmBase(range);
    jest.isolateModules(() => {
      const m = require('../src/config/llm-base') as typeof import('../src/config/llm-base');
      m.preferBundles();
      const seen = m.loadLlmBase(registry()).module.zodSeen as { own?: boolean };
      expect(expected === 'ours' ? seen === require('zod') : seen.own === true).toBe(true);
    });
  });

  const sharedVersion = (require('@holic512/shared/package.json') as { version: string }).version;
  test.each([
    ['a range that admits our @holic512/shared: the bundle gets ours (one redaction gate per process)', `^${sharedVersion}`, 'ours'],
    ['one that does not: it loads its own', '^9.0.0', 'own'],
  ])('%s', async (_what, range, expected) => {
    await writeBundledLlmBase('^4.0.0', range);
    jest.isolateModules(() => {
      const m = require('../src/config/llm-base') as typeof import('../src/config/llm-base');
      m.preferBundles();
      const seen = (m.loadLlmBase(registry()).module.homeSeen as () => { own?: boolean })();
      expect(expected === 'ours' ? seen === require('@holic512/shared/lib/home') : seen.own === true).toBe(true);
    });
  });
});

test('an llm-base bundle that cannot be loaded falls back to its main', async () => {
  await installBundled({
    'dist/index.js': 'not a bundle at all',
    'lib/index.js': "module.exports = { llm_chat: async () => ({ success: true }), from: 'lib' };",
  });
  jest.isolateModules(() => {
    const m = require('../src/config/llm-base') as typeof import('../src/config/llm-base');
    m.preferBundles();
    expect(m.loadLlmBase(registry()).module.from).toBe('lib');
  });
});
