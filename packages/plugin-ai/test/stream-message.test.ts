import { MessageStreamDecoder } from '../src/stream-message';

test.each([
  [['{"type":"chat","mes', 'sage":"Hel', 'lo"}'], ['Hel', 'Hello']],
  [['{"type":"chat","message":"a\\', 'nb', '\\u00', 'e9!"', ',"data":{"message":"no"}}'], ['a', 'a\nb', 'a\nbé!']],
  [['{"type":"cmd","message": "why \\"q\\"","data":{}}'], ['why "q"']],
  [['{"type":"chat"}'], []],
])('decodes %j', (chunks, expected) => {
  const d = new MessageStreamDecoder();
  const seen = chunks.map((c) => d.push(c)).filter((m): m is string => m !== undefined);
  expect(seen).toEqual(expected);
});

test('any chunking of any message decodes to JSON.parse of it (fuzz)', () => {
  const fc = require('fast-check') as typeof import('fast-check');
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 50 }), (message, cuts) => {
      const json = JSON.stringify({ type: 'chat', message, data: { message: 'x' } });
      const d = new MessageStreamDecoder();
      let last: string | undefined;
      let at = 0;
      for (let i = 0; at < json.length; i++) {
        const n = cuts[i % cuts.length];
        last = d.push(json.slice(at, at + n)) ?? last;
        at += n;
      }
      expect(last ?? '').toBe(message);
    }),
    { numRuns: 500, seed: 5 },
  );
});

test('linear: 4× the reply in 64-character chunks costs at most ~10× (it was quadratic)', () => {
  const run = (n: number) => {
    const json = JSON.stringify({ type: 'chat', message: 'x'.repeat(n) });
    const t = process.hrtime.bigint();
    const d = new MessageStreamDecoder();
    for (let i = 0; i < json.length; i += 64) d.push(json.slice(i, i + 64));
    return Number(process.hrtime.bigint() - t);
  };
  const small = Math.min(run(256 * 1024), run(256 * 1024));
  const large = Math.min(run(1024 * 1024), run(1024 * 1024));
  expect(large / Math.max(small, 2e6)).toBeLessThan(10);
});
