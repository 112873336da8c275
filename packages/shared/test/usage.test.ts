import { closest, commandFor, editDistance, usageMessage, USAGE_EXIT_CODE } from '../src/usage';

const LLM_BASE_OPTIONS = [
  '--interactive',
  '--help',
  '--version',
  '--yes',
  '--json',
  '--mode',
  '--profile',
  '--preset',
  '--base-url',
  '--api-key',
  '--low-model',
  '--high-model',
  '--timeout',
  '--json-mode',
  '--max-retries',
  '--transport',
];

test.each([
  ['--base-ur', '--base-url'],
  ['--base_url', '--base-url'],
  ['--baseurl', '--base-url'],
  ['--bsae-url', '--base-url'],
  ['--profle', '--profile'],
  ['--mdoe', '--mode'],
  ['--low', '--low-model'],
  ['--timout', '--timeout'],
  ['--xyz', undefined],
  ['--', undefined],
  ['--model', '--mode'],
])('closest(%s) → %s', (typed, expected) => {
  expect(closest(typed, LLM_BASE_OPTIONS)).toBe(expected);
});

test('editDistance counts a swap of neighbours as one edit', () => {
  expect(editDistance('mode', 'mdoe')).toBe(1);
  expect(editDistance('abc', 'abc')).toBe(0);
  expect(editDistance('', 'abc')).toBe(3);
});

test('the usage message in both languages, with and without a suggestion', () => {
  expect(USAGE_EXIT_CODE).toBe(2);
  expect(usageMessage('en', { detail: 'unknown option --base-ur', suggestion: '--base-url', help: 'slothtool llm-base --help' })).toBe(
    'Invalid usage: unknown option --base-ur. Did you mean --base-url? Run `slothtool llm-base --help` for the options.',
  );
  expect(usageMessage('zh', { detail: '未知选项 --base-ur', suggestion: '--base-url', help: 'slothtool llm-base --help' })).toBe(
    '用法错误：未知选项 --base-ur。是不是想输入 --base-url？运行 `slothtool llm-base --help` 查看选项。',
  );
  expect(usageMessage('en', { detail: 'no prompt given', help: 'slothtool ai --help' })).toBe(
    'Invalid usage: no prompt given. Run `slothtool ai --help` for the options.',
  );
});

test.each([
  [{}, '/home/u/.slothtool/plugins/ai/node_modules/@holic512/plugin-ai/bin/ai.js', 'slothtool ai'],
  [{ SLOTHTOOL_HOST: '1' }, '/usr/local/bin/ai', 'slothtool ai'],
  [{}, '/usr/local/bin/ai', 'ai'],
  [{}, 'C:\\npm\\ai.cmd', 'slothtool ai'], // a Windows path is not split on this platform: the default
  [{}, '/repo/packages/plugin-ai/bin/ai.js', 'slothtool ai'],
  [{}, '', 'slothtool ai'],
])('commandFor(ai) with env %j and bin %s → %s', (env, bin, expected) => {
  expect(commandFor('ai', env, bin)).toBe(expected);
});
