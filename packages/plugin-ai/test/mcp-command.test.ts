import * as fs from 'fs';
import * as path from 'path';
import { PassThrough } from 'stream';
import { startTestMcpHttpServer, testMcpStdioCommand, useAiFixture } from '@holic512/testkit';
import { parseAdd, runMcpCommand } from '../src/mcp/command';

// `slothtool ai mcp` run in this process against the fixture's home (no profile: it needs none).
const fx = useAiFixture({ profile: false });

async function mcp(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await runMcpCommand(argv, 'en', { stdout, stderr, env: { ...fx.env, ...env }, cwd: fx.cwd });
  return { code, out, err };
}
const aiJson = () => path.join(fx.temp.slothtoolHome, 'plugin-configs', 'ai.json');

describe('parseAdd', () => {
  test.each([
    [
      ['gh', '--env', 'GITHUB_TOKEN=${GH}', '--', 'npx', '-y', 'server-github'],
      { name: 'gh', entry: { command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: '${GH}' } } },
    ],
    [
      ['web', '--url', 'https://x.example/mcp', '-H', 'Authorization: Bearer ${T}'],
      { name: 'web', entry: { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${T}' } } },
    ],
  ])('%j', (argv, expected) => {
    expect(parseAdd(argv)).toEqual(expected);
  });
  test.each([
    [[], 'server name'],
    [['bad name', '--', 'x'], 'server name'],
    [['a'], 'give the server'],
    [['a', '--url', 'u', '--', 'x'], 'not both'],
    [['a', '--env', 'NOEQUALS', '--', 'x'], 'KEY=VALUE'],
    [['a', '--bogus'], 'unknown option --bogus'],
    [['a', '--url'], 'needs a value'],
  ])('%j → %s', (argv, why) => {
    expect(() => parseAdd(argv)).toThrow(why);
  });
});

test('add keeps the rest of ai.json (private: 0600, narrowed from 0640), list shows it, test starts it for real, remove takes it out', async () => {
  fs.mkdirSync(path.dirname(aiJson()), { recursive: true });
  fs.writeFileSync(aiJson(), JSON.stringify({ allowNetwork: true, mcpServers: {} }), { mode: 0o640 });
  const { command, args } = testMcpStdioCommand();
  expect((await mcp(['add', 'kit', '--', command, ...args])).code).toBe(0);
  const written = JSON.parse(fs.readFileSync(aiJson(), 'utf8'));
  expect(written).toEqual({ allowNetwork: true, mcpServers: { kit: { command, args } } });
  expect(fs.statSync(aiJson()).mode & 0o777).toBe(0o600);
  expect((await mcp(['list'])).out).toContain(`kit  ${command}`);
  const tested = await mcp(['test', 'kit']);
  expect(tested).toMatchObject({ code: 0 });
  expect(tested.out).toMatch(/^MCP server "kit" works: \d+ tools\./);
  expect(tested.out).toContain('  echo — Echo the text back.');
  expect((await mcp(['remove', 'kit'])).code).toBe(0);
  expect(JSON.parse(fs.readFileSync(aiJson(), 'utf8')).mcpServers).toEqual({});
});

test('test over HTTP with an expanded header; a broken server fails with the reason and status 1', async () => {
  const http = await startTestMcpHttpServer();
  try {
    expect((await mcp(['add', 'web', '--url', http.url, '--header', 'X-Key: ${KEY}'], { KEY: 'k1' })).code).toBe(0);
    expect((await mcp(['test', 'web'], { KEY: 'k1' })).code).toBe(0);
    expect(http.headers.some((h) => h['x-key'] === 'k1')).toBe(true);
  } finally {
    await http.close();
  }
  expect((await mcp(['add', 'dead', '--', path.join(fx.temp.home, 'missing-binary')])).code).toBe(0);
  const dead = await mcp(['test', 'dead']);
  expect(dead.code).toBe(1);
  expect(dead.err).toContain('MCP server "dead" did not start');
});

test('clear errors: unknown names, bad sub-commands, a broken ai.json (left untouched)', async () => {
  expect((await mcp(['list'])).out).toContain('No MCP servers are configured');
  expect(await mcp(['remove', 'nope'])).toMatchObject({ code: 2, err: expect.stringContaining('No MCP server named "nope"') });
  expect(await mcp(['test', 'nope'])).toMatchObject({ code: 2 });
  expect(await mcp(['frobnicate'])).toMatchObject({ code: 2, err: expect.stringContaining('usage: slothtool ai mcp') });
  expect(await mcp(['add', 'a', '--', 'x', '--env'])).toMatchObject({ code: 0 });
  fs.writeFileSync(aiJson(), '{ broken');
  const r = await mcp(['add', 'b', '--', 'y']);
  expect(r.code).toBe(2);
  expect(r.err).toContain('cannot read');
  expect(fs.readFileSync(aiJson(), 'utf8')).toBe('{ broken');
});
