import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner } from '@holic512/tool-runner';
import { Agent } from '../src/agent/agent';
import type { ConfirmFn, StepRunner } from '../src/agent/runner-types';
import { config } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { verdict } from './helpers/fake-runner';
import { fakeScreen } from './helpers/screen';

// confirmTimeoutSec: a question nobody answers is withdrawn, the step declined, the model told.
let dir: string;
// The runner's home (its SlothTool home gets the spawn helper's pipe folder): a temp one.
let home: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ai-timeout-')));
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ai-timeout-home-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

const runner = (confirm: ConfirmFn): StepRunner =>
  createToolRunner({
    cwd: dir,
    workspace: dir,
    lang: 'en',
    env: { ...process.env, HOME: home, SLOTHTOOL_HOME: path.join(home, '.slothtool') },
    confirm: confirm as never,
    registry: { plugins: {} },
  }) as unknown as StepRunner;
const touch = cmd({ tool: 'exec', program: 'touch', args: ['made.txt'] });

test('a question nobody answers within confirmTimeoutSec declines the step; nothing runs and the model is told why', async () => {
  const llm = fakeLlm([touch, chat('ok, I did not create it')]);
  const never = () => new Promise<never>(() => undefined);
  const agent = new Agent(
    { config: { ...config(), confirmTimeoutSec: 1 }, systemPrompt: 'S', cwd: dir, lang: 'en' },
    { llm, createRunner: runner, confirm: never },
  );
  const started = Date.now();
  const result = await agent.send('make a file');
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(result.message).toBe('ok, I did not create it');
  expect(fs.existsSync(path.join(dir, 'made.txt'))).toBe(false);
  const told = JSON.stringify(llm.calls.at(-1));
  expect(told).toContain('nobody answered the question within 1 s');
});

test('without confirmTimeoutSec the question is asked with no time limit (nothing withdraws it)', async () => {
  const llm = fakeLlm([touch, chat('created')]);
  const asked: Array<{ signal?: AbortSignal } | undefined> = [];
  const confirm = async (_r: unknown, options?: { signal?: AbortSignal }) => {
    asked.push(options);
    return { action: 'run' as const };
  };
  const agent = new Agent({ config: config(), systemPrompt: 'S', cwd: dir, lang: 'en' }, { llm, createRunner: runner, confirm });
  await agent.send('make a file');
  expect(asked).toEqual([undefined]);
  expect(fs.existsSync(path.join(dir, 'made.txt'))).toBe(true);
});

test('in ai -i the withdrawn question leaves the screen and says so', async () => {
  const { screen, printed } = fakeScreen({ cwd: dir, now: () => 100_000 });
  const withdraw = new AbortController();
  const answer = screen.confirm(
    {
      id: 'cmd_001',
      step: { tool: 'exec', program: 'touch', args: ['a'] },
      verdict: verdict('L1'),
      decision: { level: 'L1', rules: [] },
      sessionKey: 'touch a',
    },
    { signal: withdraw.signal },
  );
  withdraw.abort();
  await expect(answer).resolves.toMatchObject({ action: 'decline' });
  expect(printed.join('\n')).toContain('nobody answered in time');
});
