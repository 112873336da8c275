import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Agent } from '../src/agent/agent';
import type { LlmCallOptions, LlmClient, LlmResult } from '../src/config/llm-base';
import type { ChatMessage } from '../src/context/context';
import { SessionStore } from '../src/sessions/sessions';
import { config, steppingClock } from './helpers/agent-setup';
import { chat, cmd } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';

// Session and audit lines are written at an idle moment, but not while a model request is being
// built and sent (agent-session holdWrites): the lines of a step go out once llm-base says the
// request is out (its first wait after connecting) or once the call ended.

/** Let every pending immediate (an idle-time write) run. */
const idle = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-writes-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An llm whose second call (the request after the step) looks at the files as it is sent. */
function sendingLlm(during: (options: LlmCallOptions) => Promise<void>): LlmClient {
  const replies: LlmResult[] = [cmd({ program: 'ls', args: [] }), chat('done')];
  let n = 0;
  return {
    features: { options: true, streaming: true, waitEvents: true },
    async chat(_messages: ChatMessage[], options: LlmCallOptions) {
      if (n++ === 1) await during(options);
      return replies.shift()!;
    },
  };
}

function agentWith(llm: LlmClient) {
  const store = new SessionStore(path.join(dir, 'sessions'));
  const auditFile = path.join(dir, 'audit.jsonl');
  const agent = new Agent(
    { config: config(), systemPrompt: 'S', cwd: '/w', lang: 'en' },
    { llm, createRunner: fakeRunner().create, store, auditFile, now: steppingClock() },
  );
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  return { agent, session: () => read(store.fileOf(agent.sessionId)), audit: () => read(auditFile) };
}

test("a step's lines wait while its request is sent, and are written once it is out", async () => {
  const seen: { sending: string[]; out: string[] } = { sending: [], out: [] };
  const llm = sendingLlm(async (options) => {
    // Building and sending take several turns of the event loop.
    await idle();
    seen.sending = [files.session(), files.audit()];
    options.onWait?.({ phase: 'connect', model: 'm', server: '127.0.0.1:1', limitMs: 5 });
    await idle();
    expect(files.audit()).toBe(seen.sending[1]);
    options.onWait?.({ phase: 'first_token', model: 'm', server: '127.0.0.1:1', limitMs: 5 });
    await idle();
    seen.out = [files.session(), files.audit()];
  });
  const files = agentWith(llm);
  const result = await files.agent.send('list');
  expect(result.outcome).toBe('answered');
  // While it was sent: not the step's audit line, nor (the fake step takes no idle moment) the
  // reply that asked for it.
  expect(seen.sending[1]).toBe('');
  expect(seen.sending[0]).not.toContain('"t":"assistant"');
  // Once it was out: both.
  expect(seen.out[1]).toContain('"cmd_001"');
  expect(seen.out[0]).toContain('"t":"assistant"');
  // And the turn's end has everything on disk (the result is recorded with the reply to it).
  expect(files.session()).toContain('"t":"tool"');
});

test('without wait events the lines are written when the call ends (nothing is lost or held for good)', async () => {
  let sending = '';
  const llm = sendingLlm(async () => {
    await idle();
    sending = files.audit();
  });
  const files = agentWith(llm);
  await files.agent.send('list');
  expect(sending).toBe('');
  expect(files.audit()).toContain('"cmd_001"');
  expect(files.session()).toContain('"t":"tool"');
});
