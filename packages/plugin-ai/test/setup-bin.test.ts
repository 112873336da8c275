import { promises as fs } from 'fs';
import * as path from 'path';
import { runAi } from './run-bin';
import { KEY, usePtyFixture } from './pty/pty-session';

// The first minute through the real bin: `ai -p` and piped `ai -i` without a profile never
// prompt and print the fixing commands; `ai -i` in a terminal runs the guided setup and then
// answers the first message with the profile it just saved.

// llm-base registered, no profile yet; no real key variables, no probing of the machine's ports.
const fx = usePtyFixture({ profile: false, server: { models: ['local-small', 'local-big'] } });
const ai = (args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}) =>
  runAi(args, { env: { ...fx.env, ...options.env }, cwd: fx.cwd, input: options.input });

describe('without a terminal: never a prompt, the exact commands, exit 4', () => {
  test('ai -p with no profile (en)', async () => {
    const r = await ai(['-p', 'hi']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No llm-base profile is configured, and there is no terminal to set one up here.');
    for (const cmd of [
      'slothtool ai -i',
      'slothtool llm-base config create --preset ollama',
      'slothtool llm-base config create --preset deepseek',
      'slothtool llm-base doctor',
    ]) {
      expect(r.stderr).toContain(cmd);
    }
    expect(fx.server.requests).toHaveLength(0);
  });

  test('piped ai -p in zh (a zh locale, no language setting), and --json gives an error event', async () => {
    await fx.temp.writeJson('settings.json', {});
    const r = await ai(['-p', 'hi'], { env: { LC_ALL: 'zh_CN.UTF-8' }, input: 'some piped text' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('尚未配置 llm-base 配置档,且当前没有终端可以进行设置。');
    expect(r.stderr).toContain('slothtool llm-base config create --preset ollama');
    const j = await ai(['-p', 'hi', '--json']);
    expect(j.code).toBe(4);
    expect(j.events).toEqual([{ type: 'error', code: 'NO_PROFILE', message: expect.stringContaining('slothtool ai -i') }]);
  });

  test('ai -i with piped input does not start the setup', async () => {
    const r = await ai(['-i'], { input: 'hello\n' });
    expect(r.code).toBe(4);
    expect(r.stdout + r.stderr).toContain('slothtool llm-base config create --preset ollama');
    expect(r.stdout + r.stderr).not.toContain('Which model server');
    await expect(fs.access(path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.json'))).rejects.toThrow();
  });
});

test('ai -i in a terminal with no profile: guided setup finds the local server, saves, then the first message is answered', async () => {
  fx.server.setHandler((req) => {
    const last = req.body.messages.at(-1)?.content ?? '';
    return /\{"ok": true\}/.test(last) ? { json: { ok: true } } : { json: { type: 'chat', message: 'Hello from the new profile' } };
  });
  const s = fx.start(
    ['-i'],
    { SLOTHTOOL_AI_PROBE_PORTS: `ollama=127.0.0.1:${fx.server.port}`, SLOTHTOOL_AI_PROBE_TIMEOUT_MS: '10000' },
    { cols: 120, rows: 40 },
  );
  await s.waitFor('No model is configured yet', 30_000);
  await s.waitFor(`Found: Ollama (${fx.server.baseURL})`, 30_000);
  await s.answer('Which model server should ai use?', KEY.enter);
  await s.answer('Model for everyday turns (low)', KEY.enter); // local-small
  await s.answer('Model for hard turns (high)', KEY.down + KEY.enter); // local-big
  await s.waitFor('The profile works.', 30_000);
  await s.waitFor('Saved profile "ollama" as the default');
  // the screen takes the terminal back and shows the new profile in its status line
  await s.waitFor('low · ollama', 30_000);
  s.send('hi there');
  await s.waitFor('Hello from the new profile', 30_000);
  expect(await s.leave()).toBe(0);
  const cfg = await fx.temp.readJson<{ default_profile: string; profiles: Record<string, Record<string, unknown>> }>(
    'plugin-configs/llm-base.json',
  );
  expect(cfg.default_profile).toBe('ollama');
  expect(cfg.profiles.ollama).toMatchObject({ base_url: fx.server.baseURL, low_model: 'local-small', high_model: 'local-big' });
  const chat = fx.server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1);
  expect(chat?.body.model).toBe('local-small');
});
