import { CJK, estimateTokens, isCjkUnit, truncateHead, truncateTail } from '../src/context/tokens';

test.each([
  ['', 0],
  ['abcd', 1],
  ['abcde', 2],
  ['你好世界', 4],
  ['こんにちは', 5],
  ['안녕', 2],
  ['hello 你好', 4],
  ['，。', 2],
])('estimateTokens(%j) = %d', (text, tokens) => {
  expect(estimateTokens(text)).toBe(tokens);
});

test('truncation keeps within the budget, head or tail', () => {
  const text = 'a'.repeat(1000) + '中'.repeat(1000);
  const head = truncateHead(text, 100);
  const tail = truncateTail(text, 100);
  expect(estimateTokens(head)).toBeLessThanOrEqual(100);
  expect(estimateTokens(tail)).toBeLessThanOrEqual(100);
  expect(head.startsWith('aaaa')).toBe(true);
  expect(tail.endsWith('中中')).toBe(true);
  expect(truncateHead('short', 100)).toBe('short');
});

test('emoji and other astral characters count as one token each', () => {
  expect(estimateTokens('😀😀')).toBe(2);
  expect(estimateTokens('a😀')).toBe(2);
});

test('long texts give the same estimate as counted one character at a time, however often and in whatever order they are asked (kept answers included)', () => {
  // A fixed-seed generator: texts of 100-3000 characters mixing ASCII, CJK and emoji.
  let seed = 37;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const pieces = ['a', 'bc ', '中', '文字', '😀', 'é', '\n', '{"k":1}'];
  const texts = Array.from({ length: 60 }, () => Array.from({ length: 50 + rand(1500) }, () => pieces[rand(pieces.length)]).join(''));
  const slow = (text: string) =>
    Math.ceil([...text].reduce((sum, ch) => sum + (ch.length > 1 ? 1 : /[\u3000-\u9fff]/.test(ch) ? 1 : 0.25), 0));
  for (let round = 0; round < 3; round++) {
    for (const text of texts) expect(estimateTokens(text)).toBe(slow(text));
    // a new string with the same characters, and a text differing in one character at the end
    for (const text of texts.slice(0, 10)) {
      expect(estimateTokens(`${text.slice(0, -1)}${text.slice(-1)}`)).toBe(slow(text));
      expect(estimateTokens(`${text.slice(0, -1)}中`)).toBe(slow(`${text.slice(0, -1)}中`));
    }
  }
  // more than the kept answers hold: still right
  const big = Array.from({ length: 40 }, (_, i) => 'x'.repeat(60_000 + i) + '中'.repeat(i));
  for (const text of [...big, ...big]) expect(estimateTokens(text)).toBe(slow(text));
});

test('the code-unit test of the truncations holds the same CJK ranges as the estimate, over every code unit', () => {
  const differ: number[] = [];
  for (let c = 0; c <= 0xffff; c++) if (isCjkUnit(c) !== CJK.test(String.fromCharCode(c))) differ.push(c);
  expect(differ).toEqual([]);
});

describe('truncation by code units cuts where cutting character by character cut', () => {
  // The definition the truncations keep (a text split into characters, each costed by the CJK
  // expression), as they were written before they read code units only as far as the budget goes.
  const cost = (ch: string): number => (ch.length > 1 ? 1 : CJK.test(ch) ? 1 : 0.25);
  const MARK = '…[truncated]…';
  const headByCharacters = (text: string, maxTokens: number): string => {
    if (estimateTokens(text) <= maxTokens) return text;
    const budget = Math.max(0, maxTokens - estimateTokens(MARK));
    let sum = 0;
    let out = '';
    for (const ch of text) {
      sum += cost(ch);
      if (sum > budget) break;
      out += ch;
    }
    return out + MARK;
  };
  const tailByCharacters = (text: string, maxTokens: number): string => {
    if (estimateTokens(text) <= maxTokens) return text;
    const budget = Math.max(0, maxTokens - estimateTokens(MARK));
    const chars = Array.from(text);
    let sum = 0;
    let i = chars.length;
    while (i > 0 && sum + cost(chars[i - 1]) <= budget) sum += cost(chars[--i]);
    return MARK + chars.slice(i).join('');
  };
  // A fixed-seed generator: ASCII, CJK, Hangul, full-width forms, emoji (surrogate pairs) and lone surrogates.
  let seed = 20261127;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const pieces = ['a', 'bc ', '中', '文字', '한', 'ｱ', '😀', '\ud83d', '\ude00', 'é', '\n', '{"k":1}', '\u3000', '\u2e80'];
  const texts = Array.from({ length: 300 }, () => Array.from({ length: rand(400) }, () => pieces[rand(pieces.length)]).join(''));

  test.each([0, 1, 3, 4, 5, 8, 13, 40, 100])('budget %d tokens', (maxTokens) => {
    for (const text of texts) {
      expect(truncateHead(text, maxTokens)).toBe(headByCharacters(text, maxTokens));
      expect(truncateTail(text, maxTokens)).toBe(tailByCharacters(text, maxTokens));
    }
  });
});
