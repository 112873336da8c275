import { promises as fs } from 'fs';
import * as path from 'path';
import { chat, cmd, usePtyFixture } from './pty/pty-session';
import { runAi } from './run-bin';

// `ai -i` when stdin/stdout are not terminals: plain lines, no escape sequences, one input
// line at a time (a line can answer a confirm question).

const fx = usePtyFixture();

test('piped: turns and commands run in order, output has no escape sequences', async () => {
  fx.server.enqueue(chat('# Heading\n\nsome **markdown**', 'markdown'), chat('second answer'));
  const r = await runAi(['-i'], { env: fx.env, cwd: fx.cwd, input: 'first question\n/context\nsecond question\n/cost\n' });
  expect(r.code).toBe(0);
  expect(r.stdout).not.toMatch(/\x1b/);
  const order = [
    '› first question',
    'some markdown',
    '› /context',
    'Context (tokens, estimated)',
    '› second question',
    'second answer',
    'over 2 model calls',
    'Session saved',
  ];
  let at = 0;
  for (const part of order) {
    const next = r.stdout.indexOf(part, at);
    expect([part, next >= 0]).toEqual([part, true]);
    at = next;
  }
});

test('piped: the next line answers a confirm question', async () => {
  fx.server.enqueue(cmd('create', { program: 'touch', args: ['piped.txt'] }), chat('made it'));
  const r = await runAi(['-i'], { env: fx.env, cwd: fx.cwd, input: 'make a file\ny\n' });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Allow this L1 step?');
  expect(r.stdout).toContain('made it');
  await fs.access(path.join(fx.cwd, 'piped.txt'));
});

test('piped: when the input ends at a question, the step is declined and ai leaves', async () => {
  fx.server.enqueue(cmd('create', { program: 'touch', args: ['never.txt'] }), chat('understood, not created'));
  const r = await runAi(['-i'], { env: fx.env, cwd: fx.cwd, input: 'make a file\n' });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('understood, not created');
  await expect(fs.access(path.join(fx.cwd, 'never.txt'))).rejects.toThrow();
  const last = JSON.parse(fx.server.requests[1].body.messages.at(-1).content);
  expect(last).toMatchObject({ status: 'declined', reason: 'no answer: the input ended' });
});

test('piped: # asks where in plain lines and the next line answers; !cmd runs and its output is printed', async () => {
  fx.server.enqueue(chat('noted'));
  const r = await runAi(['-i'], { env: fx.env, cwd: fx.cwd, input: '# piped memory line\n2\n!echo from-a-pipe\nthanks\n' });
  expect(r.code).toBe(0);
  expect(r.stdout).not.toMatch(/\x1b/);
  expect(r.stdout).toContain('Add to memory: "piped memory line" — where?\n  1. this project: AGENTS.md');
  expect(await fs.readFile(path.join(fx.temp.slothtoolHome, 'AGENTS.md'), 'utf8')).toBe('- piped memory line\n');
  expect(r.stdout).toContain('from-a-pipe');
  const sent = fx.server.requests[0].body.messages.map((m: { content: string }) => m.content);
  expect(sent.slice(-3).map((c: string) => (c.startsWith('{') ? JSON.parse(c)._event : c))).toEqual(['memory_added', 'user_ran', 'thanks']);
});
