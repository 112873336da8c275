import { promises as fs } from 'fs';
import * as path from 'path';
import { useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// Transports through the real bin and this repo's llm-base: native tool calls (the registry's
// tools as OpenAI tools, streamed calls judged and run like JSON steps, results as tool messages
// with their ids) and the reply's JSON Schema as response_format.
describe('transport tools', () => {
  const fx = useAiFixture({ profile: { transport: 'tools' } });

  test('every tool goes out with its schema; streamed calls are judged (L2 refused) and answered as tool messages', async () => {
    await fs.writeFile(path.join(fx.cwd, 'a.txt'), 'alpha\n');
    fx.server.enqueue(
      {
        content: 'Looking.',
        toolCalls: [
          { id: 'call_read', name: 'fs__read', arguments: { path: 'a.txt' } },
          { id: 'call_rm', name: 'exec', arguments: { program: 'rm', args: ['-rf', '/'] } },
        ],
      },
      { content: 'The file says alpha; I will not delete everything.' },
    );
    const r = await runAi(['-p', 'read a.txt then wipe the disk', '--json'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    const first = fx.server.requests[0].body;
    const names = (first.tools as Array<{ function: { name: string; parameters: { properties?: Record<string, unknown> } } }>).map(
      (t) => t.function.name,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'exec',
        'plugin__run',
        'config__json_patch',
        'fs__read',
        'fs__edit',
        'fs__write',
        'http__get',
        'proc__start',
        'proc__status',
        'proc__kill',
      ]),
    );
    const read = (first.tools as Array<{ function: { name: string; parameters: { properties: Record<string, unknown> } } }>).find(
      (t) => t.function.name === 'fs__read',
    )!;
    expect(Object.keys(read.function.parameters.properties)).toEqual(expect.arrayContaining(['path', 'offset', 'limit']));
    expect(JSON.stringify(first.messages)).not.toContain('EXACTLY ONE JSON object');
    expect(first.stream).toBe(true);

    const results = r.events.filter((e) => e.type === 'tool_result').map((e) => e.result);
    expect(results[0]).toMatchObject({ tool: 'fs.read', decision: { level: 'L0' } });
    expect(results[1]).toMatchObject({ tool: 'exec', status: 'blocked', decision: { level: 'L2' } });

    const second = fx.server.requests[1].body.messages as Array<Record<string, any>>;
    const call = second.find((m) => m.role === 'assistant' && m.tool_calls);
    expect(call!.tool_calls.map((c: { id: string }) => c.id)).toEqual(['call_read', 'call_rm']);
    const tools = second.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.tool_call_id)).toEqual(['call_read', 'call_rm']);
    expect(tools[0].content).toContain('alpha');
    expect(tools[1].content).toContain('"status":"blocked"');
    expect(r.events.find((e) => e.type === 'final')).toMatchObject({
      outcome: 'answered',
      message: 'The file says alpha; I will not delete everything.',
    });
  });

  test('a call with arguments that do not validate gets one repair round', async () => {
    fx.server.enqueue(
      { content: '', toolCalls: [{ id: 'c1', name: 'fs__read', arguments: '{"file": 3}' }] },
      { content: '', toolCalls: [{ id: 'c2', name: 'fs__read', arguments: { path: 'missing.txt' } }] },
      { content: 'No such file.' },
    );
    const r = await runAi(['-p', 'read it', '--json'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.events.find((e) => e.type === 'repair')).toBeDefined();
    const repair = fx.server.requests[1].body.messages as Array<Record<string, any>>;
    expect(repair.at(-1)!.content).toContain('could not be used');
    expect(repair.find((m) => m.role === 'tool')).toMatchObject({ tool_call_id: 'c1' });
    expect(r.events.find((e) => e.type === 'final')).toMatchObject({ message: 'No such file.' });
  });

  test('the tools and the system prompt are byte-identical from one request to the next', async () => {
    fx.server.enqueue({ content: '', toolCalls: [{ name: 'fs__read', arguments: { path: 'x' } }] }, { content: 'ok' });
    await runAi(['-p', 'go'], { env: fx.temp.env, cwd: fx.cwd });
    const [a, b] = fx.server.requests.map((q) => q.body);
    expect(JSON.stringify(b.tools)).toBe(JSON.stringify(a.tools));
    expect(b.messages[0]).toEqual(a.messages[0]);
  });
});

describe('transport json_schema', () => {
  const fx = useAiFixture({ profile: { transport: 'json_schema' } });

  test("requests carry the reply's JSON Schema, built from the same tool schemas", async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'hi' } });
    const r = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    const format = fx.server.requests[0].body.response_format;
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'reply' } });
    const schema = JSON.stringify(format.json_schema.schema);
    for (const word of ['"chat"', '"cmd"', '"error"', '"fs.read"', '"exec"', 'old_string']) expect(schema).toContain(word);
  });
});

describe('transport auto', () => {
  const fx = useAiFixture({
    profile: { capabilities: { tools: true, json_schema: true, json_object: true, probed_at: '2026-11-24T00:00:00.000Z' } },
  });

  test('a profile whose probe passed tools gets native tool calls', async () => {
    fx.server.enqueue({ content: 'hello' });
    const r = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.stdout).toContain('hello');
    expect(Array.isArray(fx.server.requests[0].body.tools)).toBe(true);
  });
});

describe('transport tools with an MCP server', () => {
  const fx = useAiFixture({ profile: { transport: 'tools' } });

  test("an MCP tool goes out with its server's own schema and its call runs as mcp.<server>.<tool>", async () => {
    const { testMcpStdioCommand } = require('@holic512/testkit') as typeof import('@holic512/testkit');
    await fx.temp.writeJson('plugin-configs/ai.json', { mcpServers: { kit: testMcpStdioCommand() } });
    fx.server.enqueue({ content: '', toolCalls: [{ id: 'c1', name: 'mcp__kit__add', arguments: { a: 2, b: 5 } }] }, { content: 'seven' });
    const r = await runAi(['-p', 'add', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
    const add = (
      fx.server.requests[0].body.tools as Array<{ function: { name: string; parameters: { properties?: Record<string, unknown> } } }>
    ).find((t) => t.function.name === 'mcp__kit__add');
    expect(Object.keys(add!.function.parameters.properties ?? {}).sort()).toEqual(['a', 'b']);
    expect(r.events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { tool: 'mcp.kit.add', content: '7' } });
    const back = (fx.server.requests[1].body.messages as Array<Record<string, any>>).find((m) => m.role === 'tool');
    expect(back).toMatchObject({ tool_call_id: 'c1' });
  });
});
