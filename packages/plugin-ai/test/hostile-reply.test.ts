import { useAiFixture } from '@holic512/testkit';
import { parseReply } from '../src/context/protocol';
import { runAi } from './run-bin';

// A model reply holding a value nested 100 000 deep (or a huge one) is a protocol error the model
// is told about, never a crash.
const deepText = (n: number) =>
  `{"type":"cmd","message":"","data":{"commands":[{"tool":"config.json_patch","file":"a.json","patch":[{"op":"add","path":"/a","value":${'['.repeat(n)}${']'.repeat(n)}}]}]}}`;

test('parseReply answers over-deep and over-large replies with an error, as text and as a value', () => {
  const r = parseReply(deepText(100_000));
  expect(r).toMatchObject({ success: false, error: expect.stringContaining('nested deeper than 64 levels') });
  let v: unknown = 1;
  for (let i = 0; i < 100_000; i++) v = { a: v };
  expect(
    parseReply({
      type: 'cmd',
      message: '',
      data: { commands: [{ tool: 'config.json_patch', file: 'a.json', patch: [{ op: 'add', path: '/a', value: v }] }] },
    }),
  ).toMatchObject({ success: false });
  const wide = { type: 'chat', message: 'x', data: { suggestions: Array.from({ length: 300_000 }, () => 's') } };
  expect(parseReply(wide)).toMatchObject({ success: false, error: expect.stringContaining('more than 200000 values') });
  expect(parseReply({ type: 'chat', message: 'fine', data: { suggestions: ['a'] } })).toMatchObject({ success: true });
});

describe('end to end', () => {
  const fx = useAiFixture({ profile: { timeout: 20000 } });

  test('ai -p with a 100 000-deep reply: one repair request says why, then a clear answer; no stack trace', async () => {
    fx.server.enqueue({ content: deepText(100_000) }, { json: { type: 'chat', message: 'sorry, here is a small answer' } });
    const r = await runAi(['-p', 'do it'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.stderr).not.toMatch(/RangeError|Maximum call stack|at .*\.js:\d+/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sorry, here is a small answer');
    const repair = fx.server.requests[1].body.messages.at(-1).content as string;
    expect(repair).toContain('nested deeper than 64 levels');
  });
});
