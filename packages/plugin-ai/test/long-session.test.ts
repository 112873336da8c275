import { Agent } from '../src/agent/agent';
import type { ChatMessage } from '../src/context/context';
import { SUMMARY_MARKER } from '../src/context/prompt';
import { estimateMessagesTokens } from '../src/context/tokens';
import { config, steppingClock } from './helpers/agent-setup';
import { chat, cmd, fakeLlm, ok } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';

/** 240 turns, each running a command with ~60 KB of output (ASCII and CJK alternating) and
 * ending in a long chat answer: every request stays under the budget and does not grow. */
test('request size stays under the budget and flat over 240 turns', async () => {
  const cfg = config();
  const sizes: number[] = [];
  const bytes: number[] = [];
  let turn = 0;
  let summaryCalls = 0;
  const llm = fakeLlm([], (messages: ChatMessage[]) => {
    sizes.push(estimateMessagesTokens(messages));
    bytes.push(Buffer.byteLength(JSON.stringify({ messages })));
    if (messages[0].content.includes(SUMMARY_MARKER)) {
      summaryCalls++;
      return ok({
        summary: `summary after ${turn} turns `.repeat(40),
        keyFacts: Array(30).fill('a fact that is long enough'),
        openTasks: ['x'],
      });
    }
    const last = messages[messages.length - 1].content;
    return last.includes('"_event":"tool_result"')
      ? chat(`Here is what the command showed in turn ${turn}: ` + 'details '.repeat(600))
      : cmd({ program: 'cat', args: [`file-${turn}.txt`] });
  });
  const output = (i: number) => (i % 2 ? '日志输出行内容很长很长\n'.repeat(3000) : 'log line with many characters\n'.repeat(2000));
  const runner = fakeRunner({}, () => output(turn));
  const agent = new Agent(
    { config: cfg, systemPrompt: 'SYSTEM '.repeat(300), cwd: '/w', lang: 'en' },
    { llm, createRunner: runner.create, now: steppingClock() },
  );
  for (turn = 0; turn < 240; turn++) {
    const prompt = turn % 3 === 0 ? `请检查第 ${turn} 个文件。`.repeat(200) : `check file ${turn} `.repeat(300);
    const result = await agent.send(prompt);
    expect(result.outcome).toBe('answered');
  }
  const budget = cfg.context.maxRequestTokens;
  expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);
  expect(summaryCalls).toBeGreaterThan(10);
  // flat: the late requests are no bigger than the early steady state (after the first fold)
  const early = Math.max(...bytes.slice(20, 120));
  const late = Math.max(...bytes.slice(-120));
  expect(late).toBeLessThanOrEqual(early * 1.1);
  // and in bytes too: CJK counted as ~1 token each, at most 3 UTF-8 bytes; ASCII 4 chars a token
  expect(Math.max(...bytes)).toBeLessThan(budget * 4 * 1.5);
});
