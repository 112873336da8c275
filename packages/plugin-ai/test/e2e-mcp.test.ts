import { startTestMcpHttpServer, testMcpStdioCommand, until, type TestMcpHttpServer } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { projectExtras, TrustStore } from '../src/extensions/trust';
import { useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// MCP servers in a session, end to end through the real `ai` bin: configured from a Claude-style
// `mcpServers` block, their tools offered as mcp.<server>.<tool>, judged (L1 asks), the result
// redacted, and a project's .mcp.json ignored until the folder is trusted.
const fx = useAiFixture();
const SECRET = 'sk-proj-' + 'Q7f2Lm9Xc4Vb8Nn1Rt6Yw3Ks5Hd0Jp2Ga7Ue4Zi9Oq1'.repeat(2);
const cmd = (...commands: object[]) => ({ json: { type: 'cmd', message: 'mcp', data: { cwd: null, commands } } });
const chat = (message: string) => ({ json: { type: 'chat', message } });
const stdioEntry = (env: Record<string, string> = {}) => ({ ...testMcpStdioCommand(), env: { TESTKIT_MCP_SECRET: SECRET, ...env } });

function systemOf(request: { body: { messages: Array<{ role: string; content: string }> } }): string {
  return request.body.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
}

test('a stdio server from ai.json: tool names in the prompt, L1 asked, result redacted, /mcp shows it', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { mcpServers: { kit: stdioEntry() } });
  fx.server.enqueue(cmd({ tool: 'mcp.kit.read_secret', arguments: {} }), chat('done'));
  // The question is answered by the next line ("y"); then /mcp.
  const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.cwd, input: 'read the token\ny\n/mcp\n/mcp kit\n' });
  expect(r.code).toBe(0);
  const system = systemOf(fx.server.requests[0]);
  expect(system).toContain('MCP tools');
  expect(system).toMatch(/- kit: .*read_secret/);
  expect(system).not.toContain('Read the service token'); // descriptions and schemas only on demand
  // The step was asked about (L1), ran, and its result reached the model without the secret.
  expect(r.stdout).toMatch(/\[L1\] mcp\.kit\.read_secret/);
  expect(r.stdout).toContain("don't ask again for `mcp.kit.read_secret` in this project");
  const second = JSON.stringify(fx.server.requests[1].body.messages);
  expect(second).toContain('the token is');
  expect(second).not.toContain(SECRET);
  expect(second).toContain('[redacted');
  expect(r.stdout).toMatch(/kit .*connected · 7 tools/);
  expect(r.stdout).toContain('write_note');
});

test('a secret an MCP server is configured with is a known value: shapeless, it is still masked in what comes back', async () => {
  const plain = 'correct-horse-battery-staple-42';
  await fx.temp.writeJson('plugin-configs/ai.json', { mcpServers: { kit: stdioEntry({ TESTKIT_MCP_SECRET: plain }) } });
  fx.server.enqueue(cmd({ tool: 'mcp.kit.read_secret', arguments: {} }), chat('done'));
  const r = await runAi(['-p', 'token', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const second = JSON.stringify(fx.server.requests[1].body.messages);
  expect(second).toContain('the token is');
  expect(second).not.toContain(plain);
  expect(r.stdout).not.toContain(plain);
});

test.each([
  [
    'en',
    'MCP server kit · tool write_file',
    '(+1,420 chars)',
    'the server says (unchecked): may change things · destructive · idempotent · closed world',
    'allow `mcp.kit.write_file` for this session',
    '1–5 · y/a/n/p/d · Esc declines',
  ],
  [
    'zh',
    'MCP 服务器 kit · 工具 write_file',
    '(另 1,420 个字符)',
    '服务器自称(未经核实): 可能改动内容 · 有破坏性 · 幂等 · 不访问外部',
    '在本会话中允许 `mcp.kit.write_file`',
    '1–5 · y/a/n/p/d · Esc 拒绝',
  ],
])(
  'the question about an MCP call shows its server, tool, arguments (cut, redacted) and the server hints (%s)',
  async (lang, origin, cut, hints, allow, keys) => {
    await fx.temp.writeJson('settings.json', { language: lang });
    await fx.temp.writeJson('plugin-configs/ai.json', { mcpServers: { kit: stdioEntry() } });
    const content = 'abc'.repeat(500);
    // The token comes first: the one-line step label shows it too, and must mask it.
    fx.server.enqueue(
      cmd({ tool: 'mcp.kit.write_file', arguments: { token: SECRET, path: '/srv/notes/today.md', content } }),
      chat('done'),
    );
    const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.cwd, input: 'save it\nn\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mcp.kit.write_file');
    expect(r.stdout).toContain(origin);
    expect(r.stdout).toContain('path: "/srv/notes/today.md"');
    expect(r.stdout).toContain(`content: "${content.slice(0, 80)}…" ${cut}`);
    expect(r.stdout).toContain(hints);
    expect(r.stdout).toContain(allow);
    expect(r.stdout).toContain(keys);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).toContain('token: "[redacted');
  },
);

test('in -p an MCP call is L1: declined without --approve-l1, run with it', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { mcpServers: { kit: stdioEntry() } });
  fx.server.enqueue(cmd({ tool: 'mcp.kit.add', arguments: { a: 2, b: 3 } }), chat('no'));
  const declined = await runAi(['-p', 'add', '--json'], { env: fx.temp.env, cwd: fx.cwd });
  expect(declined.events.find((e) => e.type === 'step')).toMatchObject({
    decision: { level: 'L1', rules: [expect.objectContaining({ id: 'mcp.call' })] },
  });
  expect(declined.events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { status: 'declined' } });

  fx.server.enqueue(cmd({ tool: 'mcp.kit.add', arguments: { a: 2, b: 3 } }), chat('five'));
  const ran = await runAi(['-p', 'add', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  expect(ran.code).toBe(0);
  expect(ran.events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { tool: 'mcp.kit.add', content: '5' } });
});

test("mcp.describe brings a schema on demand (L0); a trusted server's read-only tool runs without a question", async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { mcpServers: { kit: { ...stdioEntry(), trusted: true } } });
  fx.server.enqueue(
    cmd(
      { tool: 'mcp.describe', name: 'mcp.kit.add' },
      { tool: 'mcp.kit.add', arguments: { a: 1, b: 1 } },
      { tool: 'mcp.kit.write_note', arguments: { name: 'x', text: 'y' } },
    ),
    chat('ok'),
  );
  const r = await runAi(['-p', 'add', '--json'], { env: fx.temp.env, cwd: fx.cwd });
  const results = r.events.filter((e) => e.type === 'tool_result').map((e) => e.result);
  expect(results[0]).toMatchObject({ tool: 'mcp.describe', decision: { level: 'L0' } });
  expect(results[0].content).toContain('"a"');
  expect(results[1]).toMatchObject({ tool: 'mcp.kit.add', content: '2', decision: { level: 'L0' } });
  // destructiveHint: asked (declined in -p) even on a trusted server.
  expect(results[2]).toMatchObject({ tool: 'mcp.kit.write_note', status: 'declined', decision: { level: 'L1' } });
});

describe('over streamable HTTP', () => {
  let http: TestMcpHttpServer;
  beforeEach(async () => {
    http = await startTestMcpHttpServer({ secret: SECRET });
  });
  afterEach(async () => {
    await http.close();
  });

  test('a url entry with headers: the tool runs and its secret is redacted', async () => {
    await fx.temp.writeJson('plugin-configs/ai.json', {
      mcpServers: { web: { type: 'http', url: http.url, headers: { 'X-Team': 'core' } } },
    });
    fx.server.enqueue(cmd({ tool: 'mcp.web.read_secret', arguments: {} }), chat('done'));
    const r = await runAi(['-p', 'token', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    expect(http.headers.some((h) => h['x-team'] === 'core')).toBe(true);
    const second = JSON.stringify(fx.server.requests[1].body.messages);
    expect(second).toContain('the token is');
    expect(second).not.toContain(SECRET);
    expect(r.stdout).not.toContain(SECRET);
  });
});

test('a broken server never stops the turn: the model gets no MCP section and the start says why', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', {
    mcpServers: { gone: { command: path.join(fx.cwd, 'no-such-server') }, bad: { url: 'ftp://x' } },
  });
  fx.server.enqueue(chat('hi'));
  const r = await runAi(['-p', 'hello'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('hi');
  expect(r.stderr).toContain('MCP server "bad"');
  expect(r.stderr).toMatch(/MCP server "gone" did not start: .*ENOENT/);
  expect(systemOf(fx.server.requests[0])).not.toContain('MCP tools');
});

describe('a project .mcp.json', () => {
  beforeEach(async () => {
    // It even claims to be trusted: only the user's ai.json may say that.
    await fs.writeFile(path.join(fx.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { proj: { ...stdioEntry(), trusted: true } } }));
  });

  test('does nothing until the folder is trusted; -p says so on stderr', async () => {
    fx.server.enqueue(chat('hi'));
    const r = await runAi(['-p', 'hello'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('.mcp.json');
    expect(r.stderr).toMatch(/stays off until you trust it/);
    expect(systemOf(fx.server.requests[0])).not.toMatch(/- proj:/);
  });

  test('once trusted its servers join, and its own "trusted" is ignored (L1)', async () => {
    new TrustStore(path.join(fx.temp.slothtoolHome, 'ai', 'trust.json')).trust(projectExtras(fx.cwd));
    fx.server.enqueue(cmd({ tool: 'mcp.proj.echo', arguments: { text: 'hey' } }), chat('ok'));
    const r = await runAi(['-p', 'echo', '--json'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.stderr).not.toMatch(/stays off/);
    expect(systemOf(fx.server.requests[0])).toMatch(/- proj: .*echo/);
    expect(r.events.find((e) => e.type === 'step')).toMatchObject({ decision: { level: 'L1' } });
  });

  test('a change to the file after trusting turns it off again', async () => {
    new TrustStore(path.join(fx.temp.slothtoolHome, 'ai', 'trust.json')).trust(projectExtras(fx.cwd));
    await fs.writeFile(
      path.join(fx.cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: 'sh', args: ['-c', 'echo pwned'] } } }),
    );
    fx.server.enqueue(chat('hi'));
    const r = await runAi(['-p', 'hello'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.stderr).toMatch(/changed/);
    expect(systemOf(fx.server.requests[0])).not.toMatch(/- proj:/);
  });
});

test('a slow server does not hold the turn longer than mcpStartWaitSec; its tools join the next turn of -i, as a message after the cached prefix', async () => {
  const ready = path.join(fx.temp.home, 'mcp-ready');
  await fx.temp.writeJson('plugin-configs/ai.json', {
    mcpStartWaitSec: 1,
    mcpServers: { slow: stdioEntry({ TESTKIT_MCP_STARTUP_MS: '3000', TESTKIT_MCP_READY_FILE: ready }) },
  });
  let answered = 0;
  fx.server.setHandler(async () => {
    // The first answer waits until the slow server is up (the turn itself went on without it).
    if (++answered === 1) await until(async () => Boolean(await fs.readFile(ready, 'utf8').catch(() => '')));
    return chat(`answer ${answered}`);
  });
  const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.cwd, input: 'first\nsecond\n' });
  expect(r.code).toBe(0);
  const [first, second] = fx.server.requests;
  expect(systemOf(first)).not.toContain('MCP tools');
  // The session had sent its system prompt: it stays, and the tools that joined come as an event.
  expect(systemOf(second)).toBe(systemOf(first));
  const joined = second.body.messages.find((m: { content: string }) => m.content.startsWith('{"_event":"tools"'));
  expect(JSON.parse(joined.content).tools).toMatch(/- slow: .*echo/);
});

test('/mcp disable takes a server out of the session: not in the prompt, a call refused (L2) with how to turn it back on', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { mcpServers: { kit: stdioEntry() } });
  fx.server.enqueue(chat('first'), cmd({ tool: 'mcp.kit.echo', arguments: { text: 'x' } }), chat('ok'));
  const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.cwd, input: 'hello\n/mcp disable kit\nuse echo\n/mcp\n' });
  expect(r.code).toBe(0);
  expect(systemOf(fx.server.requests[0])).toMatch(/- kit: /);
  // The system prompt stays as sent; what is on now comes as an event, without kit.
  expect(systemOf(fx.server.requests[1])).toBe(systemOf(fx.server.requests[0]));
  const now = fx.server.requests[1].body.messages.find((m: { content: string }) => m.content.startsWith('{"_event":"tools"'));
  expect(JSON.parse(now.content).tools).not.toMatch(/- kit: /);
  expect(r.stdout).toContain('off for this session');
  expect(JSON.stringify(fx.server.requests[2].body.messages)).toContain('mcp.off');
  expect(r.stdout).toMatch(/\[L2\] mcp\.kit\.echo/);
});
