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
