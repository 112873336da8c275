import { promises as fs, statSync } from 'fs';
import * as path from 'path';
import { closedPort, createTempHome, packageDir, startPty, startScriptedServer, type ScriptedServer, type TempHome } from '@holic512/testkit';
import { ORIGINAL_WITH_PROFILES } from './setup-helpers';

// The guided setup in a real pseudo-terminal: a tiny driver script runs the built runSetup;
// the "local model server" and the "hosted provider" are both the testkit's server on a free
// loopback port. Keys are typed, the screen is read; nothing sleeps.

const SETUP_LIB = path.join(packageDir('plugin-ai'), 'lib', 'setup', 'index.js');
const LLM_BASE_DIR = packageDir('plugin-llm-base');
const DOWN = '\x1b[B';
const UP = '\x1b[A';
const ENTER = '\r';
const KEY = 'sk-test-secret-7f3a9c1e5b';
/** Generous for a loaded 2-core CI box; a wait that runs out fails with the screen so far. */
const WAIT_MS = 30000;

let home: TempHome;
let server: ScriptedServer;
let driver: string;
/** Terminals still open when a test ends (it failed half-way): killed in afterEach. */
const open = new Set<{ kill(): void }>();


beforeEach(async () => {
  home = await createTempHome({ language: 'en' });
  server = await startScriptedServer({ models: ['llama3.2:3b', 'qwen2.5:7b'] });
  driver = path.join(home.home, 'setup-driver.js');
  await fs.writeFile(
    driver,
    `const { runSetup } = require(${JSON.stringify(SETUP_LIB)});
runSetup({ lang: process.env.TEST_LANG || 'en' }).then(
  (r) => { process.stdout.write('\\nRESULT ' + JSON.stringify(r) + '\\n'); process.exit(0); },
  (e) => { process.stdout.write('\\nTHROWN ' + (e && e.stack || e) + '\\n'); process.exit(1); },
);
`,
  );
});
afterEach(async () => {
  for (const term of open) term.kill();
  open.clear();
  await server.close();
  await home.cleanup();
});

/** The env of the child: the temp home, no real key variables, probes only where told. */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(home.env)) {
    if (v === undefined || /_API_KEY$/.test(k) || k.startsWith('SLOTHTOOL_AI_')) continue;
    env[k] = v;
  }
  return { ...env, SLOTHTOOL_AI_PROBE_TIMEOUT_MS: '10000', FORCE_COLOR: '0', ...extra };
}

function startSetup(env: Record<string, string>) {
  const term = startPty(process.execPath, [driver], { cols: 160, rows: 50, env });
  open.add(term);
  void term.exited.then(() => open.delete(term));
  /** Resolves when `text` appears after everything already waited for. */
  const waitFor = (text: string, timeoutMs = WAIT_MS): Promise<void> => term.waitFor(text, timeoutMs);
  const result = async (): Promise<{ status: string; profile?: string }> => {
    await waitFor('RESULT ');
    expect(await term.exited).toBe(0);
    const screen = term.text();
    return JSON.parse(screen.slice(screen.lastIndexOf('RESULT ') + 'RESULT '.length).split(/\r?\n/)[0]);
  };
  return { term, waitFor, result, screen: () => term.raw() };
}

async function registerLlmBase() {
  await home.registerPlugin('llm-base', LLM_BASE_DIR);
}

type LlmConfig = { default_profile: string; profiles: Record<string, Record<string, unknown>> };
const configFile = () => path.join(home.slothtoolHome, 'plugin-configs', 'llm-base.json');
const readConfig = () => home.readJson<LlmConfig>('plugin-configs/llm-base.json');
const exists = (file: string) => fs.access(file).then(() => true, () => false);

test('local server found on a probed port: pick it, pick models from /models, doctor passes, saved as default (0600)', async () => {
  await registerLlmBase();
  server.models = ['llama3.2:3b', 'qwen2.5:7b', 'qwen2.5:14b'];
  server.setHandler(() => ({ json: { ok: true } }));
  const closed = await closedPort();
  const s = startSetup(childEnv({ SLOTHTOOL_AI_PROBE_PORTS: `ollama=127.0.0.1:${server.port},127.0.0.1:${closed}`, SLOTHTOOL_AI_HOSTED_BASE_URL: 'http://127.0.0.1:9/v1' }));
  await s.waitFor('No model is configured yet');
  await s.waitFor(`Ollama ${server.port}`); // the probe list names the ports
  await s.waitFor(`Found: Ollama (${server.baseURL})`);
  await s.waitFor('Which model server should ai use?');
  await s.waitFor('DeepSeek (hosted');
  s.term.write(ENTER); // the local server is first
  await s.waitFor('Model for everyday turns (low)');
  s.term.write(UP + ENTER); // from Ollama's usual qwen2.5:7b up to llama3.2:3b
  await s.waitFor('Model for hard turns (high)');
  s.term.write(ENTER); // Ollama's usual high model, qwen2.5:14b, is preselected
  await s.waitFor('Checking the new profile "ollama" with slothtool llm-base doctor');
  await s.waitFor('✓ json');
  await s.waitFor('The profile works.');
  await s.waitFor('Saved profile "ollama" as the default');
  expect(await s.result()).toEqual({ status: 'ready', profile: 'ollama' });

  const cfg = await readConfig();
  expect(cfg.default_profile).toBe('ollama');
  expect(cfg.profiles.ollama).toMatchObject({ base_url: server.baseURL, api_key: '', low_model: 'llama3.2:3b', high_model: 'qwen2.5:14b' });
  expect(statSync(configFile()).mode & 0o777).toBe(0o600);
  // only loopback was asked: the probe hit /models, then doctor did /models and one chat, then
  // llm-base's transport probe its four (a tool call, a JSON schema, a JSON object, an image)
  const chats = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(chats).toHaveLength(5);
  expect(JSON.stringify(chats[4].body.messages)).toContain('image_url');
  expect(chats.every((c) => c.body.model === 'llama3.2:3b')).toBe(true);
  expect(Array.isArray(chats[1].body.tools)).toBe(true);
  expect(chats[2].body.response_format).toMatchObject({ type: 'json_schema' });
});

test('hosted preset (base_url pointed at the local server): the key is typed hidden, models come from /models, saved', async () => {
  await registerLlmBase();
  server.models = ['deepseek-chat', 'deepseek-reasoner', 'deepseek-coder'];
  server.setHandler((req) =>
    req.headers.authorization === `Bearer ${KEY}` ? { json: { ok: true } } : { status: 401 },
  );
  const s = startSetup(childEnv({ SLOTHTOOL_AI_PROBE_PORTS: '', SLOTHTOOL_AI_HOSTED_BASE_URL: server.baseURL }));
  await s.waitFor('Which model server should ai use?');
  await s.waitFor('DeepSeek (hosted, needs an API key)');
  s.term.write(ENTER); // DeepSeek is the first hosted preset
  await s.waitFor('How should ai get the DeepSeek API key?');
  await s.waitFor('DEEPSEEK_API_KEY (not set in this shell)');
  s.term.write(ENTER); // starts on "paste" because the variable is not set
  await s.waitFor('API key (input is hidden)');
  s.term.write(KEY + ENTER);
  await s.waitFor(`Asking ${server.baseURL} for its models`);
  await s.waitFor('Model for everyday turns (low)');
  s.term.write(ENTER); // deepseek-chat, the preset's low model, is preselected
  await s.waitFor('Model for hard turns (high)');
  s.term.write(ENTER); // deepseek-reasoner
  await s.waitFor('✓ auth');
  await s.waitFor('Saved profile "deepseek" as the default');
  expect(await s.result()).toEqual({ status: 'ready', profile: 'deepseek' });

  expect(s.screen()).not.toContain(KEY);
  expect(s.screen()).not.toContain(KEY.slice(4, 12));
  const cfg = await readConfig();
  expect(cfg.profiles.deepseek).toMatchObject({
    base_url: server.baseURL,
    api_key: KEY,
    low_model: 'deepseek-chat',
    high_model: 'deepseek-reasoner',
  });
  expect(statSync(configFile()).mode & 0o777).toBe(0o600);
  const models = server.requests.find((r) => r.path.endsWith('/models'));
  expect(models?.headers.authorization).toBe(`Bearer ${KEY}`);
});

test('hosted preset with the key in an environment variable (zh): stores env:NAME, never the value', async () => {
  await registerLlmBase();
  await home.writeJson('settings.json', { language: 'zh' });
  server.models = null; // a provider without /models: the preset's model names are offered
  server.setHandler((req) =>
    req.headers.authorization === `Bearer ${KEY}` ? { json: { ok: true } } : { status: 401 },
  );
  const s = startSetup(
    childEnv({ TEST_LANG: 'zh', SLOTHTOOL_AI_PROBE_PORTS: '', SLOTHTOOL_AI_HOSTED_BASE_URL: server.baseURL, DEEPSEEK_API_KEY: KEY }),
  );
  await s.waitFor('尚未配置模型');
  await s.waitFor('已在 $DEEPSEEK_API_KEY 中找到 key');
  s.term.write(ENTER);
  await s.waitFor('从环境变量 DEEPSEEK_API_KEY 读取(已设置)');
  s.term.write(ENTER); // the set variable is preselected
  await s.waitFor('服务没有列出模型');
  await s.waitFor('日常对话使用的模型(low)');
  s.term.write(ENTER); // deepseek-chat
  await s.waitFor('困难任务使用的模型(high)');
  s.term.write(ENTER); // deepseek-reasoner
  await s.waitFor('配置档可用');
  await s.waitFor('已将配置档 "deepseek" 保存为默认');
  expect(await s.result()).toEqual({ status: 'ready', profile: 'deepseek' });
  const cfg = await readConfig();
  expect(cfg.profiles.deepseek).toMatchObject({ api_key: 'env:DEEPSEEK_API_KEY', low_model: 'deepseek-chat', high_model: 'deepseek-reasoner' });
  expect(JSON.stringify(cfg)).not.toContain(KEY);
});

test('a profile that fails doctor is not saved: the failing check and its fix are shown, cancel writes nothing', async () => {
  await registerLlmBase();
  server.models = ['only-model'];
  server.setHandler(() => ({ content: 'Sure! I am a friendly model and I do not do JSON.' }));
  const s = startSetup(childEnv({ SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${server.port}`, SLOTHTOOL_AI_HOSTED_BASE_URL: 'http://127.0.0.1:9/v1' }));
  await s.waitFor('Which model server should ai use?');
  await s.waitFor('OpenAI-compatible server at');
  s.term.write(ENTER); // one model: low and high need no question
  await s.waitFor('Checking the new profile "local"');
  await s.waitFor('✗ json');
  await s.waitFor('→ ');
  await s.waitFor('The profile does not work yet.');
  await s.waitFor('What now?');
  s.term.write(DOWN + DOWN + ENTER); // Cancel (save nothing)
  await s.waitFor('Setup cancelled; nothing was saved');
  expect(await s.result()).toEqual({ status: 'cancelled' });
  expect(await exists(configFile())).toBe(false);
});

test('a failing profile is saved when the person says so ("save anyway")', async () => {
  await registerLlmBase();
  server.models = ['only-model'];
  server.setHandler(() => ({ content: 'no json here' }));
  const s = startSetup(childEnv({ SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${server.port}`, SLOTHTOOL_AI_HOSTED_BASE_URL: 'http://127.0.0.1:9/v1' }));
  await s.waitFor('Which model server should ai use?');
  await s.waitFor('Cancel');
  s.term.write(ENTER);
  await s.waitFor('What now?');
  await s.waitFor('Save it anyway');
  s.term.write(DOWN + ENTER);
  await s.waitFor('Saved profile "local" as the default');
  await s.waitFor('unverified');
  expect(await s.result()).toEqual({ status: 'saved-unverified', profile: 'local' });
  const cfg = await readConfig();
  expect(cfg.default_profile).toBe('local');
  expect(cfg.profiles.local).toMatchObject({ base_url: server.baseURL, low_model: 'only-model', high_model: 'only-model' });
});

test('no local server answers: says so and still offers the hosted presets; Esc cancels', async () => {
  await registerLlmBase();
  const closed = await closedPort();
  const s = startSetup(childEnv({ SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${closed}` }));
  await s.waitFor('No local model server answered.');
  for (const label of ['DeepSeek', 'Qwen', 'GLM', 'Kimi', 'OpenAI', 'Another OpenAI-compatible server']) await s.waitFor(label);
  s.term.write('\x1b');
  await s.waitFor('Setup cancelled');
  expect(await s.result()).toEqual({ status: 'cancelled' });
  expect(await exists(configFile())).toBe(false);
});

test('llm-base missing: offers the install command, runs the host with an argument vector, then continues', async () => {
  const host = path.join(home.home, 'fake-host.js');
  const argvFile = path.join(home.home, 'host-argv.json');
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
  const s = startSetup(childEnv({ SLOTHTOOL_AI_HOST_BIN: host, SLOTHTOOL_AI_PROBE_PORTS: '' }));
  await s.waitFor('llm-base plugin, which is not installed.');
  await s.waitFor(`Install it now? (runs: node ${host} install @holic512/plugin-llm-base)`);
  s.term.write('y');
  await s.waitFor('fake host: installed @holic512/plugin-llm-base');
  await s.waitFor('llm-base is installed.');
  await s.waitFor('Which model server should ai use?');
  s.term.write('\x03'); // Ctrl-C
  await s.waitFor('Setup cancelled');
  expect(await s.result()).toEqual({ status: 'cancelled' });
  expect(JSON.parse(await fs.readFile(argvFile, 'utf8'))).toEqual(['install', '@holic512/plugin-llm-base']);
});

test('llm-base missing and the install declined: nothing runs, the exact command is shown', async () => {
  const host = path.join(home.home, 'never-run.js');
  const s = startSetup(childEnv({ SLOTHTOOL_AI_HOST_BIN: host, SLOTHTOOL_AI_PROBE_PORTS: '' }));
  await s.waitFor(`Install it now? (runs: node ${host} install @holic512/plugin-llm-base)`);
  s.term.write('n');
  await s.waitFor('Setup cancelled; nothing was saved');
  expect(await s.result()).toEqual({ status: 'cancelled' });
  expect(await exists(host)).toBe(false);
});

test('llm-base missing: the real slothtool host of this checkout installs it from a local folder (no network), then the setup goes on', async () => {
  // an llm-base 1.0.x-shaped package without dependencies, so npm needs no registry
  const pkg = path.join(home.home, 'llm-base-pkg');
  await fs.mkdir(path.join(pkg, 'bin'), { recursive: true });
  await fs.mkdir(path.join(pkg, 'lib'), { recursive: true });
  await fs.writeFile(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: '@holic512/plugin-llm-base', version: '1.0.9', main: 'lib/index.js', bin: { 'llm-base': 'bin/llm-base.js' } }),
  );
  await fs.writeFile(path.join(pkg, 'bin', 'llm-base.js'), "require('../lib/index.js');\n");
  await fs.writeFile(path.join(pkg, 'lib', 'index.js'), ORIGINAL_WITH_PROFILES);
  server.models = ['one-model'];
  server.setHandler(() => ({ json: { ok: true } }));
  const hostBin = path.join(packageDir('slothtool'), 'bin', 'slothtool.js');
  const s = startSetup(
    childEnv({
      SLOTHTOOL_AI_LLM_BASE_SPEC: pkg,
      SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${server.port}`,
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    }),
  );
  await s.waitFor(`Install it now? (runs: node ${hostBin} install ${pkg})`);
  s.term.write(ENTER); // yes is the default
  await s.waitFor('llm-base is installed.', 60000);
  await s.waitFor('Which model server should ai use?');
  s.term.write(ENTER);
  await s.waitFor('This llm-base has no doctor; checking with one model call instead.');
  await s.waitFor('The model answered.');
  await s.waitFor('Saved profile "local" as the default');
  expect(await s.result()).toEqual({ status: 'ready', profile: 'local' });
  const registry = await home.readJson<{ plugins: Record<string, { name: string; version: string; binPath: string }> }>('registry.json');
  expect(registry.plugins['llm-base']).toMatchObject({ name: '@holic512/plugin-llm-base', version: '1.0.9' });
  expect(registry.plugins['llm-base'].binPath.startsWith(path.join(home.slothtoolHome, 'plugins', 'llm-base'))).toBe(true);
  expect((await readConfig()).profiles.local).toMatchObject({ base_url: server.baseURL, low_model: 'one-model' });
});
