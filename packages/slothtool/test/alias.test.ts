import { eachReturns } from '@holic512/testkit';
import { aliasFromName, isValidAlias } from '../src/alias';

describe('aliasFromName (the original host rule)', () => {
  eachReturns('%s -> %s', aliasFromName, [
    ['@holic512/plugin-ai', 'ai'],
    ['@holic512/plugin-llm-base', 'llm-base'],
    ['plugin-loc', 'loc'],
    ['@acme/greet', 'greet'],
    ['cowsay', 'cowsay'],
    ['@acme/plugin-plugin-x', 'plugin-x'],
    ['my-plugin-thing', 'my-plugin-thing'],
  ]);
});

describe('isValidAlias', () => {
  eachReturns('%j -> %s', isValidAlias, [
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
  ]);
});
