import { promises as fs } from 'fs';
import * as path from 'path';
import { prefixStats, useAiFixture, type RecordedRequest } from '@holic512/testkit';
import { runAi } from './run-bin';

// `ai -p … --continue` through the real bin and this repo's llm-base: every request of a session
// keeps the one before it as an exact prefix, message by message, across steps, turns and
// processes: what the model server received, for the JSON protocol, native tool calls and
// Ollama's native API.

const TURNS = 3;
const prompt = (n: number) => `turn ${n}: read the note and list the folder`;
type Message = { role: string; content?: unknown };
const turnOf = (messages: Message[]) =>
  Number(
    /turn (\d+)/.exec(
      String(messages.filter((m) => m.role === 'user' && /turn \d+:/.test(String(m.content))).at(-1)?.content ?? ''),
    )?.[1] ?? 0,
  );

/** The model on the JSON protocol: two steps a turn (read the note, list the folder), then an answer naming the turn. */
function jsonProtocolReply(messages: Message[]) {
  if (String(messages.at(-1)?.content).includes('"_event":"tool_result"'))
    return { json: { type: 'chat', message: `turn ${turnOf(messages)} done` } };
  return {
    json: {
      type: 'cmd',
      message: 'look',
      data: {
        cwd: null,
        commands: [
          { tool: 'fs.read', path: 'note.txt' },
          { tool: 'fs.glob', pattern: '*.txt' },
        ],
      },
    },
  };
}

async function session(fx: { env: NodeJS.ProcessEnv; cwd: string }): Promise<void> {
  await fs.writeFile(path.join(fx.cwd, 'note.txt'), 'remember the milk\n');
  for (let n = 1; n <= TURNS; n++) {
    const r = await runAi(['-p', prompt(n), ...(n > 1 ? ['--continue'] : [])], { env: fx.env, cwd: fx.cwd });
    expect([n, r.code, r.stderr]).toEqual([n, 0, expect.any(String)]);
  }
}

function expectEveryRequestExtendsTheLast(requests: RecordedRequest[]): void {
  const messages = requests.map((q) => q.body.messages as Array<Record<string, unknown>>);
  expect(messages).toHaveLength(TURNS * 2);
  const stats = prefixStats(messages);
  expect(stats.requests.map((r, i) => [i, i === 0 || r.extendsPrevious])).toEqual(messages.map((_, i) => [i, true]));
  expect(stats.kept).toBe(stats.pairs);
}

describe('the JSON protocol', () => {
  const fx = useAiFixture({});
  test('three processes, two steps a turn: each request extends the one before', async () => {
    fx.server.setHandler((req) => jsonProtocolReply(req.body.messages));
    await session({ env: fx.env, cwd: fx.cwd });
    expectEveryRequestExtendsTheLast(fx.server.requests);
  });
});

describe('native tool calls', () => {
  const fx = useAiFixture({ profile: { transport: 'tools' } });
  test('three processes, two calls a turn: each request extends the one before, calls and results included', async () => {
    fx.server.setHandler((req) => {
      const msgs = req.body.messages;
      const n = turnOf(msgs);
      if (msgs.at(-1).role === 'tool') return { content: `turn ${n} done` };
      return {
        content: '',
        toolCalls: [
          { id: `read_${n}`, name: 'fs__read', arguments: { path: 'note.txt' } },
          { id: `glob_${n}`, name: 'fs__glob', arguments: { pattern: '*.txt' } },
        ],
      };
    });
    await session({ env: fx.env, cwd: fx.cwd });
    expectEveryRequestExtendsTheLast(fx.server.requests);
    const last = fx.server.requests.at(-1)!.body.messages as Array<Record<string, any>>;
    expect(last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual([
      'read_1',
      'glob_1',
      'read_2',
      'glob_2',
      'read_3',
      'glob_3',
    ]);
  });
});

describe("Ollama's native API", () => {
  const fx = useAiFixture({
    ollama: { models: [{ name: 'qwen2.5:7b' }] },
    profile: { low_model: 'qwen2.5:7b', high_model: 'qwen2.5:7b', json_mode: 'response_format' },
  });
  test('three processes, two steps a turn: each /api/chat request extends the one before', async () => {
    fx.server.setHandler((req) => jsonProtocolReply((req.body as { messages: Message[] }).messages));
    await session({ env: fx.env, cwd: fx.cwd });
    expectEveryRequestExtendsTheLast(fx.server.requests.filter((r) => r.path === '/api/chat'));
  });
});
