import { promises as fs, statSync } from 'fs';
import * as path from 'path';
import { closedPort, packageDir, startPty, useAiFixture } from '@holic512/testkit';
import { ORIGINAL_WITH_PROFILES } from './fake-llm-base';

// The guided setup in a real pseudo-terminal: a tiny driver script runs the built runSetup;
// the "local model server" and the "hosted provider" are both the fixture's scripted server on a
// free loopback port. Keys are typed, the screen is read; nothing sleeps.

const SETUP_LIB = path.join(packageDir('plugin-ai'), 'lib', 'setup', 'index.js');
const LLM_BASE_DIR = packageDir('plugin-llm-base');
const DOWN = '\x1b[B';
const UP = '\x1b[A';
const ENTER = '\r';
const KEY = 'sk-test-secret-7f3a9c1e5b';
/** Generous for a loaded 2-core CI box; a wait that runs out fails with the screen so far. */
const WAIT_MS = 30000;

// No profile and no llm-base yet (the tests that need it register it first).
const fx = useAiFixture({ profile: false, llmBase: false, server: { models: ['llama3.2:3b', 'qwen2.5:7b'] } });
const driver = () => path.join(fx.temp.home, 'setup-driver.js');
beforeEach(() =>
  fs.writeFile(
    driver(),
    `const { runSetup } = require(${JSON.stringify(SETUP_LIB)});
runSetup({ lang: process.env.TEST_LANG || 'en' }).then(
  (r) => { process.stdout.write('\\nRESULT ' + JSON.stringify(r) + '\\n'); process.exit(0); },
  (e) => { process.stdout.write('\\nTHROWN ' + (e && e.stack || e) + '\\n'); process.exit(1); },
);
`,
  ),
);

/** The driver in a terminal: the fixture's env (no real key variables, probes only where told)
 * with `extra`; stopped by the fixture's cleanup when a test fails half-way. */
function startSetup(extra: Record<string, string>) {
  const term = startPty(process.execPath, [driver()], {
    cols: 160,
    rows: 50,
    env: { ...fx.env, SLOTHTOOL_AI_PROBE_TIMEOUT_MS: '10000', FORCE_COLOR: '0', ...extra },
  });
  fx.onCleanup(() => {
    term.kill();
    return term.exited;
  });
  /** Resolves when `text` appears after everything already waited for. */
  const waitFor = (text: string, timeoutMs = WAIT_MS): Promise<void> => term.waitFor(text, timeoutMs);
  /** Waits for `question`, then types `keys`. */
  const answer = (question: string, keys: string): Promise<void> => term.answer(question, keys, WAIT_MS);
  const result = async (): Promise<{ status: string; profile?: string }> => {
    await waitFor('RESULT ');
    expect(await term.exited).toBe(0);
    const screen = term.text();
    return JSON.parse(screen.slice(screen.lastIndexOf('RESULT ') + 'RESULT '.length).split(/\r?\n/)[0]);
  };
  return { term, waitFor, answer, result, screen: () => term.raw() };
}

type LlmConfig = { default_profile: string; profiles: Record<string, Record<string, unknown>> };
const configFile = () => path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.json');
const readConfig = () => fx.temp.readJson<LlmConfig>('plugin-configs/llm-base.json');
const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

describe('llm-base installed', () => {
  beforeEach(() => fx.temp.registerPlugin('llm-base', LLM_BASE_DIR));

  test('local server found on a probed port: pick it, pick models from /models, doctor passes, saved as default (0600)', async () => {
    fx.server.models = ['llama3.2:3b', 'qwen2.5:7b', 'qwen2.5:14b'];
    fx.server.setHandler(() => ({ json: { ok: true } }));
    const closed = await closedPort();
    const s = startSetup({
      SLOTHTOOL_AI_PROBE_PORTS: `ollama=127.0.0.1:${fx.server.port},127.0.0.1:${closed}`,
      SLOTHTOOL_AI_HOSTED_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    await s.waitFor('No model is configured yet');
    await s.waitFor(`Ollama ${fx.server.port}`); // the probe list names the ports
    await s.waitFor(`Found: Ollama (${fx.server.baseURL})`);
    await s.waitFor('Which model server should ai use?');
    await s.answer('DeepSeek (hosted', ENTER); // the local server is first
    await s.answer('Model for everyday turns (low)', UP + ENTER); // from Ollama's usual qwen2.5:7b up to llama3.2:3b
    await s.answer('Model for hard turns (high)', ENTER); // Ollama's usual high model, qwen2.5:14b, is preselected
    await s.waitFor('Checking the new profile "ollama" with slothtool llm-base doctor');
    await s.waitFor('✓ json');
    await s.waitFor('The profile works.');
    await s.waitFor('Saved profile "ollama" as the default');
    expect(await s.result()).toEqual({ status: 'ready', profile: 'ollama' });

    const cfg = await readConfig();
    expect(cfg.default_profile).toBe('ollama');
    expect(cfg.profiles.ollama).toMatchObject({
      base_url: fx.server.baseURL,
      api_key: '',
      low_model: 'llama3.2:3b',
      high_model: 'qwen2.5:14b',
    });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    // only loopback was asked: the probe hit /models, then doctor did /models and one chat, then
    // llm-base's transport probe its four (a tool call, a JSON schema, a JSON object, an image)
    const chats = fx.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats).toHaveLength(5);
    expect(JSON.stringify(chats[4].body.messages)).toContain('image_url');
    expect(chats.every((c) => c.body.model === 'llama3.2:3b')).toBe(true);
    expect(Array.isArray(chats[1].body.tools)).toBe(true);
    expect(chats[2].body.response_format).toMatchObject({ type: 'json_schema' });
  });

  test('hosted preset (base_url pointed at the local server): the key is typed hidden, models come from /models, saved', async () => {
    fx.server.models = ['deepseek-chat', 'deepseek-reasoner', 'deepseek-coder'];
    fx.server.setHandler((req) => (req.headers.authorization === `Bearer ${KEY}` ? { json: { ok: true } } : { status: 401 }));
    const s = startSetup({ SLOTHTOOL_AI_PROBE_PORTS: '', SLOTHTOOL_AI_HOSTED_BASE_URL: fx.server.baseURL });
    await s.waitFor('Which model server should ai use?');
    await s.answer('DeepSeek (hosted, needs an API key)', ENTER); // DeepSeek is the first hosted preset
    await s.waitFor('How should ai get the DeepSeek API key?');
    await s.answer('DEEPSEEK_API_KEY (not set in this shell)', ENTER); // starts on "paste" because the variable is not set
    await s.answer('API key (input is hidden)', KEY + ENTER);
    await s.waitFor(`Asking ${fx.server.baseURL} for its models`);
    await s.answer('Model for everyday turns (low)', ENTER); // deepseek-chat, the preset's low model, is preselected
    await s.answer('Model for hard turns (high)', ENTER); // deepseek-reasoner
    await s.waitFor('✓ auth');
    await s.waitFor('Saved profile "deepseek" as the default');
    expect(await s.result()).toEqual({ status: 'ready', profile: 'deepseek' });

    expect(s.screen()).not.toContain(KEY);
    expect(s.screen()).not.toContain(KEY.slice(4, 12));
    const cfg = await readConfig();
    expect(cfg.profiles.deepseek).toMatchObject({
      base_url: fx.server.baseURL,
      api_key: KEY,
      low_model: 'deepseek-chat',
      high_model: 'deepseek-reasoner',
    });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    const models = fx.server.requests.find((r) => r.path.endsWith('/models'));
    expect(models?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  test('hosted preset with the key in an environment variable (zh): stores env:NAME, never the value', async () => {
    await fx.temp.writeJson('settings.json', { language: 'zh' });
    fx.server.models = null; // a provider without /models: the preset's model names are offered
    fx.server.setHandler((req) => (req.headers.authorization === `Bearer ${KEY}` ? { json: { ok: true } } : { status: 401 }));
    const s = startSetup({
      TEST_LANG: 'zh',
      SLOTHTOOL_AI_PROBE_PORTS: '',
      SLOTHTOOL_AI_HOSTED_BASE_URL: fx.server.baseURL,
      DEEPSEEK_API_KEY: KEY,
    });
    await s.waitFor('尚未配置模型');
    await s.answer('已在 $DEEPSEEK_API_KEY 中找到 key', ENTER);
    await s.answer('从环境变量 DEEPSEEK_API_KEY 读取(已设置)', ENTER); // the set variable is preselected
    await s.waitFor('服务没有列出模型');
    await s.answer('日常对话使用的模型(low)', ENTER); // deepseek-chat
    await s.answer('困难任务使用的模型(high)', ENTER); // deepseek-reasoner
    await s.waitFor('配置档可用');
    await s.waitFor('已将配置档 "deepseek" 保存为默认');
    expect(await s.result()).toEqual({ status: 'ready', profile: 'deepseek' });
    const cfg = await readConfig();
    expect(cfg.profiles.deepseek).toMatchObject({
      api_key: 'env:DEEPSEEK_API_KEY',
      low_model: 'deepseek-chat',
      high_model: 'deepseek-reasoner',
    });
    expect(JSON.stringify(cfg)).not.toContain(KEY);
  });

  /** The setup against a local server whose one model answers `reply`, not JSON: doctor shows the
   * failing check and its fix; resolves at the question what now. */
  async function failingDoctor(reply: string) {
    fx.server.models = ['only-model'];
    fx.server.setHandler(() => ({ content: reply }));
    const s = startSetup({
      SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${fx.server.port}`,
      SLOTHTOOL_AI_HOSTED_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    await s.waitFor('Which model server should ai use?');
    await s.waitFor('OpenAI-compatible server at');
    await s.answer('Cancel', ENTER); // one model: low and high need no question
    await s.waitFor('Checking the new profile "local"');
    await s.waitFor('✗ json');
    await s.waitFor('→ ');
    await s.waitFor('The profile does not work yet.');
    await s.waitFor('What now?');
    return s;
  }

  test('a profile that fails doctor is not saved: the failing check and its fix are shown, cancel writes nothing', async () => {
    const s = await failingDoctor('Sure! I am a friendly model and I do not do JSON.');
    s.term.write(DOWN + DOWN + ENTER); // Cancel (save nothing)
    await s.waitFor('Setup cancelled; nothing was saved');
    expect(await s.result()).toEqual({ status: 'cancelled' });
    expect(await exists(configFile())).toBe(false);
  });

  test('a failing profile is saved when the person says so ("save anyway")', async () => {
    const s = await failingDoctor('no json here');
    await s.answer('Save it anyway', DOWN + ENTER);
    await s.waitFor('Saved profile "local" as the default');
    await s.waitFor('unverified');
    expect(await s.result()).toEqual({ status: 'saved-unverified', profile: 'local' });
    const cfg = await readConfig();
    expect(cfg.default_profile).toBe('local');
    expect(cfg.profiles.local).toMatchObject({ base_url: fx.server.baseURL, low_model: 'only-model', high_model: 'only-model' });
  });

  test('no local server answers: says so and still offers the hosted presets; Esc cancels', async () => {
    const closed = await closedPort();
    const s = startSetup({ SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${closed}` });
    await s.waitFor('No local model server answered.');
    for (const label of ['DeepSeek', 'Qwen', 'GLM', 'Kimi', 'OpenAI']) await s.waitFor(label);
    await s.answer('Another OpenAI-compatible server', '\x1b');
    await s.waitFor('Setup cancelled');
    expect(await s.result()).toEqual({ status: 'cancelled' });
    expect(await exists(configFile())).toBe(false);
  });
});

describe('llm-base missing', () => {
  test('llm-base missing: offers the install command, runs the host with an argument vector, then continues', async () => {
    const host = path.join(fx.temp.home, 'fake-host.js');
    const argvFile = path.join(fx.temp.home, 'host-argv.json');
    // Plays `slothtool install @holic512/plugin-llm-base`: registers this checkout's llm-base (no network).
    await fs.writeFile(
      host,
      `const fs = require('fs'); const path = require('path');
  fs.writeFileSync(${JSON.stringify(argvFile)}, JSON.stringify(process.argv.slice(2)));
  const reg = path.join(process.env.SLOTHTOOL_HOME, 'registry.json');
  const registry = fs.existsSync(reg) ? JSON.parse(fs.readFileSync(reg, 'utf8')) : { plugins: {} };
  const pkg = require(${JSON.stringify(path.join(LLM_BASE_DIR, 'package.json'))});
  registry.plugins['llm-base'] = { name: pkg.name, version: pkg.version, binPath: ${JSON.stringify(path.join(LLM_BASE_DIR, 'bin', 'llm-base.js'))}, installedAt: new Date().toISOString() };
  fs.writeFileSync(reg, JSON.stringify(registry, null, 2));
  console.log('fake host: installed ' + process.argv[3]);
  `,
    );
    const s = startSetup({ SLOTHTOOL_AI_HOST_BIN: host, SLOTHTOOL_AI_PROBE_PORTS: '' });
    await s.waitFor('llm-base plugin, which is not installed.');
    await s.answer(`Install it now? (runs: node ${host} install @holic512/plugin-llm-base)`, 'y');
    await s.waitFor('fake host: installed @holic512/plugin-llm-base');
    await s.waitFor('llm-base is installed.');
    await s.answer('Which model server should ai use?', '\x03'); // Ctrl-C
    await s.waitFor('Setup cancelled');
    expect(await s.result()).toEqual({ status: 'cancelled' });
    expect(JSON.parse(await fs.readFile(argvFile, 'utf8'))).toEqual(['install', '@holic512/plugin-llm-base']);
  });

  test('llm-base missing and the install declined: nothing runs, the exact command is shown', async () => {
    const host = path.join(fx.temp.home, 'never-run.js');
    const s = startSetup({ SLOTHTOOL_AI_HOST_BIN: host, SLOTHTOOL_AI_PROBE_PORTS: '' });
    await s.answer(`Install it now? (runs: node ${host} install @holic512/plugin-llm-base)`, 'n');
    await s.waitFor('Setup cancelled; nothing was saved');
    expect(await s.result()).toEqual({ status: 'cancelled' });
    expect(await exists(host)).toBe(false);
  });

  test('llm-base missing: the real slothtool host of this checkout installs it from a local folder (no network), then the setup goes on', async () => {
    // an llm-base 1.0.x-shaped package without dependencies, so npm needs no registry
    const pkg = path.join(fx.temp.home, 'llm-base-pkg');
    await fs.mkdir(path.join(pkg, 'bin'), { recursive: true });
    await fs.mkdir(path.join(pkg, 'lib'), { recursive: true });
    await fs.writeFile(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: '@holic512/plugin-llm-base', version: '1.0.9', main: 'lib/index.js', bin: { 'llm-base': 'bin/llm-base.js' } }),
    );
    await fs.writeFile(path.join(pkg, 'bin', 'llm-base.js'), "require('../lib/index.js');\n");
    await fs.writeFile(path.join(pkg, 'lib', 'index.js'), ORIGINAL_WITH_PROFILES);
    fx.server.models = ['one-model'];
    fx.server.setHandler(() => ({ json: { ok: true } }));
    const hostBin = path.join(packageDir('slothtool'), 'bin', 'slothtool.js');
    const s = startSetup({
      SLOTHTOOL_AI_LLM_BASE_SPEC: pkg,
      SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${fx.server.port}`,
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    });
    await s.answer(`Install it now? (runs: node ${hostBin} install ${pkg})`, ENTER); // yes is the default
    await s.waitFor('llm-base is installed.', 60000);
    await s.answer('Which model server should ai use?', ENTER);
    await s.waitFor('This llm-base has no doctor; checking with one model call instead.');
    await s.waitFor('The model answered.');
    await s.waitFor('Saved profile "local" as the default');
    expect(await s.result()).toEqual({ status: 'ready', profile: 'local' });
    const registry = await fx.temp.readJson<{ plugins: Record<string, { name: string; version: string; binPath: string }> }>(
      'registry.json',
    );
    expect(registry.plugins['llm-base']).toMatchObject({ name: '@holic512/plugin-llm-base', version: '1.0.9' });
    expect(registry.plugins['llm-base'].binPath.startsWith(path.join(fx.temp.slothtoolHome, 'plugins', 'llm-base'))).toBe(true);
    expect((await readConfig()).profiles.local).toMatchObject({ base_url: fx.server.baseURL, low_model: 'one-model' });
  });
});
