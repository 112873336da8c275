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
    JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${JSON.stringify(marker)}` }] }] },
      permissions: { allow: ['exec(make *)'] },
    }),
  );
});

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** `ai -i` here: wait for what the trust question `shows`, answer it with `key`, wait for what the
 * answer `says`, then take one turn. */
async function answerTrust(key: 'y' | 'n', shows: string[], says: string) {
  const s = fx.start();
  await s.waitForAll(shows);
  await s.answer('Trust this folder', key + KEY.enter);
  await s.waitFor(says);
  await s.turn('hi', 'hello');
  return s;
}

test('declined: the question named the server, the hook and the rules; nothing of them runs', async () => {
  fx.server.enqueue(chat('hello'));
  const s = await answerTrust(
    'n',
    [
      'brings things that run code',
      'kit: ',
      '.slothtool/settings.json:',
      'SessionStart: touch',
      '1 allow, 0 ask (its deny rules apply already)',
    ],
    'stays off until you trust it',
  );
  expect(await exists(marker)).toBe(false);
  expect(JSON.stringify(fx.server.requests[0].body.messages)).not.toContain('MCP tools');
  expect(await s.leave()).toBe(0);
});

test('trusted: remembered, the hook runs and the server joins; not asked again', async () => {
  fx.server.enqueue(chat('hello'), chat('again'));
  const s = await answerTrust('y', [], 'Trusted: they are on');
  expect(await exists(marker)).toBe(true);
  expect(JSON.stringify(fx.server.requests[0].body.messages)).toContain('- kit: ');
  expect(await s.leave()).toBe(0);
  const again = await fx.ready();
  await again.submit('hi', 'again');
  expect(again.text()).not.toContain('Trust this folder');
  expect(await again.leave()).toBe(0);
});
