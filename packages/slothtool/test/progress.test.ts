import { eachReturns } from '@holic512/testkit';
import { lastLine, progressText, startProgress } from '../src/progress';

describe('progressText', () => {
  eachReturns('%s after %d ms, last %j', progressText, [
    ['npm is running', 0, '', 0, 80, '⠋ npm is running 0 s'],
    ['npm is running', 12_500, 'added 3 packages', 1, 80, '⠙ npm is running 12 s · added 3 packages'],
    ['npm 运行中', 61_000, 'idealTree', 10, 80, '⠋ npm 运行中 61 s · idealTree'],
  ]);

  test('a long line is cut to the terminal width with an ellipsis', () => {
    const text = progressText('npm is running', 3000, 'x'.repeat(500), 0, 40);
    expect([...text]).toHaveLength(39);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('lastLine', () => {
  eachReturns('%j → %j', lastLine, [
    ['', ''],
    ['\n\n', ''],
    ['one\ntwo\n', 'two'],
    ['progress 10%\rprogress 55%\r', 'progress 55%'],
    ['\u001b[2K\u001b[1Gnpm warn deprecated x\u0007\n', 'npm warn deprecated x'],
  ]);
});

test("startProgress redraws with the elapsed time and npm's last line, and clears the line on stop", () => {
  let now = 1000;
  const written: string[] = [];
  let tick: (() => void) | undefined;
  let cleared = false;
  const p = startProgress('npm is running', {
    write: (t) => void written.push(t),
    columns: () => 80,
    now: () => now,
    setInterval: (fn) => {
      tick = fn;
      return {};
    },
    clearInterval: () => {
      cleared = true;
    },
  });
  expect(written).toEqual(['\r\u001b[K⠋ npm is running 0 s']);
  now += 4200;
  p.output('reify: timing\nadded 12 packages in 4s\n');
  tick!();
  expect(written[1]).toBe('\r\u001b[K⠙ npm is running 4 s · added 12 packages in 4s');
  p.stop();
  expect(cleared).toBe(true);
  expect(written[written.length - 1]).toBe('\r\u001b[K');
});
