import { PassThrough } from 'stream';
import { Terminal } from '../src/interactive/terminal';
import { renderScreen } from './pty/screen-model';

// The live region against a modelled screen: whatever it drew is erased before the next
// print, so the scrollback holds only what was printed.

function fakeTerminal(columns = 20, rows = 8) {
  let written = '';
  const output = {
    columns,
    rows,
    isTTY: true,
    write: (s: string) => ((written += s), true),
    on: () => output,
  } as unknown as NodeJS.WriteStream;
  const term = new Terminal(new PassThrough() as unknown as NodeJS.ReadStream, output, false);
  return { term, screen: () => renderScreen(written, columns).filter((l, i, all) => l || i < all.length - 1) };
}

test('prints go above the live region, which is redrawn below them', () => {
  const { term, screen } = fakeTerminal();
  term.render({ lines: ['spinner', '────', '› hel'], cursor: { line: 2, col: 5 } });
  term.print('first answer');
  term.render({ lines: ['────', '› hello'], cursor: { line: 1, col: 7 } });
  term.print('second\nanswer');
  expect(screen()).toEqual(['first answer', 'second', 'answer', '────', '› hello']);
});

test('wrapped and wide lines are erased whole', () => {
  const { term, screen } = fakeTerminal(10);
  term.render({ lines: ['x'.repeat(25), '你好你好你好', '› a'], cursor: { line: 2, col: 3 } });
  term.print('done');
  term.render({ lines: ['› '], cursor: { line: 0, col: 2 } });
  expect(screen()).toEqual(['done', '›']);
});

test('a region taller than the screen keeps its bottom (the prompt) and stays erasable', () => {
  const { term, screen } = fakeTerminal(20, 5);
  term.render({ lines: ['1', '2', '3', '4', '5', '6', '› x'], cursor: { line: 6, col: 3 } });
  expect(screen().slice(-4)).toEqual(['4', '5', '6', '› x']);
  term.print('out');
  term.clearLive();
  expect(screen()).toEqual(['out']);
});

test('the cursor in a line that wraps before a wide character lands on the cell after it', () => {
  let written = '';
  const output = {
    columns: 10,
    rows: 8,
    isTTY: true,
    write: (s: string) => ((written += s), true),
    on: () => output,
  } as unknown as NodeJS.WriteStream;
  const term = new Terminal(new PassThrough() as unknown as NodeJS.ReadStream, output, false);
  // '› x' + 4 wide characters: the 4th does not fit in the 10th cell and goes to the next row.
  const line = '› x中文中文ab';
  term.render({ lines: [line], cursor: { line: 0, col: 3 + 8 + 1 } }); // after the 'a'
  const { renderTerminal } = require('./pty/screen-model') as typeof import('./pty/screen-model');
  const { rows, cursor } = renderTerminal(written, 10);
  expect(rows).toEqual(['› x中文中', '文ab']);
  expect(cursor).toEqual({ row: 1, col: 3 });
});
