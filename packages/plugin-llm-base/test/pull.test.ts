import * as path from 'path';
import {
  createTempHome,
  llmBaseConfig,
  llmProfile,
  packageDir,
  runProcess,
  startScriptedOllama,
  type RunResult,
  type ScriptedOllama,
  type TempHome,
} from '@holic512/testkit';

// `slothtool llm-base pull` downloads models onto the profile's Ollama server through Ollama's
// native API, with progress on stderr; doctor names it when a model is missing.
const BIN = path.join(packageDir('plugin-llm-base'), 'bin', 'llm-base.js');
let home: TempHome;
let ollama: ScriptedOllama;

const run = (args: string[], lang: 'en' | 'zh' = 'en'): Promise<RunResult> =>
  runProcess(process.execPath, [BIN, ...args], { env: { ...home.env, LANG: lang === 'zh' ? 'zh_CN.UTF-8' : 'en_US.UTF-8' } });

beforeEach(async () => {
  home = await createTempHome();
  ollama = await startScriptedOllama({
    models: [{ name: 'qwen2.5:7b' }],
    library: [{ name: 'qwen2.5:14b', size: 9_000_000_000 }],
    pullSteps: 4,
  });
  const local = llmProfile(`${ollama.baseURL}/v1`, { low_model: 'qwen2.5:7b', high_model: 'qwen2.5:14b', timeout: 10000 });
  await home.writeJson('plugin-configs/llm-base.json', llmBaseConfig({ local }));
});
afterEach(async () => {
  await ollama.close();
  await home.cleanup();
});

test('pull downloads a model from the library with progress, and the server has it after', async () => {
  const r = await run(['pull', 'qwen2.5:14b']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({ success: true, data: { models: ['qwen2.5:14b'] } });
  expect(r.stderr).toMatch(/qwen2\.5:14b: pulling manifest/);
  expect(r.stderr).toMatch(/qwen2\.5:14b: pulling \w+: 25% \(2\.3\/9\.0 GB\)/);
  expect(r.stderr).toMatch(/100% \(9\.0\/9\.0 GB\)/);
  expect(r.stderr).toMatch(/Downloaded qwen2\.5:14b/);
  expect(ollama.models.has('qwen2.5:14b')).toBe(true);
  const pull = ollama.requests.find((q) => q.path === '/api/pull');
  expect(pull?.body.stream).toBe(true);
  expect(pull?.body.model ?? pull?.body.name).toBe('qwen2.5:14b');
});

test("without a model it pulls the profile's low and high models", async () => {
  const r = await run(['pull']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).data.models).toEqual(['qwen2.5:7b', 'qwen2.5:14b']);
});

test('a model the library does not have: a clear error in the user language, nothing changes', async () => {
  const r = await run(['pull', 'no-such-model'], 'zh');
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/Ollama 无法下载 no-such-model/);
  expect(ollama.models.has('no-such-model')).toBe(false);
});

test('no server there: says how to start it', async () => {
  await ollama.close();
  const r = await run(['pull', 'qwen2.5:14b']);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/Cannot reach the Ollama server at http:\/\/127\.0\.0\.1:\d+ .*ollama serve/);
});

test('doctor suggests the pull command for a model an Ollama server lacks, the preset hint for other local servers', async () => {
  const { missingModelFix } = await import('../src/doctor');
  const { PRESETS } = await import('../src/presets');
  const preset = (name: string) => PRESETS.find((p) => p.name === name);
  expect(missingModelFix(preset('ollama'), ['qwen2.5:14b'], 'local', 'en')).toBe(
    'get the model: slothtool llm-base pull qwen2.5:14b --profile local',
  );
  expect(missingModelFix(preset('lmstudio'), ['m'], 'ls', 'en')).toBe('get the model: lms get m && lms load m');
  expect(missingModelFix(undefined, ['m'], 'cloud', 'en')).not.toContain('pull');
});
