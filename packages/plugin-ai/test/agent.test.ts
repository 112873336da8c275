import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Agent, type AgentConfirmFn, type AgentDeps } from '../src/agent/agent';
import type { AgentEvent } from '../src/agent/events';
import { SUMMARY_MARKER } from '../src/context/prompt';
import { SessionStore } from '../src/sessions/sessions';
import { config, steppingClock } from './helpers/agent-setup';
import { chat, cmd, fakeLlm, ok } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';
import type { AiConfig } from '../src/config/config';

function setup(
  llm: ReturnType<typeof fakeLlm>,
  opts: {
    levels?: Record<string, 'L0' | 'L1' | 'L2'>;
    confirm?: AgentConfirmFn;
    config?: AiConfig;
    store?: SessionStore;
    auditFile?: string;
    stdout?: () => string;
  } = {},
) {
  const runner = fakeRunner(opts.levels, opts.stdout);
  const deps: AgentDeps = {
    llm,
    createRunner: runner.create,
    confirm: opts.confirm,
    store: opts.store,
    auditFile: opts.auditFile,
    now: steppingClock(),
  };
  const agent = new Agent({ config: opts.config ?? config(), systemPrompt: 'SYSTEM', cwd: '/work', lang: 'en' }, deps);
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  return { agent, events, runner };
}

const types = (events: AgentEvent[]) => events.map((e) => e.type);

describe('Agent turn loop', () => {
  test('a chat reply answers the turn', async () => {
    const { agent, events } = setup(fakeLlm([chat('hello')]));
    const result = await agent.send('hi');
    expect(result).toMatchObject({
      outcome: 'answered',
      message: 'hello',
      steps: 0,
      usage: { input_tokens: 10, output_tokens: 5, calls: 1 },
    });
    expect(types(events)).toEqual(['turn_start', 'request', 'usage', 'reply', 'final']);
  });

  test('cmd → tool_result → chat: the result goes back to the model as a user message', async () => {
    const llm = fakeLlm([cmd({ program: 'git', args: ['status'] }), chat('clean')]);
    const { agent, events, runner } = setup(llm, { stdout: () => 'nothing to commit\n' });
    const result = await agent.send('status?');
    expect(result.outcome).toBe('answered');
    expect(result.steps).toBe(1);
    expect(runner.runs).toEqual([{ tool: 'exec', program: 'git', args: ['status'] }]);
    const second = llm.calls[1];
    const last = JSON.parse(second[second.length - 1].content);
    expect(last).toMatchObject({ _event: 'tool_result', id: 'cmd_001', program: 'git', exitCode: 0, stdoutTail: 'nothing to commit\n' });
    expect(types(events)).toContain('step');
    expect(types(events)).toContain('output');
  });

  test('L1 is declined without a confirm callback and reported to the model', async () => {
    const llm = fakeLlm([cmd({ program: 'npm', args: ['install'] }, { program: 'ls', args: [] }), chat('ok, not installing')]);
    const { agent, runner } = setup(llm, { levels: { npm: 'L1' } });
    await agent.send('install');
    expect(runner.runs).toEqual([]);
    const msgs = llm.calls[1].slice(-2).map((m) => JSON.parse(m.content));
    expect(msgs[0]).toMatchObject({ id: 'cmd_001', status: 'declined' });
    expect(msgs[1]).toMatchObject({ id: 'cmd_002', status: 'declined', reason: expect.stringContaining('cmd_001') });
  });

  test('L1 approved by the confirm callback runs and is audited as the user', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-audit-'));
    const auditFile = path.join(dir, 'audit.jsonl');
    const llm = fakeLlm([cmd({ program: 'npm', args: ['install'] }), chat('done')]);
    const { agent, runner, events } = setup(llm, { levels: { npm: 'L1' }, confirm: async () => ({ action: 'run' }), auditFile });
    await agent.send('install');
    expect(runner.runs).toHaveLength(1);
    expect(types(events)).toEqual(expect.arrayContaining(['confirm', 'confirm_answer']));
    const audit = fs
      .readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit).toEqual([expect.objectContaining({ id: 'cmd_001', level: 'L1', approvedBy: 'user', answer: 'run', outcome: 'exit 0' })]);
    fs.rmSync(dir, { recursive: true });
  });

  test('L2 is refused even when the callback would approve', async () => {
    const llm = fakeLlm([cmd({ program: 'sudo', args: ['rm', '-rf', '/'] }), chat('refused')]);
    const confirm = jest.fn(async () => ({ action: 'run' as const }));
    const { agent, runner } = setup(llm, { levels: { sudo: 'L2' }, confirm });
    await agent.send('wipe');
    expect(runner.runs).toEqual([]);
    expect(confirm).not.toHaveBeenCalled();
    expect(JSON.parse(llm.calls[1][llm.calls[1].length - 1].content)).toMatchObject({ status: 'blocked' });
  });

  test('stops after maxAutoStepsPerTurn rounds and says so', async () => {
    const llm = fakeLlm([], () => cmd({ program: 'ls', args: [] }));
    const { agent, runner, events } = setup(llm, { config: config({ maxAutoStepsPerTurn: 2 }) });
    const result = await agent.send('loop forever');
    expect(result.outcome).toBe('step_limit');
    expect(result.steps).toBe(2);
    expect(runner.runs).toHaveLength(2);
    expect(llm.calls).toHaveLength(3);
    expect(result.message).toMatch(/2 automatic steps/);
    expect(types(events)).toContain('step_limit');
    const next = await (llm.calls.length, agent.continue());
    expect(JSON.parse(llm.calls[3][llm.calls[3].length - 1].content)).toEqual({ _event: 'continue' });
    expect(next.outcome).toBe('step_limit');
  });

  test('an invalid reply gets one repair request quoting the error', async () => {
    const llm = fakeLlm([ok({ type: 'cmd', message: 'x', data: { commands: [] } }), chat('fixed')]);
    const { agent, events } = setup(llm);
    const result = await agent.send('hi');
    expect(result).toMatchObject({ outcome: 'answered', message: 'fixed' });
    const repair = llm.calls[1][llm.calls[1].length - 1].content;
    expect(repair).toMatch(/did not follow the protocol: data\.commands/);
    expect(events.find((e) => e.type === 'reply')).toMatchObject({ repaired: true });
  });

  test('llm-base _fallback then a second bad reply: the raw text is shown as chat, marked', async () => {
    const llm = fakeLlm([
      ok({ result: 'I think you should run ls', _fallback: true, _reason: 'model_output_was_not_valid_json' }),
      ok({ result: 'still prose', _fallback: true }),
    ]);
    const { agent } = setup(llm);
    const result = await agent.send('hi');
    expect(result.outcome).toBe('answered');
    expect(result.raw).toBe(true);
    expect(result.message).toBe('[unvalidated model output] still prose');
  });

  test.each([
    ['null', null],
    ['a number', 42],
    ['an array', [1, 2]],
    ['unknown type', { type: 'shell', cmd: 'ls' }],
    ['a step without program', { type: 'cmd', message: '', data: { commands: [{ args: [] }] } }],
  ])('nothing crashes on %s', async (_name, data) => {
    const llm = fakeLlm([ok(data), ok(data)]);
    const { agent } = setup(llm);
    const result = await agent.send('hi');
    expect(result.outcome).toBe('answered');
    expect(result.raw).toBe(true);
  });

  test('a 404 is retried once with a minimal context and logged', async () => {
    const llm = fakeLlm([chat('first'), { ok: false, code: 'PROVIDER_ERROR', message: '404 Not Found', notFound: true }, chat('second')]);
    const { agent, events } = setup(llm);
    await agent.send('one');
    const result = await agent.send('two');
    expect(result.message).toBe('second');
    expect(llm.calls[2]).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'two' },
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'log', code: 'fallback_404' }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'request', minimal: true }));
  });

  test('an llm failure ends the turn with an error outcome', async () => {
    const { agent } = setup(fakeLlm([{ ok: false, code: 'NETWORK_ERROR', message: 'ECONNREFUSED', notFound: false }]));
    const result = await agent.send('hi');
    expect(result).toMatchObject({ outcome: 'error', error: { code: 'NETWORK_ERROR' } });
    expect(result.message).toMatch(/NETWORK_ERROR/);
  });

  test('a model error reply is its own outcome', async () => {
    const { agent } = setup(fakeLlm([ok({ type: 'error', message: 'cannot' })]));
    expect((await agent.send('x')).outcome).toBe('model_error');
  });

  test('abort via signal ends the turn', async () => {
    const controller = new AbortController();
    const llm = fakeLlm([
      (messages, options) => {
        controller.abort();
        return options.signal?.aborted ? { ok: false, code: 'ABORTED', message: 'aborted', notFound: false } : chat('late');
      },
    ]);
    const { agent } = setup(llm);
    expect((await agent.send('x', { signal: controller.signal })).outcome).toBe('aborted');
  });

  test('steer adds a note to the next call of the running turn', async () => {
    const llm = fakeLlm([
      () => {
        agent.steer('use the src folder');
        return cmd({ program: 'ls', args: [] });
      },
      chat('done'),
    ]);
    const { agent } = setup(llm);
    expect(agent.steer('idle')).toBe(false);
    await agent.send('list');
    expect(llm.calls[1].map((m) => m.content)).toContain('use the src folder');
  });

  test('send while busy queues the turn', async () => {
    const llm = fakeLlm([chat('a'), chat('b')]);
    const { agent } = setup(llm);
    const [a, b] = await Promise.all([agent.send('first'), agent.send('second')]);
    expect([a.message, b.message]).toEqual(['a', 'b']);
    expect(llm.calls[1].map((m) => m.content)).toContain('first');
  });

  test('streams text deltas and partial messages', async () => {
    const llm = fakeLlm([
      (_m, options) => {
        for (const part of ['{"type":"chat","mes', 'sage":"Hel', 'lo"}']) options.onText?.(part);
        return chat('Hello');
      },
    ]);
    const { agent, events } = setup(llm);
    await agent.send('x');
    expect(events.filter((e) => e.type === 'text')).toHaveLength(3);
    expect(events.filter((e) => e.type === 'message_delta').map((e) => (e as { message: string }).message)).toEqual(['Hel', 'Hello']);
  });

  test('a streamed reply that asks for steps starts what steps need once, while it arrives; a chat reply never does', async () => {
    const streamed = (parts: string[], reply: ReturnType<typeof chat>) => (_m: unknown, options: { onText?: (s: string) => void }) => {
      for (const part of parts) options.onText?.(part);
      return reply;
    };
    const seen: string[] = [];
    const llm = fakeLlm([
      streamed(['{"type":"chat","mes', 'sage":"a step is {\\"type\\": \\"cmd\\"} later', '"}'], chat('a step is {"type": "cmd"} later')),
      streamed(
        ['{"ty', 'pe" : "cmd", "message":"', 'look","data":{"commands":[{"program":"ls","args":[]}]}}'],
        cmd({ program: 'ls', args: [] }),
      ),
      streamed(['{"type":"cmd","message":"again","data":{"commands":[{"program":"ls","args":[]}]}}'], cmd({ program: 'ls', args: [] })),
      chat('done'),
    ]);
    const runner = fakeRunner();
    const deps: AgentDeps = {
      llm,
      createRunner: (c) => (seen.push('runner'), runner.create(c)),
      now: steppingClock(),
      prepareSteps: () => void seen.push('prepare'),
    };
    const agent = new Agent({ config: config(), systemPrompt: 'SYSTEM', cwd: '/work', lang: 'en' }, deps);
    await agent.send('chat first');
    expect(seen).not.toContain('prepare');
    await agent.send('now steps');
    expect(seen.filter((s) => s === 'prepare')).toEqual(['prepare']);
    expect(runner.runs).toHaveLength(2);
  });

  test('mode and profile reach the model', async () => {
    const seen: Array<[string, string | null]> = [];
    const llm = fakeLlm([], (_m, o) => {
      seen.push([o.mode, o.profile]);
      return chat('x');
    });
    const { agent } = setup(llm);
    await agent.send('a');
    agent.setMode('high');
    agent.setProfile('work');
    await agent.send('b');
    expect(seen).toEqual([
      ['low', null],
      ['high', 'work'],
    ]);
  });
});

describe('compaction and sessions', () => {
  test('a conversation past the summary mark folds old turns through one summary call', async () => {
    const cfg = config();
    cfg.context = { ...cfg.context, maxRequestTokens: 2000 };
    const llm = fakeLlm([], (messages) =>
      messages[0].content.includes(SUMMARY_MARKER)
        ? ok({ summary: 'we talked', keyFacts: ['fact'], openTasks: [] })
        : chat('answer '.repeat(200)),
    );
    const { agent, events } = setup(llm, { config: cfg });
    for (let i = 0; i < 10; i++) await agent.send(`q${i}`);
    // The first fold only shortens the older replies; past the summary mark a later one folds turns.
    const folds = events.filter((e) => e.type === 'compaction');
    expect(folds[0]).toMatchObject({ method: 'shortened', folded: 0 });
    expect(folds.find((e) => e.type === 'compaction' && e.method !== 'shortened')).toMatchObject({ method: 'model' });
    expect(agent.summary()).toMatchObject({ summary: 'we talked', keyFacts: ['fact'] });
    const lastCall = llm.calls[llm.calls.length - 1];
    expect(lastCall[1].content).toMatch(/Conversation summary so far:\nwe talked/);
  });

  test('a failing summary call falls back to rules', async () => {
    const cfg = config();
    cfg.context = { ...cfg.context, maxRequestTokens: 2000 };
    const llm = fakeLlm([], (messages) =>
      messages[0].content.includes(SUMMARY_MARKER)
        ? { ok: false, code: 'RATE_LIMIT', message: '429', notFound: false }
        : chat('answer '.repeat(200)),
    );
    const { agent, events } = setup(llm, { config: cfg });
    for (let i = 0; i < 10; i++) await agent.send(`question ${i}`);
    expect(events.find((e) => e.type === 'compaction' && e.method !== 'shortened')).toMatchObject({ method: 'rules' });
    expect(agent.summary()!.summary).toMatch(/user: question 0/);
  });

  test('/compact forces a fold; sizes shrink', async () => {
    const llm = fakeLlm([], (messages) =>
      messages[0].content.includes(SUMMARY_MARKER) ? ok({ summary: 's', keyFacts: [], openTasks: [] }) : chat('a'.repeat(400)),
    );
    const { agent } = setup(llm);
    for (let i = 0; i < 4; i++) await agent.send(`q${i}`);
    const before = agent.contextSizes();
    const r = await agent.compact();
    expect(r).toMatchObject({ method: 'model' });
    expect(agent.contextSizes().window).toBeLessThan(before.window);
  });

  test('sessions are append-only JSONL and resume rebuilds the context', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-sessions-'));
    const store = new SessionStore(dir);
    const llm = fakeLlm([cmd({ program: 'ls', args: [] }), chat('one file'), chat('second answer')]);
    const { agent } = setup(llm, { store });
    await agent.send('what is here');
    const id = agent.sessionId;
    const lines = fs
      .readFileSync(store.fileOf(id), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.t)).toEqual(['meta', 'system', 'usage', 'user', 'assistant', 'usage', 'tool', 'assistant']);
    expect(lines[0]).toMatchObject({ cwd: '/work', id });

    const { agent: again } = setup(llm, { store });
    expect(again.resumeLast()).toBe(true);
    expect(again.sessionId).toBe(id);
    expect(again.contextSizes()).toEqual(agent.contextSizes());
    await again.send('more');
    const after = fs.readFileSync(store.fileOf(id), 'utf8').trim().split('\n');
    expect(after.length).toBeGreaterThan(lines.length);
    expect(after.slice(0, lines.length).map((l) => JSON.parse(l))).toEqual(lines);
    expect(again.listSessions().map((s) => s.id)).toEqual([id]);

    again.clear();
    expect(again.sessionId).not.toBe(id);
    expect(again.contextSizes().windowMessages).toBe(0);
    fs.rmSync(dir, { recursive: true });
  });
});

test('clearQueue cancels queued turns before they reach the model', async () => {
  const llm = fakeLlm([chat('a'), chat('never')]);
  const { agent } = setup(llm);
  const first = agent.send('first');
  const second = agent.send('second');
  expect(agent.queued()).toEqual(['first', 'second']);
  expect(agent.clearQueue()).toEqual(['first', 'second']);
  expect((await first).outcome).toBe('aborted');
  expect((await second).outcome).toBe('aborted');
  expect(llm.calls).toHaveLength(0);
});

test('resume keeps an explicit mode over the stored one', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-sessions-'));
  const store = new SessionStore(dir);
  const seen: string[] = [];
  const llm = fakeLlm([], (_m, o) => {
    seen.push(o.mode);
    return chat('x');
  });
  const first = new Agent(
    { config: config(), systemPrompt: 'S', cwd: '/w', lang: 'en', mode: 'high' },
    { llm, createRunner: fakeRunner().create, store, now: steppingClock() },
  );
  await first.send('a');
  const inherit = new Agent(
    { config: config(), systemPrompt: 'S', cwd: '/w', lang: 'en' },
    { llm, createRunner: fakeRunner().create, store, now: steppingClock() },
  );
  inherit.resumeLast();
  await inherit.send('b');
  const explicit = new Agent(
    { config: config(), systemPrompt: 'S', cwd: '/w', lang: 'en', mode: 'low' },
    { llm, createRunner: fakeRunner().create, store, now: steppingClock() },
  );
  explicit.resumeLast();
  await explicit.send('c');
  expect(seen).toEqual(['high', 'high', 'low']);
  fs.rmSync(dir, { recursive: true });
});

test('step ids continue across a resume', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-sessions-'));
  const store = new SessionStore(dir);
  const llm = fakeLlm([
    cmd({ program: 'ls', args: [] }, { program: 'pwd', args: [] }),
    chat('a'),
    cmd({ program: 'ls', args: [] }),
    chat('b'),
  ]);
  const one = setup(llm, { store });
  await one.agent.send('x');
  const two = setup(llm, { store });
  two.agent.resumeLast();
  await two.agent.send('y');
  expect(two.events.filter((e) => e.type === 'step').map((e) => (e as { id: string }).id)).toEqual(['cmd_003']);
  fs.rmSync(dir, { recursive: true });
});

test('cost() prices usage when pricing is configured', async () => {
  const priced = setup(fakeLlm([chat('a')]), {
    config: config({ pricing: { currency: 'USD', inputPerMillion: 3, outputPerMillion: 15 } }),
  });
  await priced.agent.send('x');
  expect(priced.agent.cost()).toEqual({
    usage: { input_tokens: 10, output_tokens: 5, calls: 1 },
    amount: (10 * 3 + 5 * 15) / 1e6,
    currency: 'USD',
  });
  const plain = setup(fakeLlm([chat('a')]));
  await plain.agent.send('x');
  expect(plain.agent.cost()).toEqual({ usage: { input_tokens: 10, output_tokens: 5, calls: 1 } });
});
