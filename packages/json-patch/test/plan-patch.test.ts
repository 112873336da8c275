import { eachReturns } from '@holic512/testkit';
import { MASK, isSecretKey, planPatch } from '../src/index';

describe('planPatch', () => {
  test('lists added, removed and changed values and a summary', () => {
    const plan = planPatch({ language: 'zh', old: 1, list: [1, 2] }, [
      { op: 'replace', path: '/language', value: 'en' },
      { op: 'remove', path: '/old' },
      { op: 'add', path: '/theme', value: 'dark' },
      { op: 'add', path: '/list/-', value: 3 },
    ]);
    expect(plan.after).toStrictEqual({ language: 'en', list: [1, 2, 3], theme: 'dark' });
    expect(plan.changes).toStrictEqual([
      { path: '/language', kind: 'changed', before: 'zh', after: 'en' },
      { path: '/old', kind: 'removed', before: 1 },
      { path: '/list/2', kind: 'added', after: 3 },
      { path: '/theme', kind: 'added', after: 'dark' },
    ]);
    expect(plan.summary).toBe(['~ /language: "zh" -> "en"', '- /old: 1', '+ /list/2: 3', '+ /theme: "dark"'].join('\n'));
  });

  test.each([
    ['an insertion at the front', [{ op: 'add', path: '/l/0', value: 'z' }], [{ path: '/l/0', kind: 'added', after: 'z' }]],
    ['an insertion in the middle', [{ op: 'add', path: '/l/1', value: 'z' }], [{ path: '/l/1', kind: 'added', after: 'z' }]],
    ['a removal at the front', [{ op: 'remove', path: '/l/0' }], [{ path: '/l/0', kind: 'removed', before: 'a' }]],
    ['a replacement', [{ op: 'replace', path: '/l/1', value: 'z' }], [{ path: '/l/1', kind: 'changed', before: 'b', after: 'z' }]],
    ['an append', [{ op: 'add', path: '/l/-', value: 'z' }], [{ path: '/l/3', kind: 'added', after: 'z' }]],
  ])('array diff: %s is one change', (_name, ops, changes) => {
    expect(planPatch({ l: ['a', 'b', 'c'] }, ops).changes).toStrictEqual(changes);
  });

  test('no changes', () => {
    const plan = planPatch({ a: 1 }, [{ op: 'set', path: '/a', value: 1 }]);
    expect(plan.changes).toEqual([]);
    expect(plan.summary).toBe('no changes');
  });

  test('speaks Chinese when asked', () => {
    expect(planPatch({}, [], { lang: 'zh' }).summary).toBe('没有变化');
    const ops = Array.from({ length: 3 }, (_, i) => ({ op: 'set', path: `/k${i}`, value: i }));
    expect(planPatch({}, ops, { lang: 'zh', maxLines: 1 }).summary).toBe('+ /k0: 0\n……还有 2 项');
    expect(planPatch({ a: 1 }, [{ op: 'replace', path: '', value: 2 }], { lang: 'zh' }).summary).toBe('~ （整个文档）: {"a":1} -> 2');
  });

  test('caps the summary', () => {
    const ops = Array.from({ length: 30 }, (_, i) => ({ op: 'set', path: `/k${i}`, value: i }));
    const plan = planPatch({}, ops, { maxLines: 5 });
    expect(plan.summary.split('\n')).toHaveLength(6);
    expect(plan.summary).toMatch(/and 25 more$/);
  });

  test.each([
    ['api_key', '/profiles/local/api_key'],
    ['token', '/token'],
    ['password', '/db/password'],
    ['client_secret', '/client_secret'],
    ['apiKey', '/apiKey'],
    ['access_token', '/auth/access_token'],
  ])('masks a value under %s', (_key, path) => {
    const plan = planPatch({ db: {}, auth: {}, profiles: { local: {} } }, [{ op: 'set', path, value: 'sk-SECRET-123' }]);
    expect(plan.changes).toStrictEqual([{ path, kind: 'added', after: expect.stringMatching(/^\[redacted secret, 13 chars\]$/) }]);
    expect(JSON.stringify(plan.changes)).not.toContain('sk-SECRET-123');
    expect(plan.summary).not.toContain('sk-SECRET-123');
    expect(JSON.stringify(plan.after)).toContain('sk-SECRET-123');
  });

  test('masks secrets inside an added object, and old values too', () => {
    const plan = planPatch({ profiles: { a: { api_key: 'OLD-KEY', model: 'm1' } } }, [
      { op: 'replace', path: '/profiles/a/api_key', value: 'NEW-KEY' },
      { op: 'add', path: '/profiles/b', value: { base_url: 'http://x', api_key: 'B-KEY', nested: { password: 'P' } } },
      { op: 'remove', path: '/profiles/a/model' },
    ]);
    const text = JSON.stringify(plan.changes) + plan.summary;
    for (const secret of ['OLD-KEY', 'NEW-KEY', 'B-KEY', '"P"']) expect(text).not.toContain(secret);
    expect(text).toContain('http://x');
    expect(plan.changes).toContainEqual({
      path: '/profiles/a/api_key',
      kind: 'changed',
      before: `${MASK} secret, 7 chars]`,
      after: `${MASK} secret, 7 chars]`,
    });
  });

  eachReturns('isSecretKey(%s) is %s', isSecretKey, [
    ['api_key', true],
    ['API-KEY', true],
    ['refreshToken', true],
    ['secret', true],
    ['passwd', true],
    ['language', false],
    ['max_tokens', false],
    ['input_tokens', false],
    ['base_url', false],
    ['author', false],
  ]);
});
