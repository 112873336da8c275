import { applyPatch, JsonPatchError, type JsonPatchErrorCode } from '../src/index';

function errorOf(fn: () => unknown): JsonPatchError {
  try {
    fn();
  } catch (err) {
    if (JsonPatchError.isInstance(err)) return err;
    throw err;
  }
  throw new Error('expected a JsonPatchError, nothing was thrown');
}

describe('set', () => {
  test.each([
    ['creates missing parents', {}, '/a/b/c', 1, { a: { b: { c: 1 } } }],
    ['overwrites an existing value', { a: { b: 1 } }, '/a/b', 2, { a: { b: 2 } }],
    ['keeps siblings', { a: { x: 1 } }, '/a/y', 2, { a: { x: 1, y: 2 } }],
    ['replaces the whole document at ""', { a: 1 }, '', { b: 2 }, { b: 2 }],
    ['replaces an array element', { l: [1, 2] }, '/l/1', 9, { l: [1, 9] }],
    ['appends with "-"', { l: [1] }, '/l/-', 2, { l: [1, 2] }],
    ['appends at index == length', { l: [1] }, '/l/1', 2, { l: [1, 2] }],
    ['goes through an existing array element', { l: [{}] }, '/l/0/k', true, { l: [{ k: true }] }],
    ['escapes ~0 and ~1', {}, '/a~1b/c~0d', 1, { 'a/b': { 'c~d': 1 } }],
    ['sets null explicitly', { a: 1 }, '/a', null, { a: null }],
  ])('%s', (_name, doc, path, value, expected) => {
    expect(applyPatch(doc, [{ op: 'set', path, value }])).toStrictEqual(expected);
  });

  test.each<[string, unknown, string, JsonPatchErrorCode]>([
    ['through a string', { a: 'x' }, '/a/b', 'NOT_A_CONTAINER'],
    ['through null', { a: null }, '/a/b', 'NOT_A_CONTAINER'],
    ['past the end of an array', { l: [1] }, '/l/5', 'INVALID_INDEX'],
    ['through a missing array element', { l: [] }, '/l/0/k', 'INVALID_INDEX'],
    ['with a bad pointer', {}, 'a/b', 'INVALID_POINTER'],
  ])('fails %s', (_name, doc, path, code) => {
    const err = errorOf(() => applyPatch(doc, [{ op: 'set', path, value: 1 }]));
    expect(err.code).toBe(code);
    expect(err.index).toBe(0);
    expect(err.path).toBe(path);
  });

  test('does not pollute prototypes through __proto__', () => {
    const out = applyPatch<Record<string, unknown>>({}, [{ op: 'set', path: '/__proto__/polluted', value: true }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true}}');
  });
});

describe('unset', () => {
  test.each([
    ['removes a member', { a: 1, b: 2 }, '/a', { b: 2 }],
    ['removes a nested member', { a: { b: 1, c: 2 } }, '/a/b', { a: { c: 2 } }],
    ['is silent when the member is absent', { a: 1 }, '/x', { a: 1 }],
    ['is silent when a parent is absent', { a: 1 }, '/x/y/z', { a: 1 }],
    ['is silent when a parent is a scalar', { a: 1 }, '/a/b', { a: 1 }],
    ['removes an array element', { l: [1, 2, 3] }, '/l/1', { l: [1, 3] }],
    ['is silent past the end of an array', { l: [1] }, '/l/3', { l: [1] }],
    ['is silent for "-"', { l: [1] }, '/l/-', { l: [1] }],
    ['does not see inherited members', {}, '/constructor', {}],
  ])('%s', (_name, doc, path, expected) => {
    expect(applyPatch(doc, [{ op: 'unset', path }])).toStrictEqual(expected);
  });

  test('refuses the whole document', () => {
    expect(errorOf(() => applyPatch({}, [{ op: 'unset', path: '' }])).code).toBe('INVALID_OP');
  });
});

describe('all-or-nothing and immutability', () => {
  test('a failing op 5 leaves nothing of ops 1-4 visible', () => {
    const doc = { a: 1, list: [1, 2], nested: { x: 1 } };
    const snapshot = JSON.stringify(doc);
    const ops = [
      { op: 'replace', path: '/a', value: 2 },
      { op: 'add', path: '/list/-', value: 3 },
      { op: 'set', path: '/nested/y', value: 2 },
      { op: 'remove', path: '/nested/x' },
      { op: 'remove', path: '/missing' },
    ];
    const err = errorOf(() => applyPatch(doc, ops));
    expect(err).toMatchObject({ code: 'PATH_NOT_FOUND', index: 4, path: '/missing' });
    expect(err.message).toMatch(/Operation 4 \("remove"\)/);
    expect(JSON.stringify(doc)).toBe(snapshot);
  });

  test('the result shares nothing with the input document or the ops', () => {
    const doc = { keep: { deep: [1] } };
    const value = { inner: [1] };
    const out = applyPatch<{ keep: { deep: number[] }; v: { inner: number[] } }>(doc, [{ op: 'add', path: '/v', value }]);
    out.keep.deep.push(2);
    out.v.inner.push(2);
    expect(doc).toStrictEqual({ keep: { deep: [1] } });
    expect(value).toStrictEqual({ inner: [1] });
  });

  test('copy makes an independent value', () => {
    const out = applyPatch<{ a: number[]; b: number[] }>({ a: [1] }, [
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'add', path: '/b/-', value: 2 },
    ]);
    expect(out).toStrictEqual({ a: [1], b: [1, 2] });
  });
});

describe('untrusted operations', () => {
  test.each<[string, unknown, JsonPatchErrorCode, number | undefined]>([
    ['not an array', { op: 'add' }, 'INVALID_PATCH', undefined],
    ['an element that is not an object', ['add'], 'INVALID_PATCH', 0],
    ['an unknown op', [{ op: 'merge', path: '/a' }], 'INVALID_OP', 0],
    ['a missing path', [{ op: 'remove' }], 'INVALID_OP', 0],
    ['a numeric path', [{ op: 'remove', path: 1 }], 'INVALID_OP', 0],
    ['a missing value', [{ op: 'set', path: '/a' }], 'INVALID_OP', 0],
    ['a missing from', [{ op: 'move', path: '/a' }], 'INVALID_OP', 0],
    ['a non-JSON value', [{ op: 'add', path: '/a', value: { f: () => 1 } }], 'INVALID_VALUE', 0],
    ['a NaN value', [{ op: 'add', path: '/a', value: NaN }], 'INVALID_VALUE', 0],
    ['a bad escape', [{ op: 'add', path: '/a~2', value: 1 }], 'INVALID_POINTER', 0],
    ['a failing test', [{ op: 'test', path: '/a', value: 2 }], 'TEST_FAILED', 0],
    ['a move into itself', [{ op: 'move', from: '/o', path: '/o/x' }], 'MOVE_INTO_ITSELF', 0],
    ['add without parent', [{ op: 'add', path: '/x/y', value: 1 }], 'PATH_NOT_FOUND', 0],
    ['remove of the document', [{ op: 'remove', path: '' }], 'INVALID_OP', 0],
    [
      'an error in the second op',
      [
        { op: 'set', path: '/b', value: 1 },
        { op: 'replace', path: '/zz', value: 1 },
      ],
      'PATH_NOT_FOUND',
      1,
    ],
  ])('rejects %s', (_name, ops, code, index) => {
    const err = errorOf(() => applyPatch({ a: 1, o: {} }, ops));
    expect(err.code).toBe(code);
    expect(err.index).toBe(index);
    expect(err.message.length).toBeGreaterThan(40);
  });

  test('a failing test on a secret does not print the secret', () => {
    const err = errorOf(() => applyPatch({ api_key: 'sk-real-secret' }, [{ op: 'test', path: '/api_key', value: 'guess' }]));
    expect(err.message).not.toContain('sk-real-secret');
    expect(err.message).not.toContain('guess');
  });

  test('move from a missing path names "from"', () => {
    expect(errorOf(() => applyPatch({}, [{ op: 'move', from: '/nope', path: '/a' }]))).toMatchObject({
      code: 'PATH_NOT_FOUND',
      path: '/nope',
    });
  });
});
