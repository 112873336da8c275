import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { z } from 'zod';
import { createToolRegistry, type AnyToolDefinition } from '@holic512/tool-runner';
import { markerCounts, prefixStats } from '@holic512/testkit';
import { Agent } from '../src/agent/agent';
import type { AgentEvent } from '../src/agent/events';
import type { ChatMessage } from '../src/context/context';
import type { LlmClient, LlmResult } from '../src/config/llm-base';
import { SUMMARY_MARKER } from '../src/context/prompt';
import { estimateMessagesTokens } from '../src/context/tokens';
import { foldMarks } from '../src/context/fold';
import { SessionStore } from '../src/sessions/sessions';
import { config, steppingClock } from './helpers/agent-setup';
import { chat, cmd, fakeLlm, ok } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';

// The context layout of DESIGN §6 (docs/context.md), proved on requests as the model gets them:
// each request extends the one before it, message by message, except where a fold happened, and
// folds happen only past their mark. No timing anywhere.

const isSummary = (messages: ChatMessage[]) => messages.some((m) => typeof m.content === 'string' && m.content.includes(SUMMARY_MARKER));
const summaryReply = ok({ summary: 'The user reads logs turn by turn.', keyFacts: ['logs are fine'], openTasks: [] });
/** Each step prints lines marked with its program and the turn's number. */
const output = (raw: unknown): string => {
  const step = raw as { program?: string; args?: string[]; text?: string };
  return step.text ?? Array.from({ length: 12 }, (_, k) => `${step.program}-${step.args?.[0]}-line-${k} ok`).join('\n') + '\n';
};
const twoSteps = (n: number) => cmd({ program: 'cat', args: [`t${n}`] }, { program: 'ls', args: [`t${n}`] });

/** A model that asks for two steps on each user message and answers their results. */
function scripted(answer = (n: number) => `Turn ${n}: all fine.`): ReturnType<typeof fakeLlm> {
  return fakeLlm([], (messages) => {
    if (isSummary(messages)) return summaryReply;
    const last = messages[messages.length - 1].content;
    const n = Number(
      /turn (\d+)/.exec(messages.filter((m) => m.role === 'user' && /turn \d+/.test(m.content)).at(-1)?.content ?? '')?.[1] ?? 0,
    );
    return last.includes('"_event":"tool_result"') ? chat(answer(n)) : twoSteps(n);
  });
}

function useStore(): { store: () => SessionStore } {
  let dir = '';
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-layout-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { store: () => new SessionStore(dir) };
}

function agentOf(
  llm: LlmClient,
  options: { store?: SessionStore; maxRequestTokens?: number; tools?: ReturnType<typeof createToolRegistry> } = {},
) {
  const cfg = config({ maxAutoStepsPerTurn: 5 });
  if (options.maxRequestTokens) cfg.context = { ...cfg.context, maxRequestTokens: options.maxRequestTokens };
  const events: AgentEvent[] = [];
  const agent = new Agent(
    { config: cfg, systemPrompt: 'SYSTEM PROMPT '.repeat(40), cwd: '/work', lang: 'en' },
    {
      llm,
      createRunner: fakeRunner({}, output).create,
      store: options.store,
      now: steppingClock(),
      ...(options.tools ? { tools: options.tools } : {}),
    },
  );
  agent.on((e) => events.push(e));
  return { agent, events };
}

/** Whether `before` is, message by message, the start of `after`. */
const extendsRequest = (before: ChatMessage[], after: ChatMessage[]) =>
  before.length <= after.length && before.every((m, i) => JSON.stringify(m) === JSON.stringify(after[i]));

test('across steps and turns every request keeps the previous one as an exact prefix, and no step output is sent twice', async () => {
  const llm = scripted();
  const { agent } = agentOf(llm);
  for (let n = 1; n <= 6; n++) expect((await agent.send(`turn ${n}: read the logs`)).outcome).toBe('answered');
  const requests = llm.calls.filter((m) => !isSummary(m));
  expect(requests).toHaveLength(12);
  const stats = prefixStats(requests as never);
  expect(stats.kept).toBe(stats.pairs);
  // What a prefix cache reads again is the new part only: here well under a fifth of all that is sent.
  expect(stats.freshShare).toBeLessThan(0.2);
  const markers = Array.from({ length: 6 }, (_, i) => [`cat-t${i + 1}-line-11`, `ls-t${i + 1}-line-11`]).flat();
  for (const request of requests) expect(Math.max(...markerCounts(request as never, markers).values())).toBeLessThanOrEqual(1);
});

test('a long session folds only past its mark, stays within its budget, and between folds every request extends the previous one', async () => {
  const llm = scripted((n) => `Turn ${n}: ${'the logs look healthy and nothing needs doing. '.repeat(6)}`);
  const { agent, events } = agentOf(llm, { maxRequestTokens: 4000 });
  const marks = foldMarks({ ...config().context, maxRequestTokens: 4000 });
  // Which request each fold came before (requests are counted as the model gets them).
  const foldBefore = new Set<number>();
  let seen = 0;
  agent.on((e) => {
    if (e.type === 'request' && e.purpose !== 'summary') seen++;
    if (e.type === 'compaction') foldBefore.add(seen);
  });
  for (let n = 1; n <= 40; n++) expect((await agent.send(`turn ${n}: read the logs`)).outcome).toBe('answered');
  const requests = llm.calls.filter((m) => !isSummary(m));
  const folds = events.filter((e): e is Extract<AgentEvent, { type: 'compaction' }> => e.type === 'compaction');
  expect(folds.length).toBeGreaterThan(0);
  // A fold happens only past the fold mark, and leaves the next fold many steps away.
  for (const f of folds) expect(f.before).toBeGreaterThan(marks.fold);
  expect(folds.length).toBeLessThan(requests.length / 6);
  for (let i = 1; i < requests.length; i++) {
    expect(estimateMessagesTokens(requests[i])).toBeLessThanOrEqual(4000);
    if (!foldBefore.has(i)) expect([i, extendsRequest(requests[i - 1], requests[i])]).toEqual([i, true]);
  }
  expect(folds.some((f) => f.method === 'model')).toBe(true);
});

describe('--continue rebuilds the bytes of the last request', () => {
  const { store } = useStore();

  test('JSON protocol, across a fold', async () => {
    const s = store();
    const first = scripted((n) => `Turn ${n}: ${'fine. '.repeat(40)}`);
    const { agent, events } = agentOf(first, { store: s, maxRequestTokens: 3000 });
    for (let n = 1; n <= 12; n++) await agent.send(`turn ${n}: read the logs`);
    expect(events.some((e) => e.type === 'compaction')).toBe(true);
    const last = first.calls.filter((m) => !isSummary(m)).at(-1)!;

    const second = scripted();
    const { agent: again } = agentOf(second, { store: s, maxRequestTokens: 3000 });
    expect(again.resumeLast()).toBe(true);
    await again.send('turn 13: and now?');
    expect(extendsRequest(last, second.calls[0])).toBe(true);
    expect(again.contextSizes()).toMatchObject({ folds: agent.contextSizes().folds });
  });

  test('native tool calls', async () => {
    const s = store();
    const tools = createToolRegistry([]);
    const toolsLlm = (): LlmClient & { calls: ChatMessage[][] } => {
      const calls: ChatMessage[][] = [];
      let k = 0;
      return {
        features: { options: true, streaming: true, tools: true },
        transport: () => 'tools',
        calls,
        async chat(messages): Promise<LlmResult> {
          calls.push(messages);
          const last = messages[messages.length - 1];
          if (last.role === 'tool')
            return { ok: true, data: null, usage: { input_tokens: 1, output_tokens: 1 }, text: 'All read.', toolCalls: [] };
          k++;
          return {
            ok: true,
            data: null,
            usage: { input_tokens: 1, output_tokens: 1 },
            text: '',
            toolCalls: [
              { id: `call_${k}_a`, name: 'exec', arguments: `{"program":"cat","args":["t${k}"]}` },
              { id: `call_${k}_b`, name: 'fs__read', arguments: '{"path":"a.txt"}' },
            ],
          };
        },
      };
    };
    const first = toolsLlm();
    const { agent } = agentOf(first, { store: s, tools });
    for (let n = 1; n <= 3; n++) await agent.send(`turn ${n}: read`);
    const requests = first.calls;
    for (let i = 1; i < requests.length; i++) expect(extendsRequest(requests[i - 1], requests[i])).toBe(true);
    // The results go back as the tool messages of their calls.
    expect(requests[1].slice(-3)).toMatchObject([
      { role: 'assistant', tool_calls: [{ id: 'call_1_a' }, { id: 'call_1_b' }] },
      { role: 'tool', tool_call_id: 'call_1_a' },
      { role: 'tool', tool_call_id: 'call_1_b' },
    ]);

    const second = toolsLlm();
    const { agent: again } = agentOf(second, { store: s, tools });
    again.resumeLast();
    await again.send('turn 4: more');
    expect(extendsRequest(requests.at(-1)!, second.calls[0])).toBe(true);
  });
});

describe('pinned state', () => {
  const { store } = useStore();
  const planTool = {
    name: 'plan.fake',
    description: { en: 'Keep the plan.', zh: '保存计划。' },
    input: z.object({ text: z.string() }),
    example: { text: '1. read 2. fix' },
    pinned: true,
    permission: { arg: 'words', subject: () => ({ kind: 'name', name: 'plan' }) },
    assess: () => ({ findings: [{ id: 'plan.update', level: 'L0' }], touches: { read: [], write: [], network: [], exec: [] } }),
    approvalKey: () => 'plan.fake',
    digest: (s: { text: string }) => `plan: ${s.text}`,
    execute: async () => ({ _event: 'tool_result', id: 'x', tool: 'plan.fake', decision: { level: 'L0', by: 'policy', rules: [] } }),
  } as unknown as AnyToolDefinition;

  test("a pinned tool's latest result is stated again after every summary, and after --continue", async () => {
    const s = store();
    const tools = createToolRegistry([planTool]);
    const llm = fakeLlm([], (messages) => {
      if (isSummary(messages)) return summaryReply;
      const last = messages[messages.length - 1].content;
      if (last.includes('"_event":"tool_result"')) return chat(`done: ${'words '.repeat(80)}`);
      if (last.includes('make a plan')) return cmd({ tool: 'plan.fake', text: 'PLAN-V2 read then fix' });
      return cmd({ program: 'cat', args: ['big'] });
    });
    const { agent, events } = agentOf(llm, { store: s, maxRequestTokens: 3000, tools });
    await agent.send('make a plan');
    for (let n = 1; n <= 25; n++) await agent.send(`turn ${n}: read`);
    expect(events.filter((e) => e.type === 'compaction' && e.method !== 'shortened').length).toBeGreaterThan(1);
    const last = llm.calls.filter((m) => !isSummary(m)).at(-1)!;
    const pinned = last.filter((m) => m.content.includes('"_event":"pinned"'));
    expect(pinned).toHaveLength(1);
    expect(last.findIndex((m) => m.content.includes('"_event":"pinned"'))).toBe(2); // system, summary, the plan
    expect(pinned[0].content).toContain('PLAN-V2 read then fix');

    const later = fakeLlm([chat('resumed')]);
    const again = agentOf(later, { store: s, maxRequestTokens: 3000, tools });
    again.agent.resumeLast();
    await again.agent.send('where are we?');
    expect(extendsRequest(last, later.calls[0])).toBe(true);
  });
});

describe('a session written by the previous version', () => {
  const { store } = useStore();
  test('resumes: its turns in the short form it kept, said once, and the next request extends that', async () => {
    const s = store();
    const id = '20261101-100000-abcdef';
    const at = '2026-11-01T10:00:00.000Z';
    const records = [
      { t: 'meta', v: 1, id, cwd: '/work', createdAt: at, mode: 'low', profile: null },
      { t: 'usage', at, input_tokens: 10, output_tokens: 2 },
      { t: 'user', at, content: 'what is here' },
      { t: 'assistant', at, content: JSON.stringify({ type: 'cmd', message: 'look', asked: ['ls'] }) },
      {
        t: 'tool',
        at,
        content: JSON.stringify({
          _event: 'tool_result',
          id: 'cmd_001',
          step: 'ls',
          outcome: 'ran',
          exitCode: 0,
          level: 'L0',
          out: 'a.txt',
        }),
        digest: JSON.stringify({ _event: 'tool_result', id: 'cmd_001', tool: 'exec', program: 'ls', stdoutTail: 'a.txt\n' }),
      },
      { t: 'assistant', at, content: JSON.stringify({ type: 'chat', message: 'One file.' }) },
      { t: 'summary', at, summary: { summary: 'earlier', keyFacts: [], openTasks: [] }, folded: 0, method: 'rules' },
      { t: 'event', at, content: JSON.stringify({ _event: 'continue' }) },
    ];
    fs.mkdirSync(s.dir, { recursive: true });
    fs.writeFileSync(s.fileOf(id), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    s.markLast('/work', id);
    const llm = fakeLlm([cmd({ program: 'ls', args: [] }), chat('still one file'), chat('ok')]);
    const { agent, events } = agentOf(llm, { store: s });
    expect(agent.resumeLast()).toBe(true);
    expect(events.filter((e) => e.type === 'log').map((e) => (e as { code: string }).code)).toEqual(['session_converted']);
    await agent.send('again?');
    const sent = llm.calls[0];
    expect(sent.map((m) => m.role)).toEqual(['system', 'system', 'user', 'assistant', 'user', 'assistant', 'user', 'user']);
    expect(sent[4].content).toContain('"step":"ls"');
    // Step ids go on where the session left off.
    expect(llm.calls[1].at(-1)!.content).toContain('"id":"cmd_002"');
    await agent.send('and now?');
    expect(extendsRequest(llm.calls[1], llm.calls[2])).toBe(true);
    // Converted once: the system prompt it now goes on with is recorded, and the next resume says nothing.
    const { agent: third, events: thirdEvents } = agentOf(fakeLlm([]), { store: s });
    third.resumeLast();
    expect(thirdEvents.filter((e) => e.type === 'log')).toEqual([]);
    expect(s.read(id).records.filter((r) => r.t === 'system')).toHaveLength(1);
  });
});

test("the session's requests carry its id as one prompt-cache key; a summary request, whose prefix is its own, none", async () => {
  const keys: Array<[boolean, string | undefined]> = [];
  const llm = fakeLlm([], (messages, options) => {
    keys.push([isSummary(messages), options.cacheKey]);
    return isSummary(messages) ? summaryReply : chat(`answer ${'words '.repeat(300)}`);
  });
  const { agent } = agentOf(llm, { maxRequestTokens: 2000 });
  for (let n = 1; n <= 8; n++) await agent.send(`turn ${n}: go`);
  expect(keys.filter(([summary]) => summary).length).toBeGreaterThan(0);
  for (const [summary, key] of keys) expect(key).toBe(summary ? undefined : agent.sessionId);
});

test('instructions that change mid-session (memory, skills) come as one message after the cached prefix; a new session starts from them', async () => {
  const llm = fakeLlm([], () => chat('ok'));
  const agent = new Agent(
    { config: config(), systemPrompt: 'RULES\n\nMEMORY: likes tabs', cwd: '/work', lang: 'en' },
    { llm, createRunner: fakeRunner().create },
  );
  // Before anything was sent, the new text simply is the system prompt.
  agent.updateSystemPrompt('RULES\n\nMEMORY: likes spaces');
  await agent.send('one');
  expect(llm.calls[0][0].content).toBe('RULES\n\nMEMORY: likes spaces');
  agent.updateSystemPrompt('RULES\n\nMEMORY: likes spaces\n\nSKILLS: deploy');
  await agent.send('two');
  const second = llm.calls[1];
  expect(second[0].content).toBe('RULES\n\nMEMORY: likes spaces');
  expect(extendsRequest(llm.calls[0], second)).toBe(true);
  const note = JSON.parse(second.at(-2)!.content);
  expect(note).toMatchObject({ _event: 'instructions', changed: 'SKILLS: deploy' });
  expect(second.at(-1)!.content).toBe('two');
  await agent.send('three');
  expect(llm.calls[2].filter((m) => m.content.includes('"_event":"instructions"'))).toHaveLength(1);
  agent.clear();
  await agent.send('four');
  expect(llm.calls[3][0].content).toBe('RULES\n\nMEMORY: likes spaces\n\nSKILLS: deploy');
});
