import { jsonLimitProblem } from '../src/json-limits';

// What the limits say of a value: the walk (two parallel stacks) must count every value and
// every level the way it always did.
test('values within the limits pass', () => {
  expect(jsonLimitProblem({ tool: 'exec', program: 'git', args: ['status'], requires: { confirm: false } })).toBeUndefined();
  expect(jsonLimitProblem([[1], [2, [3]]], { maxDepth: 3 })).toBeUndefined();
  expect(jsonLimitProblem({ a: [1, 2] }, { maxNodes: 4 })).toBeUndefined();
});

test('too deep and too many are each said', () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 100000; i++) deep = [deep];
  expect(jsonLimitProblem(deep)).toBe('it is nested deeper than 64 levels');
  expect(jsonLimitProblem([[1], [2, [3]]], { maxDepth: 2 })).toBe('it is nested deeper than 2 levels');
  expect(jsonLimitProblem({ a: [1, 2] }, { maxNodes: 3 })).toBe('it holds more than 3 values');
  expect(jsonLimitProblem(new Array(300000).fill(0))).toBe('it holds more than 200000 values');
});
