import { dependencies } from '../package.json';

// What ai hands llm-base's bundle (its zod, its redaction gate) depends on llm-base's ranges
// admitting our versions, as npm reads them: a range we depend on ourselves admits our copy
// (npm installed it for that range) without loading semver; any other is semver's to judge.
type LazyLlmBase = typeof import('../src/config/lazy-llm-base');

function load(semverLoads: string[]): LazyLlmBase {
  let mod: LazyLlmBase | undefined;
  jest.isolateModules(() => {
    jest.doMock('semver/functions/satisfies', () => {
      semverLoads.push('satisfies');
      return jest.requireActual('semver/functions/satisfies');
    });
    mod = require('../src/config/lazy-llm-base') as LazyLlmBase;
  });
  return mod!;
}

afterEach(() => jest.dontMock('semver/functions/satisfies'));

test('our own ranges admit our copies without semver', () => {
  const loads: string[] = [];
  const { sharedZod, sharedModules } = load(loads);
  expect(Object.keys(sharedZod(dependencies.zod) ?? {})).toEqual(['zod']);
  expect(Object.keys(sharedModules(dependencies['@holic512/shared']))).toContain('@holic512/shared');
  expect(loads).toEqual([]);
});

test('another range is judged by semver, as npm reads it', () => {
  const loads: string[] = [];
  const { sharedZod, sharedModules } = load(loads);
  const zodVersion = (require('zod/package.json') as { version: string }).version;
  const major = Number(zodVersion.split('.')[0]);
  expect(sharedZod(`>=${major}.0.0 <${major + 1}.0.0`)).toBeDefined();
  expect(sharedZod(`^${major + 1}.0.0`)).toBeUndefined();
  expect(sharedZod(`~${major - 1}.0.0 || ${zodVersion}`)).toBeDefined();
  expect(sharedModules('^9.0.0')).toEqual({});
  expect(loads).toEqual(['satisfies']);
});

test('no range (a package.json without the dependency) admits nothing', () => {
  const { sharedZod, sharedModules } = load([]);
  expect(sharedZod(undefined)).toBeUndefined();
  expect(sharedModules(42)).toEqual({});
});
