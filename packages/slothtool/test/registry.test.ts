import { promises as fs } from 'fs';
import { registryEntry, type TempHome } from '@holic512/testkit';
import { SlothToolError } from '../src/errors';
import type { HomePaths } from '../src/paths';
import { readRegistry, updateRegistry, writeRegistry } from '../src/registry';
import { lookupRunnable } from '../src/registry-lookup';
import { useHome } from './helpers';

let temp: TempHome;
let paths: HomePaths;

const home = useHome();
beforeEach(() => ({ temp, paths } = home));

const entry = registryEntry('@holic512/plugin-ai', '/x/node_modules/@holic512/plugin-ai/bin/ai.js');

function expectCorrupt(fn: () => unknown, file: string): void {
  try {
    fn();
  } catch (err) {
    expect(SlothToolError.isInstance(err)).toBe(true);
    expect((err as SlothToolError).code).toBe('REGISTRY_CORRUPT');
    expect((err as SlothToolError).params.file).toBe(file);
    return;
  }
  throw new Error('expected REGISTRY_CORRUPT');
}

test('a missing registry is empty; lookup finds nothing', () => {
  expect(readRegistry(paths)).toEqual({ plugins: {} });
  expect(lookupRunnable(paths, 'ai')).toBeUndefined();
});

test('written in the original 2-space format with the original key order, no trailing newline', async () => {
  writeRegistry(paths, { plugins: { ai: entry } });
  const text = await fs.readFile(paths.registry, 'utf8');
  expect(text).toBe(JSON.stringify({ plugins: { ai: entry } }, null, 2));
  expect(readRegistry(paths)).toEqual({ plugins: { ai: entry } });
  expect(lookupRunnable(paths, 'ai')).toEqual({ name: entry.name, binPath: entry.binPath });
});

test('reads a registry the testkit (trailing newline) wrote, keeps unknown keys on write', async () => {
  await temp.writeJson('registry.json', { plugins: { ai: { ...entry, extra: 1 } }, other: true });
  updateRegistry(paths, (r) => {
    r.plugins.loc = { ...entry, name: 'plugin-loc' };
    return true;
  });
  const back = await temp.readJson<Record<string, unknown>>('registry.json');
  expect(back).toEqual({ plugins: { ai: { ...entry, extra: 1 }, loc: { ...entry, name: 'plugin-loc' } }, other: true });
});

test.each([
  ['not JSON', '{"plugins": {'],
  ['empty file', ''],
  ['no plugins', '{}'],
  ['plugins is a list', '{"plugins": []}'],
  ['entry without binPath', JSON.stringify({ plugins: { ai: { name: 'x', version: '1', installedAt: 'y' } } })],
])('corrupt registry (%s) is an error naming the file, never empty', async (_what, text) => {
  await fs.writeFile(paths.registry, text);
  expectCorrupt(() => readRegistry(paths), paths.registry);
  expectCorrupt(() => updateRegistry(paths, () => true), paths.registry);
  expect(await fs.readFile(paths.registry, 'utf8')).toBe(text);
});

test.each([
  ['not JSON', '{"plugins": {'],
  ['plugins is a list', '{"plugins": []}'],
  ['the entry has no binPath', JSON.stringify({ plugins: { ai: { name: 'x' } } })],
])('the fast lookup agrees: %s is REGISTRY_CORRUPT', async (_what, text) => {
  await fs.writeFile(paths.registry, text);
  expectCorrupt(() => lookupRunnable(paths, 'ai'), paths.registry);
});

test('lookup ignores inherited names', () => {
  writeRegistry(paths, { plugins: { ai: entry } });
  expect(lookupRunnable(paths, 'constructor')).toBeUndefined();
  expect(lookupRunnable(paths, '__proto__')).toBeUndefined();
});
