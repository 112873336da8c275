import { useAiFixture } from '@holic512/testkit';
import { spawn, type ChildProcess } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { AI_BIN, runAi } from './run-bin';

// `ai -p --input-format stream-json`: a script keeps one session open on stdin, one turn per JSON
// line, each answered with the --json events; and the two system prompt flags of -p and -i.
const fx = useAiFixture();
const chat = (message: string) => ({ json: { type: 'chat', message } });
const user = (content: unknown) => JSON.stringify({ type: 'user', message: { role: 'user', content } }) + '\n';

/** `ai` with stdin open: write lines, and wait for events on stdout as they come. */
function startStream(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [AI_BIN, ...args], {
    env: fx.temp.env,
    cwd: fx.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  fx.onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const events: Array<Record<string, any>> = [];
  const rawLines: string[] = [];
  const waiters: Array<() => void> = [];
  let partial = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => {
    partial += d.toString();
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim())) {
      rawLines.push(line);
      events.push(JSON.parse(line));
    }
    for (const w of waiters.splice(0)) w();
  });
  /** Resolves with the `n`-th event (1-based) that `match` accepts, once it is out. */
  const nth = (n: number, match: (e: Record<string, any>) => boolean): Promise<Record<string, any>> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = events.filter(match);
        if (found.length >= n) return resolve(found[n - 1]);
        if (child.exitCode !== null) return reject(new Error(`ai exited before event ${n}: ${stderr}`));
        waiters.push(check);
      };
      check();
    });
  return {
    child,
    events,
    rawLines,
    nth,
    write: (text: string) => child.stdin!.write(text),
    end: () => child.stdin!.end(),
    exited,
    stderr: () => stderr,
  };
}

test('one turn per line in one session while stdin stays open; a bad line is an error event and the session goes on', async () => {
  fx.server.enqueue(chat('first answer'), chat('second answer'), chat('third answer'));
  const s = startStream(['-p', '--input-format', 'stream-json']);
  const isFinal = (e: Record<string, any>) => e.type === 'final';
  s.write(user('hello'));
  expect(await s.nth(1, isFinal)).toMatchObject({ outcome: 'answered', message: 'first answer' });
  // The second turn is asked only now: the first was answered with stdin still open.
  expect(fx.server.requests).toHaveLength(1);
  s.write(
    user([
      { type: 'text', text: 'part one' },
      { type: 'text', text: 'part two' },
    ]),
  );
  const second = await s.nth(2, isFinal);
  expect(second).toMatchObject({ outcome: 'answered', message: 'second answer' });
  s.write('this is not json\n');
  s.write(user([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }]));
  s.write(JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: 'x' } }) + '\n');
  const badJson = await s.nth(1, (e) => e.type === 'error' && e.code === 'BAD_INPUT_LINE');
  expect(badJson).toMatchObject({ line: 3, message: expect.stringContaining('not JSON') });
  expect(await s.nth(2, (e) => e.type === 'error' && e.code === 'BAD_INPUT_LINE')).toMatchObject({
    line: 4,
    message: expect.stringContaining('only text parts'),
  });
  expect(await s.nth(3, (e) => e.type === 'error' && e.code === 'BAD_INPUT_LINE')).toMatchObject({
    line: 5,
    message: expect.stringContaining('type'),
  });
  s.write(user('still here?'));
  const third = await s.nth(3, isFinal);
  expect(third).toMatchObject({ outcome: 'answered', message: 'third answer', sessionId: second.sessionId });
  s.end();
  expect(await s.exited).toBe(0);
  // One session: the third request carries the earlier turns.
  const sent = JSON.stringify(fx.server.requests[2].body.messages);
  expect(sent).toContain('hello');
  expect(sent).toContain('part one\\n\\npart two');
  expect(sent).toContain('first answer');
  expect(fx.server.requests[1].body.messages.at(-1).content).toBe('part one\n\npart two');
  // Every line of stdout is a JSON event, each turn opened and closed.
  expect(s.events.filter((e) => e.type === 'turn_start')).toHaveLength(3);
  expect(s.rawLines.every((l) => l.startsWith('{'))).toBe(true);
});

test('only bad lines: the errors, and exit 2; no line at all: no prompt, exit 2', async () => {
  const bad = await runAi(['-p', '--input-format', 'stream-json'], { env: fx.temp.env, cwd: fx.cwd, input: '{"type":"user"}\n' });
  expect(bad.code).toBe(2);
  expect(bad.events).toEqual([expect.objectContaining({ type: 'error', code: 'BAD_INPUT_LINE', line: 1 })]);
  const none = await runAi(['-p', '--input-format', 'stream-json'], { env: fx.temp.env, cwd: fx.cwd, input: '' });
  expect(none.code).toBe(2);
  expect(none.events).toEqual([expect.objectContaining({ type: 'error', code: 'NO_PROMPT' })]);
  expect(fx.server.requests).toHaveLength(0);
});

/** The system messages of the first model request. */
const system = () =>
  fx.server.requests[0].body.messages
    .filter((m: { role: string }) => m.role === 'system')
    .map((m: { content: string }) => m.content)
    .join('\n');

test('--append-system-prompt adds to the system prompt of -p and -i; the protocol stays', async () => {
  fx.server.enqueue(chat('bonjour'));
  const r = await runAi(['-p', 'hi', '--append-system-prompt', 'Always answer in French.'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r).toMatchObject({ code: 0, stdout: 'bonjour\n' });
  expect(system()).toContain('Reply shapes:');
  expect(system().trimEnd().endsWith('Always answer in French.')).toBe(true);
  fx.server.requests.length = 0;
  fx.server.enqueue(chat('salut'));
  const i = await runAi(['-i', '--append-system-prompt', 'Be terse.'], { env: fx.temp.env, cwd: fx.cwd, input: 'hi\n' });
  expect(i.code).toBe(0);
  expect(system().trimEnd().endsWith('Be terse.')).toBe(true);
});

test('--system-prompt-file replaces the project instructions, never the protocol and rules; a missing file stops with its name', async () => {
  await fs.writeFile(path.join(fx.cwd, 'AGENTS.md'), 'PROJECT RULE: use tabs\n');
  await fs.writeFile(path.join(fx.cwd, 'review.md'), 'You review code. List problems as bullets.\n');
  fx.server.enqueue(chat('- none'), chat('- none'));
  const r = await runAi(['-p', 'review', '--system-prompt-file', 'review.md', '--append-system-prompt', 'Be brief.'], {
    env: fx.temp.env,
    cwd: fx.cwd,
  });
  expect(r.code).toBe(0);
  expect(system()).toContain('You review code. List problems as bullets.');
  expect(system()).not.toContain('PROJECT RULE');
  expect(system()).toContain('Risk levels: L0 runs at once');
  expect(system().indexOf('You review code')).toBeLessThan(system().indexOf('Be brief.'));
  // Without the flag the project's instructions are there as before.
  fx.server.requests.length = 0;
  await runAi(['-p', 'review'], { env: fx.temp.env, cwd: fx.cwd });
  expect(system()).toContain('PROJECT RULE');
  const missing = await runAi(['-p', 'x', '--system-prompt-file', 'nope.md'], { env: fx.temp.env, cwd: fx.cwd });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain(path.join(fx.cwd, 'nope.md'));
  const json = await runAi(['-p', 'x', '--json', '--system-prompt-file', 'nope.md'], { env: fx.temp.env, cwd: fx.cwd });
  expect(json.events).toEqual([expect.objectContaining({ type: 'error', code: 'USAGE' })]);
});
