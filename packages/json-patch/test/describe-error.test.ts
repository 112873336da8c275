import { applyPatch, describeError, JsonPatchError, type JsonPatchErrorCode } from '../src/index';

test.each<[string, 'zh' | 'en', RegExp]>([
  ['en', 'en', /^Patch not applied: the path does not exist \(operation 2, \/a\/b\)\.\n/],
  ['zh', 'zh', /^补丁未应用：路径不存在（第 2 项操作，\/a\/b）。\n/],
])('a failing operation is described in %s with its number and path, then the detail', (_l, lang, head) => {
  let err: unknown;
  try {
    applyPatch({ a: {} }, [
      { op: 'add', path: '/x', value: 1 },
      { op: 'remove', path: '/a/b' },
    ]);
  } catch (e) {
    err = e;
  }
  expect(JsonPatchError.isInstance(err)).toBe(true);
  const text = describeError(err, lang);
  expect(text).toMatch(head);
  expect(text.split('\n')[1]).toBe((err as Error).message);
});

test('every error code has words in both languages', () => {
  const codes: JsonPatchErrorCode[] = [
    'INVALID_PATCH',
    'INVALID_OP',
    'INVALID_POINTER',
    'INVALID_VALUE',
    'PATH_NOT_FOUND',
    'INVALID_INDEX',
    'NOT_A_CONTAINER',
    'TEST_FAILED',
    'MOVE_INTO_ITSELF',
    'INVALID_OPTIONS',
    'PATH_NOT_ALLOWED',
    'INVALID_JSON',
    'LOCKED',
    'NO_BACKUP',
    'IO_ERROR',
  ];
  for (const code of codes) {
    const err = new JsonPatchError(code, 'detail', { file: '/f.json' });
    expect(describeError(err, 'en')).not.toContain(code);
    expect(describeError(err, 'zh')).not.toContain(code);
    expect(describeError(err, 'zh')).toMatch(/^补丁未应用：.+（\/f\.json）。\ndetail$/);
  }
});

test('anything else gives its message', () => {
  expect(describeError(new Error('disk full'), 'zh')).toBe('disk full');
  expect(describeError('x')).toBe('x');
});
