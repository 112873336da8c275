import { MessageStreamDecoder } from '../src/context/stream-message';

test.each([
  [
    ['{"type":"chat","mes', 'sage":"Hel', 'lo"}'],
    ['Hel', 'Hello'],
  ],
  [
    ['{"type":"chat","message":"a\\', 'nb', '\\u00', 'e9!"', ',"data":{"message":"no"}}'],
    ['a', 'a\nb', 'a\nbé!'],
  ],
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
    fc.property(
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 50 }),
      (message, cuts) => {
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
      },
    ),
    { numRuns: 500, seed: 5 },
  );
});

test('linear: each delta is looked at with at most a few carried characters, however long the reply (it was quadratic)', () => {
  // Work counted, not timed: a push scans its delta plus what the decoder carried over, so the
  // carried text must stay bounded (the key window before the message, an unfinished escape
  // inside it) for 1 MB in 64-character chunks to cost 1 MB of scanning.
  const message = 'x\\u00e9y\\n'.repeat((1024 * 1024) / 10);
  const json = JSON.stringify({ type: 'chat', message: JSON.parse(`"${message}"`) });
  const d = new MessageStreamDecoder();
  let carriedMost = 0;
  let last: string | undefined;
  for (let i = 0; i < json.length; i += 64) {
    last = d.push(json.slice(i, i + 64)) ?? last;
    carriedMost = Math.max(carriedMost, (d as unknown as { pending: string }).pending.length);
  }
  expect(last).toBe(JSON.parse(json).message);
  expect(carriedMost).toBeLessThanOrEqual(64);
});
