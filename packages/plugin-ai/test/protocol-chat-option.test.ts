import { z } from 'zod';
import { parseReply, replySchema } from '../src/context/protocol';

// parseReply checks a chat or error reply with that option's schema alone, so a turn that only
// talks never builds the tools' step schemas. The union it skips hands such a reply to the same
// option: every answer (data, error text, raw) must be the one the whole union gives.
const described = (error: z.ZodError) =>
  error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');

function throughUnion(value: unknown) {
  const parsed = replySchema().safeParse(value);
  return parsed.success
    ? { success: true, reply: parsed.data }
    : { success: false, error: described(parsed.error), raw: JSON.stringify(value) };
}

/** A fixed-seed generator of chat / error shaped values, good and bad. */
function values(seed: number, n: number): unknown[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const anything = [
    undefined,
    null,
    1,
    'x',
    '',
    true,
    [],
    ['a'],
    [1],
    {},
    { format: 'plain' },
    { format: 'html' },
    { suggestions: ['a', 'b'] },
    { suggestions: 'a' },
    { format: 'markdown', suggestions: [] },
    { extra: 1 },
  ];
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const v: Record<string, unknown> = { type: pick(['chat', 'error']) };
    if (rnd() < 0.85) v.message = pick(['hi', '', 3, null, ['m'], 'ok\nmore']);
    if (rnd() < 0.5) v.data = pick(anything);
    if (rnd() < 0.2) v.extra = pick(anything);
    if (rnd() < 0.1) v.commands = [{ program: 'ls' }];
    out.push(v);
  }
  return out;
}

test('a chat or error reply gets what the whole reply union gives it (2,000 values, fixed seed)', () => {
  for (const value of values(37, 2000)) {
    expect(parseReply(value)).toStrictEqual(throughUnion(value));
  }
});

test('a registry passed in does not change a chat reply, and is not asked for its step schema', () => {
  let asked = 0;
  const registry = {
    stepSchema: () => {
      asked++;
      return z.never() as unknown as z.ZodType<never>;
    },
    get: () => undefined,
  };
  expect(parseReply({ type: 'chat', message: 'hi', data: null }, registry)).toStrictEqual({
    success: true,
    reply: { type: 'chat', message: 'hi', data: null },
  });
  expect(parseReply({ type: 'error', message: 5 }, registry)).toStrictEqual(throughUnion({ type: 'error', message: 5 }));
  expect(asked).toBe(0);
  // A cmd reply still goes through the registry's steps.
  expect(parseReply({ type: 'cmd', data: { commands: [{ program: 'ls' }] } }, registry).success).toBe(false);
  expect(asked).toBe(1);
});
