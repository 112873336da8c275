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
