import { Screen, type Surface } from '../src/interactive/screen';
import type { LiveFrame } from '../src/interactive/terminal';
import { createTheme } from '../src/interactive/theme';
import type { ConfirmRequest } from '../src/runner-types';

// The screen controller with a fake surface and a fake clock (no agent needed for these).

function setup() {
  let now = 10_000;
  const printed: string[] = [];
  let frame: LiveFrame = { lines: [] };
  const surface: Surface = {
    columns: 80,
    rows: 24,
    live: true,
    print: (text) => void printed.push(text),
    render: (f) => void (frame = f),
    clearScreen: () => undefined,
  };
  const screen = new Screen({ lang: 'en', theme: createTheme(false), surface, cwd: '/w', now: () => now });
  return {
    screen,
    printed,
    frame: () => frame.lines.join('\n'),
    tick: (ms: number) => void (now += ms),
  };
}

const request: ConfirmRequest = {
  id: 'cmd_001',
  step: { tool: 'exec', program: 'touch', args: ['a.txt'] },
  decision: { level: 'L1', rules: [{ id: 'write.file', level: 'L1', reason: 'writes' }] },
  sessionKey: 'touch a.txt',
};

test('a question that opens while the user types takes keys only after a short guard; earlier keys go to the prompt', async () => {
  const { screen, frame, printed, tick } = setup();
  screen.onKeys([{ kind: 'text', text: 'm' }]);
  tick(200);
  const answer = screen.confirm(request);
  tick(300);
  screen.onKeys([{ kind: 'text', text: 'a' }]); // would be "allow for the session"
  screen.onKeys([{ kind: 'enter' }]); // would be "run once"
  expect(frame()).toContain('Allow this L1 step?');
  expect(frame()).not.toContain('Esc declines');
  tick(300); // 600 ms after it opened, but the guard restarted with the last key
  screen.render();
  expect(frame()).not.toContain('Esc declines');
  tick(200);
  screen.render();
  expect(frame()).toContain('Esc declines');
  screen.onKeys([{ kind: 'text', text: 'n' }]);
  await expect(answer).resolves.toEqual({ action: 'decline', reason: 'declined by the user' });
  expect(printed.join('\n')).toContain('› ma'); // the typed-ahead letters and Enter went to the prompt
});

test('a question that opens when nobody is typing takes keys at once', async () => {
  const { screen, tick } = setup();
  tick(5000);
  const answer = screen.confirm(request);
  screen.onKeys([{ kind: 'text', text: 'y' }]);
  await expect(answer).resolves.toEqual({ action: 'run' });
});

test('Ctrl+C at a question declines it at once, guarded or not', async () => {
  const { screen } = setup();
  screen.onKeys([{ kind: 'text', text: 'x' }]);
  const answer = screen.confirm(request);
  screen.onKeys([{ kind: 'interrupt' }]);
  await expect(answer).resolves.toEqual({ action: 'decline', reason: 'interrupted by the user' });
});

/** Just enough of an AppAgent for commands that do not call the model. */
function fakeApp(extra: Record<string, unknown> = {}) {
  const agent = {
    on: () => () => undefined,
    contextSizes: () => ({ system: 1, summary: 0, digest: 0, window: 0, windowMessages: 0, total: 1, budget: 100 }),
    usage: () => ({ input_tokens: 0, output_tokens: 0, calls: 0 }),
    getMode: () => 'low',
    getRunMode: () => 'default',
    setRunMode: () => ({ ok: true }),
    getProfile: () => null,
    sessionId: 's1',
    dispose: () => undefined,
    ...extra,
  };
  return {
    agent,
    config: { context: { projectContextMaxTokens: 1000 } },
    registry: { plugins: {} },
    paths: { home: '/nonexistent', sessionsDir: '/nonexistent/s', config: '/nonexistent/ai.json' },
    memory: (extra.memory as unknown[]) ?? [],
  } as never;
}

test('/memory lists the project instruction files in use, nearest first, with their size and the cap', () => {
  const { screen, printed } = setup();
  screen.attach(fakeApp({ memory: [{ file: '/w/AGENTS.md', tokens: 120, truncated: false }, { file: '/CLAUDE.md', tokens: 880, truncated: true }] }));
  screen.onKeys([{ kind: 'text', text: '/memory' }, { kind: 'enter' }]);
  expect(printed.at(-1)!.split('\n')).toEqual([
    'Project instructions in use, nearest first (.slothtool/AGENTS.md, AGENTS.md, CLAUDE.md from this folder up to the git root; at most 1000 tokens in all):',
    '  AGENTS.md  120 tokens',
    '  ../CLAUDE.md  880 tokens (cut to fit)',
  ]);
  const none = setup();
  none.screen.attach(fakeApp());
  none.screen.onKeys([{ kind: 'text', text: '/memory' }, { kind: 'enter' }]);
  expect(none.printed.at(-1)).toMatch(/^No project instructions: .*up to 1000 tokens/);
});

test('/undo lists what was restored (relative to the working folder) and what was not', () => {
  const { screen, printed } = setup();
  const undo = jest.fn(() => ({
    restored: [
      { path: '/w/calc.js', action: 'restored' },
      { path: '/w/NOTES.md', action: 'deleted' },
    ],
    skipped: [
      { path: '/elsewhere/x.txt', reason: 'changed_since' },
      { path: '/w/y.txt', reason: 'error', message: 'EACCES' },
    ],
  }));
  screen.attach(fakeApp({ undo }));
  screen.onKeys([{ kind: 'text', text: '/undo' }, { kind: 'enter' }]);
  expect(undo).toHaveBeenCalledTimes(1);
  expect(printed.at(-1)!.split('\n')).toEqual([
    'Undid the file changes of the last turn that made any:',
    '  ↺ calc.js (restored)',
    '  ↺ NOTES.md (deleted)',
    '  ! /elsewhere/x.txt not restored: it changed since that turn',
    '  ! y.txt not restored: EACCES',
  ]);
});

test('/undo with nothing to undo says so', () => {
  const { screen, printed } = setup();
  screen.attach(fakeApp({ undo: () => null }));
  screen.onKeys([{ kind: 'text', text: '/undo' }, { kind: 'enter' }]);
  expect(printed.at(-1)).toMatch(/^Nothing to undo/);
});

describe('suggestions are quick replies', () => {
  const answer = { type: 'chat' as const, message: 'Done.', data: { suggestions: ['run the tests', 'show the diff', ''] } };
  const promptLine = (frame: string) => frame.split('\n').find((l) => l.startsWith('›')) ?? '';

  test('numbered under the answer; on an empty prompt a number takes that reply and Tab goes through them', () => {
    const { screen, frame, printed } = setup();
    (screen as unknown as { showReply(r: unknown, raw: boolean): void }).showReply(answer, false);
    expect(printed.join('\n')).toMatch(/1 › run the tests {3}2 › show the diff/);
    screen.onKeys([{ kind: 'text', text: '2' }]);
    expect(promptLine(frame())).toContain('show the diff');
    screen.onKeys([{ kind: 'tab' }]);
    expect(promptLine(frame())).toContain('run the tests');
    screen.onKeys([{ kind: 'tab' }]);
    expect(promptLine(frame())).toContain('show the diff');
  });

  test('a number beyond the list, or typing first, is just text', () => {
    const { screen, frame } = setup();
    (screen as unknown as { showReply(r: unknown, raw: boolean): void }).showReply(answer, false);
    screen.onKeys([{ kind: 'text', text: '7' }]);
    expect(promptLine(frame())).toMatch(/› 7$/);
    const other = setup();
    (other.screen as unknown as { showReply(r: unknown, raw: boolean): void }).showReply(answer, false);
    other.screen.onKeys([{ kind: 'text', text: 'a' }, { kind: 'text', text: '1' }]);
    expect(promptLine(other.frame())).toMatch(/› a1$/);
  });
});

test('Shift+Tab goes through the modes, skipping yolo with why when there is no sandbox; the status line names the mode', () => {
  const { screen, frame } = setup();
  let mode = 'default';
  const setRunMode = (m: string) => (m === 'yolo' ? { ok: false, reason: 'no sandbox here' } : ((mode = m), { ok: true }));
  screen.attach(fakeApp({ getRunMode: () => mode, setRunMode }));
  screen.onKeys([{ kind: 'shift-tab' }]);
  expect(mode).toBe('auto-edit');
  expect(frame()).toContain('auto-edit mode');
  screen.onKeys([{ kind: 'shift-tab' }]);
  expect(mode).toBe('plan');
  expect(frame()).toMatch(/Mode: plan .*\(yolo is not available: no sandbox here\)/);
  expect(frame()).toContain('plan mode');
  screen.onKeys([{ kind: 'shift-tab' }]);
  expect(mode).toBe('default');
  expect(frame()).not.toContain('default mode');
});
