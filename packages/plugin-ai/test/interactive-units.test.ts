import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { commonPrefix, completeInput, completions, parseInput } from '../src/interactive/commands';
import { describeStep, formatContext, formatResult, outputLines, tail } from '../src/interactive/format';
import { PromptHistory } from '../src/interactive/history';
import { mapKey, normalizeBatch, type InputKey } from '../src/interactive/keys';
import { createEditor, layoutInput, reduce, type EditorKey, type EditorState } from '../src/interactive/line-editor';
import { buildFrame, type LiveView } from '../src/interactive/live-frame';
import { looksLikeMarkdown } from '../src/interactive/markdown';
import { createQuestion, joinWords, reduceQuestion, splitWords, type QuestionKey } from '../src/interactive/question';
import { colorEnabled, createTheme } from '../src/interactive/theme';
import { stringWidth, truncateWidth, wrapLine } from '../src/interactive/width';
import type { ToolResult } from '../src/agent/runner-types';
import { toolResult, verdict } from './helpers/fake-runner';

const text = (t: string): EditorKey => ({ kind: 'text', text: t });
const k = (kind: Exclude<EditorKey['kind'], 'text'>): EditorKey => ({ kind }) as EditorKey;

/** Apply keys from a state; returns the state and the last action. */
function run(keys: EditorKey[], from: EditorState = createEditor()) {
  let state = from;
  let action;
  for (const key of keys) {
    const r = reduce(state, key);
    state = r.state;
    if (r.action) action = r.action;
  }
  return { state, action };
}

describe('line editor', () => {
  test.each<[string, EditorKey[], string, number]>([
    ['typing', [text('hello')], 'hello', 5],
    ['backspace', [text('hello'), k('backspace')], 'hell', 4],
    ['backspace a surrogate pair whole', [text('a😀'), k('backspace')], 'a', 1],
    ['left + insert', [text('ac'), k('left'), text('b')], 'abc', 2],
    ['home + delete', [text('xabc'), k('home'), k('delete')], 'abc', 0],
    ['end after home', [text('abc'), k('home'), k('end')], 'abc', 3],
    ['ctrl-u kills to the line start', [text('one two'), k('left'), k('left'), k('left'), k('kill-start')], 'two', 0],
    ['ctrl-k kills to the line end', [text('one two'), k('home'), k('word-right'), k('kill-end')], 'one', 3],
    ['ctrl-w kills a word', [text('git commit -m'), k('kill-word')], 'git commit -', 12],
    ['word-left', [text('foo bar'), k('word-left'), text('X')], 'foo Xbar', 5],
    ['CJK text', [text('你好'), k('left'), text('们')], '你们好', 2],
    ['newline key', [text('a'), k('newline'), text('b')], 'a\nb', 3],
    ['trailing backslash continues', [text('a \\'), k('enter'), text('b')], 'a \nb', 4],
    ['ctrl-d deletes forward when not empty', [text('ab'), k('home'), k('eof')], 'b', 0],
    ['up moves within multi-line text', [text('abc\nde'), k('up')], 'abc\nde', 2],
    ['down from the first line keeps the column', [text('abc\nde'), k('up'), k('home'), k('right'), k('down')], 'abc\nde', 5],
    ['pasted CRLF and tabs are cleaned', [text('a\r\nb\tc\x07')], 'a\nb  c', 6],
  ])('%s', (_name, keys, want, cursor) => {
    const { state } = run(keys);
    expect(state.text).toBe(want);
    expect(state.cursor).toBe(cursor);
  });

  test('enter submits, clears, and adds to history without repeating the last entry', () => {
    let r = run([text('one'), k('enter')]);
    expect(r.action).toEqual({ type: 'submit', text: 'one' });
    expect(r.state).toMatchObject({ text: '', cursor: 0, history: ['one'] });
    r = run([text('one'), k('enter')], r.state);
    expect(r.state.history).toEqual(['one']);
    r = run([k('enter')], r.state);
    expect(r.action).toEqual({ type: 'submit', text: '' });
    expect(r.state.history).toEqual(['one']);
  });

  test('up/down browse history and bring the draft back', () => {
    const start = createEditor(['first', 'second']);
    const typed = run([text('draft')], start).state;
    const up1 = run([k('up')], typed).state;
    expect(up1.text).toBe('second');
    const up2 = run([k('up')], up1).state;
    expect(up2.text).toBe('first');
    expect(run([k('up')], up2).state.text).toBe('first');
    const down = run([k('down'), k('down')], up2).state;
    expect(down.text).toBe('draft');
  });

  test('ctrl-d on an empty line leaves', () => {
    expect(run([k('eof')]).action).toEqual({ type: 'eof' });
  });

  test('layout wraps long and wide lines and places the cursor', () => {
    const state = { text: 'abcdefgh\n你好世界', cursor: 'abcdefgh\n你好'.length };
    const layout = layoutInput(state, 7, '> ', '  ', 2);
    expect(layout.rows).toEqual(['> abcde', '  fgh', '  你好', '  世界']);
    expect(layout).toMatchObject({ cursorRow: 3, cursorCol: 2 });
    const atEnd = layoutInput({ text: 'abcde', cursor: 5 }, 7, '> ', '  ', 2);
    expect(atEnd).toMatchObject({ rows: ['> abcde', '  '], cursorRow: 1, cursorCol: 2 });
  });
});

describe('keys', () => {
  test.each<[string, string | undefined, object, InputKey | undefined]>([
    ['printable', 'a', { name: 'a' }, { kind: 'text', text: 'a' }],
    ['CJK', '中', {}, { kind: 'text', text: '中' }],
    ['enter', '\r', { name: 'return' }, { kind: 'enter' }],
    ['alt+enter', undefined, { name: 'return', meta: true }, { kind: 'newline' }],
    ['shift+enter (CSI u)', undefined, { sequence: '\x1b[13;2u', name: 'undefined' }, { kind: 'newline' }],
    ['ctrl+j', '\n', { name: 'enter' }, { kind: 'newline' }],
    ['ctrl+c', '\x03', { name: 'c', ctrl: true }, { kind: 'interrupt' }],
    ['ctrl+d', '\x04', { name: 'd', ctrl: true }, { kind: 'eof' }],
    ['ctrl+u', '\x15', { name: 'u', ctrl: true }, { kind: 'kill-start' }],
    ['alt+b', undefined, { name: 'b', meta: true }, { kind: 'word-left' }],
    ['escape', '\x1b', { name: 'escape' }, { kind: 'escape' }],
    ['paste start', undefined, { name: 'paste-start' }, { kind: 'paste-start' }],
    ['unknown control', '\x1d', { ctrl: true, name: ']' }, undefined],
  ])('%s', (_n, str, key, want) => {
    expect(mapKey(str, key)).toEqual(want);
  });

  test('a bracketed paste is text with new lines, even across chunks', () => {
    const state = { pasting: false };
    const first = normalizeBatch([{ kind: 'paste-start' }, { kind: 'text', text: 'a' }, { kind: 'enter' }], state);
    expect(first).toEqual([{ kind: 'text', text: 'a\n' }]);
    expect(state.pasting).toBe(true);
    const second = normalizeBatch([{ kind: 'text', text: 'b' }, { kind: 'paste-end' }, { kind: 'enter' }], state);
    expect(second).toEqual([{ kind: 'text', text: 'b' }, { kind: 'enter' }]);
  });

  test('an Enter followed by more text in one chunk is a pasted new line; a final Enter submits', () => {
    const keys: InputKey[] = [{ kind: 'text', text: 'x' }, { kind: 'enter' }, { kind: 'text', text: 'y' }, { kind: 'enter' }];
    expect(normalizeBatch(keys, { pasting: false })).toEqual([{ kind: 'text', text: 'x\ny' }, { kind: 'enter' }]);
  });
});

describe('confirm question', () => {
  const words = ['git', 'commit', '-m', 'a message'];
  const q = (kind: string, t?: string): QuestionKey => (t === undefined ? { kind } : { kind, text: t }) as QuestionKey;

  test.each<[string, QuestionKey[], object]>([
    ['y runs once', [q('text', 'y')], { choice: 'run' }],
    ['a allows for the session', [q('text', 'a')], { choice: 'allow-session' }],
    ['n declines', [q('text', 'n')], { choice: 'decline' }],
    ['Esc declines', [q('escape')], { choice: 'decline' }],
    ['arrows + Enter', [q('down'), q('down'), q('enter')], { choice: 'decline' }],
    ['up wraps around to edit', [q('up'), q('enter'), q('enter')], { edited: words }],
    [
      'edit: retype the command',
      [q('text', 'e'), q('kill-start'), q('text', 'git commit -m "other words"'), q('enter')],
      { edited: ['git', 'commit', '-m', 'other words'] },
    ],
  ])('%s', (_n, keys, want) => {
    let state = createQuestion(true);
    let outcome;
    for (const key of keys) {
      const r = reduceQuestion(state, key, words);
      state = r.state;
      outcome = r.outcome ?? outcome;
    }
    expect(outcome).toEqual(want);
  });

  test('an unbalanced quote or an empty command is refused; Esc goes back to the list', () => {
    let state = reduceQuestion(createQuestion(true), { kind: 'text', text: 'e' }, ['ls']).state;
    state = reduceQuestion(state, { kind: 'text', text: " 'oops" }, ['ls']).state;
    let r = reduceQuestion(state, { kind: 'enter' }, ['ls']);
    expect(r.outcome).toBeUndefined();
    expect(r.state.error).toBe('unbalanced');
    r = reduceQuestion(r.state, { kind: 'escape' }, ['ls']);
    expect(r.state.editing).toBeUndefined();
    expect(r.outcome).toBeUndefined();
  });

  test('edit is offered only when the step has words', () => {
    expect(createQuestion(false).choices).toEqual(['run', 'allow-session', 'decline']);
    expect(reduceQuestion(createQuestion(false), { kind: 'text', text: 'e' }, []).outcome).toBeUndefined();
  });

  test.each<[string[]]>([[['ls', '-la']], [['git', 'commit', '-m', "it's done"]], [['echo', '', 'a b', 'x"y', 'back\\slash']]])(
    'words survive join + split: %j',
    (w) => {
      expect(splitWords(joinWords(w))).toEqual(w);
    },
  );

  test('split understands double quotes and escapes; nothing is expanded', () => {
    expect(splitWords('a "b c" d\\ e $HOME *')).toEqual(['a', 'b c', 'd e', '$HOME', '*']);
    expect(splitWords('"open')).toBeUndefined();
  });
});

describe('what a typed line is', () => {
  test.each<[string, object]>([
    ['', { kind: 'empty' }],
    ['  hello  ', { kind: 'message', text: 'hello' }],
    ['//not a command', { kind: 'message', text: '/not a command' }],
    ['#hashtag is a message', { kind: 'message', text: '#hashtag is a message' }],
    ['# Title\nbody', { kind: 'message', text: '# Title\nbody' }],
    ['!echo a\n!echo b', { kind: 'message', text: '!echo a\n!echo b' }],
    ['!ls -la', { kind: 'shell', line: 'ls -la' }],
    ['  ! git status ', { kind: 'shell', line: 'git status' }],
    ['!', { kind: 'shell', line: '' }],
    ['# always use pnpm', { kind: 'remember', text: 'always use pnpm' }],
    ['/help', { kind: 'command', name: 'help', arg: '' }],
    ['/mode  high ', { kind: 'command', name: 'mode', arg: 'high' }],
    ['/steer stop and\nlook', { kind: 'command', name: 'steer', arg: 'stop and\nlook' }],
    ['/quit', { kind: 'command', name: 'exit', arg: '' }],
    ['/init', { kind: 'command', name: 'init', arg: '' }],
    ['/export notes.md --force', { kind: 'command', name: 'export', arg: 'notes.md --force' }],
    ['/diff', { kind: 'command', name: 'diff', arg: '' }],
    ['/edit', { kind: 'command', name: 'edit', arg: '' }],
    ['/hlep', { kind: 'unknown', name: '/hlep', suggestion: 'help' }],
    ['/zzzzzz', { kind: 'unknown', name: '/zzzzzz', suggestion: undefined }],
  ])('%j', (input, want) => {
    expect(parseInput(input)).toEqual(want);
  });
});

describe('slash commands', () => {
  test.each<[string, string[], string[]]>([
    ['/re', ['/resume ', '/rewind ', '/review '], ['/resume', '/rewind', '/review']],
    ['/', expect.arrayContaining(['/help ', '/exit ']) as unknown as string[], expect.arrayContaining(['/help']) as unknown as string[]],
    ['/mode ', ['/mode low', '/mode high'], ['low', 'high']],
    ['/mode h', ['/mode high'], ['high']],
    ['/profile ', ['/profile local', '/profile work'], ['local', 'work']],
    ['/resume 2026', ['/resume 20261122-a', '/resume 20261122-b'], ['20261122-a', '20261122-b']],
    ['/resume 20261122-a', [], []],
    ['hello', [], []],
  ])('complete %j', (input, candidates, display) => {
    expect(completeInput(input, { profiles: ['local', 'work'], sessions: () => ['20261122-a', '20261122-b'] })).toEqual({
      candidates,
      display,
    });
  });

  test('common prefix', () => {
    expect(commonPrefix(['/resume 20261122-a', '/resume 20261122-b'])).toBe('/resume 20261122-');
    expect(commonPrefix([])).toBe('');
  });

  test('completions', () => {
    expect(completions('/c')).toEqual(['clear', 'compact', 'context', 'cost', 'checks']);
    expect(completions('/st')).toEqual(['steer']);
    expect(completions('/steer x')).toEqual([]);
    expect(completions('hello')).toEqual([]);
  });
});

describe('prompt history file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ai-history-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('multi-line entries survive; blank ones are not kept; a cut line is skipped', async () => {
    const file = path.join(dir, 'ai', 'history');
    const h = new PromptHistory(file);
    h.append('one');
    h.append('two\nlines');
    h.append('   ');
    h.append('x'.repeat(20_000));
    await fs.appendFile(file, '"cut in the midd');
    await fs.appendFile(file, '\n');
    h.append('three');
    expect(new PromptHistory(file).load()).toEqual(['one', 'two\nlines', 'three']);
  });

  test('two sessions appending at once lose nothing; rotation keeps the last `cap`', () => {
    const file = path.join(dir, 'history');
    const a = new PromptHistory(file, 10);
    const b = new PromptHistory(file, 10);
    for (let i = 0; i < 8; i++) {
      a.append(`a${i}`);
      b.append(`b${i}`);
    }
    const loaded = a.load(); // 16 > 10: rotated to history.old
    expect(loaded).toHaveLength(10);
    expect(loaded.at(-1)).toBe('b7');
    b.append('after');
    expect(new PromptHistory(file, 10).load().slice(-2)).toEqual(['b7', 'after']);
  });
});

describe('formatting', () => {
  const plain = createTheme(false);
  const decision = {
    level: 'L2' as const,
    rules: [{ id: 'escalation', level: 'L2' as const, reason: '`sudo` runs as root', hint: 'set allowSudo: true' }],
  };

  test('a blocked step says why, how to allow it, and where the policy is', () => {
    const result = toolResult({ status: 'blocked', decision: { ...decision, by: 'policy' } });
    expect(formatResult(result, '', plain, 'en', '/h/.slothtool/plugin-configs/ai.json')).toEqual([
      '  ⎿ Blocked (L2): not run.',
      '    To allow it: set allowSudo: true',
      '    Policy: /h/.slothtool/plugin-configs/ai.json (allowedPrograms, allowNetwork, allowWrite, allowSudo)',
    ]);
  });

  test('a finished command collapses to its tail', () => {
    const result = toolResult({ id: 'cmd_002', exitCode: 0, durationMs: 1530 });
    const out = Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    expect(formatResult(result, out, plain, 'en', 'ai.json')).toEqual([
      '  │ … 3 earlier lines',
      '  │ line 4',
      '  │ line 5',
      '  │ line 6',
      '  │ line 7',
      '  │ line 8',
      '  ⎿ exit 0 · 1.5 s',
    ]);
  });

  test('when the streamed output was cut to its tail, the hidden count still covers all lines', () => {
    const lines = formatResult(toolResult({ exitCode: 0 }), 'y\ny\ny\ny\ny\ny\n', plain, 'en', 'f', 100000);
    expect(lines[0]).toBe('  │ … 99995 earlier lines');
  });

  test.each<[string, Partial<ToolResult>, string[]]>([
    ['fs.read', { tool: 'fs.read', path: 'a.js', content: '     1\tsecret stuff', summary: 'a.js: 1–1 / 1' }, ['  ⎿ a.js: 1–1 / 1']],
    [
      'proc.status',
      { tool: 'proc.status', proc_id: 'proc_1', state: 'exited', exitCode: 0, stdoutTail: 'ok 1 add\n', summary: 'proc_1 exited 0' },
      ['  │ ok 1 add', '  ⎿ proc_1 exited 0'],
    ],
    [
      'fs.edit',
      { tool: 'fs.edit', path: 'a.js', status: 'applied', summary: 'a.js +1 −1', decision: { level: 'L1', rules: [] } },
      ['  ⎿ applied — a.js +1 −1'],
    ],
  ])('a %s result shows the runner summary, not what was read', (_tool, fields, lines) => {
    expect(formatResult(toolResult(fields), '', plain, 'en', 'f')).toEqual(lines);
  });

  test('a skipped step reads as skipped; a killed one as stopped', () => {
    const skipped = toolResult({ status: 'declined', reason: 'skipped: the user sent a steering message', notRun: 'steering' });
    expect(formatResult(skipped, '', plain, 'en', 'f')[0]).toBe('  ⎿ skipped — you sent a steering message; the model replans with it');
    expect(formatResult(skipped, '', plain, 'zh', 'f')[0]).toBe('  ⎿ 已跳过 — 你发送了调整消息，模型将据此重新规划');
    // the English reason for the model never decides how the screen words it
    const declined: ToolResult = { ...skipped, notRun: undefined, reason: 'not run: but the user declined' };
    expect(formatResult(declined, '', plain, 'en', 'f')[0]).toBe('  ⎿ declined — not run: but the user declined');
    const killed = toolResult({ exitCode: null, signal: 'SIGTERM', durationMs: 20 });
    expect(formatResult(killed, '', plain, 'en', 'f').at(-1)).toBe('  ⎿ stopped (SIGTERM) · 20 ms');
  });

  test('output lines drop terminal control sequences and carriage-return progress', () => {
    expect(outputLines('\x1b[32mok\x1b[39m\n10%\r50%\r100%\n')).toEqual(['ok', '100%']);
    expect(tail(['a', 'b', 'c'], 2)).toEqual({ shown: ['b', 'c'], hidden: 1 });
  });

  test('describeStep quotes words with spaces so what is shown is what runs', () => {
    expect(describeStep({ tool: 'exec', program: 'git', args: ['commit', '-m', 'fix it'] })).toBe("git commit -m 'fix it'");
    // every tool by its own digest, quoted the same way
    expect(describeStep({ tool: 'fs.edit', path: 'src/a b.ts', old_string: 'x', new_string: 'y' } as never)).toBe("edit 'src/a b.ts'");
    expect(describeStep({ tool: 'proc.start', program: 'npm', args: ['test'] } as never)).toBe('start npm test');
    // a tool the registry does not know: its name and target
    expect(describeStep({ tool: 'mcp.kit.echo', path: 'x y' } as never)).toBe("mcp.kit.echo 'x y'");
  });

  test('/context shows each part against the budget, the fold marks and how far the next fold is', () => {
    const marks = { budget: 3800, fold: 3040, summarize: 2280, target: 1520 };
    const lines = formatContext(
      { system: 500, summary: 100, digest: 0, window: 400, windowMessages: 3, total: 1000, budget: 4000, marks, nextFold: 2040, folds: 2 },
      plain,
      'en',
    );
    expect(lines[0]).toBe('Context (tokens, estimated) — budget 4000');
    expect(lines.find((l) => l.includes('conversation'))).toMatch(/conversation .* 400 {3}10% {2}3 messages$/);
    expect(lines.find((l) => l.includes('total'))).toMatch(/total .*1000 {3}25%$/);
    expect(lines.at(-2)).toBe(
      '  Folds past 3040 tokens: older results are shortened; if still past 2280, older turns go into a summary, down to 1520.',
    );
    expect(lines.at(-1)).toBe('  Next fold in about 2040 tokens; 2 folds so far.');
  });

  test('markdown detection', () => {
    expect(looksLikeMarkdown('plain words', undefined)).toBe(false);
    expect(looksLikeMarkdown('# Title', undefined)).toBe(true);
    expect(looksLikeMarkdown('# Title', 'plain')).toBe(false);
    expect(looksLikeMarkdown('x', 'markdown')).toBe(true);
  });
});

describe('terminal text', () => {
  test('width counts CJK as two and ignores colours', () => {
    expect(stringWidth('\x1b[31mab\x1b[39m你')).toBe(4);
    expect(wrapLine('ab你好c', 4)).toEqual(['ab你', '好c']);
  });

  test.each<[string, number]>([
    ['plain ascii', 11],
    ['', 0],
    ['世界', 4],
    ['🚀', 2],
    ['👍🏽', 2], // a skin tone is drawn inside the emoji
    ['👨\u200d👩\u200d👧', 2], // a zero-width-joined family is one emoji
    ['🇨🇳', 2],
    ['a\u200bb', 2], // a zero-width space takes no cell
    ['e\u0301', 1], // a combining accent neither
    ['tab\x07bell', 7],
  ])('width of %j is %i', (text, width) => {
    expect(stringWidth(text)).toBe(width);
  });

  test('wrapping and shortening keep emoji sequences whole', () => {
    const family = '👨\u200d👩\u200d👧';
    expect(wrapLine(`ab${family}cd`, 4)).toEqual([`ab${family}`, 'cd']);
    expect(truncateWidth(`${family}${family}${family}`, 5)).toBe(`${family}${family}…`);
  });

  test.each<[NodeJS.ProcessEnv, boolean, boolean]>([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ TERM: 'dumb' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
  ])('colours with %j, tty=%s → %s', (env, tty, want) => {
    expect(colorEnabled(env, tty)).toBe(want);
  });
});

describe('live frame', () => {
  const plain = createTheme(false);
  const base: LiveView = {
    columns: 40,
    rows: 20,
    preview: '',
    queue: [],
    editor: { text: 'hi', cursor: 2 },
    hints: [],
    status: '  low · local  ·  /help',
  };

  test('idle: the rule, the prompt with the cursor after the text, the status', () => {
    expect(buildFrame(base, plain, 'en')).toEqual({
      lines: ['─'.repeat(40), '› hi', '  low · local  ·  /help'],
      cursor: { line: 1, col: 4 },
    });
  });

  test('busy: streaming text, the output tail, the spinner with time and tokens, the queue', () => {
    const frame = buildFrame(
      {
        ...base,
        preview: 'The answer so far',
        busy: {
          phase: 'running',
          step: 'npm test',
          elapsedMs: 65_000,
          spinnerFrame: 1,
          streamedTokens: 0,
          output: 'a\nb\nc\nd\ne\nf\ng\n',
          outputNewlines: 7,
        },
        queue: ['next one'],
        hints: ['  /help      this list'],
      },
      plain,
      'en',
    );
    expect(frame.lines).toEqual([
      'The answer so far',
      '  │ … 2 earlier lines',
      '  │ c',
      '  │ d',
      '  │ e',
      '  │ f',
      '  │ g',
      '⠙ Running npm test… (1m 05s · esc/ctrl+c to stop)',
      '↳ queued: next one',
      '─'.repeat(40),
      '› hi',
      '  /help      this list',
      '  low · local  ·  /help',
    ]);
  });

  test('a question replaces the prompt; its keys line shows once it takes keys', () => {
    const request = {
      id: 'c',
      step: { tool: 'exec' as const, program: 'rm', args: ['x'] },
      verdict: verdict('L1'),
      decision: { level: 'L1' as const, rules: [] },
      sessionKey: 'rm x',
    };
    const waiting = buildFrame({ ...base, question: { request, state: createQuestion(true), ready: false } }, plain, 'en');
    expect(waiting.lines).toEqual([
      'Allow this L1 step?  rm x',
      '❯ 1. Yes, run it once',
      '  2. Yes, and allow `rm x` for this session',
      '  3. No, decline (the model is told)',
      '  4. Edit the command first',
      '…',
    ]);
    expect(waiting.cursor).toBeUndefined();
    const ready = buildFrame({ ...base, question: { request, state: createQuestion(true), ready: true } }, plain, 'en');
    expect(ready.lines.at(-1)).toBe('↑/↓ Enter · 1–4 · y/a/n/e · Esc declines');
  });
});

describe('tabs in one input chunk', () => {
  const { normalizeBatch, expandTabs } = require('../src/interactive/keys') as typeof import('../src/interactive/keys');
  test.each([
    [
      'a pasted tab between text becomes spaces to the next stop',
      [{ kind: 'text', text: 'a' }, { kind: 'tab' }, { kind: 'text', text: 'b' }],
      [{ kind: 'text', text: 'a   b' }],
    ],
    [
      'a tab that ends the chunk completes',
      [{ kind: 'text', text: '/res' }, { kind: 'tab' }],
      [{ kind: 'text', text: '/res' }, { kind: 'tab' }],
    ],
    ['a tab alone completes', [{ kind: 'tab' }], [{ kind: 'tab' }]],
  ] as const)('%s', (_name, keys, expected) => {
    expect(normalizeBatch(keys as never, { pasting: false })).toEqual(expected);
  });
  test('expandTabs counts columns per line and in display cells', () => {
    expect(expandTabs('ab\tc\n\td')).toBe('ab  c\n    d');
    expect(expandTabs('中\tx')).toBe('中  x');
  });
});
