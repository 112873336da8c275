import { createLlmClient, type LlmWait } from '../src/config/llm-base';

const okResult = { success: true, data: { type: 'chat', message: 'hi' }, usage: { input_tokens: 1, output_tokens: 1 } };

test('llm-base 1.0.x (no FEATURES): three arguments, no wait reports, still answers', async () => {
  const seen: unknown[][] = [];
  const client = createLlmClient({ llm_chat: async (...args: unknown[]) => (seen.push(args), okResult) });
  expect(client.features).toEqual({ options: false, streaming: false, waitEvents: false, tools: false, images: false });
  const waits: LlmWait[] = [];
  const r = await client.chat([{ role: 'user', content: 'q' }], { mode: 'low', profile: null, onWait: (w) => waits.push(w) });
  expect(r.ok).toBe(true);
  expect(seen[0]).toHaveLength(3);
  expect(waits).toEqual([]);
});

test('wait reports pass through only when well-formed', async () => {
  const client = createLlmClient({
    FEATURES: { chat_options: true, streaming: true, wait_events: true },
    llm_chat: async (_m: unknown, _mode: unknown, _p: unknown, o: { onWait: (i: unknown) => void }) => {
      o.onWait({ phase: 'first_token', model: 'm', server: '127.0.0.1:1', limitMs: 5 });
      o.onWait({ phase: 'nap', model: 'm', server: 's', limitMs: 5 });
      o.onWait({ phase: 'connect', model: 3, server: 's', limitMs: 5 });
      o.onWait(null);
      return okResult;
    },
  });
  const waits: LlmWait[] = [];
  await client.chat([], { mode: 'low', profile: null, onWait: (w) => waits.push(w) });
  expect(waits).toEqual([{ phase: 'first_token', model: 'm', server: '127.0.0.1:1', limitMs: 5 }]);
});
