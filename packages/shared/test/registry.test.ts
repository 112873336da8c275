import { checkPluginRegistry, checkRegistry, registrySchemas } from '../src/registry';

// registry.json as a plugin reads it (name and binPath needed) and as a host writes it (version
// and installedAt too): unknown keys are kept; a problem is one line naming the field.
const entry = { name: '@holic512/plugin-ai', version: '1.0.0', binPath: '/p/bin/ai.js', installedAt: '2026-01-01T00:00:00.000Z' };

test.each([
  ['the usual file', { plugins: { ai: entry } }],
  ['unknown keys, kept where they were', { note: 'x', plugins: { ai: { ...entry, inProcess: true } }, after: [1] }],
  ['an entry with only what a plugin needs', { plugins: { x: { name: 'x', binPath: '/x.js' } } }],
  ['no plugins yet', { plugins: {} }],
])('a plugin reads %s as it is', (_what, json) => {
  expect(checkPluginRegistry(json)).toStrictEqual({ ok: true, registry: json });
});

test.each([
  ['not an object', [], '(root): '],
  ['no plugins', {}, 'plugins: '],
  ['an entry without binPath', { plugins: { ai: { name: 'a' } } }, 'plugins.ai.binPath: '],
  ['an empty name', { plugins: { ai: { ...entry, name: '' } } }, 'plugins.ai.name: '],
  ['a version that is a number', { plugins: { ai: { ...entry, version: 1 } } }, 'plugins.ai.version: '],
  ['an entry that is a string', { plugins: { ai: '/p/bin/ai.js' } }, 'plugins.ai: '],
])('%s is refused, naming the field', (_what, json, where) => {
  const checked = checkPluginRegistry(json);
  expect(checked.ok).toBe(false);
  expect(!checked.ok && checked.detail.startsWith(where)).toBe(true);
});

test('a host needs version and installedAt as well', () => {
  const lean = { plugins: { x: { name: 'x', binPath: '/x.js' } } };
  expect(checkPluginRegistry(lean).ok).toBe(true);
  const host = checkRegistry(registrySchemas().HostRegistrySchema, lean);
  expect(host.ok).toBe(false);
  expect(!host.ok && host.detail).toMatch(/^plugins\.x\.(version|installedAt): /);
});
