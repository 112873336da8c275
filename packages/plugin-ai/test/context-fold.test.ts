import { applyFoldTo, foldMarks, pinnedHead, planFold, type FoldInput } from '../src/context/fold';
import {
  assistantMessage,
  eventMessage,
  messagesTokens,
  shortened,
  toolMessage,
  userMessage,
  wireOf,
  withoutReasoning,
  type ContextMessage,
} from '../src/context/messages';
import type { ToolResult } from '../src/agent/runner-types';
import { AiConfigSchema, ContextBudgetsSchema } from '../src/config/config-schema';
import { estimateTokens } from '../src/context/tokens';

const budgets = AiConfigSchema.parse({ context: { maxRequestTokens: 4000 } }).context;
const marks = foldMarks(budgets);
const decision = { level: 'L0' as const, by: 'policy' as const, rules: [] };
const result = (id: string, out: string, tool = 'exec'): ToolResult => ({
  _event: 'tool_result',
  id,
  tool,
  program: 'cat',
  args: ['x'],
  exitCode: 0,
  stdoutTail: out,
  stderrTail: '',
  decision,
});
const turn = (n: number, out: string): ContextMessage[] => [
  userMessage(`question ${n}`, 3000, 2000),
  assistantMessage(
    { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ tool: 'exec', program: 'cat', args: ['x'] }] } } as never,
    `{"type":"cmd","message":"look ${n}"}`,
    3000,
  ),
  toolMessage(result(`cmd_${n}`, out), 3000),
  assistantMessage({ type: 'chat', message: `answer ${n}` }, `{"type":"chat","message":"answer ${n}"}`, 3000),
];
const input = (messages: ContextMessage[], extra: Partial<FoldInput> = {}): FoldInput => ({
  messages,
  fixedTokens: 50,
  marks,
  pinned: () => false,
  headTokens: budgets.summaryMaxTokens,
  ...extra,
});

describe('the marks', () => {
  test('they are shares of 95% of the request budget, and a fold leaves headroom below the mark it passed', () => {
    expect(marks).toEqual({ budget: 3800, fold: 3040, summarize: 2280, target: 1520 });
  });

  test.each([[{ foldAtPercent: 60, summarizeAbovePercent: 60 }], [{ foldToPercent: 70 }]])(
    'marks out of order are refused with what is needed: %j',
    (bad) => {
      const r = ContextBudgetsSchema.safeParse(bad);
      expect(r.success).toBe(false);
      expect(JSON.stringify(r.error?.issues)).toContain('foldToPercent < summarizeAbovePercent < foldAtPercent');
    },
  );

  test('an older ai.json with the window and digest keys still loads', () => {
    expect(
      ContextBudgetsSchema.safeParse({
        toolDigestCount: 3,
        recentWindowMaxTokens: 6000,
        recentWindowMaxMessages: 40,
        toolDigestMaxTokens: 2000,
      }).success,
    ).toBe(true);
  });
});

describe('a fold plan', () => {
  test('under the fold mark there is none, however many messages', () => {
    const messages = Array.from({ length: 30 }, (_, i) => turn(i, 'ok')).flat();
    expect(50 + messagesTokens(messages)).toBeLessThanOrEqual(marks.fold);
    expect(planFold(input(messages))).toBeUndefined();
  });

  test('past the fold mark the older long results are shortened, and that alone is the fold when it leaves enough room', () => {
    const messages = [...turn(1, 'x'.repeat(6000)), ...turn(2, 'y'.repeat(6000)), ...turn(3, 'short')];
    const plan = planFold(input(messages))!;
    expect(plan.before).toBeGreaterThan(marks.fold);
    expect(plan.folded).toBe(0);
    expect(plan.shortened).toEqual([2, 6, 10]);
    expect(plan.after).toBeLessThanOrEqual(marks.summarize);
    const after = applyFoldTo(messages, plan, []);
    expect(after[2].content).toBe(messages[2].short);
    // Everything else is byte for byte what it was.
    expect(after.filter((_, i) => ![2, 6, 10].includes(i))).toEqual(messages.filter((_, i) => ![2, 6, 10].includes(i)));
  });

  test('still past the summary mark after shortening: the oldest turns are folded, at a turn or reply boundary, down to the target', () => {
    const messages = Array.from({ length: 40 }, (_, i) => turn(i, `result ${i} `.repeat(8))).flat();
    const plan = planFold(input(messages))!;
    expect(plan.folded).toBeGreaterThan(0);
    expect(['user', 'assistant', 'event']).toContain(messages[plan.folded].kind);
    expect(plan.after).toBeLessThanOrEqual(marks.target);
    // The next fold is many steps away: the target is far below the fold mark.
    expect(marks.fold - plan.after).toBeGreaterThan(budgets.inputMaxTokens / 2);
  });

  test('the current task (the last user message) and the latest pinned result are never shortened', () => {
    const messages = [
      ...turn(1, 'x'.repeat(6000)),
      toolMessage(result('cmd_p', 'plan: 1. a 2. b '.repeat(200), 'plan.fake'), 3000),
      userMessage('the current task '.repeat(800), 9000, 200),
      ...turn(3, 'y'.repeat(6000)).slice(1),
    ];
    const plan = planFold(input(messages, { pinned: (t) => t === 'plan.fake' }))!;
    expect(plan.shortened).not.toContain(4);
    expect(plan.shortened).not.toContain(5);
    expect(plan.shortened).toContain(2);
  });

  test('/compact folds everything but the last two messages, at a boundary', () => {
    const messages = Array.from({ length: 3 }, (_, i) => turn(i, 'ok')).flat();
    const plan = planFold(input(messages, { force: true }))!;
    expect(plan.folded).toBeLessThanOrEqual(messages.length - 2);
    expect(messages[plan.folded].kind).not.toBe('tool');
  });
});

describe('pinned state outlives folds', () => {
  const pinned = (tool: string) => tool === 'plan.fake';
  test('the latest result of a pinned tool that a fold takes away is stated again after the summary; an older one is not', () => {
    const messages = [
      toolMessage(result('cmd_1', 'plan v1', 'plan.fake'), 3000),
      ...turn(2, 'x'),
      toolMessage(result('cmd_3', 'plan v2', 'plan.fake'), 3000),
      ...turn(4, 'y'),
    ];
    const head = pinnedHead(messages, 7, pinned);
    expect(head).toHaveLength(1);
    expect(head[0]).toMatchObject({ role: 'user', kind: 'pinned', tool: 'plan.fake' });
    expect(JSON.parse(head[0].content)).toMatchObject({
      _event: 'pinned',
      tool: 'plan.fake',
      result: { id: 'cmd_3', stdoutTail: 'plan v2' },
    });
    // Not taken away by this fold: nothing to state again.
    expect(pinnedHead(messages, 5, pinned)).toEqual([]);
  });

  test('a result stated again by an earlier fold is stated again as it is by the next', () => {
    const first = pinnedHead([toolMessage(result('cmd_1', 'plan v1', 'plan.fake'), 3000), eventMessage('x')], 1, pinned);
    const again = pinnedHead([...first, ...turn(2, 'x')], 2, pinned);
    expect(again).toEqual(first);
  });
});

describe('messages are made once and sent as made', () => {
  const calls = [{ id: 'call_1', name: 'fs__read', arguments: '{"path":"a.ts"}' }];
  const reply = { type: 'cmd', message: 'read it', data: { cwd: null, commands: [{ tool: 'fs.read', path: 'a.ts' }] } } as never;
  test.each<[string, ContextMessage, 'json' | 'tools', unknown]>([
    [
      'a JSON-protocol reply, to either transport',
      assistantMessage(reply, '{"type": "cmd" , "message":"read it"}', 3000),
      'tools',
      { role: 'assistant', content: '{"type": "cmd" , "message":"read it"}' },
    ],
    [
      'a tools reply, natively',
      assistantMessage(reply, 'reading', 3000, calls),
      'tools',
      {
        role: 'assistant',
        content: 'reading',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'fs__read', arguments: '{"path":"a.ts"}' } }],
      },
    ],
    [
      'a tools reply, to the JSON protocol',
      assistantMessage(reply, 'reading', 3000, calls),
      'json',
      { role: 'assistant', content: JSON.stringify(reply) },
    ],
    [
      'a tool result of a call, natively',
      toolMessage(result('cmd_1', 'a'), 300, 'call_1'),
      'tools',
      { role: 'tool', tool_call_id: 'call_1' },
    ],
    ['a tool result of a call, to the JSON protocol', toolMessage(result('cmd_1', 'a'), 300, 'call_1'), 'json', { role: 'user' }],
    ['a JSON-protocol result, to the tools transport', toolMessage(result('cmd_1', 'a'), 300), 'tools', { role: 'user' }],
  ])('%s', (_name, m, wire, expected) => {
    expect(wireOf(m, wire)).toMatchObject(expected as object);
    // The same message gives the same bytes every time.
    expect(JSON.stringify(wireOf(m, wire))).toBe(JSON.stringify(wireOf(m, wire)));
  });

  test('a result is fitted once to its budget; its short form is its one-line digest', () => {
    const m = toolMessage(result('cmd_9', 'line\n'.repeat(5000)), 400);
    expect(estimateTokens(m.content)).toBeLessThanOrEqual(400);
    expect(JSON.parse(m.short!)).toMatchObject({ _event: 'tool_result', id: 'cmd_9', step: 'cat x', outcome: 'ran' });
    expect(shortened(m).content).toBe(m.short);
  });

  test('a shortened native reply keeps its calls (their results answer them), without long arguments', () => {
    const long = [{ id: 'call_2', name: 'fs__write', arguments: JSON.stringify({ path: 'a', content: 'z'.repeat(5000) }) }];
    const m = shortened(assistantMessage(reply, 'writing '.repeat(100), 3000, long));
    expect(m.calls).toEqual([{ id: 'call_2', name: 'fs__write', arguments: '{"_shortened":true}' }]);
    expect(wireOf(m, 'tools').content).toBe('');
  });
});

test.each([
  ['<think>look at the files first</think>\n{"type":"chat","message":"hi"}', '{"type":"chat","message":"hi"}'],
  ['  <thinking>a\nb</thinking>{"type":"chat","message":"hi"}', '{"type":"chat","message":"hi"}'],
  ['the opening tag went with the server</think>\n{"type":"chat","message":"hi"}', '{"type":"chat","message":"hi"}'],
  ['{"type":"chat","message":"write </think> in the file"}', '{"type":"chat","message":"write </think> in the file"}'],
  ['{"type":"chat","message":"hi"}', '{"type":"chat","message":"hi"}'],
])('a reply is kept without the reasoning it opens with: %j', (raw, kept) => {
  expect(withoutReasoning(raw)).toBe(kept);
  expect(assistantMessage({ type: 'chat', message: 'hi' }, raw, 3000).content).toBe(kept);
});
