import { promises as fs } from 'fs';
import * as path from 'path';
import { useAiFixture, writeFiles, type RecordedRequest } from '@holic512/testkit';
import { runAi } from './run-bin';

// plan.update (issue #46) through the real `ai -p --json` against the scripted model: the plan goes
// out as a `plan` event, the model's next request holds it, a resumed session (`-c`) still does,
// and Claude Code's hooks and rules see it as TodoWrite.
const fx = useAiFixture({ git: true });

const PLAN = [
  { step: 'Find where the port is read', status: 'done' },
  { step: 'Change the default port to 8080', status: 'in_progress' },
  { step: 'Update the README', status: 'pending' },
  { step: 'Run the tests', status: 'pending' },
];
const cmd = (...commands: object[]) => ({ json: { type: 'cmd', message: 'steps', data: { cwd: null, commands } } });
const chat = (message: string) => ({ json: { type: 'chat', message } });
const sent = (r: RecordedRequest): string => JSON.stringify(r.body.messages);

test('the plan goes out as a plan event and the next request holds it; the prompt says when to plan', async () => {
  fx.server.enqueue(cmd({ tool: 'plan.update', items: PLAN }), chat('planned'));
  const r = await runAi(['-p', 'move the server to 8080', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const plan = r.events.filter((e) => e.type === 'plan');
  expect(plan).toEqual([{ type: 'plan', items: PLAN }]);
  // After the step's result, before the answer.
  const order = r.events.map((e) => e.type);
  expect(order.indexOf('plan')).toBeGreaterThan(order.indexOf('tool_result'));
  expect(r.events.find((e) => e.type === 'step')).toMatchObject({
    label: 'plan 1/4 done: Change the default port to 8080',
    decision: { level: 'L0' },
  });
  expect(sent(fx.server.requests[0])).toContain('plan.update');
  expect(sent(fx.server.requests[0])).toContain('For a task of three or more steps, keep a plan with plan.update');
  const next = fx.server.requests[1].body.messages.at(-1).content as string;
  expect(JSON.parse(next)).toMatchObject({ tool: 'plan.update', plan: PLAN });
});

test('a resumed session (-c) still carries the plan to the model', async () => {
  fx.server.enqueue(cmd({ tool: 'plan.update', items: PLAN }), chat('planned'));
  expect((await runAi(['-p', 'move the server to 8080', '--json'], { env: fx.env, cwd: fx.cwd })).code).toBe(0);
  fx.server.enqueue(chat('going on'));
  const again = await runAi(['-c', '-p', 'go on', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(again.code).toBe(0);
  const first = sent(fx.server.requests[2]);
  for (const item of PLAN) expect(first).toContain(item.step);
});

test("Claude Code's hooks and rules see plan.update as TodoWrite", async () => {
  const seen = path.join(fx.temp.home, 'todo.json');
  await writeFiles(fx.temp.home, {
    '.claude/settings.json': {
      hooks: { PostToolUse: [{ matcher: 'TodoWrite', hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seen)}` }] }] },
    },
  });
  fx.server.enqueue(cmd({ tool: 'plan.update', items: PLAN }), chat('planned'));
  expect((await runAi(['-p', 'plan it', '--json'], { env: fx.env, cwd: fx.cwd })).code).toBe(0);
  const stdin = JSON.parse(await fs.readFile(seen, 'utf8'));
  expect(stdin).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'TodoWrite' });
  expect(stdin.tool_input.todos[0]).toEqual({
    content: 'Find where the port is read',
    status: 'completed',
    activeForm: 'Find where the port is read',
  });
  expect(stdin.tool_response.newTodos).toHaveLength(4);

  // A Claude Code rule denying TodoWrite refuses the plan (and no plan event goes out).
  await writeFiles(fx.temp.home, { '.claude/settings.json': { permissions: { deny: ['TodoWrite'] } } });
  fx.server.enqueue(cmd({ tool: 'plan.update', items: PLAN }), chat('no plan then'));
  const denied = await runAi(['-p', 'plan it', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(denied.events.find((e) => e.type === 'tool_result')!.result).toMatchObject({ tool: 'plan.update', status: 'blocked' });
  expect(denied.events.some((e) => e.type === 'plan')).toBe(false);
});

test('after a fold with a summary the model still reads the plan, and again after -c', async () => {
  // A small budget and large results: a few rounds fold the older turns into a summary.
  await fx.temp.writeJson('plugin-configs/ai.json', {
    maxAutoStepsPerTurn: 12,
    context: { maxRequestTokens: 6000, inputMaxTokens: 1500, summarizeAbovePercent: 30, foldToPercent: 20 },
  });
  await fs.writeFile(
    path.join(fx.cwd, 'big.txt'),
    Array.from({ length: 400 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join('\n'),
  );
  let reads = 0;
  let planned = false;
  fx.server.setHandler((r) => {
    const text = sent(r);
    if (text.includes('[ai:summary-request]'))
      return {
        json: { summary: 'The user asked to move the server to 8080; big.txt was read several times.', keyFacts: [], openTasks: [] },
      };
    if (!planned) return ((planned = true), cmd({ tool: 'plan.update', items: PLAN }));
    if (reads < 6) return cmd({ tool: 'fs.read', path: 'big.txt', offset: 1 + 50 * reads++ });
    return chat('read it all');
  });
  const r = await runAi(['-p', 'move the server to 8080', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const folds = r.events.filter((e) => e.type === 'compaction' && e.method !== 'shortened');
  expect(folds.length).toBeGreaterThan(0);
  const afterFold = fx.server.requests.filter((q) => !sent(q).includes('[ai:summary-request]')).at(-1)!;
  expect(sent(afterFold)).toContain('Conversation summary'); // the fold happened before this request
  const pinned = (afterFold.body.messages as Array<{ content: string }>).find((m) =>
    m.content.startsWith('{"_event":"pinned","tool":"plan.update"'),
  );
  expect(JSON.parse(pinned!.content).result.plan).toEqual(PLAN);
  for (const item of PLAN) expect(sent(afterFold)).toContain(item.step);

  fx.server.setHandler(() => chat('going on'));
  const n = fx.server.requests.length;
  expect((await runAi(['-c', '-p', 'go on', '--json'], { env: fx.env, cwd: fx.cwd })).code).toBe(0);
  for (const item of PLAN) expect(sent(fx.server.requests[n])).toContain(item.step);
});
