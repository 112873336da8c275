import { chat, createAiFixture, KEY, type AiFixture } from './pty/pty-session';

let fx: AiFixture;
beforeEach(async () => {
  fx = await createAiFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

test('a chat turn: the prompt, the answer, the status line; Ctrl+D leaves with the session saved', async () => {
  fx.server.enqueue(chat('Hello from the model.'));
  const s = fx.start();
  await s.waitFor('› ');
  await s.waitFor('local');
  s.write('hi there' + KEY.enter);
  await s.waitFor('Hello from the model.');
  s.write(KEY.ctrlD);
  await s.waitFor(/Session saved: \S+/);
  expect(await s.exited).toBe(0);
});
