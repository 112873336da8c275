import { processesIn, testMcpStdioCommand, until, useAiFixture } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import * as acp from '@agentclientprotocol/sdk';
import { protocolProblems, startAcp, type AcpOptions, type AcpRun } from './acp-client';

// `ai --acp` driven by the ACP SDK's own client over the real process's stdin and stdout, the
// model played by testkit's scripted server: every line the agent writes must be a valid ACP v1
// message (the SDK's zod schema), and nothing else may reach stdout.
const fx = useAiFixture({ aiConfig: { allowedPrograms: ['node wait.js'] } });
const runs: AcpRun[] = [];
const cmd = (...commands: object[]) => ({ json: { type: 'cmd', message: 'working on it', data: { cwd: null, commands } } });
const chat = (message: string) => ({ json: { type: 'chat', message } });
const allowOnce = () => ({ outcome: { outcome: 'selected' as const, optionId: 'allow_once' } });

function start(options: Partial<AcpOptions> = {}): AcpRun {
  const run = startAcp({ env: fx.temp.env, cwd: fx.cwd, ...options });
  runs.push(run);
  fx.onCleanup(async () => {
    if (run.child.exitCode === null && run.child.signalCode === null) await run.close();
  });
  return run;
}

async function open(run: AcpRun, mcpServers: acp.McpServer[] = []): Promise<string> {
  await run.initialize();
  const { sessionId } = await run.agent.request(acp.methods.agent.session.new, { cwd: fx.cwd, mcpServers });
  return sessionId;
}

const prompt = (run: AcpRun, sessionId: string, text: string) =>
  run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });

afterEach(() => {
  // Every line on stdout, in every test, is a protocol message the schema accepts.
  for (const run of runs.splice(0)) expect(protocolProblems(run.agentLines, run.clientLines)).toEqual([]);
});

test('initialize says what the agent does; a prompt streams the answer and ends the turn', async () => {
  const run = start();
  const init = await run.initialize();
  expect(init).toMatchObject({
    protocolVersion: 1,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
    },
    agentInfo: { name: 'slothtool-ai' },
  });
  const created = await run.agent.request(acp.methods.agent.session.new, { cwd: fx.cwd, mcpServers: [] });
  expect(created.modes).toMatchObject({
    currentModeId: 'default',
    availableModes: [{ id: 'default' }, { id: 'auto-edit' }, { id: 'plan' }],
  });
  fx.server.enqueue(chat('Hello from the scripted model'));
  expect(await prompt(run, created.sessionId, 'hi')).toEqual({ stopReason: 'end_turn' });
  expect(run.said(created.sessionId)).toBe('Hello from the scripted model');
  // Streamed: more than one chunk for a reply sent 4 characters at a time.
  expect(run.of('agent_message_chunk').length).toBeGreaterThan(1);
  expect(fx.server.requests[0].body.messages.at(-1).content).toBe('hi');
  expect(await run.close()).toBe(0);
});

test('a step is a tool call with its kind, title, location and output; L0 runs without a question', async () => {
  await fs.writeFile(path.join(fx.cwd, 'notes.txt'), 'line one\nline two\n');
  const run = start();
  const sessionId = await open(run);
  fx.server.enqueue(cmd({ tool: 'fs.read', path: 'notes.txt' }), chat('read it'));
  expect(await prompt(run, sessionId, 'read notes')).toEqual({ stopReason: 'end_turn' });
  expect(run.permissions).toEqual([]);
  const [call] = run.of('tool_call');
  expect(call).toMatchObject({
    toolCallId: 'cmd_001',
    kind: 'read',
    status: 'in_progress',
    title: expect.stringContaining('notes.txt'),
    locations: [{ path: path.join(fx.cwd, 'notes.txt') }],
  });
  const [done] = run.of('tool_call_update');
  expect(done).toMatchObject({ toolCallId: 'cmd_001', status: 'completed' });
  expect(JSON.stringify(done.content)).toContain('line two');
  expect(run.said(sessionId)).toContain('read it');
});

test('an L1 step asks the editor; a rejected write leaves no file, and the model is told', async () => {
  const run = start();
  const sessionId = await open(run);
  fx.server.enqueue(cmd({ tool: 'fs.write', path: 'made.txt', content: 'new file\n' }), chat('ok, not written'));
  expect(await prompt(run, sessionId, 'write a file')).toEqual({ stopReason: 'end_turn' });
  expect(run.permissions).toHaveLength(1);
  const asked = run.permissions[0];
  expect(asked.toolCall).toMatchObject({
    toolCallId: 'cmd_001',
    kind: 'edit',
    content: [{ type: 'diff', path: path.join(fx.cwd, 'made.txt'), newText: 'new file\n' }],
  });
  expect(asked.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
  await expect(fs.stat(path.join(fx.cwd, 'made.txt'))).rejects.toThrow();
  expect(run.of('tool_call_update').at(-1)).toMatchObject({ toolCallId: 'cmd_001', status: 'failed' });
  expect(JSON.parse(fx.server.requests[1].body.messages.at(-1).content)).toMatchObject({ id: 'cmd_001', status: 'declined' });
});

test('allow always is this session’s allowance: the same step is not asked again; the audit says a person answered', async () => {
  const run = start({ answer: () => ({ outcome: { outcome: 'selected', optionId: 'allow_session' } }) });
  const sessionId = await open(run);
  const touch = { tool: 'exec', program: 'touch', args: ['a.txt'] };
  fx.server.enqueue(cmd(touch), chat('made'), cmd(touch), chat('again'));
  await prompt(run, sessionId, 'touch it');
  await prompt(run, sessionId, 'and again');
  expect(run.permissions).toHaveLength(1);
  expect(await fs.stat(path.join(fx.cwd, 'a.txt'))).toBeTruthy();
  const audit = await fx.temp.readJsonLines('ai/audit.jsonl');
  expect(audit[0]).toMatchObject({ sessionId, id: 'cmd_001', level: 'L1', approvedBy: 'user', answer: 'allow-session' });
});

test('L2 is refused without a question; a step a rule asks about every time offers no allow-always', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { permissions: { ask: ['exec(touch *)'] } });
  const run = start({ answer: allowOnce });
  const sessionId = await open(run);
  fx.server.enqueue(
    cmd({ tool: 'exec', program: 'rm', args: ['-rf', '/'] }),
    chat('refused'),
    cmd({ tool: 'exec', program: 'touch', args: ['b.txt'] }),
    chat('made'),
  );
  await prompt(run, sessionId, 'delete everything');
  expect(run.permissions).toEqual([]);
  expect(run.of('tool_call_update')[0]).toMatchObject({ toolCallId: 'cmd_001', status: 'failed' });
  await prompt(run, sessionId, 'touch b');
  expect(run.permissions).toHaveLength(1);
  expect(run.permissions[0].options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
  expect(await fs.stat(path.join(fx.cwd, 'b.txt'))).toBeTruthy();
});

/** The processes of the home running wait.js (the sandbox's and the program's, by their host pids). */
async function waiting(): Promise<number[]> {
  const pids = await processesIn(fx.temp.home);
  const running = await Promise.all(
    pids.map(async (pid) => ((await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes('wait.js') ? pid : undefined)),
  );
  return running.filter((pid): pid is number => pid !== undefined);
}

test('session/cancel stops the running step: the prompt answers cancelled and the step’s process is gone', async () => {
  await fs.writeFile(path.join(fx.cwd, 'wait.js'), "require('fs').writeFileSync('started.txt', 'yes'); setInterval(() => {}, 1000);\n");
  const run = start({ answer: allowOnce });
  const sessionId = await open(run);
  fx.server.enqueue(cmd({ tool: 'exec', program: 'node', args: ['wait.js'] }), chat('never asked'));
  const answered = prompt(run, sessionId, 'run it');
  await until(async () => (await fs.readFile(path.join(fx.cwd, 'started.txt'), 'utf8').catch(() => '')) === 'yes');
  expect((await waiting()).length).toBeGreaterThan(0);
  await run.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  expect(await answered).toEqual({ stopReason: 'cancelled' });
  expect(await waiting()).toEqual([]);
  expect(fx.server.requests).toHaveLength(1); // the model was not asked again
});

test('session/cancel during a model call ends it: cancelled, and the session takes the next prompt', async () => {
  const run = start();
  const sessionId = await open(run);
  fx.server.enqueue({ hang: true }, chat('after the cancel'));
  const answered = prompt(run, sessionId, 'slow');
  await fx.server.waitForRequests(1);
  await run.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  expect(await answered).toEqual({ stopReason: 'cancelled' });
  expect(await prompt(run, sessionId, 'again')).toEqual({ stopReason: 'end_turn' });
  expect(run.said(sessionId)).toContain('after the cancel');
});

test('session/load replays the stored conversation and goes on with it', async () => {
  const first = start({ answer: allowOnce });
  const sessionId = await open(first);
  await fs.writeFile(path.join(fx.cwd, 'notes.txt'), 'remember me\n');
  fx.server.enqueue(cmd({ tool: 'fs.read', path: 'notes.txt' }), chat('The note says remember me'));
  await prompt(first, sessionId, 'what does the note say?');
  expect(await first.close()).toBe(0);

  const second = start();
  await second.initialize();
  const loaded = await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: fx.cwd, mcpServers: [] });
  expect(loaded.modes?.currentModeId).toBe('default');
  const kinds = second.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate);
  expect(kinds).toEqual(['user_message_chunk', 'agent_message_chunk', 'tool_call', 'agent_message_chunk']);
  expect(second.of('user_message_chunk')[0].content).toEqual({ type: 'text', text: 'what does the note say?' });
  expect(second.said(sessionId)).toContain('The note says remember me');
  fx.server.enqueue(chat('still here'));
  expect(await prompt(second, sessionId, 'and now?')).toEqual({ stopReason: 'end_turn' });
  const sent = JSON.stringify(fx.server.requests.at(-1)!.body.messages);
  expect(sent).toContain('what does the note say?');
  expect(sent).toContain('The note says remember me');
  await expect(
    second.agent.request(acp.methods.agent.session.load, { sessionId: 'no-such-session', cwd: fx.cwd, mcpServers: [] }),
  ).rejects.toThrow();
});

test('plan.update is a plan update (the whole list, done as completed), sent again when the session is loaded', async () => {
  const items = [
    { step: 'read the config', status: 'done' },
    { step: 'fix the parser', status: 'in_progress' },
    { step: 'run the tests', status: 'pending' },
  ];
  const entries = [
    { content: 'read the config', priority: 'medium', status: 'completed' },
    { content: 'fix the parser', priority: 'medium', status: 'in_progress' },
    { content: 'run the tests', priority: 'medium', status: 'pending' },
  ];
  const first = start();
  const sessionId = await open(first);
  fx.server.enqueue(cmd({ tool: 'plan.update', items }), chat('planned'));
  expect(await prompt(first, sessionId, 'plan it')).toEqual({ stopReason: 'end_turn' });
  expect(first.permissions).toEqual([]);
  expect(first.of('plan')).toEqual([expect.objectContaining({ sessionUpdate: 'plan', entries })]);
  expect(await first.close()).toBe(0);

  const second = start();
  await second.initialize();
  await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: fx.cwd, mcpServers: [] });
  expect(second.of('plan')).toEqual([expect.objectContaining({ sessionUpdate: 'plan', entries })]);
});

test('plan mode (session/set_mode) refuses a write without a question', async () => {
  const run = start({ answer: allowOnce });
  const sessionId = await open(run);
  await run.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'plan' });
  await expect(run.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'sideways' })).rejects.toThrow(/sideways/);
  fx.server.enqueue(cmd({ tool: 'fs.write', path: 'plan.txt', content: 'x' }), chat('1. write plan.txt'));
  await prompt(run, sessionId, 'write it');
  expect(run.permissions).toEqual([]);
  expect(run.of('tool_call_update')[0]).toMatchObject({ status: 'failed' });
  await expect(fs.stat(path.join(fx.cwd, 'plan.txt'))).rejects.toThrow();
});

test('the editor’s buffers: fs.read reads the unsaved text, fs.edit writes through the editor, the disk is left to it', async () => {
  const file = path.join(fx.cwd, 'buffer.txt');
  await fs.writeFile(file, 'saved text\n');
  const buffers = new Map([[file, 'unsaved text\n']]);
  const run = start({ buffers, answer: allowOnce });
  const sessionId = await open(run);
  fx.server.enqueue(
    cmd({ tool: 'fs.read', path: 'buffer.txt' }),
    cmd({ tool: 'fs.edit', path: 'buffer.txt', old_string: 'unsaved', new_string: 'edited' }),
    chat('edited'),
  );
  await prompt(run, sessionId, 'edit the buffer');
  expect(fx.server.requests[1].body.messages.at(-1).content).toContain('unsaved text');
  expect(run.permissions[0].toolCall.content).toEqual([{ type: 'diff', path: file, oldText: 'unsaved', newText: 'edited' }]);
  expect(run.writes).toEqual([{ sessionId, path: file, content: 'edited text\n' }]);
  expect(await fs.readFile(file, 'utf8')).toBe('saved text\n');
});

test('the editor’s stdio MCP servers start with the session and their tools are offered', async () => {
  const run = start({ answer: allowOnce });
  const server = { name: 'kit', ...testMcpStdioCommand(), env: [] };
  const sessionId = await open(run, [server]);
  fx.server.enqueue(cmd({ tool: 'mcp.kit.echo', arguments: { text: 'from the editor server' } }), chat('echoed'));
  await prompt(run, sessionId, 'echo');
  expect(JSON.stringify(fx.server.requests[0].body.messages)).toContain('- kit: echo');
  const done = run
    .of('tool_call_update')
    .filter((u) => u.toolCallId === 'cmd_001')
    .at(-1);
  expect(done).toMatchObject({ status: 'completed' });
  expect(JSON.stringify(fx.server.requests[1].body.messages)).toContain('from the editor server');
});

test('stdout carries protocol messages only, also when the prompt is bad or a session unknown', async () => {
  const run = start();
  const sessionId = await open(run);
  await expect(
    run.agent.request(acp.methods.agent.session.prompt, { sessionId: 'nope', prompt: [{ type: 'text', text: 'x' }] }),
  ).rejects.toThrow();
  await expect(run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '  ' }] })).rejects.toThrow(
    /empty/,
  );
  await expect(run.agent.request(acp.methods.agent.session.new, { cwd: 'relative/dir', mcpServers: [] })).rejects.toThrow(/absolute/);
  expect(await run.close()).toBe(0);
});
