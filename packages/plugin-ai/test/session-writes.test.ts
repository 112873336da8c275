import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Agent } from '../src/agent/agent';
import { SessionStore } from '../src/sessions/sessions';
import { config, steppingClock } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';

// Session and audit lines are written off a step's critical path (agent-session queueWrite):
// queued, then written while the command runs or the model answers, at the end of the turn,
// before a session is read, and at exit.

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-writes-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const lines = (file: string): Array<Record<string, unknown>> =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

test('the turn’s session and audit lines are on disk when send() resolves', async () => {
  const store = new SessionStore(path.join(dir, 'sessions'));
  const auditFile = path.join(dir, 'audit.jsonl');
  const runner = fakeRunner();
  const agent = new Agent(
    { config: config(), systemPrompt: 'S', cwd: dir, lang: 'en' },
    { llm: fakeLlm([cmd({ program: 'ls', args: [] }), chat('done')]), createRunner: runner.create, store, auditFile, now: steppingClock() },
  );
  await agent.send('look');
  const kinds = lines(store.fileOf(agent.sessionId)).map((r) => r.t);
  expect(kinds[0]).toBe('meta');
  expect(kinds).toEqual(expect.arrayContaining(['user', 'assistant', 'tool', 'usage']));
  expect(kinds.at(-1)).not.toBe('meta');
  expect(lines(auditFile)).toMatchObject([{ sessionId: agent.sessionId, id: 'cmd_001', outcome: 'exit 0' }]);
});

test('the lines before a step are written while it runs, not before it starts', async () => {
  const store = new SessionStore(path.join(dir, 'sessions'));
  const runner = fakeRunner();
  let beforeRun: string[] = [];
  let duringRun: string[] = [];
  let id = '';
  const create: typeof runner.create = (confirm) => {
    const inner = runner.create(confirm);
    return {
      ...inner,
      run: async (step, options) => {
        beforeRun = lines(store.fileOf(id)).map((r) => String(r.t));
        await new Promise((r) => setImmediate(r)); // the command runs: the event loop is idle
        duringRun = lines(store.fileOf(id)).map((r) => String(r.t));
        return inner.run(step, options);
      },
    };
  };
  const agent = new Agent(
    { config: config(), systemPrompt: 'S', cwd: dir, lang: 'en' },
    { llm: fakeLlm([cmd({ program: 'ls', args: [] }), chat('done')]), createRunner: create, store, now: steppingClock() },
  );
  id = agent.sessionId;
  await agent.send('look');
  expect(beforeRun).toEqual([]);
  expect(duringRun).toEqual(['meta', 'system', 'usage', 'user', 'assistant']);
});

test('a file that cannot be written is said once; the conversation goes on', async () => {
  const sessions = path.join(dir, 'sessions');
  fs.mkdirSync(sessions, { recursive: true });
  const store = new SessionStore(sessions);
  const agent = new Agent(
    { config: config(), systemPrompt: 'S', cwd: dir, lang: 'en' },
    { llm: fakeLlm([chat('one'), chat('two')]), createRunner: fakeRunner().create, store, now: steppingClock() },
  );
  // The session file's name is taken by a folder: every append to it fails.
  fs.mkdirSync(store.fileOf(agent.sessionId));
  const logs: string[] = [];
  agent.on((e) => {
    if (e.type === 'log') logs.push(e.code);
  });
  expect((await agent.send('a')).outcome).toBe('answered');
  expect((await agent.send('b')).outcome).toBe('answered');
  expect(logs).toEqual(['session_not_saved']);
});

test('lines queued when the process exits are written by the exit itself', async () => {
  // A step whose command ends the process at once (no idle moment after the reply came).
  const lib = path.join(__dirname, '..', 'lib');
  const sessions = path.join(dir, 'sessions');
  const code = `
    const { Agent } = require(${JSON.stringify(path.join(lib, 'agent/agent.js'))});
    const { SessionStore } = require(${JSON.stringify(path.join(lib, 'sessions/sessions.js'))});
    const { defaultConfig } = require(${JSON.stringify(path.join(lib, 'config/config.js'))});
    const store = new SessionStore(${JSON.stringify(sessions)});
    const reply = { ok: true, data: { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ program: 'ls', args: [] }] } }, usage: { input_tokens: 1, output_tokens: 1 } };
    const llm = { features: { options: true }, chat: async () => reply };
    const runner = () => ({
      verdict: () => ({ level: 'L0', findings: [], bySession: false, alwaysConfirm: false, adjustments: [] }),
      run: () => { process.stdout.write(agent.sessionId); process.exit(0); },
    });
    const agent = new Agent({ config: defaultConfig(), systemPrompt: 'S', cwd: ${JSON.stringify(dir)}, lang: 'en' }, { llm, createRunner: runner, store });
    agent.send('look');`;
  const id = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['-e', code], { encoding: 'utf8' }, (err, out, stderr) =>
      err ? reject(new Error(stderr || err.message)) : resolve(out),
    ),
  );
  expect(id).not.toBe('');
  expect(lines(path.join(sessions, `${id}.jsonl`)).map((r) => r.t)).toEqual(['meta', 'system', 'usage', 'user', 'assistant']);
});

test('the lines queued for one file go out in one append, in their order', async () => {
  const store = new SessionStore(path.join(dir, 'sessions'));
  const appendText = store.appendText.bind(store);
  const writes: string[] = [];
  store.appendText = (id, text) => {
    writes.push(text);
    appendText(id, text);
  };
  const agent = new Agent(
    { config: config(), systemPrompt: 'S', cwd: dir, lang: 'en' },
    {
      llm: fakeLlm([cmd({ program: 'ls', args: [] }), chat('done')]),
      createRunner: fakeRunner().create,
      store,
      now: steppingClock(),
    },
  );
  await agent.send('look');
  const written = lines(store.fileOf(agent.sessionId));
  // Each write holds whole lines, and together they are the file, in order.
  expect(writes.every((w) => w.endsWith('\n'))).toBe(true);
  expect(writes.join('')).toBe(fs.readFileSync(store.fileOf(agent.sessionId), 'utf8'));
  expect(writes.length).toBeLessThan(written.length);
  expect(written.map((r) => r.t)).toEqual(expect.arrayContaining(['meta', 'system', 'user', 'assistant', 'tool', 'usage']));
});
