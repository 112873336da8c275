import { promises as fs } from 'fs';
import * as path from 'path';
import { testMcpStdioCommand } from '@holic512/testkit';
import { chat, usePtyFixture, KEY } from './pty/pty-session';

// `ai -i` in a real terminal, started in a folder whose .mcp.json and hooks are not trusted:
// the question names exactly what would be turned on, and nothing of it runs before a yes.
const fx = usePtyFixture();
let marker: string;
beforeEach(async () => {
  marker = path.join(fx.temp.home, 'session-start-ran');
  await fs.writeFile(path.join(fx.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { kit: testMcpStdioCommand() } }));
  await fs.mkdir(path.join(fx.cwd, '.slothtool'));
  await fs.writeFile(
    path.join(fx.cwd, '.slothtool', 'settings.json'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${JSON.stringify(marker)}` }] }] }, permissions: { allow: ['exec(make *)'] } }),
  );
});

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

test('declined: the question named the server, the hook and the rules; nothing of them runs', async () => {
  fx.server.enqueue(chat('hello'));
  const s = fx.start();
  await s.waitFor('brings things that run code');
  await s.waitFor('kit: ');
  await s.waitFor('SessionStart: touch');
  await s.waitFor('1 allow, 0 ask, 0 deny');
  await s.waitFor('Trust this folder');
  s.send('n');
  await s.waitFor('stays off until you trust it');
  s.send('hi');
  await s.waitFor('hello');
  expect(await exists(marker)).toBe(false);
  expect(JSON.stringify(fx.server.requests[0].body.messages)).not.toContain('MCP tools');
  s.write(KEY.ctrlD);
  expect(await s.exited).toBe(0);
});

test('trusted: remembered, the hook runs and the server joins; not asked again', async () => {
  fx.server.enqueue(chat('hello'), chat('again'));
  const s = fx.start();
  await s.waitFor('Trust this folder');
  s.send('y');
  await s.waitFor('Trusted: they are on');
  s.send('hi');
  await s.waitFor('hello');
  expect(await exists(marker)).toBe(true);
  expect(JSON.stringify(fx.server.requests[0].body.messages)).toContain('- kit: ');
  s.write(KEY.ctrlD);
  expect(await s.exited).toBe(0);
  const again = await fx.ready();
  again.send('hi');
  await again.waitFor('again');
  expect(again.text()).not.toContain('Trust this folder');
  again.write(KEY.ctrlD);
  expect(await again.exited).toBe(0);
});
