import { eachReturns, eachUnchanged, pathProbe } from '../src/index';

// The helpers register their tests with jest's `test.each`; here a recorder stands in for jest's
// `test` while they run, so the registered checks can be called and seen to pass and to fail.
type Registered = { title: string; rows: readonly unknown[][]; check: (...row: unknown[]) => void };
const g = globalThis as unknown as { test: unknown };

function registered(define: () => void): Registered {
  const jestTest = g.test;
  let seen: Registered | undefined;
  g.test = { each: (rows: unknown[][]) => (title: string, check: Registered['check']) => void (seen = { title, rows, check }) };
  try {
    define();
  } finally {
    g.test = jestTest;
  }
  if (!seen) throw new Error('no test.each registered');
  return seen;
}

test('eachReturns: one row a test, titled by its cells; a wrong expected value fails', () => {
  const add = (a: number, b: number): number => a + b;
  const r = registered(() =>
    eachReturns('%d + %d = %d', add, [
      [1, 2, 3],
      [2, 2, 5],
    ]),
  );
  expect(r.title).toBe('%d + %d = %d');
  expect(r.rows).toEqual([
    [1, 2, 3],
    [2, 2, 5],
  ]);
  expect(() => r.check(...r.rows[0])).not.toThrow();
  expect(() => r.check(...r.rows[1])).toThrow(/Expected: 5/);
});

test('eachReturns compares objects by content', () => {
  const r = registered(() =>
    eachReturns('%s', (s: string) => ({ s }), [
      ['a', { s: 'a' }],
      ['b', { s: 'c' }],
    ]),
  );
  expect(() => r.check(...r.rows[0])).not.toThrow();
  expect(() => r.check(...r.rows[1])).toThrow();
});

test('eachUnchanged: a list titles by the input, a record by the name; a change fails', () => {
  const trim = (s: string): string => s.trim();
  const list = registered(() => eachUnchanged('%s', trim, ['a', ' b']));
  expect(list.rows.map((row) => row[0])).toEqual(['a', ' b']);
  expect(() => list.check(...list.rows[0])).not.toThrow();
  expect(() => list.check(...list.rows[1])).toThrow();
  const named = registered(() => eachUnchanged('keeps %s', trim, { 'a word': 'w', 'a padded word': ' w ' }));
  expect(named.rows).toEqual([
    ['a word', 'w'],
    ['a padded word', ' w '],
  ]);
  expect(() => named.check(...named.rows[0])).not.toThrow();
  expect(() => named.check(...named.rows[1])).toThrow();
});

test('pathProbe answers from its lists only', () => {
  const probe = pathProbe({ dirs: ['/h/.ssh'], files: ['/h/.npmrc'] });
  expect([probe('/h/.ssh'), probe('/h/.npmrc'), probe('/h'), probe('/h/.ssh/id_rsa')]).toEqual(['dir', 'file', undefined, undefined]);
  expect(pathProbe({})('/')).toBeUndefined();
});

// The helpers used as they are meant to be: real jest tests.
describe('in use', () => {
  eachReturns('%s has %d characters', (s: string) => [...s].length, [
    ['abc', 3],
    ['日本', 2],
  ]);
  eachUnchanged('%j stays itself', (n: number) => n * 1, [0, 42, -7]);
});
