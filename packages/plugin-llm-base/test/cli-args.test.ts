import { eachReturns } from '@holic512/testkit';
import { ArgsError, parseArgs } from '../src/cli-args';
import { t } from '../src/i18n';

eachReturns('parseArgs(%j)', parseArgs, [
  [
    ['config', 'add', 'work', '--base-url', 'http://x', '--low-model=a'],
    { positionals: ['config', 'add', 'work'], flags: { 'base-url': 'http://x', 'low-model': 'a' } },
  ],
  [['-iy'], { positionals: [], flags: { interactive: true, yes: true } }],
  [['chat', '--mode', 'high', '--', '--not-a-flag'], { positionals: ['chat', '--not-a-flag'], flags: { mode: 'high' } }],
  [['--json', 'doctor', 'work'], { positionals: ['doctor', 'work'], flags: { json: true } }],
  [['--api-key', '-starts-with-dash'], { positionals: [], flags: { 'api-key': '-starts-with-dash' } }],
]);

test.each<[string[], string, Record<string, string>]>([
  [['--bogus'], 'argUnknownOption', { option: '--bogus' }],
  [['-iz'], 'argUnknownOption', { option: '-z' }],
  [['--profile'], 'argNeedsValue', { option: '--profile' }],
])('%j is refused with a message in both languages', (argv, key, vars) => {
  let err: unknown;
  try {
    parseArgs(argv);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ArgsError);
  expect((err as ArgsError).key).toBe(key);
  expect((err as ArgsError).vars).toEqual(vars);
  expect(t('zh', key as never, vars)).toContain(vars.option);
  expect(t('en', key as never, vars)).toContain(vars.option);
});

describe('usage with cached input tokens', () => {
  const { normalizeUsage } = require('../src/client') as typeof import('../src/client');
  test.each<[string, unknown, object]>([
    [
      'OpenAI',
      { prompt_tokens: 1000, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 768 } },
      { input_tokens: 1000, output_tokens: 20, cached_tokens: 768 },
    ],
    [
      'DeepSeek',
      { prompt_tokens: 900, completion_tokens: 5, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 260 },
      { input_tokens: 900, output_tokens: 5, cached_tokens: 640 },
    ],
    ['none reported', { prompt_tokens: 10, completion_tokens: 2 }, { input_tokens: 10, output_tokens: 2 }],
  ])('%s', (_name, raw, expected) => {
    expect(normalizeUsage(raw)).toEqual(expected);
  });
});
