import type { ConfirmRequest } from '../src/agent/runner-types';
import { verdict } from './helpers/fake-runner';
import { fakeApp, fakeScreen } from './helpers/screen';

// The screen controller with a fake surface and a fake clock (no agent needed for these).

function setup() {
  let now = 10_000;
  return { ...fakeScreen({ now: () => now }), tick: (ms: number) => void (now += ms) };
}

const request: ConfirmRequest = {
  id: 'cmd_001',
  step: { tool: 'exec', program: 'touch', args: ['a.txt'] },
  verdict: verdict('L1', ['write.file']),
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

test('/memory lists the memory files in use (imports under what imported them), with their size and the cap', () => {
  const { screen, submit } = setup();
  screen.attach(
    fakeApp({
      memory: [
        { file: '/w/AGENTS.md', tokens: 120, truncated: false },
        { file: '/w/docs/style.md', tokens: 40, truncated: false, importedBy: '/w/AGENTS.md' },
        { file: '/CLAUDE.md', tokens: 880, truncated: true },
      ],
    }),
  );
  expect(submit('/memory').split('\n')).toEqual([
    "Memory in use, the user's then the project's (~/.slothtool/AGENTS.md, ~/.claude/CLAUDE.md; .slothtool/AGENTS.md, AGENTS.md, CLAUDE.md from this folder up to the git root, nearest first; @path imports; at most 1000 tokens in all):",
    '  AGENTS.md  120 tokens',
    '    ↳ docs/style.md  40 tokens',
    '  ../CLAUDE.md  880 tokens (cut to fit)',
  ]);
  const none = setup();
  none.screen.attach(fakeApp());
  expect(none.submit('/memory')).toMatch(/^No memory files: .*up to 1000 tokens.*# <text>/);
});

test('/undo lists what was restored (relative to the working folder) and what was not', () => {
  const { screen, printed, submit } = setup();
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
  submit('/undo');
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
  const { screen, submit } = setup();
  screen.attach(fakeApp({ undo: () => null }));
  expect(submit('/undo')).toMatch(/^Nothing to undo/);
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
    other.screen.onKeys([
      { kind: 'text', text: 'a' },
      { kind: 'text', text: '1' },
    ]);
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

describe('/model and /rewind', () => {
  const profiles = {
    defaultName: 'local',
    names: ['local', 'ds'],
    models: { local: { low: 'qwen2.5:7b', high: 'qwen2.5:14b' }, ds: { low: 'deepseek-chat', high: 'deepseek-reasoner' } },
  };

  test('/model lists every profile and tier with its model, switches profile and tier, and the status line names the model', () => {
    const { screen, printed, frame, submit } = setup();
    let profile: string | null = null;
    let tier = 'low';
    screen.attach(
      fakeApp({
        getProfile: () => profile,
        setProfile: (p: string) => (profile = p),
        getMode: () => tier,
        setMode: (m: string) => (tier = m),
      }),
    );
    (screen as unknown as { llmProfiles: unknown }).llmProfiles = profiles;
    (screen as unknown as { llmDefault: string }).llmDefault = 'local';
    expect(submit('/model').split('\n').slice(0, 5)).toEqual([
      'Models of your llm-base profiles (● in use):',
      '  ● local:low  qwen2.5:7b  (default profile)',
      '    local:high  qwen2.5:14b',
      '    ds:low  deepseek-chat',
      '    ds:high  deepseek-reasoner',
    ]);
    submit('/model ds:high');
    expect([profile, tier]).toEqual(['ds', 'high']);
    expect(printed.at(-1)).toBe('Now using ds:high (deepseek-reasoner); the conversation stays.');
    screen.render();
    expect(frame()).toContain('high · ds · deepseek-reasoner');
    expect(submit('/model nope')).toMatch(/nope/);
    expect(profile).toBe('ds');
  });

  test('/rewind lists the messages with their time; /rewind N files restores and reports', () => {
    const { screen, printed, submit } = setup();
    const rewind = jest.fn(() => ({
      turn: 2,
      droppedTurns: 3,
      files: { restored: [{ path: '/w/notes.txt', action: 'restored' }], skipped: [] },
      notRestored: ['git commit -m x'],
    }));
    const checkpoints = () => [
      { turn: 1, at: '2026-11-24T10:01:00.000Z', title: 'look at the notes', notRestorable: [] },
      { turn: 2, at: '2026-11-24T10:05:00.000Z', title: 'edit the notes', notRestorable: ['git commit -m x'] },
    ];
    screen.attach(fakeApp({ rewind, checkpoints }));
    expect(submit('/rewind').split('\n')).toEqual([
      'Messages you can go back to (the conversation and the files as they were before it):',
      '    1  10:01  look at the notes',
      '    2  10:05  edit the notes',
      '         after it, not restorable: git commit -m x',
      '/rewind <number> [files|conversation] — both by default',
    ]);
    submit('/rewind 2 files');
    expect(rewind).toHaveBeenCalledWith(2, { turn: 2, conversation: false, files: true });
    expect(printed.at(-1)!.split('\n')).toEqual([
      'Back to before message 2: 3 messages left the conversation.',
      '  ↺ notes.txt (restored)',
      'Not restored (their effects stay): git commit -m x',
    ]);
    expect(submit('/rewind two')).toBe('/rewind <number> [files|conversation] — both by default');
  });
});

test('in plan mode an answer after held-back steps offers "Run this plan" first (a greeting does not); taking it switches to default mode and sends it', () => {
  const { screen, printed, submit } = setup();
  let mode = 'plan';
  const sent: string[] = [];
  screen.attach(
    fakeApp({
      getRunMode: () => mode,
      setRunMode: (m: string) => ((mode = m), { ok: true }),
      send: async (t: string) => (
        sent.push(t),
        { outcome: 'answered', message: 'ok', steps: 0, usage: { input_tokens: 0, output_tokens: 0, calls: 0 }, sessionId: 's1' }
      ),
    }),
  );
  const turn = screen as unknown as { showReply(r: unknown, raw: boolean): void; onEvent(e: unknown): void };
  turn.showReply({ type: 'chat', message: 'Hello! What shall we plan?', data: {} }, false);
  expect(printed.join('\n')).not.toContain('Run this plan');
  // a step plan mode held back in this turn (rule mode.plan), then the plan
  turn.onEvent({
    type: 'step',
    id: 'cmd_001',
    step: { tool: 'exec', program: 'rm', args: ['a.ts'] },
    verdict: verdict('L2', ['mode.plan']),
  });
  turn.showReply({ type: 'chat', message: '1. edit a.ts\n2. run the tests', data: { suggestions: ['explain step 2'] } }, false);
  expect(printed.join('\n')).toMatch(/1 › Run this plan {3}2 › explain step 2/);
  submit('1');
  expect(mode).toBe('default');
  expect(printed.join('\n')).toContain('Mode: default');
});

test('/cost: the session and the last turn, cached input tokens, and money from ai.json prices', async () => {
  const { formatCost } = await import('../src/interactive/session-views');
  const usage = { input_tokens: 1_000_000, output_tokens: 100_000, calls: 4, cached_tokens: 600_000 };
  const lines = formatCost(
    { usage, amount: 0.4 * 0.27 + 0.6 * 0.07 + 0.1 * 1.1, currency: 'USD' },
    { usage: { input_tokens: 1000, output_tokens: 10, calls: 1 } },
    'en',
  );
  expect(lines[0]).toBe(
    "This session: 1000000 input + 100000 output tokens over 4 model calls. 600000 of the input from the provider's cache. Cost: $0.260.",
  );
  expect(lines[1]).toBe('Last turn: 1000 input + 10 output tokens over 1 model call.');
  // the hint on prices is said once, not on every line
  expect(lines.slice(2)).toEqual([expect.stringMatching(/^No prices: set pricing in ai\.json/)]);
});

test('a custom command is a /name: in /help and Tab completion, and it sends its template with the arguments', () => {
  const { screen, frame, submit } = setup();
  const sent: string[] = [];
  const review = {
    name: 'review',
    description: 'Review the staged change',
    argumentHint: '<focus>',
    template: 'Review the staged diff. Focus on: $ARGUMENTS',
    file: '/c/review.md',
    scope: 'user',
  };
  screen.attach(fakeApp({ send: (t: string) => (sent.push(t), new Promise(() => undefined)), commands: [review] }));
  (screen as unknown as { app: { commands: unknown[] } }).app.commands = [review];
  expect(submit('/help')).toMatch(/\/review <focus> +Review the staged change/);
  screen.onKeys([{ kind: 'text', text: '/rev' }, { kind: 'tab' }]);
  expect(frame()).toContain('› /review ');
  submit('error handling');
  expect(sent).toEqual(['Review the staged diff. Focus on: error handling']);
});

test('the step line words the verdict at the screen, in its language, through the redaction gate (a secret in a param never shows)', () => {
  const secret = `ghp_${'Ab12'.repeat(9)}`;
  const v = verdict('L1', ['read.outside'], { p: 'cat', a: `/etc/${secret}` });
  for (const lang of ['en', 'zh'] as const) {
    const { screen, printed } = fakeScreen({ lang });
    (screen as unknown as { onEvent(e: unknown): void }).onEvent({
      type: 'step',
      id: 'cmd_001',
      step: { tool: 'exec', program: 'cat', args: ['x'] },
      verdict: v,
    });
    const out = printed.join('\n');
    expect(out).toContain('read.outside');
    expect(out).toContain('[redacted');
    expect(out).not.toContain(secret);
    expect(/[\u4e00-\u9fff]/.test(out.split('read.outside')[1])).toBe(lang === 'zh');
  }
});
