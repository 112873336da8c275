import * as path from 'path';
import { createTempHome, llmBaseConfig, llmProfile, packageDir, startPty, TempHome } from '@holic512/testkit';

// A real pseudo-terminal (the testkit's): type keys, read the screen, never sleep.

const BIN = path.join(packageDir('plugin-llm-base'), 'bin', 'llm-base.js');
const DOWN = '\x1b[B';
const ENTER = '\r';

let home: TempHome;
beforeEach(async () => {
  home = await createTempHome({ language: 'en' });
});
afterEach(async () => {
  await home.cleanup();
});

function startTerminal(args: string[]) {
  const term = startPty(process.execPath, [BIN, ...args], { cols: 120, rows: 40, env: home.env });
  return { term, waitFor: (text: string) => term.waitFor(text, 45_000), exited: term.exited, screen: () => term.raw() };
}

test('-i: create a profile from a preset through the menu, list it, exit', async () => {
  const { term, waitFor, exited, screen } = startTerminal(['-i']);
  await waitFor('Choose an action');
  term.write(ENTER); // Create a profile
  await waitFor('Choose a preset');
  term.write(DOWN.repeat(5) + ENTER); // ollama
  for (const label of ['base_url', 'api_key', 'low model', 'high model', 'timeout']) {
    await waitFor(label);
    term.write(ENTER); // keep the preset's value
  }
  await waitFor('Profile name');
  term.write('mine' + ENTER);
  await waitFor('Profile "mine" created');
  await waitFor('Choose an action');
  term.write(DOWN.repeat(3) + ENTER); // List profiles
  await waitFor('"mine"');
  await waitFor('Choose an action');
  term.write(DOWN.repeat(8) + ENTER); // Exit
  expect(await exited).toBe(0);
  const cfg = await home.readJson<{ default_profile: string; profiles: Record<string, { base_url: string; low_model: string }> }>(
    'plugin-configs/llm-base.json',
  );
  expect(cfg.default_profile).toBe('mine');
  expect(cfg.profiles.mine).toMatchObject({ base_url: 'http://127.0.0.1:11434/v1', low_model: 'qwen2.5:7b' });
  expect(screen()).not.toContain('Error');
});

test('config update in a terminal never shows the stored key; Enter keeps it', async () => {
  const KEY = 'sk-pty-secret-1234567890abcd';
  await home.writeJson(
    'plugin-configs/llm-base.json',
    llmBaseConfig({
      p: llmProfile('http://127.0.0.1:9/v1', { api_key: KEY, low_model: 'a', high_model: 'b', timeout: 1000, max_retries: undefined }),
    }),
  );
  const { term, waitFor, exited, screen } = startTerminal(['config', 'update', 'p']);
  await waitFor('base_url');
  term.write(ENTER);
  await waitFor('Enter keeps the current one');
  term.write(ENTER);
  await waitFor('low model');
  term.write(ENTER);
  await waitFor('high model');
  term.write('bigger' + ENTER); // typing replaces the shown value
  await waitFor('timeout');
  term.write(ENTER);
  expect(await exited).toBe(0);
  expect(screen()).toContain('Profile "p" updated');
  expect(screen()).not.toContain('1234567890abcd');
  const cfg = await home.readJson<{ profiles: { p: { api_key: string; high_model: string } } }>('plugin-configs/llm-base.json');
  expect(cfg.profiles.p).toMatchObject({ api_key: KEY, high_model: 'bigger' });
});
