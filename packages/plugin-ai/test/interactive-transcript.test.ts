import { promises as fs } from 'fs';
import * as path from 'path';
import { chat, cmd, usePtyFixture, KEY } from './pty/pty-session';
import { renderScreen } from './pty/screen-model';

// A whole session read off a modelled screen: what stays in the scrollback is exactly the
// conversation (no spinner frames, no stale prompts). With WRITE_TRANSCRIPT=<file> the screen
// is written there (the README's transcript comes from it).

const fx = usePtyFixture();

test('a session leaves a clean transcript', async () => {
  await fs.writeFile(path.join(fx.cwd, 'notes.txt'), 'buy milk\ncall Ana\nship v0.2\n');
  fx.server.enqueue(
    cmd('Reading the notes file.', { program: 'cat', args: ['notes.txt'] }),
    chat('You have **3** notes:\n\n1. buy milk\n2. call Ana\n3. ship v0.2', 'markdown'),
    cmd('Creating the folder.', { program: 'mkdir', args: ['archive'] }),
    chat('Created `archive/`.', 'markdown'),
    cmd('Cleaning up as root.', { program: 'sudo', args: ['rm', '-rf', 'archive'] }),
    chat('I cannot run sudo. Remove it yourself with `rm -r archive` if you want.'),
  );
  const s = fx.start(['-i'], { NO_COLOR: '1' });
  await s.waitFor('low · local');
  await s.turn('what is in my notes?', 'ship v0.2');
  await s.submit('make an archive folder', 'Allow this L1 step?');
  await s.waitFor('Esc declines');
  if (process.env.WRITE_TRANSCRIPT)
    await fs.writeFile(`${process.env.WRITE_TRANSCRIPT}.question`, renderScreen(s.raw(), 100).join('\n') + '\n');
  s.write('y');
  await s.waitFor('Created');
  await s.waitIdle();
  await s.turn('now delete it with sudo', 'I cannot run sudo');
  await s.turn('/cost', 'model calls');
  s.write(KEY.ctrlD);
  await s.waitFor('Session saved');
  expect(await s.exited).toBe(0);

  const screen = renderScreen(s.raw(), 100);
  while (screen.length && !screen[screen.length - 1]) screen.pop();
  const all = screen.join('\n');
  if (process.env.WRITE_TRANSCRIPT) await fs.writeFile(process.env.WRITE_TRANSCRIPT, all + '\n');
  expect(all).not.toMatch(/Thinking|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]|Allow this|───/);
  for (const line of ['› what is in my notes?', '› make an archive folder', '› now delete it with sudo', '› /cost']) {
    expect(screen.filter((l) => l === line)).toHaveLength(1);
  }
  expect(screen.findIndex((l) => l.startsWith('● [L0] cat notes.txt'))).toBeLessThan(screen.findIndex((l) => l.includes('ship v0.2')));
  expect(all).toContain('● [L1] mkdir archive');
  expect(all).toContain('✓ Yes, run it once');
  expect(all).toContain('⎿ Blocked (L2): not run.');
  expect(screen.slice(-2).join('')).toMatch(/^Session saved: (\S+)\. Continue it with `slothtool ai -c` here or \/resume \1\.$/);
  expect(all).toContain('Policy: ~/.slothtool/plugin-configs/ai.json');
});
