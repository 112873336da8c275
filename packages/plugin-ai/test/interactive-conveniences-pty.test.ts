import { execFileSync } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { until, writeFiles } from '@holic512/testkit';
import { chat, cmd, usePtyFixture, KEY, type PtyFixture, type PtySession } from './pty/pty-session';

// The everyday conveniences of `ai -i` (issue #45), each through a real `ai -i` in a pseudo-
// terminal against the scripted model: `!cmd` and shell mode, `@path` and Tab, `# text`, /init,
// /diff, /export, Ctrl+R, Ctrl+G and /edit, notifications, `/<skill>`.

/** The contents of the messages of the n-th request to the model. */
const contents = (fx: PtyFixture, n: number): string[] =>
  fx.server.requests[n].body.messages.map((m: { content: unknown }) =>
    typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
  );
const parse = (text: string | undefined): any => {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
};
/** The events of this kind among messages sent. */
const eventsOf = (sent: string[], kind: string) => sent.map(parse).filter((e) => e?._event === kind);
/** Once the prompt is idle and what was typed so far asked nothing of the model, one turn with
 * `message`: the messages of that first request. */
async function firstRequest(fx: PtyFixture, s: PtySession, message = 'go on'): Promise<string[]> {
  await s.waitIdle();
  expect(fx.server.requests).toHaveLength(0);
  fx.server.enqueue(chat('noted'));
  await s.turn(message, 'noted');
  return contents(fx, 0);
}
const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

describe('!cmd and shell mode', () => {
  const fx = usePtyFixture();

  test("!cmd runs through the runner without a model request; the model reads it, marked as the user's, with the next message", async () => {
    await fs.writeFile(path.join(fx.cwd, 'a.txt'), 'hello from a file\n');
    const s = await fx.ready();
    await s.waitIdle();
    await s.submit('!cat a.txt', '[L0] cat a.txt', 'hello from a file', 'exit 0');
    const sent = await firstRequest(fx, s, 'what was in it?');
    expect(sent.at(-1)).toBe('what was in it?');
    expect(parse(sent.at(-2))).toMatchObject({
      _event: 'user_ran',
      command: 'cat a.txt',
      exitCode: 0,
      stdout: 'hello from a file\n',
      note: expect.stringMatching(/user ran this command themselves/),
    });
    expect(await s.quit()).toBe(0);
  });

  test('L1 asks (declined: not run), L2 is refused with its rule, a line that needs a shell is not run', async () => {
    const s = await fx.ready();
    await s.waitIdle();
    s.send('!touch made.txt');
    await s.answerStep(KEY.esc);
    await s.waitFor('declined');
    await s.waitIdle();
    expect(await exists(path.join(fx.cwd, 'made.txt'))).toBe(false);
    await s.submit('!sudo ls', '[L2] sudo ls', 'Blocked (L2): not run.');
    await s.waitIdle();
    await s.submit('!ls | wc -l', '`ls | wc -l` was not run: it needs a shell ("|")');
    expect(eventsOf(await firstRequest(fx, s), 'user_ran')).toEqual([
      expect.objectContaining({ command: 'touch made.txt', status: 'declined', level: 'L1' }),
      expect.objectContaining({ command: 'sudo ls', status: 'blocked', level: 'L2' }),
    ]);
    expect(await s.quit()).toBe(0);
  });

  test('!cmd typed during a turn waits for it (shown as queued), then runs as a command', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let n = 0;
    fx.server.setHandler(async () => {
      if (n++ === 0) await held;
      return chat('slow answer') as never;
    });
    const s = await fx.ready();
    await s.waitIdle();
    s.send('take your time');
    await s.waitFor('esc/ctrl+c to stop');
    s.send('!echo after-the-turn');
    await s.waitFor('queued: !echo after-the-turn');
    release();
    await s.waitForAll(['slow answer', '[L0] echo after-the-turn', 'exit 0']);
    await s.waitIdle();
    expect(fx.server.requests).toHaveLength(1);
    expect(await s.quit()).toBe(0);
  });

  test('a lone ! toggles shell mode: the prompt and status show it, every line runs, ! (or Esc) leaves', async () => {
    await fs.writeFile(path.join(fx.cwd, 'b.txt'), 'bee\n');
    const s = await fx.ready();
    await s.waitIdle();
    await s.submit('!', 'shell mode: Enter runs the line');
    await s.submit('cat b.txt', '[L0] cat b.txt', 'bee');
    await s.waitIdle();
    // `!` again leaves: the status line starts with the model again
    await s.submit('!', /\n {2}low · local/);
    const mark = s.text().length;
    fx.server.enqueue(chat('a message again'));
    await s.turn('cat b.txt', 'a message again');
    expect(s.text().slice(mark)).not.toContain('[L0] cat b.txt');
    // Esc leaves too (the status line starts with the model again)
    await s.submit('!', 'shell mode');
    await s.press(KEY.esc, /\n {2}low · local/);
    fx.server.enqueue(chat('plain'));
    await s.turn('hello', 'plain');
    expect(await s.quit()).toBe(0);
  });
});

describe('@path and Tab', () => {
  const fx = usePtyFixture();

  test('@file goes with the message (fs.read: redacted, numbered lines removed); a secret file is left out and said; Tab completes', async () => {
    await fs.writeFile(path.join(fx.cwd, 'notes.md'), 'NOTES-BODY line one\nkey sk-' + 'z'.repeat(40) + '\n');
    await fs.writeFile(path.join(fx.cwd, '.env'), 'TOKEN=supersecretvalue\n');
    fx.server.enqueue(chat('got the notes'));
    const s = await fx.ready();
    await s.waitIdle();
    s.write('summarize @no');
    await s.press('\t', 'summarize @notes.md');
    await s.press('and @.env' + KEY.enter, '[L0] read notes.md', '@.env is not included', 'got the notes');
    await s.waitIdle();
    const message = contents(fx, 0).at(-1)!;
    expect(message.startsWith('summarize @notes.md and @.env\n\n<file path="notes.md">\nNOTES-BODY line one\n')).toBe(true);
    expect(message).not.toContain('z'.repeat(40));
    expect(message).toMatch(/@\.env \[not included: .*\.env.*\]/);
    expect(message).not.toContain('supersecretvalue');
    expect(await s.quit()).toBe(0);
  });

  test('Tab after @ lists the candidates (.gitignore respected, secret files not offered)', async () => {
    await writeFiles(fx.cwd, {
      'src/main.ts': 'x',
      'src/util.ts': 'x',
      'src/gen.ts': 'x',
      'src/server.pem': 'x',
      '.gitignore': 'src/gen.ts\n',
    });
    const s = await fx.ready();
    await s.waitIdle();
    s.write('look at @sr');
    await s.press('\t', 'look at @src/');
    await s.press('\t', 'src/main.ts  src/util.ts');
    expect(s.text()).not.toContain('src/gen.ts');
    expect(s.text()).not.toContain('server.pem');
    s.write('\x15'); // Ctrl+U: an empty line, so Ctrl+D leaves
    expect(await s.leave()).toBe(0);
  });
});

describe('# memory, /init, /export, Ctrl+R, Ctrl+G, /<skill>', () => {
  const fx = usePtyFixture();

  test('# text asks where, adds the line atomically, sends nothing; the model reads it with the next message', async () => {
    const s = await fx.ready();
    await s.waitIdle();
    await s.submit('# always use pnpm', 'Add to memory: "always use pnpm" — where?', '1. this project: AGENTS.md', '2. only me:');
    await s.press('1', 'Added to AGENTS.md');
    expect(await fs.readFile(path.join(fx.cwd, 'AGENTS.md'), 'utf8')).toBe('- always use pnpm\n');
    await s.submit('# my own habit', 'where?');
    await s.press(KEY.down + KEY.enter, 'Added to');
    expect(await fs.readFile(path.join(fx.temp.slothtoolHome, 'AGENTS.md'), 'utf8')).toBe('- my own habit\n');
    await s.submit('# never mind', 'where?');
    await s.press(KEY.esc, 'Nothing was added.');
    const sent = await firstRequest(fx, s);
    expect(eventsOf(sent, 'memory_added')).toEqual([
      expect.objectContaining({ scope: 'project', text: 'always use pnpm' }),
      expect.objectContaining({ scope: 'user', text: 'my own habit' }),
    ]);
    // the system prompt stayed as the session started (no rewrite of the cached prefix)
    expect(sent[0]).not.toContain('always use pnpm');
    expect(await s.quit()).toBe(0);
  });

  test("/init: one request naming AGENTS.md and the CLAUDE.md to merge; the write goes through fs.write's diff and question", async () => {
    await fs.writeFile(path.join(fx.cwd, 'CLAUDE.md'), '- use pnpm\n');
    fx.server.enqueue(
      cmd('writing it', { tool: 'fs.write', path: 'AGENTS.md', content: '# Agents\n\n- use pnpm\n' }),
      chat('wrote AGENTS.md'),
    );
    const s = await fx.ready();
    await s.waitIdle();
    s.send('/init');
    await s.waitForAll(['[L1] write AGENTS.md', '+# Agents']);
    await s.answerStep('y');
    await s.waitFor('wrote AGENTS.md');
    await s.waitIdle();
    const asked = contents(fx, 0).at(-1)!;
    expect(asked).toMatch(/write a concise AGENTS\.md/);
    expect(asked).toMatch(/fs\.glob[\s\S]*fs\.grep[\s\S]*fs\.read/);
    expect(asked).toContain('CLAUDE.md exists: read it and merge its points');
    expect(await fs.readFile(path.join(fx.cwd, 'AGENTS.md'), 'utf8')).toBe('# Agents\n\n- use pnpm\n');
    expect(await s.quit()).toBe(0);
  });

  test('a custom command named init replaces the built-in /init', async () => {
    await fs.mkdir(path.join(fx.temp.slothtoolHome, 'commands'), { recursive: true });
    await fs.writeFile(
      path.join(fx.temp.slothtoolHome, 'commands', 'init.md'),
      '---\ndescription: our own init\n---\nOUR-OWN-INIT: $ARGUMENTS\n',
    );
    fx.server.enqueue(chat('custom init ran'));
    const s = await fx.ready();
    await s.waitIdle();
    await s.turn('/init fast', 'custom init ran');
    expect(contents(fx, 0).at(-1)).toBe('OUR-OWN-INIT: fast');
    expect(await s.quit()).toBe(0);
  });

  test('/export writes the conversation as Markdown (default name printed); an existing file only with --force', async () => {
    fx.server.enqueue(chat('The answer is **42**.'));
    const s = await fx.ready();
    await s.waitIdle();
    await s.turn('what is the answer?', 'The answer is 42.');
    await s.submit('!echo ran-by-me', 'ran-by-me', 'exit 0');
    await s.waitIdle();
    await s.submit('/export', /Exported 1 message to \S+\.md/);
    const file = /Exported 1 message to (\S+\.md)/.exec(s.text())![1];
    expect(path.dirname(file)).toBe(fx.cwd);
    const md = await fs.readFile(file, 'utf8');
    expect(md).toContain('## You\n\nwhat is the answer?');
    expect(md).toContain('## ai\n\nThe answer is **42**.');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    await s.submit('/export out.md', `Exported 1 message to ${path.join(fx.cwd, 'out.md')}`);
    await s.submit('/export out.md', 'out.md exists: /export');
    await s.submit('/export out.md --force', 'it replaced the file that was there');
    expect(fx.server.requests).toHaveLength(1);
    expect(await s.quit()).toBe(0);
  });

  test('Ctrl+R finds an earlier prompt (this session and the history file); Enter puts it on the line, Esc cancels', async () => {
    await fs.mkdir(path.join(fx.temp.slothtoolHome, 'ai'), { recursive: true });
    await fs.writeFile(
      path.join(fx.temp.slothtoolHome, 'ai', 'history'),
      ['deploy the staging app', 'explain the build'].map((e) => JSON.stringify(e)).join('\n') + '\n',
    );
    const s = await fx.ready();
    await s.waitIdle();
    s.write('draft');
    await s.press('\x12', "(reverse-i-search)'': explain the build");
    await s.press('dep', "(reverse-i-search)'dep': deploy the staging app");
    await s.press(KEY.enter, '› deploy the staging app');
    expect(fx.server.requests).toHaveLength(0);
    s.write('\x15' + 'typed');
    await s.press('\x12', "(reverse-i-search)''");
    await s.press('zzz', "(failed reverse-i-search)'zzz'");
    await s.press(KEY.esc, '› typed');
    fx.server.enqueue(chat('deploying'));
    await s.press('\x15' + '\x12' + 'stag', "'stag': deploy the staging app");
    await s.press(KEY.enter + KEY.enter, 'deploying');
    expect(contents(fx, 0).at(-1)).toBe('deploy the staging app');
    expect(await s.quit()).toBe(0);
  });

  test('Ctrl+G edits the prompt in $VISUAL (the terminal handed over and back); without an editor, a clear message', async () => {
    const editor = path.join(fx.temp.home, 'editor.js');
    await fs.writeFile(
      editor,
      "const fs=require('fs');const f=process.argv[2];fs.writeFileSync(f,fs.readFileSync(f,'utf8').replace('hello','HELLO from the editor'));",
    );
    const s = fx.start(['-i'], { VISUAL: `${process.execPath} ${editor}`, EDITOR: '' });
    await s.waitIdle();
    s.write('say hello');
    await s.press('\x07', '› say HELLO from the editor');
    fx.server.enqueue(chat('edited text arrived'));
    await s.press(KEY.enter, 'edited text arrived');
    await s.waitIdle();
    expect(contents(fx, 0).at(-1)).toBe('say HELLO from the editor');
    expect(await s.quit()).toBe(0);
    const bare = fx.start(['-i'], { VISUAL: '', EDITOR: '' });
    await bare.waitIdle();
    await bare.submit('/edit', 'No editor set: set $VISUAL or $EDITOR');
    expect(await bare.quit()).toBe(0);
  });

  test("/<skill> sends the skill's body with that message, the input after it", async () => {
    const dir = path.join(fx.temp.slothtoolHome, 'skills', 'release-notes');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(
      path.join(dir, 'SKILL.md'),
      '---\nname: release-notes\ndescription: Write release notes\n---\nBODY-MARKER: group commits by type.\n',
    );
    fx.server.enqueue(chat('notes written'));
    const s = await fx.ready();
    await s.waitIdle();
    await s.turn('/release-notes for v2.0', 'notes written');
    expect(fx.server.requests).toHaveLength(1);
    const message = contents(fx, 0).at(-1)!;
    expect(message).toContain('<skill name="release-notes">\nBODY-MARKER: group commits by type.\n</skill>');
    expect(message.endsWith('Input: for v2.0')).toBe(true);
    expect(await s.quit()).toBe(0);
  });

  test('/help lists the new commands and keys', async () => {
    const s = await fx.ready();
    await s.waitIdle();
    await s.submit(
      '/help',
      '/init',
      '/diff',
      '/export [file]',
      '/edit',
      'Ctrl+R search history',
      'Ctrl+G edit in $EDITOR',
      '!cmd runs a command yourself',
      '# text adds a line to memory',
      '@path includes a file',
    );
    expect(await s.quit()).toBe(0);
  });
});

describe('/diff in a repository', () => {
  const fx = usePtyFixture({ git: true });

  test('git diff and untracked files, marking what this session changed; no model request', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: fx.cwd, env: fx.env });
    await fs.writeFile(path.join(fx.cwd, 'tracked.txt'), 'one\n');
    git('add', 'tracked.txt');
    git('commit', '-qm', 'first');
    await fs.writeFile(path.join(fx.cwd, 'tracked.txt'), 'one\ntwo\n');
    await fs.writeFile(path.join(fx.cwd, 'loose.txt'), 'loose line\n');
    await fs.writeFile(path.join(fx.cwd, '.env'), 'TOKEN=abc\n');
    fx.server.enqueue(cmd('make it', { tool: 'fs.write', path: 'made.txt', content: 'made by the session\n' }), chat('made it'));
    const s = await fx.ready();
    await s.waitIdle();
    s.send('make a file');
    await s.answerStep('y');
    await s.waitFor('made it');
    await s.waitIdle();
    await s.submit(
      '/diff',
      /Changes in \S+: 1 changed file, 3 untracked/,
      'M   tracked.txt',
      '?   .env',
      '?   loose.txt',
      '? ● made.txt',
      '● changed by this session',
      '+two',
      '+loose line',
      '+made by the session',
    );
    await s.waitIdle();
    expect(s.text()).not.toContain('TOKEN=abc');
    expect(fx.server.requests).toHaveLength(2);
    expect(await s.quit()).toBe(0);
  });

  test('outside a repository /diff says so', async () => {
    await fs.rm(path.join(fx.cwd, '.git'), { recursive: true });
    const s = await fx.ready();
    await s.waitIdle();
    await s.submit('/diff', 'is not in a git repository');
    expect(await s.quit()).toBe(0);
  });
});

describe('notifications', () => {
  const fx = usePtyFixture({
    aiConfig: {
      notify: { style: 'osc9', afterSeconds: 0 },
      hooks: { Notification: [{ matcher: 'permission_prompt', hooks: [{ type: 'command', command: 'cat > notified.json' }] }] },
    },
  });

  test("a question and the end of a turn longer than afterSeconds (0 here) write OSC 9; the Notification hook gets Claude Code's stdin", async () => {
    fx.server.enqueue(cmd('touch', { program: 'touch', args: ['n.txt'] }), chat('touched'));
    const s = await fx.ready();
    await s.waitIdle();
    s.send('make n.txt');
    await s.waitFor('Allow this L1 step?');
    await until(() => s.raw().includes('\x1b]9;ai needs your answer: touch n.txt\x07'));
    await until(() => exists(path.join(fx.cwd, 'notified.json')));
    await until(async () => parse(await fs.readFile(path.join(fx.cwd, 'notified.json'), 'utf8')) !== undefined);
    expect(parse(await fs.readFile(path.join(fx.cwd, 'notified.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'Notification',
      message: 'ai needs your answer: touch n.txt',
      notification_type: 'permission_prompt',
      cwd: fx.cwd,
    });
    await s.answerStep('y');
    await s.waitFor('touched');
    await until(() => s.raw().includes('\x1b]9;ai finished and waits for your input\x07'));
    expect(await s.quit()).toBe(0);
  });
});

describe('notifications: the bell, and off', () => {
  const bell = usePtyFixture({ aiConfig: { notify: { afterSeconds: 0 } } });

  test('the default style is BEL: at a question and at the end of a turn past afterSeconds', async () => {
    bell.server.enqueue(chat('quick'));
    const s = await bell.ready();
    await s.waitIdle();
    const before = s.raw().split('\x07').length;
    await s.turn('hi', 'quick');
    await until(() => s.raw().split('\x07').length > before);
    expect(s.raw()).not.toContain('\x1b]9;');
    expect(await s.quit()).toBe(0);
  });
});
