import { usePtyFixture, KEY } from './pty/pty-session';

// A model server that accepts the request and never answers: `ai -i` says what it waits for,
// Ctrl+C cancels at once, and a time-out ends in a message with the next step.

const fx = usePtyFixture();

async function useProfile(extra: Record<string, unknown>): Promise<void> {
  await fx.temp.writeJson('plugin-configs/llm-base.json', {
    default_profile: 'local',
    profiles: {
      local: {
        base_url: fx.server.baseURL,
        api_key: '',
        low_model: 'qwen2.5:7b',
        high_model: 'big',
        timeout: 60000,
        max_retries: 0,
        ...extra,
      },
    },
  });
}

test('the status line says it waits for the first token, from which model at which server; Ctrl+C cancels', async () => {
  await useProfile({});
  fx.server.enqueue({ hang: true });
  const s = await fx.ready();
  await s.submit('hello', `Waiting for the first token from qwen2.5:7b at 127.0.0.1:${fx.server.port} — 0 s`);
  s.write(KEY.ctrlC);
  await s.waitFor('Interrupted');
  await s.waitIdle();
  expect(await s.leave()).toBe(0);
});

test('in Chinese too', async () => {
  await fx.temp.writeJson('settings.json', { language: 'zh' });
  await useProfile({});
  fx.server.enqueue({ hang: true });
  const s = await fx.ready();
  await s.submit('你好', `等待 127.0.0.1:${fx.server.port} 上的 qwen2.5:7b 给出第一个 token — 0 秒`);
  s.write(KEY.ctrlC);
  await s.waitFor('› ');
});

test('a first-token time-out ends the turn with a message that names the next step', async () => {
  await useProfile({ first_token_timeout: 400 });
  fx.server.enqueue({ hang: true });
  const s = await fx.ready();
  await s.submit('hello', `No first token from qwen2.5:7b at 127.0.0.1:${fx.server.port} within 0.4 s`);
  await s.waitFor('slothtool llm-base doctor local');
  await s.waitIdle();
});
