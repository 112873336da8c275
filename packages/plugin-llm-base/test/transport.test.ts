import { createTempHome, llmProfile, startScriptedServer, type ScriptedServer, type TempHome } from '@holic512/testkit';
import * as api from '../src/index';
import { effectiveTransport, ToolCallAssembler } from '../src/transport';

// Transports: native tool calls (streamed deltas assembled as the SDK delivers them), a caller's
// JSON Schema as response_format, and probe recording what works so `auto` can pick.
let home: TempHome;
let server: ScriptedServer;
const TOOL = {
  type: 'function',
  function: {
    name: 'fs__read',
    description: 'read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};
const user = [{ role: 'user', content: 'read a.txt' }];

beforeEach(async () => {
  home = await createTempHome({ language: 'en' });
  process.env.SLOTHTOOL_HOME = home.slothtoolHome;
  server = await startScriptedServer();
  api.create_profile('p', llmProfile(server.baseURL, { api_key: 'sk-test-000000000000' }) as never);
});
afterEach(async () => {
  await server.close();
  await home.cleanup();
});

test('tools go out as `tools` without the strict-JSON prompt; several streamed calls come back assembled', async () => {
  server.enqueue({
    content: 'Reading both.',
    toolCalls: [
      { id: 'call_a', name: 'fs__read', arguments: { path: 'a.txt' } },
      { id: 'call_b', name: 'fs__read', arguments: { path: 'dir/with "quotes".txt' } },
    ],
  });
  const deltas: string[] = [];
  const r = await api.llm_chat(user, 'low', 'p', { tools: [TOOL], onText: (d) => deltas.push(d) });
  expect(r).toMatchObject({
    success: true,
    text: 'Reading both.',
    tool_calls: [
      { id: 'call_a', name: 'fs__read', arguments: '{"path":"a.txt"}' },
      { id: 'call_b', name: 'fs__read', arguments: JSON.stringify({ path: 'dir/with "quotes".txt' }) },
    ],
  });
  const body = server.requests[0].body;
  expect(body.tools).toEqual([TOOL]);
  expect(JSON.stringify(body.messages)).not.toContain('strict JSON mode');
  expect(body.response_format).toBeUndefined();
  expect(deltas.join('')).toBe('Reading both.');
});

test('non-streamed tool calls; assistant tool_calls and tool results travel with their ids', async () => {
  server.enqueue({ content: '', toolCalls: [{ id: 'call_x', name: 'fs__read', arguments: '{"path":"b.txt"}' }] });
  const history = [
    ...user,
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'fs__read', arguments: '{"path":"a.txt"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"content":"hello"}' },
  ];
  const r = await api.llm_chat(history, 'low', 'p', { tools: [TOOL] });
  expect(r).toMatchObject({ success: true, tool_calls: [{ id: 'call_x', name: 'fs__read', arguments: '{"path":"b.txt"}' }] });
  const sent = server.requests[0].body.messages;
  expect(sent[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'fs__read' } }] });
  expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"content":"hello"}' });
});

test('json_schema: the schema goes as response_format; a server that refuses it still answers (format_rejected)', async () => {
  const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
  server.enqueue({ json: { ok: true } });
  expect(await api.llm_chat(user, 'low', 'p', { json_schema: { name: 'reply', schema, strict: true } })).toMatchObject({
    success: true,
    data: { ok: true },
  });
  expect(server.requests[0].body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'reply', schema, strict: true } });
  server.enqueue({ status: 400 }, { json: { ok: true } });
  expect(await api.llm_chat(user, 'low', 'p', { json_schema: { name: 'reply', schema } })).toMatchObject({
    success: true,
    format_rejected: true,
  });
  expect(api.list_profiles()).toMatchObject({ data: { profiles: { p: expect.not.objectContaining({ json_mode: 'prompt' }) } } });
});

test('probe records capabilities with the date; auto picks tools > json_schema > json', async () => {
  expect(api.transport_for('p')).toBe('json');
  server.setHandler((req) => {
    const body = req.body as Record<string, any>;
    if (body.tools) return { content: '', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };
    if (body.response_format?.type === 'json_schema') return { status: 400 };
    return { json: { ok: true } };
  });
  const r = await api.probe_profile('p');
  expect(r).toMatchObject({ success: true, data: { tools: { ok: true }, json_schema: { ok: false }, json_object: { ok: true } } });
  const saved = (api.list_profiles() as { data: { profiles: Record<string, any> } }).data.profiles.p;
  expect(saved.capabilities).toMatchObject({ tools: true, json_schema: false, json_object: true });
  expect(Date.parse(saved.capabilities.probed_at)).not.toBeNaN();
  expect(api.transport_for('p')).toBe('tools');
  api.update_profile('p', { transport: 'json' } as never);
  expect(api.transport_for('p')).toBe('json');
});

test('a model that answers without calling the tool, or with bad arguments, fails the tools probe', async () => {
  server.setHandler((req) =>
    (req.body as Record<string, any>).tools ? { content: 'It is sunny.' } : { json: { answer: 7, unit: 'apples' } },
  );
  const r = await api.probe_profile('p');
  expect(r).toMatchObject({
    success: true,
    data: { tools: { ok: false, detail: 'answered without a tool call' }, json_schema: { ok: true } },
  });
  expect(api.transport_for('p')).toBe('json_schema');
});

test('effectiveTransport and the assembler on their own', () => {
  expect(
    effectiveTransport({ transport: 'auto', capabilities: { tools: false, json_schema: true, json_object: true, probed_at: '' } }),
  ).toBe('json_schema');
  expect(effectiveTransport({})).toBe('json');
  const a = new ToolCallAssembler();
  a.push([{ index: 1, id: 'b', function: { name: 'y', arguments: '{"q"' } }]);
  a.push([{ index: 0, id: 'a', function: { name: 'x', arguments: '{}' } }]);
  a.push([{ index: 1, function: { arguments: ':1}' } }]);
  expect(a.result()).toEqual([
    { id: 'a', name: 'x', arguments: '{}' },
    { id: 'b', name: 'y', arguments: '{"q":1}' },
  ]);
});

test('`llm-base probe` prints each check and what auto now uses; doctor shows the transport; config sets it', async () => {
  const { main } = require('../src/cli') as typeof import('../src/cli');
  const out: string[] = [];
  const io = { stdout: (s: string) => void out.push(s), stderr: (s: string) => void out.push(s), interactive: false };
  server.setHandler((req) =>
    (req.body as Record<string, any>).tools
      ? { content: '', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }
      : { json: { answer: 7, unit: 'apples' } },
  );
  expect(await main(['probe', 'p'], io)).toBe(0);
  const text = out.join('');
  expect(text).toContain('✓ tools       get_weather({"city":"Oslo"})');
  expect(text).toContain('with transport auto its calls use: tools');
  out.length = 0;
  expect(await main(['config', 'update', 'p', '--transport', 'json_schema'], io)).toBe(0);
  out.length = 0;
  await main(['doctor', 'p'], io);
  expect(out.join('')).toMatch(/transport: json_schema \(probed \d{4}-\d\d-\d\d: tools ✓, json_schema ✓\)/);
  out.length = 0;
  expect(await main(['config', 'update', 'p', '--transport', 'smoke-signals'], io)).toBe(2);
  expect(out.join('')).toContain('transport');
});

test('the config file is read on every call: a change by another process counts, a caller cannot change what the next one sees', () => {
  const first = api.list_profiles() as { data: { profiles: Record<string, any> } };
  first.data.profiles.p.low_model = 'changed-by-caller';
  expect((api.list_profiles() as { data: { profiles: Record<string, any> } }).data.profiles.p.low_model).toBe('test-low');
  const fs = require('fs') as typeof import('fs');
  const file = require('path').join(home.slothtoolHome, 'plugin-configs', 'llm-base.json');
  const config = JSON.parse(fs.readFileSync(file, 'utf8'));
  config.profiles.p.high_model = 'edited-elsewhere';
  fs.writeFileSync(file, JSON.stringify(config));
  expect((api.list_profiles() as { data: { profiles: Record<string, any> } }).data.profiles.p.high_model).toBe('edited-elsewhere');
});

describe('images', () => {
  const RED =
    'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAKklEQVR42mO4IyJCU8QwasGoBaMWjFowasGoBaMWjFowasGoBaMWDBULAJ3LED19/LmKAAAAAElFTkSuQmCC';
  const withImage = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${RED}` } },
      ],
    },
  ];
  const sawImage = (body: Record<string, any>) => JSON.stringify(body.messages).includes('image_url');

  test('content parts with an image go to an OpenAI-compatible server as they are', async () => {
    server.enqueue({ json: { type: 'chat', message: 'a red square' } });
    expect(await api.llm_chat(withImage, 'low', 'p')).toMatchObject({ success: true, data: { message: 'a red square' } });
    const sent = server.requests[0].body as Record<string, any>;
    expect(sent.messages.at(-1).content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${RED}` } });
  });

  test('probe finds whether the model reads images and records it; a call with images to a blind model fails unsent, saying what to do', async () => {
    // A model that sees: it names the colour of the probe's image.
    server.setHandler((req) => (sawImage(req.body as Record<string, any>) ? { json: { colour: 'red' } } : { json: { ok: true } }));
    const seeing = await api.probe_profile('p');
    expect(seeing).toMatchObject({ success: true, data: { vision: { ok: true } } });
    expect((api.list_profiles() as { data: { profiles: Record<string, any> } }).data.profiles.p.capabilities.vision).toBe(true);
    // A blind one: it answers something else (or the server refuses the image).
    server.setHandler((req) =>
      sawImage(req.body as Record<string, any>) ? { json: { colour: 'I cannot see images' } } : { json: { ok: true } },
    );
    const blind = await api.probe_profile('p');
    expect(blind).toMatchObject({
      success: true,
      data: { vision: { ok: false, detail: expect.stringContaining('did not read the image') } },
    });
    const before = server.requests.length;
    const r = await api.llm_chat(withImage, 'low', 'p');
    expect(r).toMatchObject({
      success: false,
      error: { code: 'PROVIDER_ERROR', message: expect.stringContaining('does not accept images') },
    });
    expect((r as { error: { message: string } }).error.message).toContain('slothtool llm-base config update p --low-model');
    expect(server.requests.length).toBe(before);
    // Text-only calls still go.
    server.setHandler(null);
    server.enqueue({ json: { ok: true } });
    expect(await api.llm_chat(user, 'low', 'p')).toMatchObject({ success: true });
    // And the probe asks again, even though the recorded verdict says blind.
    server.setHandler((req) => (sawImage(req.body as Record<string, any>) ? { json: { colour: 'red' } } : { json: { ok: true } }));
    expect(await api.probe_profile('p')).toMatchObject({ data: { vision: { ok: true } } });
  });
});
