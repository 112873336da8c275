import { Writable } from 'stream';
import { JsonEventWriter } from '../src/cli/json-output';
import type { AgentEvent } from '../src/agent/events';
import { verdict } from './helpers/fake-runner';

/** A slow stdout: takes one write per tick, so write() reports full after highWaterMark bytes. */
function slowSink(highWaterMark = 64) {
  const lines: string[] = [];
  let maxPending = 0;
  const sink = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      maxPending = Math.max(maxPending, sink.writableLength);
      setImmediate(done);
    },
  });
  /** Everything handed over has been written. */
  const settled = () => new Promise<void>((resolve) => sink.end(resolve));
  return { sink, lines, maxPending: () => maxPending, settled };
}

const output = (id: string, chunk: string, stream: 'stdout' | 'stderr' = 'stdout'): AgentEvent => ({ type: 'output', id, chunk, stream });
const result = (id: string): AgentEvent => ({
  type: 'tool_result',
  result: { _event: 'tool_result', id, tool: 'exec', decision: { level: 'L0', rules: [], by: 'policy' } },
});

test('a stream keeps its head as it comes and its tail at the end of the step, with the byte count', async () => {
  const { sink, lines, settled } = slowSink(1 << 20);
  const w = new JsonEventWriter(sink, 10);
  for (const c of ['abcdef', 'ghijkl', 'mnopqr', 'stuvwx', 'yz']) w.event(output('cmd_001', c));
  w.event(output('cmd_001', 'E1', 'stderr'));
  w.event(result('cmd_001'));
  await w.flush();
  await settled();
  const events = lines.map((l) => JSON.parse(l));
  expect(events).toEqual([
    { type: 'output', id: 'cmd_001', chunk: 'abcdef', stream: 'stdout' },
    { type: 'output', id: 'cmd_001', chunk: 'ghij', stream: 'stdout' },
    { type: 'output', id: 'cmd_001', chunk: 'E1', stream: 'stderr' },
    { type: 'output', id: 'cmd_001', chunk: 'qrstuvwxyz', stream: 'stdout', truncated: true, bytes: 26, omittedBytes: 6 },
    expect.objectContaining({ type: 'tool_result' }),
  ]);
});

test('output just over the head is carried whole, without a truncation mark', async () => {
  const { sink, lines, settled } = slowSink(1 << 20);
  const w = new JsonEventWriter(sink, 4);
  w.event(output('a', '123456'));
  w.event({
    type: 'final',
    outcome: 'answered',
    message: 'ok',
    steps: 1,
    usage: { input_tokens: 0, output_tokens: 0, calls: 0 },
    sessionId: 's',
  });
  await w.flush();
  await settled();
  expect(lines.map((l) => JSON.parse(l)).slice(0, 2)).toEqual([
    { type: 'output', id: 'a', chunk: '1234', stream: 'stdout' },
    { type: 'output', id: 'a', chunk: '56', stream: 'stdout' },
  ]);
});

test('multi-byte text is cut on whole characters within the byte limit', async () => {
  const { sink, lines, settled } = slowSink(1 << 20);
  const w = new JsonEventWriter(sink, 7);
  w.event(output('a', '中文中文中文中文'));
  w.event(result('a'));
  await w.flush();
  await settled();
  const [head, tail] = lines.map((l) => JSON.parse(l));
  expect(head.chunk).toBe('中文');
  expect(tail).toMatchObject({ chunk: '中文', truncated: true, bytes: 24, omittedBytes: 12 });
});

test('writes wait for drain: the stream never holds much more than its high-water mark', async () => {
  const { sink, lines, maxPending, settled } = slowSink(256);
  const w = new JsonEventWriter(sink, 1 << 20);
  for (let i = 0; i < 2000; i++) w.line({ type: 'log', code: 'x', message: `line ${i}` });
  await w.flush();
  await settled();
  expect(lines).toHaveLength(2000);
  expect(JSON.parse(lines[1999])).toMatchObject({ message: 'line 1999' });
  expect(maxPending()).toBeLessThan(512);
});

test('samples of a fast stream (skipped bytes before them): the head ends at the first gap, the tail is what came after the last, bytes count everything', async () => {
  const { sink, lines, settled } = slowSink(1 << 20);
  const w = new JsonEventWriter(sink, 10);
  w.event(output('cmd_001', 'abcdef'));
  w.event({ type: 'output', id: 'cmd_001', chunk: 'XY', stream: 'stdout', skipped: 100 });
  w.event({ type: 'output', id: 'cmd_001', chunk: 'END', stream: 'stdout', skipped: 50 });
  w.event(result('cmd_001'));
  await w.flush();
  await settled();
  expect(lines.map((l) => JSON.parse(l)).slice(0, 2)).toEqual([
    { type: 'output', id: 'cmd_001', chunk: 'abcdef', stream: 'stdout' },
    { type: 'output', id: 'cmd_001', chunk: 'END', stream: 'stdout', truncated: true, bytes: 161, omittedBytes: 152 },
  ]);
});

test("a step and a question go out worded in the writer's language, beside the ids, levels and adjustments (never the raw verdict)", async () => {
  const v = {
    ...verdict('L1', ['write.file'], { p: 'touch' }),
    adjustments: [{ by: 'rule' as const, id: 'permission.ask', to: 'L1' as const }],
  };
  const step = { tool: 'exec' as const, program: 'touch', args: ['a'] };
  const reasons: Record<string, string> = {};
  for (const lang of ['en', 'zh'] as const) {
    const { sink, lines, settled } = slowSink(1 << 20);
    const w = new JsonEventWriter(sink, 10, lang);
    w.event({ type: 'step', id: 'cmd_001', step, verdict: v });
    w.event({ type: 'confirm', request: { id: 'cmd_001', step, verdict: v, decision: { level: 'L1', rules: [] }, sessionKey: 'touch' } });
    await w.flush();
    await settled();
    const [shown, asked] = lines.map((l) => JSON.parse(l));
    const decision = {
      level: 'L1',
      rules: [{ id: 'write.file', level: 'L1', reason: expect.stringContaining('touch') }],
      adjustments: v.adjustments,
    };
    expect(shown).toEqual({ type: 'step', id: 'cmd_001', step, decision });
    expect(asked).toEqual({ type: 'confirm', request: { id: 'cmd_001', step, decision, sessionKey: 'touch' } });
    reasons[lang] = shown.decision.rules[0].reason;
  }
  expect(reasons.zh).toMatch(/[\u4e00-\u9fff]/);
  expect(reasons.en).not.toMatch(/[\u4e00-\u9fff]/);
});
