import * as fs from 'fs';
import * as path from 'path';
import { Agent, type AgentConfirmFn } from '../src/agent/agent';
import type { AgentEvent } from '../src/agent/events';
import { SessionStore } from '../src/sessions/sessions';
import { config, steppingClock } from './helpers/agent-setup';
import { chat, fakeLlm } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';
import { useTempFolder } from './helpers/temp-folder';

// The Agent's small public methods for what the person does beside the model (#45): a step they
// typed (`!cmd`), notes for the next message, the runner's verdict, the session's changed files
// and its records.

const folder = useTempFolder('ai-user-steps-');

function setup(
  opts: { levels?: Record<string, 'L0' | 'L1' | 'L2'>; confirm?: AgentConfirmFn; store?: SessionStore; auditFile?: string } = {},
  replies = [chat('ok')],
) {
  const llm = fakeLlm(replies);
  const runner = fakeRunner(opts.levels, () => 'listing\n');
  const agent = new Agent(
    { config: config(), systemPrompt: 'SYSTEM', cwd: '/work', lang: 'en' },
    { llm, createRunner: runner.create, confirm: opts.confirm, store: opts.store, auditFile: opts.auditFile, now: steppingClock() },
  );
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  return { agent, llm, runner, events };
}

test('runUserStep judges and runs a step outside a turn, without a model request, reported as events and audited', async () => {
  const auditFile = path.join(folder.root, 'audit.jsonl');
  const { agent, llm, runner, events } = setup({ auditFile });
  const result = await agent.runUserStep({ tool: 'exec', program: 'ls', args: [] } as never);
  expect(result).toMatchObject({ exitCode: 0, stdoutTail: 'listing\n', id: 'cmd_001' });
  expect(llm.calls).toHaveLength(0);
  expect(runner.runs).toHaveLength(1);
  expect(events.map((e) => e.type)).toEqual(['step', 'output', 'tool_result']);
  expect(agent.busy).toBe(false);
  await new Promise((resolve) => setImmediate(resolve));
  agent.dispose();
  expect(JSON.parse(fs.readFileSync(auditFile, 'utf8').trim())).toMatchObject({ id: 'cmd_001', step: { program: 'ls' }, level: 'L0' });
});

test('L1 asks through confirm (declined: not run), L2 is refused without a question', async () => {
  const confirm = jest.fn<ReturnType<AgentConfirmFn>, Parameters<AgentConfirmFn>>(async () => ({ action: 'decline', reason: 'no' }));
  const { agent, runner } = setup({ levels: { touch: 'L1', sudo: 'L2' }, confirm });
  expect(await agent.runUserStep({ tool: 'exec', program: 'touch', args: ['x'] } as never)).toMatchObject({ status: 'declined' });
  expect(confirm).toHaveBeenCalledTimes(1);
  expect(await agent.runUserStep({ tool: 'exec', program: 'sudo', args: ['ls'] } as never)).toMatchObject({ status: 'blocked' });
  expect(confirm).toHaveBeenCalledTimes(1);
  expect(runner.runs).toHaveLength(0);
  expect(agent.verdictOf({ tool: 'exec', program: 'sudo', args: [] } as never).level).toBe('L2');
});

test('while a turn runs there is no user step (null), and it is no turn itself', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const llm = { features: { options: true, streaming: true }, chat: async () => (await held, chat('later')) };
  const agent = new Agent(
    { config: config(), systemPrompt: 'SYSTEM', cwd: '/work', lang: 'en' },
    { llm, createRunner: fakeRunner().create, now: steppingClock() },
  );
  const turn = agent.send('hi');
  while (!agent.busy) await new Promise((resolve) => setImmediate(resolve));
  expect(await agent.runUserStep({ tool: 'exec', program: 'ls', args: [] } as never)).toBeNull();
  release();
  expect(await turn).toMatchObject({ outcome: 'answered' });
  expect(await agent.runUserStep({ tool: 'exec', program: 'ls', args: [] } as never)).toMatchObject({ exitCode: 0 });
  expect(agent.busy).toBe(false);
});

test('notes go out in front of the next message, once, and stay in the conversation and the session', async () => {
  const store = new SessionStore(folder.root);
  const { agent, llm } = setup({ store }, [chat('one'), chat('two')]);
  agent.noteForNextMessage('{"_event":"user_ran","command":"ls"}');
  agent.noteForNextMessage('{"_event":"memory_added","text":"use pnpm"}');
  await agent.send('first');
  const first = llm.calls[0].map((m) => m.content);
  expect(first.slice(-3)).toEqual(['{"_event":"user_ran","command":"ls"}', '{"_event":"memory_added","text":"use pnpm"}', 'first']);
  expect(first[0]).toBe('SYSTEM');
  await agent.send('second');
  const second = llm.calls[1].map((m) => m.content);
  expect(second.filter((c) => c.includes('user_ran'))).toHaveLength(1);
  expect(second.at(-1)).toBe('second');
  const records = agent.transcript();
  expect(records.filter((r) => r.t === 'event').map((r) => (r as { content: string }).content)).toEqual([
    '{"_event":"user_ran","command":"ls"}',
    '{"_event":"memory_added","text":"use pnpm"}',
  ]);
  expect(records.filter((r) => r.t === 'user').map((r) => (r as { content: string }).content)).toEqual(['first', 'second']);
});

test('a note the model never saw is kept in the session when it ends; /clear drops notes', async () => {
  const store = new SessionStore(folder.root);
  const { agent } = setup({ store }, [chat('one')]);
  await agent.send('hello');
  agent.noteForNextMessage('{"_event":"user_ran","command":"make"}');
  const id = agent.sessionId;
  agent.dispose();
  expect(store.read(id).records.filter((r) => r.t === 'event')).toEqual([
    expect.objectContaining({ content: '{"_event":"user_ran","command":"make"}' }),
  ]);
  const other = setup({ store }, [chat('fresh')]);
  other.agent.noteForNextMessage('{"_event":"user_ran","command":"ls"}');
  other.agent.clear();
  await other.agent.send('new start');
  expect(other.llm.calls[0].map((m) => m.content).join('\n')).not.toContain('user_ran');
});

test("changedFiles lists what the runner's journal holds; no runner, none", () => {
  const { agent } = setup();
  expect(agent.changedFiles()).toEqual([]);
  expect(agent.transcript()).toEqual([]);
});

test("a PreToolUse hook guards a step the person typed as it guards the model's (stricter than Claude Code, which runs none for `!`)", async () => {
  const runner = fakeRunner();
  const hooks = [
    {
      event: 'PreToolUse' as const,
      command: 'echo "not on this machine" >&2; exit 2',
      timeoutMs: 10_000,
      source: 'test',
      dialect: 'slothtool' as const,
    },
  ];
  const agent = new Agent(
    { config: config(), systemPrompt: 'SYSTEM', cwd: folder.root, lang: 'en' },
    { llm: fakeLlm([]), createRunner: runner.create, hooks, now: steppingClock() },
  );
  const result = await agent.runUserStep({ tool: 'exec', program: 'ls', args: [] } as never);
  expect(result).toMatchObject({ status: 'blocked', blockedBy: 'hook', hookReason: 'not on this machine' });
  expect(runner.runs).toHaveLength(0);
});
