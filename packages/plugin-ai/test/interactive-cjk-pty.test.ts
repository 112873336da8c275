import { usePtyFixture } from './pty/pty-session';
import { renderTerminal } from './pty/screen-model';

// The hardware cursor (where an input method draws its composition) after wide characters,
// tabs pasted into the prompt, and what a command prints.

const fx = usePtyFixture();

const COLS = 100;
/** The cursor as the terminal has it, and the text of its row. */
function cursorAt(raw: string): { col: number; line: string } {
  const { rows, cursor } = renderTerminal(raw, COLS);
  return { col: cursor.col, line: rows[cursor.row] ?? '' };
}

test.each([
  ['中文', 2 + 4],
  ['ab中文cd', 2 + 8],
  ['日本語テキスト', 2 + 14],
  ['한국어', 2 + 6],
  ['表情😀x', 2 + 7],
  ['发射🚀了', 2 + 8],
  ['☕好', 2 + 4],
])('after typing %s the cursor stands right after it (column %i)', async (text, col) => {
  const s = await fx.ready();
  await s.waitIdle();
  s.write(text);
  await s.waitFor(text.slice(-1));
  await s.waitIdle();
  const at = cursorAt(s.raw());
  expect(at.line.startsWith('› ' + text)).toBe(true);
  expect(at.col).toBe(col);
});

test('moving left over wide characters moves two cells each', async () => {
  const s = await fx.ready();
  await s.waitIdle();
  s.write('中文字');
  await s.waitFor('中文字');
  await s.waitIdle();
  s.write('\x1b[D\x1b[D');
  await s.waitFor('中文字'); // the redraw after the keys
  await s.waitIdle();
  expect(cursorAt(s.raw()).col).toBe(2 + 2);
});

test.each([
  ['bracketed', '\x1b[200~a\tbc\td\x1b[201~'],
  ['unbracketed', 'a\tbc\td'],
])('a %s paste with tabs: tabs become spaces to the next stop of 4, the line stays where it is', async (_kind, paste) => {
  const s = await fx.ready();
  await s.waitIdle();
  s.write(paste);
  await s.waitFor('d');
  await s.waitIdle();
  const { rows, cursor } = renderTerminal(s.raw(), COLS);
  expect(rows[cursor.row]).toBe('› a   bc  d');
  expect(cursor.col).toBe(2 + 9);
});

test('what an interactive plugin prints on the terminal stays on screen after the next redraws', async () => {
  const dir = `${fx.temp.home}/demo-plugin`;
  const { promises: fs } = await import('fs');
  await fs.mkdir(dir);
  await fs.writeFile(
    `${dir}/package.json`,
    JSON.stringify({ name: 'demo-plugin', version: '1.0.0', bin: 'bin.js', slothtool: { interactive: true } }),
  );
  await fs.writeFile(
    `${dir}/bin.js`,
    "console.log('PLUGIN LINE 1');\nconsole.log('PLUGIN LINE 2');\nprocess.stdout.write('partial line');\n",
  );
  await fx.temp.registerPlugin('demo', dir);
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'run the demo', data: { cwd: null, commands: [{ tool: 'plugin.run', plugin: 'demo', args: [] }] } } },
    {
      json: { type: 'chat', message: 'the demo ran' },
    },
  );
  const s = await fx.ready();
  s.send('run demo');
  await s.answer('y/a/n/e', 'y');
  await s.waitFor('the demo ran');
  await s.waitIdle();
  s.write('more');
  await s.waitFor('more');
  await s.waitIdle();
  const screen = renderTerminal(s.raw(), COLS).rows.join('\n');
  expect(screen).toContain('PLUGIN LINE 1\nPLUGIN LINE 2\npartial line');
  expect(screen.indexOf('PLUGIN LINE 1')).toBeLessThan(screen.indexOf('the demo ran'));
});
