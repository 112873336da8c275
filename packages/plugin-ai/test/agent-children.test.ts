import { capAnswer, childMode, labelledConfirm, mapLimited, MAX_ANSWER_CHARS } from '../src/agent/agent-children';
import { Agent } from '../src/agent/agent';
import { AiConfigSchema } from '../src/config/config-schema';
import type { ConfirmRequest } from '../src/agent/runner-types';
import { verdict } from './helpers/fake-runner';

test.each([
  [undefined, 'default', 'plan'],
  ['plan', 'yolo', 'plan'],
  ['default', 'default', 'default'],
  ['default', 'auto-edit', 'auto-edit'],
  ['default', 'yolo', 'yolo'],
  // Never freer than the parent: a planning parent's child plans too.
  ['default', 'plan', 'plan'],
] as const)('a child asked for %s under a %s parent runs in %s', (requested, parent, expected) => {
  expect(childMode(requested, parent)).toBe(expected);
});

test('a long answer is cut with its size said; a short one is kept whole', () => {
  expect(capAnswer('short')).toEqual({ answer: 'short' });
  const long = 'x'.repeat(MAX_ANSWER_CHARS + 10);
  const cut = capAnswer(long);
  expect(cut.truncated).toBe(true);
  expect(cut.chars).toBe(MAX_ANSWER_CHARS + 10);
  expect(cut.answer.length).toBe(MAX_ANSWER_CHARS + 1);
});

test('mapLimited runs at most `limit` at once and keeps the input order', async () => {
  let running = 0;
  let most = 0;
  const releases: Array<() => void> = [];
  const done = mapLimited([1, 2, 3, 4, 5], 2, async (n) => {
    running++;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => releases.push(resolve));
    running--;
    return n * 10;
  });
  // Release in reverse order of arrival, a few at a time, until all ran.
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setImmediate(r));
    releases
      .splice(0)
      .reverse()
      .forEach((r) => r());
  }
  expect(await done).toEqual([10, 20, 30, 40, 50]);
  expect(most).toBe(2);
});

test("children's questions reach the person one at a time, each labelled with its child", async () => {
  const seen: string[] = [];
  let answer: (() => void) | undefined;
  const confirm = labelledConfirm(async (request) => {
    seen.push(`${(request as ConfirmRequest).agent} asks ${request.id}`);
    await new Promise<void>((resolve) => (answer = resolve));
    return { action: 'run' };
  });
  const request = (id: string) =>
    ({
      id,
      step: { tool: 'exec', program: 'true', args: [] },
      verdict: verdict('L1'),
      decision: { level: 'L1' as const, rules: [] },
      sessionKey: 'true',
    }) as ConfirmRequest;
  const a = confirm('agent 1')!(request('cmd_001'));
  const b = confirm('agent 2')!(request('cmd_001'));
  await new Promise((r) => setImmediate(r));
  // The second question waits until the first is answered.
  expect(seen).toEqual(['agent 1 asks cmd_001']);
  answer!();
  await a;
  await new Promise((r) => setImmediate(r));
  expect(seen).toEqual(['agent 1 asks cmd_001', 'agent 2 asks cmd_001']);
  answer!();
  expect(await b).toEqual({ action: 'run' });
  // Nobody to ask: children get no confirm either (their L1 steps are declined).
  expect(labelledConfirm(undefined)('agent 1')).toBeUndefined();
});

test("a child's usage counts into the parent's totals and cost", () => {
  const config = AiConfigSchema.parse({ pricing: { inputPerMillion: 1, outputPerMillion: 2 } });
  const agent = new Agent({ config, systemPrompt: 's', cwd: '/', lang: 'en' }, { llm: {} as never, createRunner: () => ({}) as never });
  agent.countUsage({ input_tokens: 1000, output_tokens: 500, calls: 2 });
  agent.countUsage({ input_tokens: 1000, output_tokens: 500, calls: 1 });
  expect(agent.usage()).toMatchObject({ input_tokens: 2000, output_tokens: 1000, calls: 3 });
  expect(agent.cost().amount).toBeCloseTo((2000 * 1 + 1000 * 2) / 1e6);
});
