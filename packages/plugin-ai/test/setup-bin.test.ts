import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, packageDir, startScriptedServer, type ScriptedServer, type TempHome } from '@holic512/testkit';
import { runAi } from './run-bin';
import { KEY, startAi, type PtySession } from './pty/pty-session';

// The first minute through the real bin: `ai -p` and piped `ai -i` without a profile never
// prompt and print the fixing commands; `ai -i` in a terminal runs the guided setup and then
// answers the first message with the profile it just saved.

let temp: TempHome;
let server: ScriptedServer;
let cwd: string;
const sessions: PtySession[] = [];

beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
  server = await startScriptedServer({ models: ['local-small', 'local-big'] });
  cwd = path.join(temp.home, 'project');
  await fs.mkdir(cwd);
  await temp.registerPlugin('llm-base', packageDir('plugin-llm-base'));
});
afterEach(async () => {
  for (const s of sessions.splice(0)) s.kill();
  await server.close();
  await temp.cleanup();
});

/** No real key variables, no probing of the machine's real ports. */
function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(temp.env)) if (!/_API_KEY$/.test(k) && !k.startsWith('SLOTHTOOL_AI_')) out[k] = v;
  return { ...out, SLOTHTOOL_AI_PROBE_PORTS: '', ...extra };
}

describe('without a terminal: never a prompt, the exact commands, exit 4', () => {
  test('ai -p with no profile (en)', async () => {
    const r = await runAi(['-p', 'hi'], { env: env(), cwd });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No llm-base profile is configured, and there is no terminal to set one up here.');
    for (const cmd of ['slothtool ai -i', 'slothtool llm-base config create --preset ollama', 'slothtool llm-base config create --preset deepseek', 'slothtool llm-base doctor']) {
      expect(r.stderr).toContain(cmd);
    }
    expect(server.requests).toHaveLength(0);
  });

  test('piped ai -p in zh (a zh locale, no language setting), and --json gives an error event', async () => {
    await temp.writeJson('settings.json', {});
    const r = await runAi(['-p', 'hi'], { env: { ...env(), LC_ALL: 'zh_CN.UTF-8' }, cwd, input: 'some piped text' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('尚未配置 llm-base 配置档,且当前没有终端可以进行设置。');
    expect(r.stderr).toContain('slothtool llm-base config create --preset ollama');
    const j = await runAi(['-p', 'hi', '--json'], { env: env(), cwd });
    expect(j.code).toBe(4);
    expect(j.events).toEqual([{ type: 'error', code: 'NO_PROFILE', message: expect.stringContaining('slothtool ai -i') }]);
  });

  test('ai -i with piped input does not start the setup', async () => {
    const r = await runAi(['-i'], { env: env(), cwd, input: 'hello\n' });
    expect(r.code).toBe(4);
    expect(r.stdout + r.stderr).toContain('slothtool llm-base config create --preset ollama');
    expect(r.stdout + r.stderr).not.toContain('Which model server');
    await expect(fs.access(path.join(temp.slothtoolHome, 'plugin-configs', 'llm-base.json'))).rejects.toThrow();
  });
});

test('ai -i in a terminal with no profile: guided setup finds the local server, saves, then the first message is answered', async () => {
  server.setHandler((req) => {
    const last = req.body.messages.at(-1)?.content ?? '';
    return /\{"ok": true\}/.test(last) ? { json: { ok: true } } : { json: { type: 'chat', message: 'Hello from the new profile' } };
  });
  const s = startAi(['-i'], { env: env({ SLOTHTOOL_AI_PROBE_PORTS: `ollama=127.0.0.1:${server.port}`, SLOTHTOOL_AI_PROBE_TIMEOUT_MS: '10000' }), cwd, cols: 120, rows: 40 });
  sessions.push(s);
  await s.waitFor('No model is configured yet', 30_000);
  await s.waitFor(`Found: Ollama (${server.baseURL})`, 30_000);
  await s.waitFor('Which model server should ai use?');
  s.write(KEY.enter);
  await s.waitFor('Model for everyday turns (low)');
  s.write(KEY.enter); // local-small
  await s.waitFor('Model for hard turns (high)');
  s.send(KEY.down); // local-big
  await s.waitFor('The profile works.', 30_000);
  await s.waitFor('Saved profile "ollama" as the default');
  // the screen takes the terminal back and shows the new profile in its status line
  await s.waitFor('low · ollama', 30_000);
  s.send('hi there');
  await s.waitFor('Hello from the new profile', 30_000);
  s.write(KEY.ctrlD);
  expect(await s.exited).toBe(0);
  const cfg = await temp.readJson<{ default_profile: string; profiles: Record<string, Record<string, unknown>> }>('plugin-configs/llm-base.json');
  expect(cfg.default_profile).toBe('ollama');
  expect(cfg.profiles.ollama).toMatchObject({ base_url: server.baseURL, low_model: 'local-small', high_model: 'local-big' });
  const chat = server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1);
  expect(chat?.body.model).toBe('local-small');
});
