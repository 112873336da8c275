import { useAiFixture } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { runAi } from './run-bin';

/** End-to-end over the real bin, this repo's llm-base and the real tool-runner. */
const fx = useAiFixture({ profile: { low_model: 'test-low', high_model: 'test-high' } });
beforeEach(async () => {
  await fs.writeFile(path.join(fx.cwd, 'notes.txt'), 'remember the milk\n');
});

const ai = (args: string[]) => runAi(args, { env: fx.temp.env, cwd: fx.cwd });
const cmd = (program: string, args: string[]) => ({
  json: { type: 'cmd', message: `run ${program}`, data: { cwd: null, commands: [{ program, args }] } },
});
const lastUserJson = (i: number) => JSON.parse(fx.server.requests[i].body.messages.at(-1).content);
const readAudit = () => fx.temp.readJsonLines('ai/audit.jsonl');

test('cmd → tool_result → chat', async () => {
  fx.server.enqueue(cmd('cat', ['notes.txt']), { json: { type: 'chat', message: 'It says: remember the milk' } });
  const r = await ai(['-p', 'what is in notes.txt?', '--json']);
  expect(r.code).toBe(0);
  const types = r.events.map((e) => e.type);
  expect(types).toEqual(expect.arrayContaining(['reply', 'step', 'tool_result', 'final']));
  expect(r.events.find((e) => e.type === 'step')).toMatchObject({ id: 'cmd_001', decision: { level: 'L0' } });
  const result = lastUserJson(1);
  expect(result).toMatchObject({
    _event: 'tool_result',
    id: 'cmd_001',
    program: 'cat',
    exitCode: 0,
    stdoutTail: 'remember the milk\n',
    decision: { level: 'L0', by: 'policy' },
  });
  expect(r.events.at(-1)).toMatchObject({ type: 'final', outcome: 'answered', steps: 1, message: 'It says: remember the milk' });
  expect(await readAudit()).toEqual([expect.objectContaining({ id: 'cmd_001', level: 'L0', approvedBy: 'policy', outcome: 'exit 0' })]);
});

test('human output: steps on stderr, the answer on stdout', async () => {
  fx.server.enqueue(cmd('cat', ['notes.txt']), { json: { type: 'chat', message: 'milk' } });
  const r = await ai(['-p', 'notes?']);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('milk\n');
  expect(r.stderr).toContain('[L0] cat notes.txt');
  expect(r.stderr).toContain('exit 0');
});

test('L1 is declined without the flag and reported to the model', async () => {
  fx.server.enqueue(cmd('touch', ['created.txt']), { json: { type: 'chat', message: 'could not create it' } });
  const r = await ai(['-p', 'create created.txt', '--json']);
  expect(r.code).toBe(0);
  await expect(fs.access(path.join(fx.cwd, 'created.txt'))).rejects.toThrow();
  expect(lastUserJson(1)).toMatchObject({ _event: 'tool_result', id: 'cmd_001', status: 'declined', decision: { level: 'L1' } });
  expect(await readAudit()).toEqual([expect.objectContaining({ level: 'L1', approvedBy: 'none', outcome: 'declined' })]);
});

test('L1 runs with --approve-l1, audited as approved by the flag', async () => {
  fx.server.enqueue(cmd('touch', ['created.txt']), { json: { type: 'chat', message: 'created' } });
  const r = await ai(['-p', 'create created.txt', '--approve-l1']);
  expect(r.code).toBe(0);
  await fs.access(path.join(fx.cwd, 'created.txt'));
  expect(await readAudit()).toEqual([expect.objectContaining({ level: 'L1', approvedBy: 'flag', answer: 'run' })]);
});

test('L2 is refused, even with --approve-l1', async () => {
  fx.server.enqueue(cmd('sudo', ['rm', '-rf', '/']), { json: { type: 'chat', message: 'refused' } });
  const r = await ai(['-p', 'clean everything', '--approve-l1', '--json']);
  expect(r.code).toBe(0);
  const result = lastUserJson(1);
  expect(result).toMatchObject({ _event: 'tool_result', status: 'blocked', decision: { level: 'L2' } });
  expect(result.decision.rules.length).toBeGreaterThan(0);
  expect(await readAudit()).toEqual([expect.objectContaining({ level: 'L2', approvedBy: 'none', outcome: 'blocked' })]);
});

test('max steps: stops after maxAutoStepsPerTurn rounds, exit 3', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { maxAutoStepsPerTurn: 2 });
  fx.server.setHandler(() => cmd('ls', []));
  const r = await ai(['-p', 'loop', '--json']);
  expect(r.code).toBe(3);
  expect(r.events.filter((e) => e.type === 'tool_result')).toHaveLength(2);
  expect(r.events.at(-1)).toMatchObject({ type: 'final', outcome: 'step_limit', steps: 2 });
  expect(r.events.at(-1)!.message).toMatch(/Stopped after 2 automatic steps/);
  expect(fx.server.requests).toHaveLength(3);
  // --max-steps overrides the config
  const again = await ai(['-p', 'loop', '--max-steps', '1']);
  expect(again.code).toBe(3);
  expect(fx.server.requests).toHaveLength(5);
});

test('requires from the model raises the level (cat with write: true asks, so it is declined)', async () => {
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'read', data: { commands: [{ program: 'cat', args: ['notes.txt'], requires: { write: true } }] } } },
    { json: { type: 'chat', message: 'ok' } },
  );
  const r = await ai(['-p', 'read notes', '--json']);
  expect(r.code).toBe(0);
  expect(r.events.find((e) => e.type === 'step')).toMatchObject({ decision: { level: 'L1' } });
  expect(lastUserJson(1)).toMatchObject({ status: 'declined' });
});

test('an L1 step declined first stops the rest of the plan', async () => {
  fx.server.enqueue(
    {
      json: {
        type: 'cmd',
        message: 'two',
        data: {
          commands: [
            { program: 'touch', args: ['a.txt'] },
            { program: 'cat', args: ['notes.txt'] },
          ],
        },
      },
    },
    { json: { type: 'chat', message: 'ok' } },
  );
  const r = await ai(['-p', 'do both', '--json']);
  expect(r.code).toBe(0);
  const messages = fx.server.requests[1].body.messages as Array<{ content: string }>;
  const results = messages.slice(-2).map((m) => JSON.parse(m.content));
  expect(results[0]).toMatchObject({ id: 'cmd_001', status: 'declined' });
  expect(results[1]).toMatchObject({ id: 'cmd_002', status: 'declined', reason: expect.stringContaining('cmd_001') });
});

describe('ai -c -p with no prompt continues the last turn', () => {
  test('after a step-limit stop, the next run goes on from there instead of sending a new prompt', async () => {
    fx.server.enqueue(cmd('cat', ['notes.txt']), cmd('wc', ['-l', 'notes.txt']));
    const first = await ai(['-p', 'look at the notes', '--max-steps', '1']);
    expect(first.code).toBe(3); // stopped at the step limit
    const before = fx.server.requests.length;
    fx.server.enqueue({ json: { type: 'chat', message: 'done: one line of notes' } });
    const next = await ai(['-c', '-p']);
    expect(next.code).toBe(0);
    expect(next.stdout).toBe('done: one line of notes\n');
    const sent = fx.server.requests[before].body.messages;
    // The model is told to go on (the `continue` event), with the earlier turn still there.
    expect(JSON.parse(sent.at(-1).content)).toEqual({ _event: 'continue' });
    expect(JSON.stringify(sent)).toContain('look at the notes');
    expect(sent.some((m: { role: string; content: string }) => m.role === 'user' && m.content === 'continue')).toBe(false);
  });

  test('with no session in this folder it says how to start one (usage error), nothing is sent', async () => {
    const r = await ai(['-c', '-p']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No earlier session in this directory to continue');
    expect(fx.server.requests).toHaveLength(0);
  });

  test('-p without a prompt and without -c is still a usage error', async () => {
    const r = await ai(['-p']);
    expect(r.code).toBe(2);
  });
});

test('suggestions reach -p users (numbered on stderr, the answer alone on stdout) and --json (final.suggestions)', async () => {
  const reply = { json: { type: 'chat', message: 'Tests pass.', data: { suggestions: ['commit it', 'show the diff'] } } };
  fx.server.enqueue(reply, reply);
  const human = await ai(['-p', 'run tests']);
  expect(human.stdout).toBe('Tests pass.\n');
  expect(human.stderr).toContain('  1. commit it\n  2. show the diff');
  const json = await ai(['-p', 'run tests', '--json']);
  expect(json.events.at(-1)).toMatchObject({ type: 'final', outcome: 'answered', suggestions: ['commit it', 'show the diff'] });
});

describe('modes in -p', () => {
  test('--mode plan: a write is refused with the reason the model sees, nothing on disk changes, the model is told it plans', async () => {
    fx.server.enqueue(
      {
        json: {
          type: 'cmd',
          message: 'write it',
          data: {
            cwd: null,
            commands: [
              { tool: 'fs.write', path: 'plan.txt', content: 'x\n' },
              { program: 'touch', args: ['t.txt'] },
            ],
          },
        },
      },
      { json: { type: 'chat', message: '1. write plan.txt  2. touch t.txt' } },
    );
    const r = await ai(['-p', 'make the files', '--mode', 'plan', '--approve-l1', '--json']);
    expect(r.code).toBe(0);
    await expect(fs.stat(path.join(fx.cwd, 'plan.txt'))).rejects.toThrow();
    await expect(fs.stat(path.join(fx.cwd, 't.txt'))).rejects.toThrow();
    const firstUser = fx.server.requests[0].body.messages
      .filter((m: { role: string }) => m.role === 'user')
      .map((m: { content: string }) => m.content);
    expect(firstUser.some((c: string) => c.includes('"_event":"mode"') && c.includes('Plan mode'))).toBe(true);
    const results = fx.server.requests[1].body.messages.at(-1).content;
    expect(results).toContain('mode.plan');
    expect(results).toContain('plan mode: only read-only steps run');
  });

  test('--mode yolo without the OS sandbox is refused before anything runs (exit 2, with why)', async () => {
    await fx.temp.writeJson('plugin-configs/ai.json', { sandbox: 'off' });
    const r = await ai(['-p', 'go', '--mode', 'yolo']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mode yolo cannot be used: yolo mode needs the OS sandbox/);
    expect(fx.server.requests).toHaveLength(0);
  });

  test('--mode low|high is still the model tier', async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'hi' } });
    const r = await ai(['-p', 'hello', '--mode', 'high']);
    expect(r.code).toBe(0);
    expect(fx.server.requests[0].body.model).toBe('test-high');
  });
});

test('cached input tokens the provider reports reach the turn usage (--json final) and the session file', async () => {
  fx.server.enqueue({
    json: { type: 'chat', message: 'hi' },
    usage: { prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 800 } } as never,
  });
  const r = await ai(['-p', 'hello', '--json']);
  expect(r.code).toBe(0);
  expect(r.events.at(-1)).toMatchObject({ type: 'final', usage: { input_tokens: 1000, output_tokens: 10, cached_tokens: 800, calls: 1 } });
});

test('the system prompt is byte-identical from turn to turn (a provider prompt cache can hold it); what changes comes after it', async () => {
  fx.server.enqueue({ json: { type: 'chat', message: 'one' } }, { json: { type: 'chat', message: 'two' } });
  expect((await ai(['-p', 'first question'])).code).toBe(0);
  expect((await ai(['-c', '-p', 'second question', '--mode', 'plan'])).code).toBe(0);
  const [a, b] = fx.server.requests.map((q) => q.body.messages as Array<{ role: string; content: string }>);
  const systemOf = (m: typeof a) => m.filter((x) => x.role === 'system').map((x) => x.content);
  expect(systemOf(a).length).toBeGreaterThan(0);
  expect(JSON.stringify(systemOf(b))).toBe(JSON.stringify(systemOf(a)));
  // The mode, which changed, travels in the turn's own messages, after the prefix.
  expect(JSON.stringify(b.slice(systemOf(b).length))).toContain('"_event\\":\\"mode');
});
