import * as fs from 'fs';
import * as path from 'path';
import { reducePick } from '../src/interactive/pick';
import { reduceSearch, startSearch, type SearchKey, type SearchState } from '../src/interactive/prompt-search';
import { appendMemoryLine, memoryTargets, withMemoryLine } from '../src/interactive/memory-add';
import { exportTarget, transcriptMarkdown } from '../src/interactive/export';
import { shellStep, userRanEvent, USER_RAN_MAX_TOKENS } from '../src/interactive/user-shell';
import { notificationSequence, notifySettings, DEFAULT_NOTIFY_AFTER_SECONDS } from '../src/interactive/notify';
import { editExternally, editorCommand } from '../src/interactive/external-editor';
import { validateConfig } from '../src/config/config';
import { skillMessage, SKILL_BODY_MAX_CHARS } from '../src/extensions/commands';
import { fileRefs } from '../src/extensions/command-run';
import { initPrompt } from '../src/extensions/init-prompt';
import { readHooks } from '../src/extensions/hooks';
import { fireNotification } from '../src/extensions/notify-hook';
import { estimateTokens } from '../src/context/tokens';
import type { SessionRecord } from '../src/sessions/sessions';
import { toolResult } from './helpers/fake-runner';
import { useTempFolder } from './helpers/temp-folder';

const folder = useTempFolder('ai-conveniences-');

describe('the choice question (pick)', () => {
  const start = { title: 'where?', choices: ['a', 'b', 'c'], index: 0 };
  test.each([
    [{ kind: 'down' }, 1, undefined],
    [{ kind: 'up' }, 2, undefined],
    [{ kind: 'enter' }, 0, 0],
    [{ kind: 'text', text: '2' }, 1, 1],
    [{ kind: 'text', text: '9' }, 0, undefined],
    [{ kind: 'escape' }, 0, -1],
  ] as const)('%j → index %i, picked %s', (key, index, picked) => {
    const r = reducePick(start, key as never);
    expect(r.state.index).toBe(index);
    expect(r.picked).toBe(picked);
  });
});

describe('Ctrl+R reverse search', () => {
  const history = ['git status', 'npm test', 'git log --oneline', 'explain the tests'];
  const run = (keys: SearchKey[], original = 'draft') => {
    let state: SearchState = startSearch(history, original);
    for (const key of keys) {
      const r = reduceSearch(state, key, history);
      state = r.state;
      if (r.done !== undefined) return { state, done: r.done, key: r.key };
    }
    return { state };
  };
  const type = (text: string): SearchKey[] => [...text].map((c) => ({ kind: 'text', text: c }));

  test('typing filters from the newest; Enter puts the match on the line', () => {
    expect(run([...type('git'), { kind: 'enter' }]).done).toBe('git log --oneline');
    expect(run([...type('TEST'), { kind: 'enter' }]).done).toBe('explain the tests');
  });
  test('Ctrl+R again goes to the next older match, and stays at the oldest', () => {
    expect(run([...type('git'), { kind: 'search' }, { kind: 'enter' }]).done).toBe('git status');
    const r = run([...type('git'), { kind: 'search' }, { kind: 'search' }]);
    expect(r.state).toMatchObject({ failed: true, at: 0 });
  });
  test('no match: failed, and the last match stays shown (as bash does)', () => {
    const r = run(type('npz'));
    expect(r.state).toMatchObject({ failed: true, query: 'npz' });
    expect(run([...type('npz'), { kind: 'enter' }]).done).toBe('npm test');
  });
  test('an empty history: failed at once, Enter gives back the draft', () => {
    expect(reduceSearch(startSearch([], 'draft'), { kind: 'enter' }, []).done).toBe('draft');
  });
  test('a prompt sent several times is found once', () => {
    const twice = ['npm test', 'git status', 'npm test', 'npm test'];
    let state = startSearch(twice, '');
    for (const c of 'npm') state = reduceSearch(state, { kind: 'text', text: c }, twice).state;
    expect(state.at).toBe(3);
    state = reduceSearch(state, { kind: 'search' }, twice).state;
    expect(state).toMatchObject({ failed: true, at: 3 });
  });
  test('Backspace widens the search again', () => {
    expect(run([...type('npmx'), { kind: 'backspace' }, { kind: 'enter' }]).done).toBe('npm test');
  });
  test('Esc, Ctrl+G (cancel) and Ctrl+C give back the draft', () => {
    for (const key of [{ kind: 'escape' }, { kind: 'cancel' }, { kind: 'interrupt' }] as SearchKey[])
      expect(run([...type('git'), key]).done).toBe('draft');
  });
  test('a cursor key takes the match and still moves', () => {
    expect(run([...type('npm'), { kind: 'left' }])).toMatchObject({ done: 'npm test', key: { kind: 'left' } });
  });
});

describe('# memory lines', () => {
  test.each([
    ['', 'use pnpm', '- use pnpm\n'],
    ['# Rules\n- one\n', 'two', '# Rules\n- one\n- two\n'],
    ['# Rules', 'two', '# Rules\n\n- two\n'],
    ['- a', 'b\nc', '- a\n- b c\n'],
  ])('withMemoryLine(%j, %j)', (before, text, after) => {
    expect(withMemoryLine(before, text)).toBe(after);
  });

  test('the project file gets the line atomically; the user file is created private', () => {
    const project = path.join(folder.root, 'repo');
    fs.mkdirSync(project);
    folder.write('repo/AGENTS.md', '# Rules\n- one\n');
    const [mine, user] = memoryTargets(project, path.join(folder.root, 'home', '.slothtool'));
    expect(appendMemoryLine(mine, 'two', project)).toEqual({ file: path.join(project, 'AGENTS.md') });
    expect(fs.readFileSync(path.join(project, 'AGENTS.md'), 'utf8')).toBe('# Rules\n- one\n- two\n');
    expect(appendMemoryLine(user, 'mine only', project)).toEqual({ file: user.file });
    expect(fs.statSync(user.file).mode & 0o777).toBe(0o600);
  });

  test('a project AGENTS.md that links out of the project is not written through', () => {
    const project = path.join(folder.root, 'repo');
    fs.mkdirSync(project);
    const target = folder.write('bashrc', 'echo hi\n');
    fs.symlinkSync(target, path.join(project, 'AGENTS.md'));
    const r = appendMemoryLine(memoryTargets(project, folder.root)[0], 'x', project);
    expect(r).toEqual({ error: { code: 'outside', real: target } });
    expect(fs.readFileSync(target, 'utf8')).toBe('echo hi\n');
  });

  test('a link to a file inside the project is written at its target (the link stays)', () => {
    const project = path.join(folder.root, 'repo');
    const claude = folder.write('repo/CLAUDE.md', '- a\n');
    fs.symlinkSync('CLAUDE.md', path.join(project, 'AGENTS.md'));
    expect(appendMemoryLine(memoryTargets(project, folder.root)[0], 'b', project)).toEqual({ file: claude });
    expect(fs.lstatSync(path.join(project, 'AGENTS.md')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(claude, 'utf8')).toBe('- a\n- b\n');
  });
});

describe('!cmd', () => {
  test('split without a shell as custom commands are; a line that needs one is refused with what it needed', () => {
    expect(shellStep('git log --oneline -3')).toMatchObject({ step: { program: 'git', args: ['log', '--oneline', '-3'] } });
    expect(shellStep("grep -n 'a b' x.txt")).toMatchObject({ step: { program: 'grep', args: ['-n', 'a b', 'x.txt'] } });
    for (const line of ['ls | wc -l', 'echo $HOME', 'make && make test', 'cat *.md', 'ls > out'])
      expect(shellStep(line)).toHaveProperty('error');
  });

  test("what the model reads: marked as the user's, output redacted and capped", () => {
    const key = 'sk-' + 'a'.repeat(40);
    const event = JSON.parse(
      userRanEvent(`env`, toolResult({ exitCode: 0, stdoutTail: `OPENAI_API_KEY=${key}\n${'line\n'.repeat(5000)}`, stderrTail: '' })),
    );
    expect(event).toMatchObject({ _event: 'user_ran', command: 'env', exitCode: 0, truncated: true });
    expect(event.note).toMatch(/user ran this command themselves/);
    expect(JSON.stringify(event)).not.toContain(key);
    expect(estimateTokens(event.stdout)).toBeLessThanOrEqual(USER_RAN_MAX_TOKENS);
  });

  test('a declined or blocked command says so, with its level', () => {
    const event = JSON.parse(
      userRanEvent('sudo ls', toolResult({ status: 'blocked', reason: 'sudo is refused', decision: { level: 'L2', rules: [] } as never })),
    );
    expect(event).toEqual(expect.objectContaining({ _event: 'user_ran', status: 'blocked', level: 'L2', reason: 'sudo is refused' }));
    expect(event).not.toHaveProperty('exitCode');
  });
});

describe('/export', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const records: SessionRecord[] = [
    { t: 'meta', v: 1, id: 's1', cwd: '/w', createdAt: at },
    { t: 'user', at, content: 'first question' },
    { t: 'assistant', at, content: JSON.stringify({ type: 'chat', message: 'dropped by rewind' }) },
    { t: 'rewind', at, turn: 1 },
    { t: 'event', at, content: JSON.stringify({ _event: 'user_ran', command: 'ls', exitCode: 0, stdout: 'a.txt\n' }) },
    { t: 'user', at, content: 'what is in a.txt? key sk-' + 'b'.repeat(40) },
    { t: 'assistant', at, content: JSON.stringify({ type: 'cmd', message: 'reading it', asked: ['read a.txt'] }) },
    {
      t: 'tool',
      at,
      content: JSON.stringify({ _event: 'tool_result', id: 'cmd_001', step: 'fs.read a.txt', outcome: 'ran', level: 'L0' }),
      digest: '',
    },
    {
      t: 'tool',
      at,
      content: JSON.stringify({
        _event: 'tool_result',
        id: 'cmd_002',
        tool: 'exec',
        program: 'git',
        args: ['status'],
        exitCode: 0,
        decision: { level: 'L0' },
      }),
      digest: '',
    },
    { t: 'assistant', at, content: JSON.stringify({ type: 'chat', message: 'It holds **one** line.' }) },
    { t: 'event', at, content: JSON.stringify({ _event: 'memory_added', file: 'AGENTS.md', text: 'use pnpm' }) },
    { t: 'assistant', at, content: 'a plain-text answer (native tools)' },
  ] as SessionRecord[];

  test('every message and answer, steps as one line each, what the person ran, rewinds applied, redacted', () => {
    const md = transcriptMarkdown(records, { id: 's1', cwd: '/w', at, lang: 'en' });
    expect(md).not.toContain('first question');
    expect(md).not.toContain('dropped by rewind');
    expect(md).toContain('**You ran** `ls` → exit 0');
    expect(md).toContain('## You\n\nwhat is in a.txt?');
    expect(md).not.toContain('b'.repeat(40));
    expect(md).toContain('*reading it*\n\n- `fs.read a.txt` [L0] → ran\n- `git status` [L0] → exit 0');
    expect(md).toContain('## ai\n\nIt holds **one** line.');
    expect(md).toContain('**Memory** (AGENTS.md): use pnpm');
    expect(md).toContain('## ai\n\na plain-text answer (native tools)');
    const zh = transcriptMarkdown(records, { id: 's1', cwd: '/w', at, lang: 'zh' });
    expect(zh).toContain('## 你\n\nwhat is in a.txt?');
    expect(zh).toContain('**你运行了** `ls` → exit 0');
  });

  test('the default name takes the first free -N; a given name that exists needs --force; a folder is refused', () => {
    const cwd = folder.root;
    expect(exportTarget('', cwd, 's1')).toEqual({ file: path.join(cwd, 'ai-s1.md'), replaced: false });
    folder.write('ai-s1.md', 'old');
    expect(exportTarget('', cwd, 's1')).toEqual({ file: path.join(cwd, 'ai-s1-2.md'), replaced: false });
    expect(exportTarget('ai-s1.md', cwd, 's1')).toEqual({ error: 'exists', file: path.join(cwd, 'ai-s1.md') });
    expect(exportTarget('ai-s1.md --force', cwd, 's1')).toEqual({ file: path.join(cwd, 'ai-s1.md'), replaced: true });
    expect(exportTarget('.', cwd, 's1')).toEqual({ error: 'folder', file: cwd });
  });
});

describe('notifications', () => {
  test.each([
    ['bell', 'x', '\x07'],
    ['osc9', 'ai needs you', '\x1b]9;ai needs you\x07'],
    ['osc9', 'evil\x07\x1b]0;title\x07', '\x1b]9;evil  ]0;title \x07'],
    ['off', 'x', ''],
  ] as const)('%s %j', (style, message, sequence) => {
    expect(notificationSequence(style, message)).toBe(sequence);
  });

  test('ai.json notify: a style, or {style, afterSeconds}; default bell after 30 s; a bad value is said clearly', () => {
    expect(notifySettings(undefined)).toEqual({ style: 'bell', afterSeconds: DEFAULT_NOTIFY_AFTER_SECONDS });
    expect(notifySettings({ notify: 'osc9' })).toEqual({ style: 'osc9', afterSeconds: 30 });
    expect(notifySettings({ notify: { afterSeconds: 0 } })).toEqual({ style: 'bell', afterSeconds: 0 });
    expect(validateConfig({ notify: { style: 'off', afterSeconds: 5 } })).toMatchObject({ ok: true });
    const bad = validateConfig({ notify: 'beep' });
    expect(bad).toEqual({ ok: false, errors: [expect.stringMatching(/^notify: expected "bell", "osc9", "off" or \{"style"/)] });
    expect(validateConfig({ notify: { afterSeconds: -1 } })).toMatchObject({ ok: false });
    expect(validateConfig({ notify: { sound: true } })).toMatchObject({ ok: false });
  });

  test("Claude Code's Notification hooks are read and run with its stdin, matched on the notification type", async () => {
    const marker = path.join(folder.root, 'stdin.json');
    const { hooks, problems } = readHooks(
      {
        Notification: [
          { matcher: 'permission_prompt', hooks: [{ type: 'command', command: `cat > '${marker}'` }] },
          { matcher: 'idle_prompt', hooks: [{ type: 'command', command: `echo idle > '${marker}.idle'` }] },
        ],
      },
      'settings.json',
      'claude',
    );
    expect(problems).toEqual([]);
    await fireNotification(
      { hooks, sessionId: 's1', cwd: folder.root, runMode: 'auto-edit', env: process.env, projectDir: folder.root },
      'ai needs your answer: touch x',
      'permission_prompt',
    );
    expect(JSON.parse(fs.readFileSync(marker, 'utf8'))).toEqual({
      session_id: 's1',
      cwd: folder.root,
      permission_mode: 'acceptEdits',
      hook_event_name: 'Notification',
      message: 'ai needs your answer: touch x',
      notification_type: 'permission_prompt',
    });
    expect(fs.existsSync(`${marker}.idle`)).toBe(false);
  });
});

describe('Ctrl+G: the editor', () => {
  test.each([
    [{}, { error: 'none' }],
    [{ EDITOR: 'vim' }, { words: ['vim'], command: 'vim' }],
    [
      { EDITOR: 'vim', VISUAL: 'code --wait' },
      { words: ['code', '--wait'], command: 'code --wait' },
    ],
    [{ EDITOR: "'unclosed" }, { error: 'unsplittable', command: "'unclosed" }],
  ])('%j', (env, found) => {
    expect(editorCommand(env)).toEqual(found);
  });

  test('the prompt goes through a private temporary file, edited by the editor, which is removed after', async () => {
    // The editor writes back the text in capitals, the file's mode and where it was.
    const script = folder.write(
      'edit.js',
      "const fs=require('fs');const f=process.argv[2];fs.writeFileSync(f,[fs.readFileSync(f,'utf8').toUpperCase(),(fs.statSync(f).mode&0o777).toString(8),f].join('|')+'\\n');",
    );
    const calls: string[] = [];
    const out = await editExternally(
      'fix the tests',
      { ...process.env, VISUAL: `${process.execPath} ${script}` },
      { suspend: () => calls.push('suspend'), resume: () => calls.push('resume') },
    );
    if (!out.ok) throw new Error(JSON.stringify(out));
    const [text, mode, file] = out.text.split('|');
    expect([text, mode]).toEqual(['FIX THE TESTS', '600']);
    expect(fs.existsSync(file)).toBe(false);
    expect(calls).toEqual(['suspend', 'resume']);
  });

  test('an editor that fails leaves the prompt as it was', async () => {
    const out = await editExternally(
      'keep me',
      { ...process.env, VISUAL: `${process.execPath} -e process.exit(3)` },
      { suspend: () => undefined, resume: () => undefined },
    );
    expect(out).toMatchObject({ ok: false, reason: 'failed', detail: 'exit 3' });
  });
});

describe('/<skill>, @path, /init', () => {
  test("a skill's body goes with the message, with its folder and the input; a long body is cut at a line with where to read on", () => {
    const file = folder.write('skills/notes/SKILL.md', '---\nname: notes\ndescription: d\n---\nBODY line 1\nline 2\n');
    const message = skillMessage({ name: 'notes', file }, 'for v2');
    expect(message).toContain('<skill name="notes">\nBODY line 1\nline 2\n</skill>');
    expect(message).toContain(path.dirname(file));
    expect(message.endsWith('Input: for v2')).toBe(true);
    folder.write(
      'skills/long/SKILL.md',
      '---\nname: long\ndescription: d\n---\n' + 'x'.repeat(100) + '\n' + 'y'.repeat(SKILL_BODY_MAX_CHARS) + '\n',
    );
    const long = skillMessage({ name: 'long', file: path.join(folder.root, 'skills/long/SKILL.md') }, '');
    expect(long).toContain('"offset":6');
    expect(long).not.toContain('yyyy');
  });

  test('@refs: text files that exist, once each; images, mentions and missing files stay text', () => {
    folder.write('notes.md', 'n');
    folder.write('src/a.ts', 'a');
    expect(fileRefs('see @notes.md, @src/a.ts and @notes.md; @shot.png @someone @gone.md mail@x.md', folder.root)).toEqual([
      'notes.md',
      'src/a.ts',
    ]);
  });

  test('/init names AGENTS.md, and CLAUDE.md when there is one', () => {
    expect(initPrompt(folder.root)).toMatch(/write a concise AGENTS\.md/);
    expect(initPrompt(folder.root)).not.toContain('CLAUDE.md exists');
    folder.write('CLAUDE.md', '- x');
    expect(initPrompt(folder.root, 'mention the Makefile')).toMatch(
      /CLAUDE\.md exists: read it and merge its points[\s\S]*The user adds: mention the Makefile/,
    );
    // Started in a subfolder, the file still goes to the root.
    expect(initPrompt(folder.root, '', path.join(folder.root, 'pkg', 'a'))).toContain('one fs.write step (path "../../AGENTS.md")');
  });
});
