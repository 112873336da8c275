import { promises as fs } from 'fs';
import * as path from 'path';
import type { RecordedRequest, ScriptedReply } from '@holic512/testkit';
import { chat, cmd, usePtyFixture } from './pty/pty-session';
import { runAi } from './run-bin';

// Sub-agents (agent.run) end to end over the real bin, this repo's llm-base and tool-runner: a
// parent splits a task between two children that run in parallel, each with a fresh context;
// their answers come back as tool results; a child's steps are judged like the parent's; a
// child cannot start children; their tokens count into the parent's usage.

const fx = usePtyFixture({ language: 'en' });
beforeEach(async () => {
  await fs.writeFile(path.join(fx.cwd, 'a.txt'), 'alpha says 1\n');
  await fs.writeFile(path.join(fx.cwd, 'b.txt'), 'beta says 2\n');
});

type Msg = { role: string; content: string };
const messagesOf = (r: RecordedRequest): Msg[] => r.body.messages as Msg[];
const isChild = (r: RecordedRequest): boolean =>
  messagesOf(r).some((m) => m.role === 'system' && m.content.includes('You are a helper agent started by another agent'));
/** The first user message of a request: a child's task, or the parent's prompt. */
const firstUser = (r: RecordedRequest): string => messagesOf(r).find((m) => m.role === 'user')?.content ?? '';
const toolResults = (r: RecordedRequest): Array<Record<string, any>> =>
  messagesOf(r)
    .filter((m) => m.role === 'user' && m.content.startsWith('{'))
    .map((m) => JSON.parse(m.content))
    .filter((v) => v._event === 'tool_result');

test('two children run in parallel with fresh contexts; their answers return to the parent; usage is summed', async () => {
  // Replies by who asks: each child reads its file, then answers; the parent delegates, then sums up.
  let parentCalls = 0;
  let bothChildrenWaiting: () => void = () => undefined;
  const childFirstCalls = new Set<string>();
  const gate = new Promise<void>((resolve) => (bothChildrenWaiting = resolve));
  fx.server.setHandler(async (r): Promise<ScriptedReply> => {
    if (isChild(r)) {
      const task = firstUser(r);
      const file = task.includes('a.txt') ? 'a.txt' : 'b.txt';
      if (!toolResults(r).length) {
        // Parallel: neither child gets its first answer before both have asked.
        childFirstCalls.add(file);
        if (childFirstCalls.size === 2) bothChildrenWaiting();
        await gate;
        return cmd(`read ${file}`, { tool: 'fs.read', path: file });
      }
      const read = toolResults(r).at(-1)!;
      return chat(`${file} contains: ${String(read.content).trim()}`);
    }
    parentCalls++;
    if (parentCalls === 1)
      return cmd(
        'split the work',
        { tool: 'agent.run', task: 'What does a.txt say?' },
        { tool: 'agent.run', task: 'What does b.txt say?' },
      );
    const answers = toolResults(r)
      .map((t) => t.answer)
      .join(' | ');
    return chat(`Children said: ${answers}`);
  });
  const res = await runAi(['-p', 'summarise a.txt and b.txt', '--max-steps', '3', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);

  const children = fx.server.requests.filter(isChild);
  expect(children).toHaveLength(4);
  // A fresh context: the child's request carries its task, not the parent's conversation.
  for (const c of children) {
    expect(JSON.stringify(c.body.messages)).not.toContain('summarise a.txt and b.txt');
    // A child cannot start children: agent.run is not among its tools.
    expect(
      messagesOf(c)
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n'),
    ).not.toContain('agent.run');
  }
  const parentLast = fx.server.requests.filter((r) => !isChild(r)).at(-1)!;
  // The parent is offered agent.run (so the check above can fail).
  expect(
    messagesOf(parentLast)
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n'),
  ).toContain('agent.run');
  const results = toolResults(parentLast);
  expect(results).toHaveLength(2);
  expect(results[0]).toMatchObject({
    tool: 'agent.run',
    agent: 'agent 1',
    outcome: 'answered',
    answer: 'a.txt contains: 1\talpha says 1',
    decision: { level: 'L0' },
  });
  expect(results[1]).toMatchObject({ tool: 'agent.run', agent: 'agent 2', outcome: 'answered', answer: 'b.txt contains: 1\tbeta says 2' });
  expect(results[0].usage.calls).toBe(2);

  const events = res.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const final = events.find((e) => e.type === 'final');
  expect(final.message).toContain('alpha says 1');
  // Each child's progress was shown under its step.
  const progress = events
    .filter((e) => e.type === 'output')
    .map((e) => e.chunk)
    .join('');
  expect(progress).toContain('[agent 1] read a.txt');
  expect(progress).toContain('[agent 2] read b.txt');
});

test("a child's steps are judged like the parent's: in plan mode (the default) a write is refused, whatever --approve-l1 says", async () => {
  fx.server.setHandler((r): ScriptedReply => {
    if (isChild(r)) {
      const results = toolResults(r);
      if (!results.length) return cmd('write it', { tool: 'fs.write', path: 'out.txt', content: 'x' });
      return chat(`write ${results[0].status}: ${results[0].decision.rules.map((x: { id: string }) => x.id).join(',')}`);
    }
    const results = toolResults(r);
    if (!results.length) return cmd('delegate', { tool: 'agent.run', task: 'create out.txt' });
    return chat(`child: ${results[0].answer}`);
  });
  const res = await runAi(['-p', 'make out.txt', '--approve-l1', '--max-steps', '3', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(res.code).toBe(0);
  // The child ran in plan mode (the default): the write was refused whatever the flag says.
  const final = res.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .find((e) => e.type === 'final');
  expect(final.message).toMatch(/write blocked: .*mode\.plan/);
  await expect(fs.access(path.join(fx.cwd, 'out.txt'))).rejects.toThrow();
});

test('mode "default": the child asks as the parent would; a declined write leaves nothing', async () => {
  fx.server.setHandler((r): ScriptedReply => {
    if (isChild(r)) {
      const results = toolResults(r);
      if (!results.length) return cmd('write it', { tool: 'fs.write', path: 'out.txt', content: 'x' });
      return chat(`write ${results[0].status}`);
    }
    const results = toolResults(r);
    if (!results.length) return cmd('delegate', { tool: 'agent.run', task: 'create out.txt', mode: 'default' });
    return chat(`child: ${results[0].answer}`);
  });
  // No --approve-l1: nobody can answer, so the child's L1 write is declined.
  const res = await runAi(['-p', 'make out.txt', '--max-steps', '3', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(res.code).toBe(0);
  const events = res.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(events.find((e) => e.type === 'final').message).toContain('write declined');
  await expect(fs.access(path.join(fx.cwd, 'out.txt'))).rejects.toThrow();

  // With the flag the same child's write runs (the child's question was answered like the parent's).
  const again = await runAi(['-p', 'make out.txt', '--approve-l1', '--max-steps', '3', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(again.code).toBe(0);
  expect(await fs.readFile(path.join(fx.cwd, 'out.txt'), 'utf8')).toBe('x');
});

test("Ctrl+C stops the children with the turn: the child's model call is dropped and ai exits 130", async () => {
  const { spawn } = await import('child_process');
  const { AI_BIN } = await import('./run-bin');
  fx.server.setHandler((r): ScriptedReply => {
    if (isChild(r)) return { hang: true };
    return cmd('delegate', { tool: 'agent.run', task: 'think forever' });
  });
  const child = spawn(process.execPath, [AI_BIN, '-p', 'go', '--json'], { env: fx.env, cwd: fx.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // The child's (hanging) model call has arrived: the parent is waiting on its child.
  await fx.server.waitForRequests(2);
  expect(isChild(fx.server.requests[1])).toBe(true);
  child.kill('SIGINT');
  expect(await exited).toBe(130);
  const events = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const result = events.find((e) => e.type === 'tool_result')?.result;
  expect(result).toMatchObject({ tool: 'agent.run', outcome: 'aborted', aborted: true });
});
