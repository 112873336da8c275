import { useAiFixture } from '@holic512/testkit';
import { readSession } from './helpers/session';
import { runAi } from './run-bin';

// Cache use is visible: a provider that serves the cached prefix of a prompt says how much, and
// that count reaches --json (each call and the turn), the session, /cost and llm-base's call log.
// The testkit's server plays a provider with a prefix cache (promptCache), on 127.0.0.1: an
// unknown host, so no prompt_cache_key is sent to it.
describe.each(['openai', 'deepseek', 'anthropic'] as const)('a provider reporting its cache as %s does', (style) => {
  const fx = useAiFixture({ server: { promptCache: style } });
  const ai = (args: string[], input?: string) => runAi(args, { env: fx.env, cwd: fx.cwd, input });

  test('the cached part of each prompt shows in --json, the session and the call log', async () => {
    fx.server.setHandler(() => ({ json: { type: 'chat', message: 'fine' } }));
    expect((await ai(['-p', 'first question', '--json'])).code).toBe(0);
    const second = await ai(['-c', '-p', 'second question', '--json']);
    expect(second.code).toBe(0);
    const usage = second.events.find((e) => e.type === 'usage');
    // The second request extends the first: all of the first is in the provider's cache.
    expect(usage!.call.cached_tokens).toBeGreaterThan(0);
    expect(usage!.call.cached_tokens).toBeLessThan(usage!.call.input_tokens);
    expect(second.events.at(-1)).toMatchObject({ type: 'final', usage: { cached_tokens: usage!.call.cached_tokens } });
    const log = await fx.temp.readJsonLines('plugin-configs/llm-base.calls.jsonl');
    expect(log.at(-1).usage).toMatchObject({ cached_tokens: usage!.call.cached_tokens });
    const records = await readSession(fx.temp);
    expect(records.filter((r) => r.t === 'usage').at(-1)).toMatchObject({ cached_tokens: usage!.call.cached_tokens });
    // Not a host known to take a cache key: none is sent.
    expect(fx.server.requests.every((q) => !('prompt_cache_key' in q.body))).toBe(true);
  });

  test('/cost says how much of the input came from the cache', async () => {
    fx.server.setHandler(() => ({ json: { type: 'chat', message: 'fine' } }));
    const r = await ai(['-i'], 'one\ntwo\n/cost\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d+ of the input from the provider's cache\./);
  });
});
