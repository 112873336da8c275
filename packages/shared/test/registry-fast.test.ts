import { checkPluginRegistry, checkRegistry, plainRegistry, registrySchemas } from '../src/registry';

// A plugin reads registry.json of the usual shape without zod (plainRegistry), so a turn that
// only talks never loads it; anything else goes to the schema. Both must give the same answer.
const throughSchema = (json: unknown) => checkRegistry(registrySchemas().RegistrySchema, json);

/** Fixed-seed registries, good and bad, with the odd values a hand-edited file has. */
function registries(seed: number, n: number): unknown[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const text = ['', 'x', '/usr/lib/node_modules/a/bin/a.js', '@holic512/plugin-ai', '1.2.3', '2026-01-01T00:00:00.000Z'];
  const odd = [undefined, null, 0, 1.5, true, [], ['a'], {}, { a: 1 }];
  const value = () => (rnd() < 0.8 ? pick(text) : pick(odd));
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const plugins: Record<string, unknown> = {};
    const count = Math.floor(rnd() * 4);
    for (let j = 0; j < count; j++) {
      const entry: Record<string, unknown> = {};
      for (const key of ['binPath', 'extra', 'name', 'updatedAt', 'version', 'installedAt', 'inProcess']) {
        if (rnd() < (key === 'name' || key === 'binPath' ? 0.92 : 0.5)) entry[key] = key === 'inProcess' ? pick([true, 1]) : value();
      }
      plugins[pick(['ai', 'llm-base', 'x', '1', 'z-z'])] = rnd() < 0.95 ? entry : pick(odd);
    }
    const root: Record<string, unknown> = rnd() < 0.3 ? { note: 'kept' } : {};
    root.plugins = rnd() < 0.95 ? plugins : pick(odd);
    if (rnd() < 0.2) root.after = [1];
    out.push(rnd() < 0.97 ? root : pick(odd));
  }
  return out;
}

test('a registry read without zod is what the schema gives (3,000 registries, fixed seed), keys in the same order', () => {
  for (const json of registries(11, 3000)) {
    const mine = checkPluginRegistry(json);
    const theirs = throughSchema(json);
    expect(mine).toStrictEqual(theirs);
    expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
  }
});

test('the usual registries are read without the schema, and what it reads the schema accepts', () => {
  let read = 0;
  for (const json of registries(12, 3000)) {
    const plain = plainRegistry(json);
    if (plain === undefined) continue;
    read++;
    expect(throughSchema(json)).toStrictEqual({ ok: true, registry: plain });
  }
  expect(read).toBeGreaterThan(500);
  const usual = { plugins: { ai: { name: '@holic512/plugin-ai', version: '1.0.0', binPath: '/p/bin/ai.js', installedAt: 't' } } };
  expect(plainRegistry(usual)).toStrictEqual(usual);
});

test('odd shapes go to the schema: undefined fields, a __proto__ key, other prototypes', () => {
  const odd = [
    { plugins: { ai: { name: 'a', binPath: '/b', version: undefined } } },
    JSON.parse('{"plugins":{"__proto__":{"name":"a","binPath":"/b"}}}'),
    JSON.parse('{"plugins":{"ai":{"name":"a","binPath":"/b","__proto__":{"x":1}}}}'),
    JSON.parse('{"__proto__":{},"plugins":{}}'),
    { plugins: Object.assign(Object.create(null), { ai: { name: 'a', binPath: '/b' } }) },
  ];
  for (const json of odd) {
    expect(plainRegistry(json)).toBeUndefined();
    expect(checkPluginRegistry(json)).toStrictEqual(throughSchema(json));
  }
});
