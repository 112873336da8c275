import { registryEntry } from '../src/index';

test('registryEntry: the original shape and key order, fixed defaults, the fields given win', () => {
  const e = registryEntry('@acme/plugin-x', '/x/cli.js');
  expect(e).toEqual({ name: '@acme/plugin-x', version: '1.0.0', binPath: '/x/cli.js', installedAt: '2026-01-01T00:00:00.000Z' });
  expect(Object.keys(e)).toEqual(['name', 'version', 'binPath', 'installedAt']);
  expect(registryEntry('a', '/a.js', { version: '2.0.0', updatedAt: 'u' })).toMatchObject({ version: '2.0.0', updatedAt: 'u' });
});
