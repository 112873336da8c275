import { FRAMED_CORPUS, SECRET_CORPUS, fakeToken, findLeak } from '@holic512/testkit';
import { redact, redactValue, redactedJson } from '../src';

// redactedJson is how a record becomes a line of a session file or a `--json` event: every string
// in it, keys too, passes the gate once. It used to pass twice (as a value, then the line as
// text); the second pass added only the keys. These tests hold it to that: whatever the two passes
// hid, the one pass hides.

const twoPasses = (value: unknown): string => redact(JSON.stringify(redactValue(value)));

/** The shapes a secret reaches a line in: a message, a tool result's output, an argument vector, a key, deep inside. */
const shapes: Array<[string, (text: string, secret: string) => unknown]> = [
  ['message content', (text) => ({ t: 'user', at: 'now', content: text })],
  ['tool result output', (text) => ({ t: 'tool', result: { ok: true, stdoutTail: text, parsed: { lines: text.split('\n') } } })],
  [
    'argument vector',
    (_text, secret) => ({ step: { tool: 'exec', program: 'curl', args: ['-H', `Authorization: Bearer ${secret}`, 'https://x'] } }),
  ],
  ['key of an object', (_text, secret) => ({ result: { counts: { [secret]: 1 } } })],
  ['value under a secret name', (_text, secret) => ({ env: { API_TOKEN: secret } })],
  ['inside a secret-named subtree', (_text, secret) => ({ credentials: { list: [{ value: secret }, secret] } })],
  ['program output words', (text) => ({ program: 'env', args: text.split(/\s+/) })],
  [
    'inside an array of objects',
    (text) => ({
      matches: [
        { file: 'a', text },
        { file: 'b', text: 'x' },
      ],
    }),
  ],
];

describe.each(shapes)('%s', (_shape, build) => {
  test.each([...SECRET_CORPUS, ...FRAMED_CORPUS].map((s) => [s.name, s] as const))('%s: hidden wherever two passes hid it', (_name, s) => {
    const record = build(s.text, s.secret);
    const line = redactedJson(record)!;
    expect(() => JSON.parse(line)).not.toThrow();
    if (findLeak(twoPasses(record), s.secret) === undefined) expect(findLeak(line, s.secret)).toBeUndefined();
    for (const part of s.parts ?? []) if (!twoPasses(record).includes(part)) expect(line).not.toContain(part);
  });
});

test('a secret used as a key is masked, and the line stays the same JSON', () => {
  const token = `ghp_${fakeToken('json-key', 36)}`;
  const line = redactedJson({ seen: { [token]: 2, plain: 1 } })!;
  expect(line).not.toContain(token);
  expect(JSON.parse(line).seen.plain).toBe(1);
});

test('two keys that mask alike both stay', () => {
  const a = `ghp_${fakeToken('json-a', 36)}`;
  const b = `ghp_${fakeToken('json-b', 36)}`;
  const parsed = JSON.parse(redactedJson({ [a]: 'first', [b]: 'second' })!);
  expect(Object.values(parsed).sort()).toEqual(['first', 'second']);
  expect(Object.keys(parsed)[1]).toBe(`${Object.keys(parsed)[0]} (2)`);
});

test('what JSON makes of a value (toJSON, class instances) passes the gate too', () => {
  const token = `sk-proj-${fakeToken('json-tojson', 48)}`;
  class Holder {
    constructor(readonly note: string) {}
  }
  const line = redactedJson({ when: { toJSON: () => `token ${token}` }, held: new Holder(`key ${token}`) })!;
  expect(line).not.toContain(token);
  expect(JSON.parse(line).held.note).toMatch(/^key sk-proj-\[redacted/);
});

test('deeper than the walk goes, the rest passes as JSON text', () => {
  const token = `ghp_${fakeToken('json-deep', 36)}`;
  let deep: unknown = { note: `token ${token}` };
  for (let i = 0; i < 80; i++) deep = { next: deep };
  const line = redactedJson(deep)!;
  expect(line).not.toContain(token);
  let back = JSON.parse(line);
  for (let i = 0; i < 80; i++) back = back.next;
  expect(back.note).toMatch(/^token ghp_\[redacted/);
});

test('values JSON has no text for stay as JSON says', () => {
  expect(redactedJson(undefined)).toBeUndefined();
  expect(redactedJson({ a: undefined, b: 1, c: null, d: true })).toBe('{"b":1,"c":null,"d":true}');
  expect(redactedJson('plain words')).toBe('"plain words"');
});
