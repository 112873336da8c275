import { execFileSync } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { chat, cmd, usePtyFixture, KEY } from './pty/pty-session';
import { renderScreen } from './pty/screen-model';

// `ai -i` in a real pseudo-terminal against the scripted OpenAI-compatible server.

const fx = usePtyFixture();

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );
/** The last message of the n-th request to the model, parsed when it is JSON. */
const sent = (n: number): any => {
  const content = fx.server.requests[n].body.messages.at(-1).content;
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
};
/** The contents of the messages of the n-th request. */
const contents = (n: number): string[] => fx.server.requests[n].body.messages.map((m: { content: string }) => m.content);
/** Replies in order; the first waits until the returned function is called (a turn that
 * runs exactly as long as the test needs, with no timing involved). */
function holdFirstReply(...replies: Array<Record<string, unknown>>): () => void {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let n = 0;
  fx.server.setHandler(async () => {
    const i = n++;
    if (i === 0) await held;
    return replies[i] as never;
  });
  return release;
}
const parse = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

test('a chat turn: the prompt, the answer, the status line; Ctrl+D leaves with the session saved', async () => {
  fx.server.enqueue(chat('Hello from the model.'));
  const s = await fx.ready();
  await s.waitFor('low · local');
  await s.submit('hi there', 'Hello from the model.');
  s.write(KEY.ctrlD);
  await s.waitFor(/Session saved: \S+/);
  expect(await s.exited).toBe(0);
  expect(sent(0)).toBe('hi there');
  // the colours are on in a terminal without NO_COLOR
  expect(s.raw()).toMatch(/\x1b\[3\dm/);
});

test('markdown replies are rendered; plain ones stay plain', async () => {
  fx.server.enqueue(chat('# Title\n\nSome **bold** words and `code`.', 'markdown'), chat('just *plain* text', 'plain'));
  const s = await fx.ready();
  await s.submit('md', 'Some bold words and code.'); // rendered once complete (the stream shows the source)
  await s.waitIdle();
  expect(s.raw()).toMatch(/\x1b\[1mbold\x1b\[22m/);
  await s.turn('plain', 'just *plain* text');
  expect(await s.quit()).toBe(0);
});

test('a confirmed L1 step: shown with level and rule, asked, run; allow-session is exactly what was shown', async () => {
  fx.server.enqueue(cmd('create it', { program: 'touch', args: ['created.txt'] }), chat('the file is there'));
  const s = await fx.ready();
  s.send('create created.txt');
  await s.waitForAll(['[L1] touch created.txt', 'rule write.file', 'Allow this L1 step?']);
  await s.waitFor('1–6 · y/a/n/p/d/e · Esc declines'); // the question takes keys: exactly its six
  await s.answer('Yes, and allow `exec touch created.txt` for this session', 'a');
  await s.waitForAll(['exit 0', 'the file is there']);
  await s.waitIdle();
  expect(await exists(path.join(fx.cwd, 'created.txt'))).toBe(true);
  expect(sent(1)).toMatchObject({ _event: 'tool_result', program: 'touch', exitCode: 0, decision: { level: 'L1', by: 'user' } });
  // the same command again runs without asking; a different file asks again
  fx.server.enqueue(cmd('again', { program: 'touch', args: ['created.txt'] }), chat('touched again'));
  const mark = s.text().length;
  await s.turn('once more', 'touched again');
  expect(s.text().slice(mark)).not.toContain('Allow this');
  fx.server.enqueue(cmd('other', { program: 'touch', args: ['other.txt'] }), chat('not that one'));
  s.send('another file');
  await s.answerStep(KEY.esc); // Esc declines
  await s.waitFor('not that one');
  await s.waitIdle();
  expect(await exists(path.join(fx.cwd, 'other.txt'))).toBe(false);
  expect(await s.quit()).toBe(0);
});

test('a declined L1 step is not run and the model is told', async () => {
  fx.server.enqueue(cmd('create it', { program: 'touch', args: ['nope.txt'] }), chat('ok, I will not'));
  const s = await fx.ready();
  s.send('create nope.txt');
  await s.answerStep(KEY.down + KEY.down + KEY.enter); // the third choice: decline
  await s.waitFor('declined');
  await s.waitFor('ok, I will not');
  await s.waitIdle();
  expect(await exists(path.join(fx.cwd, 'nope.txt'))).toBe(false);
  expect(sent(1)).toMatchObject({ _event: 'tool_result', status: 'declined', reason: 'declined by the user', decision: { level: 'L1' } });
  expect(await s.quit()).toBe(0);
});

test('edit the arguments before running: the edited command is judged again and run', async () => {
  fx.server.enqueue(cmd('create it', { program: 'touch', args: ['a.txt'] }), chat('done'));
  const s = await fx.ready();
  s.send('create a file');
  await s.answerStep('e');
  await s.waitFor('Edit the command');
  s.send('\x7f'.repeat(5) + 'b.txt'); // a.txt → b.txt
  await s.waitFor('✎ touch b.txt');
  // judged again: still L1. Wait for the new question by its command, so a late frame of the
  // first one (already taking keys) cannot be mistaken for it while this one is still guarded.
  await s.answerStep('y', /Allow this L1 step\? +touch b\.txt/);
  await s.waitFor('done');
  expect(await exists(path.join(fx.cwd, 'b.txt'))).toBe(true);
  expect(await exists(path.join(fx.cwd, 'a.txt'))).toBe(false);
  expect(await s.leave()).toBe(0);
});

test('an L2 step is refused with its rule and how to allow it in the config', async () => {
  fx.server.enqueue(cmd('clean', { program: 'sudo', args: ['rm', '-rf', '/tmp/x'] }), chat('I cannot do that'));
  const s = await fx.ready();
  await s.submit('clean up', '[L2] sudo rm -rf /tmp/x');
  await s.waitFor('Blocked (L2): not run.');
  await s.waitFor('To allow it:');
  await s.waitFor(/Policy: \S+ai\.json/);
  await s.waitFor('I cannot do that');
  await s.waitIdle();
  expect(s.text()).not.toContain('Allow this L2 step');
  expect(sent(1)).toMatchObject({ _event: 'tool_result', status: 'blocked', decision: { level: 'L2' } });
  expect(await s.quit()).toBe(0);
});

test('/help, an unknown command, /context, /cost, /mode, /clear', async () => {
  fx.server.enqueue(chat('first answer'));
  const s = await fx.ready();
  s.send('/help');
  for (const c of [
    '/clear',
    '/compact',
    '/context',
    '/cost',
    '/mode low|high',
    '/profile <name>',
    '/sessions',
    '/resume <id>',
    '/steer <msg>',
    '/next <msg>',
    '/exit',
  ]) {
    await s.waitFor(c);
  }
  s.write('/co'); // typing a command lists the matching ones with what they do
  await s.waitFor(/\/compact\s+fold the history into the summary now/);
  await s.waitFor(/\/cost\s+tokens used in this session/);
  s.write('\x15'); // Ctrl+U
  await s.submit('/hlep', 'Unknown command /hlep. Did you mean /help?');
  await s.turn('hello', 'first answer');
  // each command, and what it shows
  const commands: Array<[string, ...Array<string | RegExp>]> = [
    ['/context', /Context \(tokens, estimated\) — budget \d+/, /conversation .*2 messages/, /Next fold in about \d+ tokens/],
    ['/cost', /This session: \d+ input \+ \d+ output tokens over 1 model call\./],
    ['/mode high', 'Mode is now high.', 'high · local'],
    ['/profile nope', 'llm-base has no profile nope (profiles: local)'],
    ['/profile', 'Profile: local.'],
    ['/clear', 'Cleared: new conversation'],
    ['/context', /conversation .*0 messages/],
  ];
  for (const [command, ...shows] of commands) await s.submit(command, ...shows);
  expect(await s.quit()).toBe(0);
  expect(fx.server.requests[0].body.model).toBe('test-low');
});

test('Ctrl+C during a long command stops its process group, keeps its output, and the model is told', async () => {
  await fs.writeFile(path.join(fx.cwd, 'log.txt'), 'line one\nline two\n');
  fx.server.enqueue(cmd('follow the log', { program: 'tail', args: ['-f', 'log.txt'] }), chat('you stopped it'));
  const s = await fx.ready();
  await s.submit('watch the log', '[L0] tail -f log.txt');
  await s.waitFor('line two'); // streamed live while it runs
  await s.waitFor('Running tail -f log.txt');
  s.write(KEY.ctrlC);
  await s.waitFor('Interrupted');
  await s.waitFor('› ');
  expect(fx.server.requests).toHaveLength(1);
  await s.turn('why did it stop?', 'you stopped it');
  const next = contents(1);
  expect(next).toContainEqual(JSON.stringify({ _event: 'interrupted', by: 'user', during: 'step' }));
  const result = next.map(parse).find((m: any) => m?._event === 'tool_result');
  expect(result).toMatchObject({ exitCode: null, stdoutTail: 'line one\nline two\n' });
  expect(await s.quit()).toBe(0);
});

test('Ctrl+C while the model answers returns to the prompt; twice at an empty prompt leaves', async () => {
  fx.server.enqueue({
    content: '{"type":"chat","message":"partial ans',
    hangAfterChunks: 1,
    chunks: ['{"type":"chat","message":"partial ans', 'wer"}'],
  } as never);
  const s = await fx.ready();
  await s.submit('slow question', 'Thinking…');
  await s.waitFor('partial ans'); // streamed so far
  s.write(KEY.ctrlC);
  await s.waitFor('Interrupted');
  await s.waitIdle();
  const screen = renderScreen(s.raw(), 100);
  expect(screen.slice(screen.indexOf('› slow question'))).toEqual(
    expect.arrayContaining(['partial ans', expect.stringMatching(/^Interrupted — what was produced is kept/)]),
  );
  s.write(KEY.ctrlC);
  await s.waitFor('Press Ctrl+C again to exit');
  s.write(KEY.ctrlC);
  await s.waitFor(/Session saved: \S+/);
  expect(await s.exited).toBe(0);
});

test('/steer while a command runs: the rest of the plan is skipped and the note goes with the next call', async () => {
  await fs.writeFile(path.join(fx.cwd, 'notes.txt'), 'milk\n');
  // The first step reads a named pipe: it ends exactly when the test writes to it.
  const fifo = path.join(fx.cwd, 'gate.fifo');
  execFileSync('mkfifo', [fifo]);
  fx.server.enqueue(
    cmd('two steps', { program: 'cat', args: ['gate.fifo'] }, { program: 'cat', args: ['notes.txt'] }),
    chat('steered answer'),
  );
  const s = await fx.ready();
  await s.submit('do two things', 'Running cat gate.fifo');
  await s.submit('/steer only look at the readme', 'Steering:');
  await fs.writeFile(fifo, 'gate open\n'); // the current step ends; the rest is skipped
  await s.waitFor('skipped');
  await s.waitFor('steered answer');
  await s.waitIdle();
  const second = contents(1);
  expect(second.at(-1)).toBe('only look at the readme');
  const results = second.map(parse).filter((m: any) => m?._event === 'tool_result' && m.id);
  expect(results).toEqual([
    expect.objectContaining({ program: 'cat', args: ['gate.fifo'], exitCode: 0 }),
    expect.objectContaining({ status: 'declined', reason: expect.stringMatching(/^skipped/) }),
  ]);
  expect(await s.quit()).toBe(0);
});

test('typing while a turn runs is kept; Enter queues it for after the turn (/next too)', async () => {
  const release = holdFirstReply(chat('first'), chat('second'), chat('third'));
  const s = await fx.ready();
  await s.submit('one', 'Thinking…');
  await s.submit('two', 'queued: two');
  await s.submit('/next three', 'queued: three');
  release();
  await s.waitForAll(['first', 'second', 'third']);
  expect(fx.server.requests.map((r) => r.body.messages.at(-1).content)).toEqual(['one', 'two', 'three']);
  await s.waitIdle();
  // each queued message is echoed where its turn starts, after the previous answer
  const screen = renderScreen(s.raw(), 100);
  const at = (line: string) => screen.indexOf(line);
  expect(
    [at('› one'), at('first'), at('› two'), at('second'), at('› three'), at('third')].every(
      (n, i, all) => n >= 0 && (i === 0 || n > all[i - 1]),
    ),
  ).toBe(true);
  expect(await s.quit()).toBe(0);
});

test('/sessions and /resume after a restart bring the conversation back', async () => {
  fx.server.enqueue(chat('the secret word is tangerine'));
  const first = await fx.ready();
  await first.turn('remember a word', 'the secret word is tangerine');
  await first.submit('/exit', /Session saved: (\S+)\./);
  const id = /Session saved: (\S+?)\./.exec(first.text())![1];
  expect(await first.exited).toBe(0);

  fx.server.enqueue(chat('it was tangerine'));
  const second = await fx.ready();
  await second.submit('/sessions', id);
  second.write('/res\t'); // Tab completes the command, then the only session id
  await second.waitFor('› /resume ');
  second.write('\t');
  await second.waitFor(`› /resume ${id}`);
  second.write(KEY.enter);
  await second.waitFor(`Resumed session ${id}`);
  await second.waitFor('the secret word is tangerine'); // the last exchange is shown again
  await second.turn('what was the word?', 'it was tangerine');
  expect(contents(1).join('\n')).toContain('the secret word is tangerine');
  await second.submit('/exit', `Session saved: ${id}`);
  expect(await second.exited).toBe(0);
});

test('history: up recalls earlier prompts, also from an earlier session', async () => {
  fx.server.enqueue(chat('a1'), chat('a2'));
  const first = await fx.ready();
  await first.turn('first prompt', 'a1');
  expect(await first.quit()).toBe(0);
  const second = await fx.ready();
  second.write(KEY.up + KEY.up); // "/exit", then "first prompt"
  await second.waitFor('› first prompt');
  await second.turn('', 'a2'); // Enter sends the prompt recalled
  expect(sent(1)).toBe('first prompt');
  expect(await second.quit()).toBe(0);
});

test('multi-line input with a trailing backslash and with a bracketed paste', async () => {
  fx.server.enqueue(chat('got two lines'), chat('got the paste'));
  const s = await fx.ready();
  await s.submit('line one \\', /› line one \r*\n {2}\r*\n/); // the backslash became a new line
  await s.turn('line two', 'got two lines');
  expect(sent(0)).toBe('line one \nline two');
  await s.turn('\x1b[200~pasted a\rpasted b\x1b[201~', 'got the paste');
  expect(sent(1)).toBe('pasted a\npasted b');
  expect(await s.quit()).toBe(0);
});

test('NO_COLOR: no colour sequences, the same words', async () => {
  fx.server.enqueue(cmd('look', { program: 'touch', args: ['c.txt'] }), chat('# Done\n\n**all** good', 'markdown'));
  const s = fx.start(['-i'], { NO_COLOR: '1' });
  await s.waitFor('› ');
  s.send('go');
  await s.answerStep('y');
  await s.waitFor('all good');
  await s.waitIdle();
  expect(await s.quit()).toBe(0);
  expect(s.raw()).not.toMatch(/\x1b\[[0-9;]*m/);
  expect(s.text()).toContain('[L1] touch c.txt');
});

test('zh: the screen speaks Chinese (settings.json language) and wide text lines up', async () => {
  await fx.temp.writeJson('settings.json', { language: 'zh' });
  fx.server.enqueue(chat('你好,我在。'));
  const s = fx.start();
  await s.waitFor('/help 查看命令');
  await s.waitFor('low · local');
  await s.turn('你好', '你好,我在。');
  await s.submit('/help', '开始新对话');
  await s.submit('/nope', '未知命令 /nope');
  s.write(KEY.ctrlD);
  await s.waitFor('会话已保存');
  expect(await s.exited).toBe(0);
});

test('a config patch shows its masked diff before the question; declining leaves the file as it was', async () => {
  const file = path.join(fx.cwd, 'demo.json');
  await fs.writeFile(file, JSON.stringify({ name: 'demo', api_key: 'sk-old-secret-1234567890' }));
  fx.server.enqueue(
    cmd('update the config', {
      tool: 'config.json_patch',
      file: 'demo.json',
      patch: [
        { op: 'replace', path: '/name', value: 'renamed' },
        { op: 'replace', path: '/api_key', value: 'sk-new-secret-0987654321' },
      ],
    }),
    chat('left it alone'),
  );
  const s = await fx.ready();
  s.send('rename it');
  await s.waitForAll(['json_patch demo.json (2 ops)', '(secrets masked):', 'renamed']);
  await s.answerStep('n', /Allow this L\d step\?/);
  await s.waitFor('left it alone');
  await s.waitIdle();
  expect(s.text()).not.toContain('sk-new-secret-0987654321');
  expect(s.text()).not.toContain('sk-old-secret-1234567890');
  expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ name: 'demo', api_key: 'sk-old-secret-1234567890' });
  expect(await s.quit()).toBe(0);
});

test('/compact folds the history now and says what was kept', async () => {
  fx.server.enqueue(chat('answer one'), chat('answer two'), {
    json: {
      summary: 'The user asked two questions about the build.',
      keyFacts: ['the build uses tsc -b'],
      openTasks: ['fix the lint warning'],
    },
  });
  const s = await fx.ready();
  await s.turn('question one', 'answer one');
  await s.turn('question two', 'answer two');
  await s.submit('/compact', /Compacted \(model\): \d+ → \d+ tokens\. Kept: a summary of \d+ tokens, 1 key fact, 1 open task,/);
  await s.waitFor('the build uses tsc -b');
  await s.waitFor('fix the lint warning');
  await s.waitIdle();
  // Said once: the command's own report, not also the event's one-liner.
  const screen = renderScreen(s.raw(), 100).join('\n');
  expect(screen.match(/Compacted \(model\)/g)).toHaveLength(1);
  expect(screen).not.toContain('Context compacted');
  await s.submit('/context', /summary .* [1-9]\d* /);
  expect(await s.quit()).toBe(0);
});

test('Ctrl+C while a question is up declines the step and stops the turn', async () => {
  fx.server.enqueue(
    cmd('create', { program: 'touch', args: ['x.txt'] }, { program: 'touch', args: ['y.txt'] }),
    chat('after the interruption'),
  );
  const s = await fx.ready();
  s.send('make files');
  await s.answerStep(KEY.ctrlC);
  await s.waitFor('Interrupted');
  await s.waitIdle();
  expect(fx.server.requests).toHaveLength(1);
  expect(await exists(path.join(fx.cwd, 'x.txt'))).toBe(false);
  await s.turn('go on', 'after the interruption');
  expect(contents(1)).toContainEqual(JSON.stringify({ _event: 'interrupted', by: 'user', during: 'step' }));
  expect(await s.quit()).toBe(0);
});

test('a broken config is reported after the prompt was drawn, with exit code 2', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { maxAutoStepsPerTurn: 'many' });
  const s = fx.start();
  await s.waitFor(/Config file \S+ai\.json is invalid/);
  expect(await s.exited).toBe(2);
});

test('ai -i "<prompt>" sends the prompt first; -c continues the last session here', async () => {
  fx.server.enqueue(chat('answer to the first words'), chat('continued'));
  const first = fx.start(['-i', 'first words']);
  await first.waitFor('› first words');
  await first.waitFor('answer to the first words');
  await first.waitIdle();
  expect(await first.leave()).toBe(0);
  const second = fx.start(['-i', '-c']);
  await second.waitFor('Resumed session');
  await second.waitFor('answer to the first words');
  await second.waitIdle();
  await second.turn('and then?', 'continued');
  expect(contents(1)).toContain('first words');
  expect(await second.leave()).toBe(0);
});

test('Esc stops a running turn too; the window can be resized', async () => {
  fx.server.enqueue(
    {
      content: '{"type":"chat","message":"never fin',
      hangAfterChunks: 1,
      chunks: ['{"type":"chat","message":"never fin', 'ished"}'],
    } as never,
    chat('after resize'),
  );
  const s = fx.start();
  await s.waitFor('low · local');
  await s.submit('wait forever', 'esc/ctrl+c to stop');
  s.write(KEY.esc);
  await s.waitFor('Interrupted');
  await s.waitIdle();
  s.resize(60, 20);
  await s.submit('hello again', 'after resize');
  await s.waitFor('─'.repeat(60) + '\r'); // the rule is drawn at the new width
  await s.waitIdle();
  expect(await s.leave()).toBe(0);
});

test('a command that floods its output keeps the screen responsive and collapses to its tail', async () => {
  fx.server.enqueue(cmd('flood', { program: 'yes', args: ['spam'] }), chat('flood over'));
  const s = fx.start();
  await s.waitFor('low · local');
  await s.submit('flood the screen', 'Running yes spam');
  await s.waitFor(/… \d{4,} earlier lines/);
  s.write(KEY.ctrlC);
  await s.waitFor('Interrupted');
  await s.waitIdle();
  const screen = renderScreen(s.raw(), 100);
  const from = screen.indexOf('› flood the screen');
  const after = screen.slice(from);
  expect(after.filter((l) => l === '  │ spam').length).toBeLessThanOrEqual(5);
  expect(after.some((l) => /^ {2}⎿ stopped \(SIGTERM\)/.test(l))).toBe(true);
  expect(await s.leave()).toBe(0);
});

test('Up on an empty prompt takes a queued message back to edit it', async () => {
  const release = holdFirstReply(chat('first'), chat('edited one answered'));
  const s = fx.start();
  await s.waitFor('low · local');
  await s.submit('one', 'Thinking…');
  await s.submit('tow', 'queued: tow');
  s.write(KEY.up);
  await s.waitFor('› tow');
  s.send('\x7f\x7f' + 'wo'); // fix the typo, queue it again
  await s.waitFor('queued: two');
  release();
  await s.waitFor('edited one answered');
  await s.waitIdle();
  expect(fx.server.requests.map((r) => r.body.messages.at(-1).content)).toEqual(['one', 'two']);
  expect(await s.leave()).toBe(0);
});

test('an fs.edit shows its diff before the question; /undo puts the file back', async () => {
  const file = path.join(fx.cwd, 'calc.js');
  await fs.writeFile(file, 'exports.add = (a, b) => a - b;\n');
  fx.server.enqueue(
    cmd('fix add', { tool: 'fs.read', path: 'calc.js' }),
    cmd('fix add', { tool: 'fs.edit', path: 'calc.js', old_string: 'a - b', new_string: 'a + b' }),
    chat('fixed'),
  );
  const s = fx.start();
  await s.waitFor('low · local');
  s.send('fix add');
  await s.waitForAll(['[L0] read calc.js', '[L1] edit calc.js', '-exports.add = (a, b) => a - b;', '+exports.add = (a, b) => a + b;']);
  await s.answer('Esc declines', 'y');
  await s.waitFor('fixed');
  await s.waitIdle();
  expect(await fs.readFile(file, 'utf8')).toBe('exports.add = (a, b) => a + b;\n');
  await s.submit('/undo', '↺ calc.js (restored)');
  expect(await fs.readFile(file, 'utf8')).toBe('exports.add = (a, b) => a - b;\n');
  expect(await s.leave()).toBe(0);
});
