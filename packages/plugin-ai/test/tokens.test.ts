import { estimateTokens, truncateHead, truncateTail } from '../src/context/tokens';

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
