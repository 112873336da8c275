import { defineMessages, defineRecordMessages, tablesFromRecords } from '../src/messages';

// A JSON catalogue (`{"key": {"en": …, "zh": …}}`) read as its records answers as the same
// catalogue written as language tables does.
const RECORDS = {
  hi: { en: 'Hello {name}', zh: '你好 {name}' },
  n: { en: '{n, plural, one {# step} other {# steps}}', zh: '{n} 步' },
};

test('t, has and keys answer as defineMessages over the same texts as tables', () => {
  const records = defineRecordMessages(RECORDS);
  const tables = defineMessages(tablesFromRecords(RECORDS));
  for (const lang of ['en', 'zh'] as const) {
    expect(records.t(lang, 'hi', { name: 'Ada' })).toBe(tables.t(lang, 'hi', { name: 'Ada' }));
    for (const n of [1, 2]) expect(records.t(lang, 'n', { n })).toBe(tables.t(lang, 'n', { n }));
  }
  expect(records.t('en', 'n', { n: 1 })).toBe('1 step');
  expect(records.t('zh', 'hi', { name: 'Ada' })).toBe('你好 Ada');
  expect(records.keys()).toEqual(['hi', 'n']);
  expect(records.has('hi')).toBe(true);
  expect(records.has('toString')).toBe(false);
  expect(records.tables).toEqual(tablesFromRecords(RECORDS));
});

test('a text missing at run time falls back to English, then to the key', () => {
  const loose = { a: { en: 'A' }, b: { en: 'B', zh: '乙' } } as unknown as Record<'a' | 'b', { en: string; zh: string }>;
  const c = defineRecordMessages(loose);
  expect(c.t('zh', 'a')).toBe('A');
  expect(c.t('zh', 'b')).toBe('乙');
  expect(c.t('zh', 'gone' as 'a')).toBe('gone');
});
