import { hardenedEnv, NON_INTERACTIVE_ENV } from '../src/tools/exec-tool';

// hardenedEnv reuses its last answer for the same environment while none of its variables
// changed: a change made to that object meanwhile (added, changed, removed) is never missed,
// and the shared answer cannot be changed by whoever gets it.

const base = (): NodeJS.ProcessEnv => ({ PATH: '/usr/bin:.:relative/bin:/bin', HOME: '/home/u', LANG: 'C' });

test('the same unchanged environment: the same answer, frozen, hardened as ever', () => {
  const env = base();
  const a = hardenedEnv(env);
  expect(hardenedEnv(env)).toBe(a);
  expect(Object.isFrozen(a)).toBe(true);
  expect(a).toMatchObject({ ...NON_INTERACTIVE_ENV, PATH: '/usr/bin:/bin', GIT_CONFIG_KEY_0: 'core.fsmonitor', HOME: '/home/u' });
  expect(() => {
    'use strict';
    (a as Record<string, string>).PATH = '.';
  }).toThrow(TypeError);
  expect(env.PATH).toBe('/usr/bin:.:relative/bin:/bin');
});

test.each([
  ['a variable changed', (e: NodeJS.ProcessEnv): void => void (e.PATH = '.:/opt/bin'), { PATH: '/opt/bin' }],
  [
    'a variable added',
    (e: NodeJS.ProcessEnv): void => void (e.GIT_CONFIG_COUNT = '0'),
    { GIT_CONFIG_COUNT: '0', GIT_CONFIG_KEY_0: undefined },
  ],
  ['a variable removed', (e: NodeJS.ProcessEnv): void => void delete e.HOME, { HOME: undefined }],
  ['a variable set to undefined', (e: NodeJS.ProcessEnv): void => void (e.LANG = undefined), { LANG: undefined }],
] as const)('%s in the same object: a new answer with the change', (_what, change, expected) => {
  const env = base();
  const before = hardenedEnv(env);
  change(env);
  const after = hardenedEnv(env);
  expect(after).not.toBe(before);
  for (const [k, v] of Object.entries(expected)) expect(after[k]).toBe(v);
  // and the answer for the changed environment is reused in turn
  expect(hardenedEnv(env)).toBe(after);
});

test('another object with the same variables, and process.env itself, are hardened the same way', () => {
  const a = hardenedEnv(base());
  expect(hardenedEnv(base())).toEqual(a);
  const saved = process.env.HARDENED_ENV_TEST;
  process.env.HARDENED_ENV_TEST = 'one';
  try {
    expect(hardenedEnv(process.env).HARDENED_ENV_TEST).toBe('one');
    process.env.HARDENED_ENV_TEST = 'two';
    expect(hardenedEnv(process.env).HARDENED_ENV_TEST).toBe('two');
  } finally {
    if (saved === undefined) delete process.env.HARDENED_ENV_TEST;
    else process.env.HARDENED_ENV_TEST = saved;
  }
});
