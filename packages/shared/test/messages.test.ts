import { catalogueProblems, defineMessages, fill, placeholders, tablesFromRecords } from '../src/messages';

describe('fill', () => {
  test('placeholders by name; a missing one stays as written', () => {
    expect(fill('{a} and {b}', { a: 1 })).toBe('1 and {b}');
    expect(fill('no placeholders')).toBe('no placeholders');
    expect(fill('{a}{a}', { a: 'x' })).toBe('xx');
  });
  test('values are inserted as they are, never read as templates', () => {
    expect(fill('{a}', { a: '{b}', b: 'no' })).toBe('{b}');
    expect(fill('{a}', { a: '$& $1' })).toBe('$& $1');
  });
  test('plural forms by the language rules, # is the number', () => {
    const m = '{n, plural, one {# model} other {# models}} ready';
    expect(fill(m, { n: 1 })).toBe('1 model ready');
    expect(fill(m, { n: 0 })).toBe('0 models ready');
    expect(fill(m, { n: 2 })).toBe('2 models ready');
    expect(fill(m, { n: 1 }, 'zh')).toBe('1 models ready'); // zh has only `other`: zh tables write `{n} 个`
  });
  test('exact forms and placeholders inside a form', () => {
    const m = '{n, plural, =0 {nothing in {dir}} one {# file in {dir}} other {# files in {dir}}}';
    expect(fill(m, { n: 0, dir: 'src' })).toBe('nothing in src');
    expect(fill(m, { n: 1, dir: 'src' })).toBe('1 file in src');
    expect(fill(m, { n: 7, dir: 'src' })).toBe('7 files in src');
    expect(fill(m, { dir: 'src' })).toBe(m.replace(/\{dir\}/g, '{dir}'));
  });
});

describe('catalogues', () => {
  const c = defineMessages({
    en: { hi: 'Hello {name}', n: '{n, plural, one {# step} other {# steps}}' },
    zh: { hi: '你好 {name}', n: '{n} 步' },
  });
  test('t by language', () => {
    expect(c.t('en', 'hi', { name: 'A' })).toBe('Hello A');
    expect(c.t('zh', 'hi', { name: 'A' })).toBe('你好 A');
    expect(c.t('en', 'n', { n: 1 })).toBe('1 step');
    expect(c.t('zh', 'n', { n: 3 })).toBe('3 步');
    expect(c.has('hi')).toBe(true);
    expect(c.has('nope')).toBe(false);
    expect(c.keys()).toEqual(['hi', 'n']);
  });
  test('records become tables', () => {
    expect(tablesFromRecords({ a: { zh: '甲', en: 'A' } })).toEqual({ zh: { a: '甲' }, en: { a: 'A' } });
  });
  test('the check names missing texts and differing placeholders', () => {
    expect(placeholders('{n, plural, one {# in {dir}} other {# in {dir}}} {x}')).toEqual(['dir', 'n', 'x']);
    expect(catalogueProblems('t', { en: { a: '{x}', b: 'B', c: 'C' }, zh: { a: '{y}', b: '', d: 'D' } as never }).sort()).toEqual([
      't: a fills {x} in English but {y} in Chinese',
      't: b has no Chinese text',
      't: c has no Chinese text',
      't: d has no English text',
    ]);
  });
});
