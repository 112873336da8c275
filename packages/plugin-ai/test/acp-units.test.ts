import { eachReturns } from '@holic512/testkit';
import { PassThrough } from 'stream';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { answerOf, permissionOptions, previewContent } from '../src/acp/permission';
import { replayUpdates } from '../src/acp/history';
import { promptInput, uriPath } from '../src/acp/prompt-content';
import { clientServers } from '../src/acp/mcp-servers';
import { guardStdout } from '../src/acp/server';
import { stopReasonOf } from '../src/acp/session';
import { diffOf, kindOf, locationsOf, resultText, statusOf, UpdateMapper } from '../src/acp/updates';
import type { AgentEvent } from '../src/agent/events';
import type { ConfirmRequest, ToolResult, Verdict } from '../src/agent/runner-types';
import type { SessionRecord } from '../src/sessions/sessions';
import { schemas } from './acp-client';

// The pure parts of `ai --acp`: events as session updates, the question's choices and answers,
// a stored session replayed, a prompt's content blocks, the editor's MCP servers; each update is
// checked against the SDK's own schema of a session update.

const verdict = (level: 'L0' | 'L1' | 'L2', alwaysConfirm = false): Verdict =>
  ({ level, findings: [], bySession: false, alwaysConfirm, adjustments: [] }) as Verdict;
const decision = (level: 'L0' | 'L1' | 'L2', reason = 'because') => ({
  level,
  by: 'policy' as const,
  rules: [{ id: 'x.rule', level, reason }],
});
const valid = (update: SessionUpdate) => expect(schemas.zSessionUpdate.safeParse(update).success).toBe(true);

const tools = {
  get: (name: string) =>
    ({
      'fs.read': {
        kind: 'read',
        digest: (s: { path: string }) => `read ${s.path}`,
        summary: (s: { path: string }) => ({ title: `fs.read ${s.path}`, fields: [] }),
      },
      'fs.edit': {
        kind: 'edit',
        digest: (s: { path: string }) => `edit ${s.path}`,
        summary: (s: { path: string }) => ({ title: `fs.edit ${s.path}`, fields: [] }),
      },
      exec: { kind: 'execute', digest: (s: { program: string; args: string[] }) => [s.program, ...s.args].join(' ') },
      odd: { kind: 'teleport', digest: () => 'odd' },
    })[name] as never,
};

describe('UpdateMapper', () => {
  test('message deltas become the new part only; a second reply starts a new paragraph', () => {
    const m = new UpdateMapper('/w', () => tools);
    const out = (e: AgentEvent) => m.map(e).map((u) => (u as { content: { text: string } }).content.text);
    expect(out({ type: 'turn_start', input: 'hi', sessionId: 's' })).toEqual([]);
    expect(out({ type: 'message_delta', message: 'Hel' })).toEqual(['Hel']);
    expect(out({ type: 'message_delta', message: 'Hello' })).toEqual(['lo']);
    expect(
      out({
        type: 'reply',
        reply: { type: 'cmd', message: 'Hello', data: { cwd: null, commands: [] } } as never,
        raw: false,
        repaired: false,
      }),
    ).toEqual([]);
    expect(out({ type: 'request', messages: 3, tokens: 10, minimal: false, purpose: 'reply' })).toEqual([]);
    expect(out({ type: 'message_delta', message: 'Done' })).toEqual(['\n\nDone']);
    // A reply that was never streamed (an llm-base without streaming) comes whole with the reply.
    m.map({ type: 'turn_start', input: 'x', sessionId: 's' });
    expect(out({ type: 'reply', reply: { type: 'chat', message: 'whole' } as never, raw: false, repaired: false })).toEqual(['whole']);
  });

  test('a step: tool_call with kind, title, location, diff; then in progress, then its result', () => {
    const m = new UpdateMapper('/w', () => tools);
    const step = { tool: 'fs.edit', path: 'src/a.ts', old_string: 'a', new_string: 'b' } as never;
    const [call] = m.map({ type: 'step', id: 'cmd_001', step, verdict: verdict('L1') });
    expect(call).toMatchObject({
      sessionUpdate: 'tool_call',
      toolCallId: 'cmd_001',
      kind: 'edit',
      status: 'pending',
      title: 'fs.edit src/a.ts',
      locations: [{ path: '/w/src/a.ts' }],
      content: [{ type: 'diff', path: '/w/src/a.ts', oldText: 'a', newText: 'b' }],
    });
    valid(call);
    const [going] = m.map({ type: 'confirm_answer', id: 'cmd_001', answer: { action: 'run' } });
    expect(going).toEqual({ sessionUpdate: 'tool_call_update', toolCallId: 'cmd_001', status: 'in_progress' });
    expect(m.map({ type: 'confirm_answer', id: 'cmd_001', answer: { action: 'decline' } })).toEqual([]);
    const result = {
      _event: 'tool_result',
      id: 'cmd_001',
      tool: 'fs.edit',
      status: 'applied',
      summary: 'src/a.ts +1 −1',
      decision: decision('L1'),
    } as ToolResult;
    const [done] = m.map({ type: 'tool_result', result });
    expect(done).toMatchObject({
      status: 'completed',
      content: [{ type: 'diff' }, { type: 'content', content: { text: 'src/a.ts +1 −1' } }],
    });
    valid(done);
  });

  test('an L0 step is in progress from the start; a tool the registry does not know is "other"', () => {
    const m = new UpdateMapper('/w', () => tools);
    const [call] = m.map({
      type: 'step',
      id: 'cmd_002',
      step: { tool: 'exec', program: 'ls', args: ['-la'] } as never,
      verdict: verdict('L0'),
    });
    expect(call).toMatchObject({ status: 'in_progress', kind: 'execute', title: 'ls -la', locations: [] });
    expect(kindOf({ tool: 'odd' } as never, tools)).toBe('other');
    expect(kindOf({ tool: 'mcp.x.y' } as never, tools)).toBe('other');
    expect(kindOf({ tool: 'fs.read', path: 'a' } as never, undefined)).toBe('other');
  });
});

describe('a finished step', () => {
  const r = (fields: Partial<ToolResult>): ToolResult =>
    ({ _event: 'tool_result', id: 'cmd_001', tool: 'exec', decision: decision('L0'), ...fields }) as ToolResult;
  eachReturns('%j → %s', (x: Partial<ToolResult>) => statusOf(r(x)), [
    [{ exitCode: 0 }, 'completed'],
    [{ exitCode: 2 }, 'failed'],
    [{ status: 'declined' }, 'failed'],
    [{ status: 'blocked' }, 'failed'],
    [{ status: 'error', error: { code: 'X', message: 'm' } }, 'failed'],
    [{ status: 'applied' }, 'completed'],
  ]);
  eachReturns('%j shows %s', (x: Partial<ToolResult>) => resultText(r(x)), [
    [{ exitCode: 0, stdoutTail: 'out\n', stderrTail: 'warn\n' }, '```\nout\n\nwarn\n```'],
    [
      { status: 'declined', reason: 'rejected in the editor', decision: decision('L1', 'writes a file') },
      'rejected in the editor\nwrites a file',
    ],
    [{ status: 'blocked', decision: decision('L2', 'deletes everything') }, 'deletes everything'],
    [{ status: 'error', error: { code: 'NOT_FOUND', message: 'no such file' } }, 'no such file'],
    [{ exitCode: 0 }, 'exit 0'],
  ]);
});

eachReturns('locations of %j', (step: object) => locationsOf(step as never, '/w'), [
  [{ tool: 'fs.read', path: 'a.ts', offset: 10 }, [{ path: '/w/a.ts', line: 10 }]],
  [{ tool: 'config.json_patch', file: '/etc/x.json' }, [{ path: '/etc/x.json' }]],
  [{ tool: 'exec', program: 'ls' }, []],
]);

eachReturns('diff of %j', (step: object) => diffOf(step as never, '/w'), [
  [
    { tool: 'fs.write', path: 'n.txt', content: 'x' },
    { type: 'diff', path: '/w/n.txt', oldText: null, newText: 'x' },
  ],
  [{ tool: 'fs.read', path: 'n.txt' }, undefined],
]);

describe('the question', () => {
  const req = (v: Verdict, extra: Partial<ConfirmRequest> = {}): ConfirmRequest =>
    ({
      id: 'cmd_001',
      step: { tool: 'exec', program: 'touch', args: ['a'] } as never,
      verdict: v,
      decision: decision(v.level),
      sessionKey: 'exec touch',
      ...extra,
    }) as ConfirmRequest;
  test.each<[string, Verdict, string[]]>([
    ['an L1 step: once, for the session, reject', verdict('L1'), ['allow_once', 'allow_always', 'reject_once']],
    ['a step that must be asked each time: no allow-always', verdict('L1', true), ['allow_once', 'reject_once']],
    ['an L2 step (never asked by the runner): no allow-always', verdict('L2'), ['allow_once', 'reject_once']],
  ])('%s', (_name, v, kinds) => {
    expect(permissionOptions(req(v), 'en').map((o) => o.kind)).toEqual(kinds);
    for (const o of permissionOptions(req(v), 'zh')) expect(schemas.zPermissionOption.safeParse(o).success).toBe(true);
  });
  test('the session choice names what it allows', () => {
    expect(permissionOptions(req(verdict('L1')), 'en')[1].name).toBe('Allow `exec touch` for this session');
  });
  test('answers: a person’s; an option not offered, or a cancelled question, declines', () => {
    const offered = permissionOptions(req(verdict('L1')), 'en');
    expect(answerOf({ outcome: 'selected', optionId: 'allow_once' }, offered, 'en')).toEqual({ action: 'run', approvedBy: 'user' });
    expect(answerOf({ outcome: 'selected', optionId: 'allow_session' }, offered, 'en')).toEqual({
      action: 'allow-session',
      approvedBy: 'user',
    });
    expect(answerOf({ outcome: 'selected', optionId: 'reject' }, offered, 'en')).toMatchObject({ action: 'decline' });
    expect(
      answerOf({ outcome: 'selected', optionId: 'allow_session' }, permissionOptions(req(verdict('L1', true)), 'en'), 'en'),
    ).toMatchObject({ action: 'decline' });
    expect(answerOf({ outcome: 'selected', optionId: 'made-up' }, offered, 'en')).toMatchObject({ action: 'decline' });
    expect(answerOf({ outcome: 'cancelled' }, offered, 'en')).toMatchObject({ action: 'decline' });
  });
  test('a preview (a config patch’s masked diff) is shown as a diff block', () => {
    expect(previewContent(req(verdict('L1'), { preview: '-a\n+b\n' }))).toEqual([
      { type: 'content', content: { type: 'text', text: '```diff\n-a\n+b\n```' } },
    ]);
    expect(previewContent(req(verdict('L1')))).toEqual([]);
  });
});

eachReturns('stop reason of %s', stopReasonOf, [
  ['answered', 'end_turn'],
  ['aborted', 'cancelled'],
  ['step_limit', 'max_turn_requests'],
  ['model_error', 'end_turn'],
  ['error', 'end_turn'],
]);

describe('a stored session replayed', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const records: SessionRecord[] = [
    { t: 'meta', v: 1, id: 's', cwd: '/w', createdAt: at },
    { t: 'user', at, content: 'first' },
    { t: 'assistant', at, content: JSON.stringify({ type: 'cmd', message: 'looking', asked: ['ls'] }) },
    {
      t: 'tool',
      at,
      content: JSON.stringify({ _event: 'tool_result', id: 'cmd_001', step: 'ls', outcome: 'ran', exitCode: 0, level: 'L0', out: 'a.txt' }),
      digest: '',
    },
    { t: 'assistant', at, content: JSON.stringify({ type: 'chat', message: 'one file' }) },
    { t: 'user', at, content: 'second' },
    {
      t: 'tool',
      at,
      content: JSON.stringify({ _event: 'tool_result', id: 'cmd_002', step: 'rm x', status: 'declined', outcome: 'declined', level: 'L1' }),
      digest: '',
    },
    { t: 'assistant', at, content: 'plain text of an older record' },
  ];
  /** The first message's updates: the message, the answer with its step, the answer after it. */
  const firstTurn = ['user_message_chunk', 'agent_message_chunk', 'tool_call', 'agent_message_chunk'];
  test('messages and steps in order, each a valid update', () => {
    const updates = replayUpdates(records);
    expect(updates.map((u) => u.sessionUpdate)).toEqual([...firstTurn, 'user_message_chunk', 'tool_call', 'agent_message_chunk']);
    expect(updates[2]).toMatchObject({ toolCallId: 'cmd_001', title: 'ls', status: 'completed' });
    expect(updates[5]).toMatchObject({ toolCallId: 'cmd_002', status: 'failed' });
    expect(updates[6]).toMatchObject({ content: { text: 'plain text of an older record' } });
    for (const u of updates) valid(u);
  });
  test('a rewind takes back what came after the message it went back to', () => {
    const updates = replayUpdates([...records, { t: 'rewind', at, turn: 2 }, { t: 'user', at, content: 'second, again' }]);
    expect(updates.map((u) => u.sessionUpdate)).toEqual([...firstTurn, 'user_message_chunk']);
    expect(updates.at(-1)).toMatchObject({ content: { text: 'second, again' } });
  });
});

describe('a prompt’s content', () => {
  const options = { cwd: '/w', seesImages: true, maxImageBytes: 1024 };
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000030806000000', 'hex').toString('base64');
  test('text, a linked file as its path, an embedded file as redacted context', () => {
    const input = promptInput(
      [
        { type: 'text', text: 'explain ' },
        { type: 'resource_link', uri: 'file:///w/src/a.ts', name: 'a.ts' },
        { type: 'resource', resource: { uri: 'file:///w/.env', text: 'API_KEY=sk-abcdefghijklmnopqrstuvwx\n' } },
      ],
      options,
    );
    expect(input).toMatchObject({ images: [] });
    const text = (input as { text: string }).text;
    expect(text.startsWith('explain @src/a.ts\n\n<context uri=".env">')).toBe(true);
    expect(text).not.toContain('sk-abcdefghij');
  });
  test('an image where the profile takes them, checked by its bytes and size', () => {
    const ok = promptInput(
      [
        { type: 'text', text: 'what is this' },
        { type: 'image', data: png, mimeType: 'image/png' },
      ],
      options,
    );
    expect(ok).toMatchObject({ text: 'what is this', images: [{ mime: 'image/png', width: 2, height: 3, bytes: 29 }] });
    expect(promptInput([{ type: 'image', data: png, mimeType: 'image/png' }], { ...options, seesImages: false })).toMatchObject({
      error: expect.stringContaining('does not take images'),
    });
    expect(
      promptInput([{ type: 'image', data: Buffer.from('not an image').toString('base64'), mimeType: 'image/png' }], options),
    ).toMatchObject({ error: expect.stringContaining('not a PNG') });
    expect(promptInput([{ type: 'image', data: png, mimeType: 'image/png' }], { ...options, maxImageBytes: 10 })).toMatchObject({
      error: expect.stringContaining('images.maxBytes'),
    });
  });
  test('nothing to say, or audio, is an error', () => {
    expect(promptInput([{ type: 'text', text: '   ' }], options)).toEqual({ error: 'the prompt is empty' });
    expect(promptInput([{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }], options)).toMatchObject({
      error: expect.stringContaining('audio'),
    });
  });
  eachReturns('uriPath(%s)', (uri: string) => uriPath(uri, '/w'), [
    ['file:///w/a/b.ts', 'a/b.ts'],
    ['file:///etc/hosts', '/etc/hosts'],
    ['https://example.com/x', 'https://example.com/x'],
  ]);
});

test('the editor’s MCP servers in ai.json’s shape; SSE is reported, not started', () => {
  expect(
    clientServers([
      { name: 'files', command: 'node', args: ['s.js'], env: [{ name: 'TOKEN', value: 't' }] },
      { type: 'http', name: 'web', url: 'https://mcp.example/x', headers: [{ name: 'Authorization', value: 'Bearer b' }] },
      { type: 'sse', name: 'old', url: 'https://mcp.example/sse', headers: [] },
    ]),
  ).toEqual({
    raw: {
      files: { command: 'node', args: ['s.js'], env: { TOKEN: 't' } },
      web: { type: 'http', url: 'https://mcp.example/x', headers: { Authorization: 'Bearer b' } },
    },
    skipped: [{ name: 'old', why: expect.stringContaining('SSE') }],
  });
});

test('stdout is the protocol’s alone: other writes to it go to stderr', async () => {
  const out = new PassThrough() as unknown as NodeJS.WriteStream;
  const err = new PassThrough();
  const seen = { out: '', err: '' };
  (out as unknown as PassThrough).on('data', (d: Buffer) => (seen.out += d.toString()));
  err.on('data', (d: Buffer) => (seen.err += d.toString()));
  const guard = guardStdout(out, err);
  out.write('stray log line\n');
  await guard.write(new TextEncoder().encode('{"jsonrpc":"2.0"}\n'));
  expect(seen).toEqual({ out: '{"jsonrpc":"2.0"}\n', err: 'stray log line\n' });
  guard.restore();
  out.write('after\n');
  expect(seen.out).toBe('{"jsonrpc":"2.0"}\nafter\n');
});
