import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startTestMcpHttpServer, testMcpStdioCommand, type TestMcpHttpServer } from '@holic512/testkit';
import { expandVars, readMcpServers } from '../src/mcp/config';
import { describeToolResult } from '../src/mcp/content';
import { McpManager } from '../src/mcp/manager';

describe('readMcpServers: the Claude Code / Cursor shape', () => {
  test('stdio and http entries, ${VAR} and ${VAR:-default} expanded', () => {
    const env = { TOKEN: 'abc', HOME: '/home/u' };
    const { servers, problems } = readMcpServers(
      {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: '${TOKEN}' } },
        remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        local: { command: '${HOME}/bin/srv', args: ['--port', '${PORT:-8080}'], trusted: true, disabled: true },
      },
      '/home/u/.slothtool/plugin-configs/ai.json',
      env,
    );
    expect(problems).toEqual([]);
    expect(servers).toEqual([
      expect.objectContaining({ name: 'github', transport: 'stdio', command: 'npx', env: { GITHUB_TOKEN: 'abc' } }),
      expect.objectContaining({
        name: 'remote',
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer abc' },
      }),
      expect.objectContaining({ name: 'local', command: '/home/u/bin/srv', args: ['--port', '8080'], trusted: true, disabled: true }),
    ]);
  });

  test.each([
    [{ 'bad name!': { command: 'x' } }, 'letters, digits'],
    [{ a: { args: ['x'] } }, 'command'],
    [{ a: { command: 'x', args: 'not-a-list' } }, 'args'],
    [{ a: { url: 'ftp://x' } }, 'http:// or https://'],
    [{ a: { command: 'x', env: { K: '${UNSET_VAR}' } } }, 'not set: UNSET_VAR'],
    [[], 'must be an object'],
  ])('%j → a problem naming the field', (raw, why) => {
    const { servers, problems } = readMcpServers(raw, 'ai.json', {});
    expect(servers).toEqual([]);
    expect(problems[0].source).toBe('ai.json');
    expect(problems[0].error).toContain(why);
  });

  test('absent: nothing, no problem', () => {
    expect(readMcpServers(undefined, 'f', {})).toEqual({ servers: [], problems: [] });
  });

  test('expandVars leaves text without variables alone', () => {
    const missing = new Set<string>();
    expect(expandVars('plain $HOME text', { HOME: '/h' }, missing)).toBe('plain $HOME text');
    expect(missing.size).toBe(0);
  });
});

describe('describeToolResult', () => {
  test('text kept, images and resources described, not dumped', () => {
    const r = describeToolResult(
      {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', data: Buffer.alloc(3000).toString('base64'), mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
          { type: 'resource', resource: { uri: 'mem://x', text: 'inline text' } },
          { type: 'resource', resource: { uri: 'mem://y', mimeType: 'application/pdf', blob: 'AAAA' } },
        ],
      },
      10_000,
    );
    expect(r.text).toBe(
      'hello\n[image image/png, 2.9 KB]\n[resource a.txt file:///a.txt]\n[resource mem://x]\ninline text\n[resource mem://y application/pdf, 3 B]',
    );
    expect(r).toMatchObject({ isError: false, truncated: false, described: 3 });
  });

  test('isError and structured content; long text capped with head and tail', () => {
    expect(describeToolResult({ content: [], structuredContent: { n: 1 }, isError: true }, 100)).toMatchObject({
      text: '{"n":1}',
      isError: true,
    });
    const long = describeToolResult({ content: [{ type: 'text', text: 'a'.repeat(5000) + 'END' }] }, 1000);
    expect(long.truncated).toBe(true);
    expect(long.text.length).toBeLessThan(1100);
    expect(long.text.endsWith('END')).toBe(true);
  });

  test('garbage results do not throw', () => {
    for (const v of [null, 42, 'x', { content: 'nope' }, { content: [null, 7, { type: 'weird' }] }])
      expect(() => describeToolResult(v, 100)).not.toThrow();
  });
});

describe('McpManager against the real test MCP server', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ai-mcp-')));
  });
  afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));
  const stdio = (name: string, env: Record<string, string> = {}) => {
    const { servers } = readMcpServers({ [name]: { ...testMcpStdioCommand(), env } }, 'ai.json', {});
    return servers;
  };

  test('stdio: starts in the background, lists tools with annotations, calls them, closes', async () => {
    const manager = new McpManager(stdio('kit', { TESTKIT_MCP_SECRET: 'tok_123' }), { cwd });
    manager.start();
    expect(manager.states()[0].status).toBe('starting');
    const state = await manager.ready('kit');
    expect(state).toMatchObject({ status: 'connected', transport: 'stdio' });
    const names = manager.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'add', 'write_note', 'read_secret', 'picture', 'fail']));
    expect(manager.tools().find((t) => t.name === 'echo')!.annotations.readOnlyHint).toBe(true);
    expect(manager.tools().find((t) => t.name === 'write_note')!.annotations.destructiveHint).toBe(true);
    expect(manager.tools().find((t) => t.name === 'add')!.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' } },
    });
    expect(await manager.call('kit', 'add', { a: 2, b: 3 })).toEqual({ text: '5', isError: false, truncated: false, described: 0 });
    expect((await manager.call('kit', 'picture', {})).text).toContain('[image image/png, 2.0 KB]');
    expect(await manager.call('kit', 'fail', {})).toMatchObject({ text: 'it broke', isError: true });
    expect((await manager.call('kit', 'nope', {})).isError).toBe(true);
    expect((await manager.call('other', 'echo', {})).text).toContain('no MCP server named');
    await manager.close();
    expect(manager.states()[0].status).toBe('closed');
    expect((await manager.call('kit', 'echo', { text: 'x' })).text).toContain('closed');
  });

  test('a broken server fails with a reason and does not hold up the others; restart tries again', async () => {
    const servers = [...readMcpServers({ broken: { command: path.join(cwd, 'no-such-program') } }, 'ai.json', {}).servers, ...stdio('kit')];
    const manager = new McpManager(servers, { cwd, connectTimeoutMs: 10_000 });
    manager.start();
    const [broken, kit] = await Promise.all([manager.ready('broken'), manager.ready('kit')]);
    expect(broken).toMatchObject({ status: 'failed' });
    expect(broken!.error).toBeTruthy();
    expect(kit).toMatchObject({ status: 'connected' });
    expect(manager.tools().every((t) => t.server === 'kit')).toBe(true);
    expect((await manager.restart('broken'))!.status).toBe('failed');
    await manager.close();
  });

  test('a slow server: start() returns at once, the server connects later', async () => {
    const manager = new McpManager(stdio('slow', { TESTKIT_MCP_STARTUP_MS: '300' }), { cwd });
    manager.start();
    expect(manager.tools()).toEqual([]);
    expect(manager.states()[0].status).toBe('starting');
    expect((await manager.ready('slow'))!.status).toBe('connected');
    await manager.close();
  });

  test("a stdio server gets the settings' env (Claude Code's `env`) and CLAUDE_PROJECT_DIR; its own env entry wins", async () => {
    const { McpSession } = require('../src/mcp/session') as typeof import('../src/mcp/session');
    const setup = { userFile: 'ai.json', projectRoot: cwd, projectTrusted: false, env: {}, cwd, clientVersion: '0' };
    // TESTKIT_MCP_EXTRA_TOOLS is read by the server from its environment: tool_001… show what reached it.
    const extraTools = async (session: InstanceType<typeof McpSession>) => {
      try {
        session.start();
        await session.settle(20_000);
        const out: Record<string, string[]> = {};
        for (const t of session.manager.tools()) if (t.name.startsWith('tool_')) (out[t.server] ??= []).push(t.name);
        return out;
      } finally {
        await session.manager.close();
      }
    };
    const user = { a: testMcpStdioCommand(), b: { ...testMcpStdioCommand(), env: { TESTKIT_MCP_EXTRA_TOOLS: '1' } } };
    expect(await extraTools(new McpSession({ ...setup, user, serverEnv: { TESTKIT_MCP_EXTRA_TOOLS: '2' } }))).toEqual({
      a: ['tool_001', 'tool_002'],
      b: ['tool_001'],
    });
    // Without the settings' env nothing else of ours reaches a server (the SDK passes it only a safe part).
    expect(
      await extraTools(new McpSession({ ...setup, user: { a: testMcpStdioCommand() }, env: { TESTKIT_MCP_EXTRA_TOOLS: '3' } })),
    ).toEqual({});
  });

  test('disabled servers stay off', async () => {
    const { servers } = readMcpServers({ off: { ...testMcpStdioCommand(), disabled: true } }, 'ai.json', {});
    const manager = new McpManager(servers, { cwd });
    manager.start();
    expect(manager.states()[0].status).toBe('disabled');
    await manager.close();
    expect(manager.states()[0].status).toBe('disabled');
  });

  describe('streamable HTTP', () => {
    let http: TestMcpHttpServer;
    beforeAll(async () => {
      http = await startTestMcpHttpServer({ extraTools: 3 });
    });
    afterAll(async () => http.close());

    test('configured headers arrive; tools listed and called', async () => {
      const { servers } = readMcpServers(
        { web: { type: 'http', url: http.url, headers: { Authorization: 'Bearer ${MCP_TOKEN}' } } },
        'ai.json',
        { MCP_TOKEN: 't0k' },
      );
      const manager = new McpManager(servers, { cwd });
      manager.start();
      expect(await manager.ready('web')).toMatchObject({ status: 'connected', transport: 'http' });
      expect(manager.tools().map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'tool_001', 'tool_003']));
      expect(await manager.call('web', 'echo', { text: 'over http' })).toMatchObject({ text: 'over http', isError: false });
      expect(http.headers.some((h) => h.authorization === 'Bearer t0k')).toBe(true);
      await manager.close();
    });
  });
});

describe('MCP tools in the registry', () => {
  const { createToolRegistry } = require('@holic512/tool-runner') as typeof import('@holic512/tool-runner');
  const { mcpPromptSection, mcpToolDefinition, mcpToolName } = require('../src/mcp/tools') as typeof import('../src/mcp/tools');
  const { estimateTokens } = require('../src/context/tokens') as typeof import('../src/context/tokens');
  const { parseReply } = require('../src/context/protocol') as typeof import('../src/context/protocol');
  const info = (name: string, annotations: Record<string, boolean> = {}, description = 'Does a thing.') => ({
    server: 'gh',
    name,
    description,
    inputSchema: { type: 'object' },
    annotations,
  });
  const fakeManager = (tools: ReturnType<typeof info>[], trusted: boolean, off = false) =>
    ({
      tool: (_s: string, n: string) => (tools.find((t) => t.name === n) ? { info: tools.find((t) => t.name === n)!, trusted } : undefined),
      isOff: () => off,
    }) as unknown as McpManager;
  const state = (name: string, tools: ReturnType<typeof info>[]) => ({
    name,
    source: 'ai.json',
    transport: 'stdio' as const,
    status: 'connected' as const,
    trusted: false,
    tools,
  });

  test('a server with 50 long-described tools adds a few hundred tokens to the prompt, no descriptions or schemas', () => {
    const long = 'Searches the issues of a repository with many filters and returns matching issues with their labels. '.repeat(4);
    const tools = Array.from({ length: 50 }, (_, i) => info(`search_issues_${i}`, {}, long));
    const section = mcpPromptSection([state('github', tools)]);
    expect(section).toContain('search_issues_49');
    expect(section).not.toContain('Searches the issues');
    expect(estimateTokens(section)).toBeLessThan(500);
    // The full descriptions would have cost far more.
    expect(estimateTokens(tools.map((t) => t.description).join('\n'))).toBeGreaterThan(4000);
  });

  test('the section is byte-identical for the same servers, empty without connected ones', () => {
    const a = mcpPromptSection([state('x', [info('a'), info('b')])]);
    expect(mcpPromptSection([state('x', [info('a'), info('b')])])).toBe(a);
    expect(mcpPromptSection([{ ...state('x', [info('a')]), status: 'failed' }])).toBe('');
  });

  test.each([
    [false, {}, 'L1', ['mcp.call']],
    [false, { readOnlyHint: true }, 'L1', ['mcp.call']],
    [true, { readOnlyHint: true }, 'L0', ['mcp.read_only']],
    [true, { readOnlyHint: true, destructiveHint: true }, 'L1', ['mcp.call', 'mcp.destructive']],
    [true, {}, 'L1', ['mcp.call']],
  ])('trusted=%s, annotations %j → %s', (trusted, annotations, level, ids) => {
    const tool = info('t', annotations as Record<string, boolean>);
    const def = mcpToolDefinition(fakeManager([tool], trusted), tool)!;
    const found = def.assess({ arguments: {} }, {} as never).findings;
    expect(found.map((f) => f.id)).toEqual(ids);
    expect(found.every((f) => f.level === level)).toBe(true);
  });

  test('a server turned off for the session: every call is refused (L2), trusted or not', () => {
    const tool = info('t', { readOnlyHint: true });
    const found = mcpToolDefinition(fakeManager([tool], true, true), tool)!.assess({ arguments: {} }, {} as never).findings;
    expect(found).toEqual([expect.objectContaining({ id: 'mcp.off', level: 'L2' })]);
  });

  test('tool names that cannot be registry names are left out', () => {
    expect(mcpToolName('gh', 'list issues')).toBeUndefined();
    expect(mcpToolName('gh', 'repo.list')).toBe('mcp.gh.repo.list');
  });

  test('a reply naming a tool registered after the first parse validates (the reply schema follows the registry)', () => {
    const registry = createToolRegistry();
    const reply = { type: 'cmd', message: '', data: { commands: [{ tool: 'mcp.gh.t', arguments: { q: 1 } }] } };
    expect(parseReply(reply, registry).success).toBe(false);
    registry.register(mcpToolDefinition(fakeManager([info('t')], false), info('t'))!);
    expect(parseReply(reply, registry)).toMatchObject({
      success: true,
      reply: { data: { commands: [{ tool: 'mcp.gh.t', arguments: { q: 1 } }] } },
    });
  });
});
