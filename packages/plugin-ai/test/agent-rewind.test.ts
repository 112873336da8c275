import * as fs from 'fs';
import * as path from 'path';
import { createToolRunner } from '@holic512/tool-runner';
import { Agent, type AgentDeps } from '../src/agent/agent';
import type { LlmClient } from '../src/config/llm-base';
import type { ConfirmFn, StepRunner } from '../src/agent/runner-types';
import { SessionStore } from '../src/sessions/sessions';
import { config } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { useTempFolder } from './helpers/temp-folder';

// /rewind with the real tool-runner: files come back byte for byte through its journal, the
// conversation loses the later turns, approved commands are listed as not restorable.

const folder = useTempFolder('ai-rewind-');
// The runner's home (its SlothTool home gets the spawn helper's pipe folder): a temp one.
const home = useTempFolder('ai-rewind-home-');

/** An agent in the temp folder on the real tool-runner, every question answered "run"; `deps` adds to it (a session store). */
const rewindAgent = (llm: LlmClient, deps: Partial<AgentDeps> = {}): Agent => {
  const cwd = folder.root;
  const env = { ...process.env, HOME: home.root, SLOTHTOOL_HOME: path.join(home.root, '.slothtool') };
  const createRunner = (confirm: ConfirmFn): StepRunner =>
    createToolRunner({
      cwd,
      workspace: cwd,
      lang: 'en',
      env,
      confirm: confirm as never,
      registry: { plugins: {} },
    }) as unknown as StepRunner;
  return new Agent(
    { config: config(), systemPrompt: 'S', cwd, lang: 'en' },
    { llm, createRunner, confirm: async () => ({ action: 'run' }), ...deps },
  );
};
const userTexts = (messages: Array<{ role: string; content: string }>) => messages.filter((m) => m.role === 'user').map((m) => m.content);

test('a file changed three turns ago comes back byte for byte, and those turns leave the next request', async () => {
  const file = path.join(folder.root, 'notes.txt');
  const original = Buffer.from('line one\r\nzwei: ü  \n\tno newline at the end');
  fs.writeFileSync(file, original);
  const read = { tool: 'fs.read', path: 'notes.txt' };
  const edit = (a: string, b: string) => ({ tool: 'fs.edit', path: 'notes.txt', old_string: a, new_string: b });
  const llm = fakeLlm([
    cmd(read),
    cmd(edit('line one', 'LINE ONE')),
    chat('edited once'),
    cmd(read),
    cmd(edit('zwei', 'two')),
    chat('edited twice'),
    cmd({ tool: 'fs.write', path: 'new.txt', content: 'created\n' }),
    chat('wrote new.txt'),
    chat('fresh start'),
  ]);
  const agent = rewindAgent(llm);
  await agent.send('first: change line one');
  await agent.send('second: change zwei');
  await agent.send('third: write new.txt');
  expect(fs.readFileSync(file, 'utf8')).toContain('LINE ONE');
  expect(agent.checkpoints().map((c) => [c.turn, c.title])).toEqual([
    [1, 'first: change line one'],
    [2, 'second: change zwei'],
    [3, 'third: write new.txt'],
  ]);

  const result = agent.rewind(1, { conversation: true, files: true })!;
  expect(result.droppedTurns).toBe(3);
  expect(result.notRestored).toEqual([]);
  expect(result.files!.restored.map((r) => [path.basename(r.path), r.action]).sort()).toEqual([
    ['new.txt', 'deleted'],
    ['notes.txt', 'restored'],
  ]);
  expect(fs.readFileSync(file).equals(original)).toBe(true);
  expect(fs.existsSync(path.join(folder.root, 'new.txt'))).toBe(false);
  expect(agent.checkpoints()).toEqual([]);

  await agent.send('after the rewind');
  const sent = userTexts(llm.calls.at(-1)!);
  expect(sent).toEqual(['after the rewind']);
});

test('conversation only: files stay, the later turns leave; files only: the model is told what came back', async () => {
  const file = path.join(folder.root, 'a.txt');
  fs.writeFileSync(file, 'v1\n');
  const llm = fakeLlm([
    chat('hello'),
    cmd({ tool: 'fs.read', path: 'a.txt' }),
    cmd({ tool: 'fs.edit', path: 'a.txt', old_string: 'v1', new_string: 'v2' }),
    chat('now v2'),
    chat('still here'),
    chat('ok'),
  ]);
  const agent = rewindAgent(llm);
  await agent.send('hi');
  await agent.send('make it v2');
  const filesOnly = agent.rewind(2, { conversation: false, files: true })!;
  expect(filesOnly.droppedTurns).toBe(0);
  expect(fs.readFileSync(file, 'utf8')).toBe('v1\n');
  await agent.send('what now?');
  const texts = userTexts(llm.calls.at(-1)!);
  expect(texts).toContain('make it v2');
  expect(texts.map((t) => (t.startsWith('{') ? JSON.parse(t) : t)).find((x) => typeof x === 'object' && x._event === 'rewind')).toEqual({
    _event: 'rewind',
    to_message: 2,
    restored: ['a.txt'],
    skipped: [],
  });

  const convOnly = agent.rewind(2, { conversation: true, files: false })!;
  expect(convOnly.droppedTurns).toBe(2);
  await agent.send('again');
  expect(userTexts(llm.calls.at(-1)!)).toEqual(['hi', 'again']);
});

test('approved commands are listed as not restorable; a resumed session replays the rewind', async () => {
  const store = new SessionStore(path.join(folder.root, 'sessions'));
  const llm = fakeLlm([chat('one'), cmd({ tool: 'exec', program: 'touch', args: ['made-by-touch'] }), chat('touched'), chat('three')]);
  const agent = rewindAgent(llm, { store });
  await agent.send('one');
  await agent.send('two: touch a file');
  await agent.send('three');
  const back = agent.rewind(2, { conversation: true, files: true })!;
  expect(back.notRestored).toEqual(['touch made-by-touch']);
  expect(fs.existsSync(path.join(folder.root, 'made-by-touch'))).toBe(true);

  const again = rewindAgent(fakeLlm([chat('resumed')]), { store });
  again.resume(agent.sessionId);
  expect(again.checkpoints().map((c) => c.title)).toEqual(['one']);
});

test('no such message, or a turn running: null', async () => {
  const agent = rewindAgent(fakeLlm([chat('x')]));
  expect(agent.rewind(1, { conversation: true, files: true })).toBeNull();
  await agent.send('x');
  expect(agent.rewind(5, { conversation: true, files: false })).toBeNull();
});

test('the plan after /rewind is the latest one the conversation still holds; /clear forgets it', async () => {
  const plan = (status: 'pending' | 'done') => ({
    tool: 'plan.update',
    items: [
      { step: 'one', status },
      { step: 'two', status: 'pending' },
    ],
  });
  const llm = fakeLlm([cmd(plan('pending')), chat('planned'), cmd(plan('done')), chat('one done')]);
  const agent = rewindAgent(llm);
  const seen: unknown[] = [];
  agent.on((e) => e.type === 'plan' && seen.push(e.items));
  await agent.send('plan it');
  await agent.send('do one');
  expect(seen).toHaveLength(2);
  expect(agent.plan()?.[0].status).toBe('done');
  agent.rewind(2, { conversation: true, files: false });
  expect(agent.plan()?.[0].status).toBe('pending');
  agent.clear();
  expect(agent.plan()).toBeUndefined();
});
