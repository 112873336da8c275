import { createAiFixture, type AiFixture, type RecordedRequest, type ScriptedServer, type TempHome } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { createAppAgent } from '../src/cli/app';
import { SUMMARY_MARKER } from '../src/context/prompt';

/**
 * 210 turns through the real parts (this repo's llm-base over HTTP to the scripted server,
 * the real tool-runner running `cat` on files of ~100 KB, sessions and audit on disk):
 * every request stays under the budget, and late requests are no bigger than early ones.
 */
let fx: AiFixture;
let temp: TempHome;
let server: ScriptedServer;
const saved = { SLOTHTOOL_HOME: process.env.SLOTHTOOL_HOME, HOME: process.env.HOME };

beforeAll(async () => {
  fx = await createAiFixture({
    language: 'zh',
    server: { chunkSize: 512 } /* streamed, in fewer chunks */,
    profile: { low_model: 'test-low', high_model: 'test-high' },
  });
  ({ temp, server } = fx);
  // llm-base is loaded in this process and reads its home from process.env
  process.env.SLOTHTOOL_HOME = temp.slothtoolHome;
  process.env.HOME = temp.home;
});
afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await fx.cleanup();
});

function lastContent(req: RecordedRequest): string {
  const messages = req.body.messages as Array<{ content: string }>;
  return messages[messages.length - 1].content;
}

test('request size is bounded and flat over 210 turns with large outputs', async () => {
  const cwd = fx.cwd;
  await fs.writeFile(path.join(cwd, 'big-en.log'), 'INFO request handled in 12ms path=/api/items?page=3\n'.repeat(2000));
  await fs.writeFile(path.join(cwd, 'big-zh.log'), '信息 请求已处理 路径为 接口 物品 第三页\n'.repeat(3000));

  let turn = 0;
  server.setHandler((req) => {
    const system = (req.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
    if (system.includes(SUMMARY_MARKER)) {
      return {
        json: {
          summary: `第 ${turn} 轮之前: 用户在检查日志。`.repeat(30),
          keyFacts: ['logs are large', '日志很大'],
          openTasks: ['keep checking'],
        },
      };
    }
    if (lastContent(req).includes('"_event":"tool_result"')) {
      return { json: { type: 'chat', message: `第 ${turn} 轮: 日志看起来正常。` + 'All requests were handled quickly. '.repeat(80) } };
    }
    return {
      json: {
        type: 'cmd',
        message: 'read the log',
        data: { cwd: null, commands: [{ program: 'cat', args: [turn % 2 ? 'big-zh.log' : 'big-en.log'] }] },
      },
    };
  });

  const { agent, config } = createAppAgent({ env: temp.env, cwd, lang: 'zh' });
  for (turn = 0; turn < 210; turn++) {
    const result = await agent.send(`turn ${turn}: check the log again and tell me if anything changed. ` + '请仔细检查。'.repeat(50));
    expect(result.outcome).toBe('answered');
  }

  const budget = config.context.maxRequestTokens;
  const sizes = server.requests.map((r) => Buffer.byteLength(JSON.stringify(r.body.messages)));
  const chars = server.requests.map((r) => JSON.stringify(r.body.messages).length);
  expect(server.requests.length).toBeGreaterThanOrEqual(420);
  // every request, including llm-base's own system message, under the budget in characters
  // (a token is at least one character, so chars ≤ budget × 4 bounds the ASCII-only case)
  expect(Math.max(...chars)).toBeLessThanOrEqual(budget * 4);
  // flat: the last 100 requests are no larger than the largest of requests 40–140
  expect(Math.max(...sizes.slice(-100))).toBeLessThanOrEqual(Math.max(...sizes.slice(40, 140)) * 1.05);
  expect(agent.contextSizes().total).toBeLessThanOrEqual(budget);
  expect(agent.summary()).not.toBeNull();
}, 180000);
