import { eachReturns } from '@holic512/testkit';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { traceAgent, outcomeOf } from '../src/telemetry/agent-spans';
import { telemetrySettings } from '../src/telemetry/settings';
import { startTracing } from '../src/telemetry/tracer';
import type { AgentEvent, AgentListener } from '../src/agent/events';
import type { ToolResult, Verdict } from '../src/agent/runner-types';

// Telemetry's two pure parts: when it is on (the OTEL_* variables and ai.json), and the spans the
// Agent's events make (checked with the SDK's in-memory exporter).

describe('telemetrySettings', () => {
  const on = { protocol: 'http/protobuf' as const, headers: {}, serviceName: 'slothtool-ai' };
  eachReturns('%j + ai.json %j → %j', telemetrySettings, [
    [{}, undefined, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, undefined, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, undefined, on],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }, undefined, on],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'mine' },
      undefined,
      { ...on, protocol: 'http/json', serviceName: 'mine' },
    ],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      },
      undefined,
      on,
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }, undefined, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }, undefined, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, false, undefined],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      undefined,
      { key: 'telemetryProtocol', vars: { protocol: 'grpc' } },
    ],
    // ai.json alone: its endpoint (the traces path added), protocol, headers and name
    [
      {},
      { endpoint: 'http://c:4318/', protocol: 'http/json', serviceName: 'team-ai' },
      { protocol: 'http/json', url: 'http://c:4318/v1/traces', headers: {}, serviceName: 'team-ai' },
    ],
    [
      { KEY: 's3cret' },
      { endpoint: 'http://c:4318', headers: { 'x-key': 'env:KEY', 'x-team': 'ai' } },
      { ...on, url: 'http://c:4318/v1/traces', headers: { 'x-key': 's3cret', 'x-team': 'ai' } },
    ],
    [
      {},
      { endpoint: 'http://c:4318', headers: { 'x-key': 'env:KEY' } },
      { key: 'telemetryHeaderEnv', vars: { header: 'x-key', name: 'KEY' } },
    ],
    // the environment's endpoint wins over ai.json's (no url passed: the exporter reads the variable)
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' }, { endpoint: 'http://c:4318' }, on],
  ]);
});

const verdict = { level: 'L1', findings: [], bySession: false, alwaysConfirm: false, adjustments: [] } as unknown as Verdict;

test('the spans of a turn: the model calls and the step under it, with usage and no argument', async () => {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing({ protocol: 'http/json', headers: {}, serviceName: 'test' }, '0.0.0', exporter);
  const listeners: AgentListener[] = [];
  const emit = (e: AgentEvent) => listeners.forEach((l) => l(e));
  const stop = traceAgent({ on: (l) => (listeners.push(l), () => undefined) }, tracing.tracer);
  const usage = { input_tokens: 100, output_tokens: 20, cached_tokens: 80 };
  const totals = { ...usage, calls: 1 };
  emit({ type: 'turn_start', input: 'do it', sessionId: 's1' });
  emit({ type: 'request', messages: 2, tokens: 50, minimal: false, purpose: 'reply' });
  emit({ type: 'wait', phase: 'connect', model: 'qwen', server: '127.0.0.1:1', limitMs: 1 });
  emit({ type: 'usage', call: usage, turn: totals, total: totals, model: 'qwen-2' });
  emit({ type: 'step', id: 'cmd_001', step: { tool: 'exec', program: 'rm', args: ['top-secret-arg'] } as never, verdict });
  emit({ type: 'confirm_answer', id: 'cmd_001', answer: { action: 'run' } });
  emit({
    type: 'tool_result',
    result: {
      _event: 'tool_result',
      id: 'cmd_001',
      tool: 'exec',
      exitCode: 1,
      durationMs: 12,
      stdoutTail: 'top-secret-out',
      decision: { level: 'L1', by: 'user', rules: [] },
    } as ToolResult,
  });
  emit({ type: 'request', messages: 4, tokens: 80, minimal: false, purpose: 'reply' });
  emit({ type: 'error', code: 'NETWORK_ERROR', message: 'down' });
  emit({
    type: 'final',
    outcome: 'error',
    message: 'down',
    steps: 1,
    usage: { ...totals, calls: 2 },
    sessionId: 's1',
    error: { code: 'NETWORK_ERROR', message: 'down' },
  });
  stop();
  // A simple processor exports each span as it ends (the exporter forgets them at shutdown).
  const spans = exporter.getFinishedSpans();
  await tracing.shutdown();
  const byName = (name: string) => spans.filter((s) => s.name === name);
  const [turn] = byName('invoke_agent ai');
  expect(turn.attributes).toMatchObject({
    'gen_ai.conversation.id': 's1',
    'slothtool.turn.outcome': 'error',
    'slothtool.turn.model_calls': 2,
  });
  expect(turn.status.code).toBe(2);
  const [named] = byName('chat qwen');
  expect(named.attributes).toMatchObject({
    'gen_ai.request.model': 'qwen',
    'gen_ai.response.model': 'qwen-2',
    'gen_ai.usage.input_tokens': 100,
    'gen_ai.usage.output_tokens': 20,
    'gen_ai.usage.cache_read.input_tokens': 80,
  });
  const [failed] = byName('chat');
  expect(failed.status).toMatchObject({ code: 2, message: 'NETWORK_ERROR' });
  const [step] = byName('execute_tool exec');
  expect(step.attributes).toEqual({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'exec',
    'gen_ai.tool.call.id': 'cmd_001',
    'slothtool.step.level': 'L1',
    'slothtool.step.answer': 'run',
    'slothtool.step.outcome': 'exit 1',
    'slothtool.step.decided_level': 'L1',
    'slothtool.step.duration_ms': 12,
    'process.exit.code': 1,
  });
  for (const s of spans) expect(s.parentSpanContext?.spanId ?? turn.spanContext().spanId).toBe(turn.spanContext().spanId);
  expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('top-secret');
});

eachReturns(
  'outcome of %j',
  (r: object) => outcomeOf({ _event: 'tool_result', id: 'x', tool: 'exec', decision: { level: 'L0', rules: [] }, ...r } as ToolResult),
  [
    [{ exitCode: 0 }, 'exit 0'],
    [{ status: 'declined' }, 'declined'],
    [{ status: 'blocked', blockedBy: 'hook' }, 'blocked_by_hook'],
    [{ exitCode: 0, sandbox: { denied: ['write'] } }, 'sandbox_stopped'],
    [{ status: 'applied' }, 'applied'],
    [{}, 'ran'],
  ],
);
