import { useAiFixture } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { runAi } from './run-bin';

// OpenTelemetry, end to end through the real `ai` bin: off (and not even loaded) without
// OTEL_EXPORTER_OTLP_ENDPOINT; with it, the spans of a turn, its model calls (token counts, cached
// tokens) and its steps (tool, level, outcome) reach a local OTLP/HTTP receiver before `ai`
// exits, in JSON or protobuf as OTEL_EXPORTER_OTLP_PROTOCOL says, and never carry a step's
// arguments or output.
const fx = useAiFixture();

interface Export {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A collector on 127.0.0.1 (a free port) that keeps every export and answers 200. */
async function receiver(): Promise<{ url: string; exports: Export[]; close(): Promise<void> }> {
  const exports: Export[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' });
      res.end(req.headers['content-type']?.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fx.onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface JsonSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number; boolValue?: boolean } }>;
}

/** The spans of OTLP/JSON exports, with attributes as a plain record. */
function spansOf(
  exports: Export[],
): Array<{ name: string; id: string; parent?: string; attrs: Record<string, unknown>; service: unknown }> {
  return exports.flatMap((e) => {
    const body = JSON.parse(e.body.toString()) as {
      resourceSpans: Array<{ resource: { attributes: JsonSpan['attributes'] }; scopeSpans: Array<{ spans: JsonSpan[] }> }>;
    };
    return body.resourceSpans.flatMap((rs) => {
      const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
      return rs.scopeSpans.flatMap((ss) =>
        ss.spans.map((s) => ({
          name: s.name,
          id: s.spanId,
          parent: s.parentSpanId || undefined,
          service,
          attrs: Object.fromEntries(
            s.attributes.map((a) => [
              a.key,
              a.value.stringValue ?? (a.value.intValue !== undefined ? Number(a.value.intValue) : a.value.boolValue),
            ]),
          ),
        })),
      );
    });
  });
}

const SECRET_ARG = 'argument-text-7f3a9c';
const usage = { prompt_tokens: 1234, completion_tokens: 56, prompt_tokens_details: { cached_tokens: 789 } };

function scriptTurnWithStep(): void {
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ tool: 'exec', program: 'ls', args: [SECRET_ARG] }] } }, usage },
    { json: { type: 'chat', message: 'seen it' }, usage },
  );
}

test('spans of a turn, its model calls and its step reach the collector as OTLP/JSON, with token counts and no argument text', async () => {
  const collector = await receiver();
  scriptTurnWithStep();
  const env = {
    ...fx.temp.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_HEADERS: 'x-team=ai-tests',
    OTEL_SERVICE_NAME: 'ai-under-test',
  };
  const r = await runAi(['-p', 'look around'], { env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('seen it\n');
  // Exported before the process ended, to the traces path, with the headers of the environment.
  expect(collector.exports.length).toBeGreaterThan(0);
  expect(
    collector.exports.every(
      (e) => e.path === '/v1/traces' && e.headers['x-team'] === 'ai-tests' && String(e.headers['content-type']).includes('json'),
    ),
  ).toBe(true);
  const spans = spansOf(collector.exports);
  const turn = spans.find((s) => s.name === 'invoke_agent ai')!;
  expect(turn).toBeDefined();
  expect(turn.service).toBe('ai-under-test');
  expect(turn.attrs).toMatchObject({
    'gen_ai.operation.name': 'invoke_agent',
    'slothtool.turn.outcome': 'answered',
    'slothtool.turn.steps': 1,
    'gen_ai.usage.input_tokens': 2468,
    'gen_ai.usage.output_tokens': 112,
  });
  const calls = spans.filter((s) => s.attrs['gen_ai.operation.name'] === 'chat');
  expect(calls).toHaveLength(2);
  const model = fx.server.requests[0].body.model;
  for (const call of calls) {
    expect(call.name).toBe(`chat ${model}`);
    expect(call.parent).toBe(turn.id);
    expect(call.attrs).toMatchObject({
      'gen_ai.request.model': model,
      'gen_ai.usage.input_tokens': 1234,
      'gen_ai.usage.output_tokens': 56,
      'gen_ai.usage.cache_read.input_tokens': 789,
    });
  }
  const step = spans.find((s) => s.name === 'execute_tool exec')!;
  expect(step.parent).toBe(turn.id);
  expect(step.attrs).toMatchObject({
    'gen_ai.tool.name': 'exec',
    'gen_ai.tool.call.id': 'cmd_001',
    'slothtool.step.level': 'L0',
    'slothtool.step.outcome': expect.stringMatching(/^exit \d+$/),
  });
  // What the step was asked to do and what it printed never leave as telemetry.
  for (const e of collector.exports) expect(e.body.toString()).not.toContain(SECRET_ARG);
});

test('OTLP/protobuf by default (http/protobuf): the same spans, binary', async () => {
  const collector = await receiver();
  scriptTurnWithStep();
  const r = await runAi(['-p', 'look around'], { env: { ...fx.temp.env, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(collector.exports.length).toBeGreaterThan(0);
  expect(collector.exports.every((e) => e.path === '/v1/traces' && e.headers['content-type'] === 'application/x-protobuf')).toBe(true);
  const bytes = Buffer.concat(collector.exports.map((e) => e.body));
  // Protobuf keeps strings as they are: the span names and attribute keys are there, the argument not.
  for (const text of ['invoke_agent ai', 'execute_tool exec', 'gen_ai.usage.cache_read.input_tokens', 'slothtool.step.outcome'])
    expect(bytes.includes(Buffer.from(text))).toBe(true);
  expect(bytes.includes(Buffer.from(SECRET_ARG))).toBe(false);
});

test('ai.json "telemetry" turns it on without the environment; an unsupported protocol is said and the run goes on', async () => {
  const collector = await receiver();
  await fx.temp.writeJson('plugin-configs/ai.json', {
    telemetry: { endpoint: collector.url, protocol: 'http/json', headers: { 'x-key': 'env:TEAM_KEY' } },
  });
  fx.server.enqueue({ json: { type: 'chat', message: 'hi' } });
  const r = await runAi(['-p', 'hi'], { env: { ...fx.temp.env, TEAM_KEY: 'k-123' }, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(spansOf(collector.exports).map((s) => s.name)).toContain('invoke_agent ai');
  expect(collector.exports[0].headers['x-key']).toBe('k-123');
  fx.server.enqueue({ json: { type: 'chat', message: 'hi again' } });
  const grpc = await runAi(['-p', 'hi'], { env: { ...fx.temp.env, TEAM_KEY: 'k-123', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, cwd: fx.cwd });
  expect(grpc).toMatchObject({ code: 0, stdout: 'hi again\n' });
  expect(grpc.stderr).toContain('"grpc" is not supported');
});

test('without an endpoint nothing of OpenTelemetry (nor the ACP SDK) is loaded by a talking turn; with one it is', async () => {
  const probe = path.join(fx.cwd, 'probe.js');
  await fs.writeFile(
    probe,
    `process.on('exit', () => process.stderr.write('\\nloaded: ' + Object.keys(require.cache).filter((f) => /@opentelemetry|@agentclientprotocol/.test(f)).length + '\\n'));`,
  );
  fx.server.enqueue({ json: { type: 'chat', message: 'hello' } }, { json: { type: 'chat', message: 'hello' } });
  const off = await runAi(['-p', 'hi'], { env: { ...fx.temp.env, NODE_OPTIONS: `--require ${probe}` }, cwd: fx.cwd });
  expect(off).toMatchObject({ code: 0, stdout: 'hello\n' });
  expect(off.stderr).toContain('loaded: 0\n');
  const collector = await receiver();
  const on = await runAi(['-p', 'hi'], {
    env: { ...fx.temp.env, NODE_OPTIONS: `--require ${probe}`, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
    cwd: fx.cwd,
  });
  expect(on.code).toBe(0);
  expect(on.stderr).not.toContain('loaded: 0\n');
});
