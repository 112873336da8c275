import { llmBaseConfig, llmProfile, useAiFixture } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { fakeLlmBase, ORIGINAL_LLM_BASE_SOURCE } from './fake-llm-base';
import { runAi } from './run-bin';

/** End-to-end over the real bin, talking to the scripted server through two llm-bases:
 * the original 1.0.x shape (a module exposing only llm_chat(messages, mode, profile)) and
 * this repo's llm-base (streaming, abort, options), registered as `slothtool install` would. */
describe.each([
  ['original llm-base 1.0.x', 'original'],
  ["this repo's llm-base", 'repo'],
])('ai with %s', (_label, variant) => {
  const fx = useAiFixture({
    llmBase: variant === 'original' ? fakeLlmBase(ORIGINAL_LLM_BASE_SOURCE) : undefined,
    profile: { low_model: 'test-low', high_model: 'test-high' },
  });

  const ai = (args: string[], input?: string) => runAi(args, { env: fx.temp.env, cwd: fx.cwd, input });
  /** The messages ai sent: llm-base may put its own strict-JSON system message first. */
  const ours = (i: number): Array<{ role: string; content: string }> => {
    const messages = fx.server.requests[i].body.messages as Array<{ role: string; content: string }>;
    return messages.slice(messages.findIndex((m) => m.content.startsWith('You are "ai"')));
  };

  test('chat: one turn, text on stdout, exit 0, a session on disk', async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'Hello there' }, usage: { prompt_tokens: 30, completion_tokens: 4 } });
    const r = await ai(['-p', 'hi']);
    expect(r).toMatchObject({ code: 0, stdout: 'Hello there\n' });
    expect(fx.server.requests[0].body.model).toBe('test-low');
    const messages = ours(0);
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('"type":"cmd"');
    expect(messages[0].content).toContain(`cwd: ${fx.cwd}`);
    expect(messages[0].content).toContain('installed SlothTool plugins: llm-base');
    expect(messages[messages.length - 1]).toEqual({ role: 'user', content: 'hi' });
    const sessions = await fs.readdir(path.join(fx.temp.slothtoolHome, 'ai', 'sessions'));
    expect(sessions).toHaveLength(1);
  });

  test('--json: one event per line, final answer with usage; --mode high', async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'ok' }, usage: { prompt_tokens: 30, completion_tokens: 4 } });
    const r = await ai(['hi there', '--json', '--mode', 'high']);
    expect(r.code).toBe(0);
    expect(r.events.map((e) => e.type)).toEqual(['turn_start', 'request', 'usage', 'reply', 'final']);
    expect(r.events[4]).toMatchObject({ outcome: 'answered', message: 'ok', usage: { input_tokens: 30, output_tokens: 4, calls: 1 } });
    expect(fx.server.requests[0].body.model).toBe('test-high');
  });

  test('piped stdin is added as context', async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'looks fine' } });
    const r = await ai(['-p', 'review this'], 'diff --git a/x b/x\n+added line\n');
    expect(r.code).toBe(0);
    const last = fx.server.requests[0].body.messages.at(-1).content;
    expect(last).toBe('review this\n\n<stdin>\ndiff --git a/x b/x\n+added line\n</stdin>');
  });

  test('AGENTS.md in the cwd reaches the system prompt, capped', async () => {
    await fs.writeFile(path.join(fx.cwd, 'AGENTS.md'), 'Always answer in haiku.\n' + 'x'.repeat(100000));
    fx.server.enqueue({ json: { type: 'chat', message: 'ok' } });
    const r = await ai(['-p', 'hi']);
    const system: string = ours(0)[0].content;
    expect(system).toContain('Always answer in haiku.');
    // Memory's budget (context.projectContextMaxTokens, 4000 estimated tokens: about 4 characters each).
    expect(system.slice(system.indexOf('Always answer in haiku.')).length).toBeLessThanOrEqual(4000 * 4);
    expect(r.stderr).toMatch(/Memory: AGENTS\.md was cut to \d+ of \d+ tokens/);
  });

  test('repair of an invalid reply: one repair request, then the valid answer', async () => {
    fx.server.enqueue({ content: 'Sure! I would run ls.' }, { json: { type: 'chat', message: 'repaired' } });
    const r = await ai(['-p', 'hi', '--json']);
    expect(r.code).toBe(0);
    expect(r.events.find((e) => e.type === 'repair')).toMatchObject({ error: 'the reply is not a JSON object' });
    expect(r.events.at(-1)).toMatchObject({ type: 'final', message: 'repaired' });
    const second = fx.server.requests[1].body.messages;
    expect(second.at(-2)).toEqual({ role: 'assistant', content: 'Sure! I would run ls.' });
    expect(second.at(-1).content).toMatch(/did not follow the protocol/);
  });

  test('two invalid replies: the raw text is shown as chat, marked', async () => {
    fx.server.enqueue({ content: 'prose one' }, { content: 'prose two' });
    const r = await ai(['-p', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[unvalidated model output] prose two\n');
  });

  test('404 for the full context: retried once with system + current input, logged', async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'first' } });
    expect((await ai(['-p', 'one'])).code).toBe(0);
    fx.server.enqueue({ status: 404 }, { json: { type: 'chat', message: 'second' } });
    const r = await ai(['-p', 'two', '--continue', '--json']);
    expect(r.code).toBe(0);
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'log', code: 'fallback_404' }));
    const full = ours(1);
    const minimal = ours(2);
    expect(full.map((m: { content: string }) => m.content)).toContain('one');
    expect(minimal).toHaveLength(2);
    expect(minimal[1]).toEqual({ role: 'user', content: 'two' });
    const session = (await fs.readdir(path.join(fx.temp.slothtoolHome, 'ai', 'sessions')))[0];
    const text = await fs.readFile(path.join(fx.temp.slothtoolHome, 'ai', 'sessions', session), 'utf8');
    expect(text).toContain('"code":"fallback_404"');
  });

  test('--continue resumes the last session of this directory only', async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'noted' } });
    await ai(['-p', 'my name is Ada']);
    const other = path.join(fx.temp.home, 'other');
    await fs.mkdir(other);
    fx.server.enqueue({ json: { type: 'chat', message: 'elsewhere' } });
    await runAi(['-p', 'unrelated'], { env: fx.temp.env, cwd: other });
    fx.server.enqueue({ json: { type: 'chat', message: 'Ada' } });
    await ai(['-p', 'what is my name?', '--continue']);
    const contents = fx.server.requests[2].body.messages.map((m: { content: string }) => m.content);
    expect(contents).toContain('my name is Ada');
    expect(contents).not.toContain('unrelated');
  });

  test('model error reply → exit 5; llm failure → exit 1', async () => {
    fx.server.enqueue({ json: { type: 'error', message: 'cannot do that' } });
    const r = await ai(['-p', 'x']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('cannot do that');
    fx.server.enqueue({ status: 500 }, { status: 500 });
    expect((await ai(['-p', 'x'])).code).toBe(1);
  });

  test('llm-base missing → exit 4 and the exact command; no language setting: the locale decides (zh_CN → zh, en_US → en)', async () => {
    await fx.temp.writeJson('registry.json', { plugins: {} });
    await fx.temp.writeJson('settings.json', {});
    const r = await runAi(['-p', 'hi'], { env: { ...fx.temp.env, LC_ALL: 'zh_CN.UTF-8' }, cwd: fx.cwd });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('未安装 llm-base。请运行: slothtool install @holic512/plugin-llm-base\n');
    const en = await runAi(['-p', 'hi'], { env: { ...fx.temp.env, LC_ALL: '', LC_MESSAGES: '', LANG: 'en_US.UTF-8' }, cwd: fx.cwd });
    expect(en.stderr).toContain('llm-base is not installed');
    expect(fx.server.requests).toHaveLength(0);
  });

  test('a bad config field is named; exit 2', async () => {
    await fx.temp.writeJson('plugin-configs/ai.json', { maxAutoStepsPerTurn: 'many' });
    const r = await ai(['-p', 'hi']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ai.json');
    expect(r.stderr).toContain('maxAutoStepsPerTurn');
  });

  test('--help in en, --version, bad usage', async () => {
    expect((await ai(['--help'])).stdout).toMatch(/^ai — a terminal AI assistant/);
    expect((await ai(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const bad = await ai(['--frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--frobnicate');
  });
});

describe('ai -i with piped input (the core under the interactive screen)', () => {
  const fx = useAiFixture({ profile: { low_model: 'test-low', high_model: 'test-high' } });

  test("/cost shows money from the llm-base profile's prices (cached input priced apart) when ai.json has none", async () => {
    const pricing = { currency: 'CNY', low: { input: 2, cached_input: 0.2, output: 3 } };
    await fx.temp.writeJson('plugin-configs/llm-base.json', llmBaseConfig({ local: llmProfile(fx.server.baseURL, { pricing }) }));
    fx.server.enqueue({
      json: { type: 'chat', message: 'hi' },
      usage: { prompt_tokens: 1_000_000, completion_tokens: 100_000, prompt_cache_hit_tokens: 500_000 },
    });
    const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.temp.home, input: 'hello\n/cost\n' });
    expect(r.code).toBe(0);
    // 500k uncached × ¥2 + 500k cached × ¥0.2 + 100k output × ¥3 = ¥1.40
    expect(r.stdout).toContain('Cost: ¥1.40.');
  });

  test('reads lines, keeps the conversation, exits 0 at end of input', async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'Hi Ada' } }, { json: { type: 'chat', message: 'You are Ada' } });
    const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.temp.home, input: 'I am Ada\n/context\nwho am I?\n/mode high\n/cost\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Hi Ada');
    expect(r.stdout).toContain('You are Ada');
    const second = fx.server.requests[1].body.messages.map((m: { content: string }) => m.content);
    expect(second).toContain('I am Ada');
  });
});
