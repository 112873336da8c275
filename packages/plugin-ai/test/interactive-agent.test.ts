import { Agent } from '../src/agent/agent';
import type { ChatMessage } from '../src/context/context';
import { config } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';

// The core behaviour `ai -i` relies on for /steer and Ctrl+C (small additions to agent.ts).

const exec = (program: string, args: string[] = []) => ({ tool: 'exec', program, args });
const lastContent = (messages: ChatMessage[]) => messages[messages.length - 1].content;
const toolResults = (messages: ChatMessage[]) =>
  messages.filter((m) => m.role === 'user' && m.content.startsWith('{"_event":"tool_result"')).map((m) => JSON.parse(m.content));

function makeAgent(llm: ReturnType<typeof fakeLlm>, runner: ReturnType<typeof fakeRunner>) {
  return new Agent({ config: config(), systemPrompt: 'SYSTEM', cwd: '/work', lang: 'en' }, { llm, createRunner: runner.create });
}

test('steer during a step: the rest of the plan is skipped (told to the model) and the note goes with the next call', async () => {
  const runner = fakeRunner({}, (step) => {
    if (step.tool === 'exec' && step.program === 'first') agent.steer('look at the README instead');
    return 'ok\n';
  });
  const llm = fakeLlm([cmd(exec('first'), exec('second'), exec('third')), chat('replanned')]);
  const agent = makeAgent(llm, runner);
  const result = await agent.send('do three things');
  expect(result).toMatchObject({ outcome: 'answered', message: 'replanned' });
  expect(runner.runs.map((s) => (s.tool === 'exec' ? s.program : s.tool))).toEqual(['first']);
  const second = llm.calls[1];
  expect(lastContent(second)).toBe('look at the README instead');
  expect(toolResults(second)).toEqual([
    expect.objectContaining({ id: 'cmd_001', exitCode: 0 }),
    expect.objectContaining({
      id: 'cmd_002',
      status: 'declined',
      reason: expect.stringMatching(/^skipped: the user sent a steering message/),
    }),
    expect.objectContaining({ id: 'cmd_003', status: 'declined' }),
  ]);
});

test('steer while the model writes a chat reply: the note is not lost, the model answers it', async () => {
  const llm = fakeLlm([
    () => {
      agent.steer('and in French please');
      return chat('hello');
    },
    chat('bonjour'),
  ]);
  const agent = makeAgent(llm, fakeRunner());
  const result = await agent.send('say hello');
  expect(result).toMatchObject({ outcome: 'answered', message: 'bonjour' });
  expect(llm.calls).toHaveLength(2);
  expect(lastContent(llm.calls[1])).toBe('and in French please');
});

test('steer when idle does nothing', () => {
  const agent = makeAgent(fakeLlm([]), fakeRunner());
  expect(agent.steer('x')).toBe(false);
});

test('Ctrl+C during the model call: the next request tells the model it was interrupted', async () => {
  const controller = new AbortController();
  const llm = fakeLlm([
    () => {
      controller.abort();
      return { ok: false, code: 'ABORTED', message: 'aborted', notFound: false };
    },
    chat('ok'),
  ]);
  const agent = makeAgent(llm, fakeRunner());
  const first = await agent.send('long question', { signal: controller.signal });
  expect(first.outcome).toBe('aborted');
  await agent.send('never mind');
  const contents = llm.calls[1].map((m) => m.content);
  expect(contents.slice(-3)).toEqual([
    'long question',
    JSON.stringify({ _event: 'interrupted', by: 'user', during: 'model_call' }),
    'never mind',
  ]);
});

test('Ctrl+C during a step: its result is kept and the model is told the step was interrupted', async () => {
  const controller = new AbortController();
  const runner = fakeRunner({}, () => {
    controller.abort();
    return 'partial output\n';
  });
  const llm = fakeLlm([cmd(exec('slow'), exec('after')), chat('ok')]);
  const agent = makeAgent(llm, runner);
  expect((await agent.send('run it', { signal: controller.signal })).outcome).toBe('aborted');
  await agent.send('what happened?');
  const messages = llm.calls[1];
  expect(messages.map((m) => m.content)).toContain(JSON.stringify({ _event: 'interrupted', by: 'user', during: 'step' }));
  expect(toolResults(messages)).toEqual([
    expect.objectContaining({ id: 'cmd_001', program: 'slow', stdoutTail: 'partial output\n' }),
    expect.objectContaining({ id: 'cmd_002', status: 'declined' }),
  ]);
});
