import { aliasFromName, isValidAlias } from '../src/alias';

describe('aliasFromName (the original host rule)', () => {
  test.each([
    ['@holic512/plugin-ai', 'ai'],
    ['@holic512/plugin-llm-base', 'llm-base'],
    ['plugin-loc', 'loc'],
    ['@acme/greet', 'greet'],
    ['cowsay', 'cowsay'],
    ['@acme/plugin-plugin-x', 'plugin-x'],
    ['my-plugin-thing', 'my-plugin-thing'],
  ])('%s -> %s', (name, alias) => {
    expect(aliasFromName(name)).toBe(alias);
  });
});

describe('isValidAlias', () => {
  test.each([
    ['ai', true],
    ['llm-base', true],
    ['codex.switch', true],
    ['', false],
    ['.', false],
    ['..', false],
    ['.hidden', false],
    ['-x', false],
    ['a/b', false],
    ['a\\b', false],
  ])('%j -> %s', (alias, ok) => {
    expect(isValidAlias(alias)).toBe(ok);
  });
});
