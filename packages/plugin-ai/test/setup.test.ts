import { promises as fs } from 'fs';
import * as net from 'net';
import * as path from 'path';
import {
  closedPort,
  createTempHome,
  packageDir,
  startScriptedOllama,
  startScriptedServer,
  useAiFixture,
  type ScriptedServer,
} from '@holic512/testkit';
import { needsSetup, runSetup, setupHint, resolveHostCommand, installCommandText, type SetupUi } from '../src/setup';
import { hostedPresets } from '../src/setup/presets';
import {
  answersAsOllama,
  DEFAULT_PROBE_TARGETS,
  likelyChatModels,
  modelIdsOf,
  probeLocalServers,
  probeTargetsFromEnv,
  type FetchFn,
} from '../src/setup/probe';
import { checkoutHostBin } from '../src/setup/host';
import { fakeLlmBase, ORIGINAL_WITH_PROFILES } from './fake-llm-base';
import { t } from '../src/i18n';

const LLM_BASE_DIR = packageDir('plugin-llm-base');

describe('probe targets from SLOTHTOOL_AI_PROBE_PORTS', () => {
  test.each([
    [undefined, DEFAULT_PROBE_TARGETS.map((t) => `${t.name}@${t.host}:${t.port}`), []],
    ['', [], []],
    ['4321', ['local@127.0.0.1:4321'], []],
    ['11434', ['ollama@127.0.0.1:11434'], []],
    ['lmstudio=127.0.0.1:5555, localhost:6666', ['lmstudio@127.0.0.1:5555', 'local@localhost:6666'], []],
    ['[::1]:7777', ['local@::1:7777'], []],
    ['10.0.0.5:11434,example.com:80,0.0.0.0:1,99999,abc', [], ['10.0.0.5:11434', 'example.com:80', '0.0.0.0:1', '99999', 'abc']],
  ])('%j', (value, targets, ignored) => {
    const r = probeTargetsFromEnv(value === undefined ? {} : { SLOTHTOOL_AI_PROBE_PORTS: value });
    expect(r.targets.map((t) => `${t.name}@${t.host}:${t.port}`)).toEqual(targets);
    expect(r.ignored).toEqual(ignored);
  });

  test('the defaults are the usual loopback ports of Ollama, LM Studio, llama.cpp and vLLM', () => {
    expect(DEFAULT_PROBE_TARGETS.map((t) => [t.name, t.host, t.port])).toEqual([
      ['ollama', '127.0.0.1', 11434],
      ['lmstudio', '127.0.0.1', 1234],
      ['llamacpp', '127.0.0.1', 8080],
      ['vllm', '127.0.0.1', 8000],
    ]);
  });
});

test.each([
  [{ object: 'list', data: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] }, ['a', 'b']],
  [{ models: [{ name: 'qwen2.5:7b' }] }, ['qwen2.5:7b']],
  [{ data: 'nope' }, []],
  [null, []],
  ['text', []],
])('model ids of %j', (body, ids) => {
  expect(modelIdsOf(body)).toEqual(ids);
});

test.each([
  [
    [
      'gpt-4o',
      'text-embedding-3-small',
      'whisper-1',
      'tts-1-hd',
      'dall-e-3',
      'omni-moderation-latest',
      'gpt-4o-mini',
      'gpt-4o-realtime-preview',
      'gpt-4o-mini-transcribe',
      'gpt-image-1',
    ],
    ['gpt-4o', 'gpt-4o-mini'],
  ],
  [['qwen2.5:7b', 'nomic-embed-text:latest', 'bge-reranker'], ['qwen2.5:7b']],
  [
    ['research-model', 'deepseek-chat'],
    ['research-model', 'deepseek-chat'],
  ],
  [['text-embedding-only'], ['text-embedding-only']],
])('chat models of %j', (ids, chat) => {
  expect(likelyChatModels(ids)).toEqual(chat);
});

describe('probeLocalServers', () => {
  let server: ScriptedServer;
  let silent: net.Server;
  const held: net.Socket[] = [];
  beforeEach(async () => {
    server = await startScriptedServer({ models: ['m1', 'm2'] });
    // accepts connections and never answers: only the time-out ends its probe
    silent = net.createServer((s) => held.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  });
  afterEach(async () => {
    for (const s of held.splice(0)) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
    await server.close();
  });

  test('lists what answered with its models; refused and silent ports are left out', async () => {
    const closed = await closedPort();
    const silentPort = (silent.address() as net.AddressInfo).port;
    const noModels = await startScriptedServer({ models: null });
    try {
      const targets = probeTargetsFromEnv({
        SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${closed},ollama=127.0.0.1:${server.port},127.0.0.1:${silentPort},127.0.0.1:${noModels.port}`,
      }).targets;
      // the silent port takes the whole time-out; the others answer long before it on any box
      const found = await probeLocalServers(targets, { timeoutMs: 3000 });
      expect(found.map((f) => [f.name, f.baseUrl, f.models])).toEqual([
        ['ollama', server.baseURL, ['m1', 'm2']],
        ['local', noModels.baseURL, []],
      ]);
    } finally {
      await noModels.close();
    }
  });

  test('all ports are probed at once, each with the time-out', async () => {
    const started: string[] = [];
    const signals: AbortSignal[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fakeFetch = (async (url: string, init: RequestInit) => {
      started.push(url);
      signals.push(init.signal as AbortSignal);
      await gate;
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    }) as unknown as FetchFn;
    const probing = probeLocalServers(DEFAULT_PROBE_TARGETS, { fetch: fakeFetch, timeoutMs: 800 });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([
      'http://127.0.0.1:11434/v1/models',
      'http://127.0.0.1:1234/v1/models',
      'http://127.0.0.1:8080/v1/models',
      'http://127.0.0.1:8000/v1/models',
    ]);
    expect(signals.every((s) => s instanceof AbortSignal)).toBe(true);
    release();
    expect(await probing).toEqual([]);
  });
});

describe('needsSetup and the non-TTY hint', () => {
  // llm-base reads its home from process.env
  const fx = useAiFixture({ llmBase: false, profile: false, inProcess: true });
  const check = (profile?: string) => needsSetup({ env: fx.env, profile });

  test('no registry: llm-base missing', () => {
    expect(check()).toMatchObject({ reason: 'no-llm-base', code: 'LLM_BASE_MISSING' });
  });

  test('a stale llm-base entry: llm-base missing, with the path', async () => {
    const gone = path.join(fx.temp.home, 'gone', 'bin', 'llm-base.js');
    await fx.temp.writeJson('registry.json', {
      plugins: { 'llm-base': { name: '@holic512/plugin-llm-base', version: '1.0.0', binPath: gone } },
    });
    expect(check()).toMatchObject({ reason: 'no-llm-base', code: 'LLM_BASE_STALE', path: gone });
    expect(setupHint('en', check())).toContain(`(the copy registered at ${gone} is missing or broken)`);
  });

  test('llm-base installed, no profile (no file; profiles but no default) → no-profile; a default → nothing', async () => {
    await fx.temp.registerPlugin('llm-base', LLM_BASE_DIR);
    expect(check()).toEqual({ reason: 'no-profile' });
    const profile = { base_url: 'http://127.0.0.1:9/v1', api_key: '', low_model: 'a', high_model: 'a', timeout: 1000 };
    await fx.temp.writeJson('plugin-configs/llm-base.json', { default_profile: '', profiles: { x: profile } });
    expect(check()).toEqual({ reason: 'no-profile' });
    expect(check('x')).toEqual({ reason: null });
    await fx.temp.writeJson('plugin-configs/llm-base.json', { default_profile: 'x', profiles: { x: profile } });
    expect(check()).toEqual({ reason: null });
  });

  test('problems the normal start-up names better are not setup reasons (a broken config is never overwritten)', async () => {
    await fx.temp.registerPlugin('llm-base', LLM_BASE_DIR);
    const file = path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"default_profile": ');
    // not a setup reason, but said (ai -p stops with exit 2, ai -i shows it when it opens)
    expect(check()).toEqual({
      reason: null,
      configProblem: `Config file ${file} is invalid: Unexpected end of JSON input. Fix the file (or delete it and run slothtool llm-base config create again)`,
    });
    await fs.writeFile(path.join(fx.temp.slothtoolHome, 'registry.json'), '{oops');
    expect(check()).toEqual({ reason: null });
  });

  test.each(['en', 'zh'] as const)('the non-TTY hint (%s) gives the exact commands', (lang) => {
    const missing = setupHint(lang, { reason: 'no-llm-base', code: 'LLM_BASE_MISSING' })!;
    expect(missing).toContain('slothtool install @holic512/plugin-llm-base');
    expect(missing).toContain('slothtool ai -i');
    const noProfile = setupHint(lang, { reason: 'no-profile' })!;
    for (const cmd of [
      'slothtool ai -i',
      'slothtool llm-base config create --preset ollama',
      'slothtool llm-base config create --preset deepseek',
      'export DEEPSEEK_API_KEY=',
      'slothtool llm-base doctor',
    ]) {
      expect(noProfile).toContain(cmd);
    }
    expect(/[\u4e00-\u9fff]/.test(noProfile)).toBe(lang === 'zh');
    expect(setupHint(lang, { reason: null })).toBeUndefined();
  });
});

describe('hosted presets', () => {
  test("llm-base's presets that need a key, DeepSeek first; the base_url override replaces every one", () => {
    const fromLlmBase = [
      { name: 'openai', base_url: 'https://api.openai.com/v1', low_model: 'gpt-4o-mini', high_model: 'gpt-4o', needs_key: true },
      { name: 'ollama', base_url: 'http://127.0.0.1:11434/v1', low_model: 'a', high_model: 'b', needs_key: false },
      {
        name: 'deepseek',
        base_url: 'https://api.deepseek.com/v1',
        low_model: 'deepseek-chat',
        high_model: 'deepseek-reasoner',
        needs_key: true,
      },
      { name: 'newcloud', base_url: 'https://new.example/v1', low_model: 'n1', high_model: 'n2', needs_key: true },
    ];
    expect(hostedPresets(fromLlmBase).map((p) => [p.name, p.label, p.keyEnv])).toEqual([
      ['deepseek', 'DeepSeek', 'DEEPSEEK_API_KEY'],
      ['openai', 'OpenAI', 'OPENAI_API_KEY'],
      ['newcloud', 'newcloud', 'NEWCLOUD_API_KEY'],
    ]);
    expect(hostedPresets(fromLlmBase, 'http://127.0.0.1:5/v1').every((p) => p.base_url === 'http://127.0.0.1:5/v1')).toBe(true);
  });

  test('an llm-base without list_presets (1.0.x): the built-in table', () => {
    expect(hostedPresets(undefined).map((p) => p.name)).toEqual(['deepseek', 'qwen', 'glm', 'kimi', 'openai']);
  });
});

describe('the slothtool host that installs llm-base', () => {
  test('SLOTHTOOL_AI_HOST_BIN wins; in this checkout it is packages/slothtool/bin/slothtool.js; elsewhere slothtool on PATH', async () => {
    const own = resolveHostCommand({ SLOTHTOOL_AI_HOST_BIN: '/opt/host.js' });
    expect(own).toEqual({ program: process.execPath, args: ['/opt/host.js'], display: 'node /opt/host.js' });
    expect(installCommandText(own)).toBe('node /opt/host.js install @holic512/plugin-llm-base');

    const checkoutBin = path.join(packageDir('slothtool'), 'bin', 'slothtool.js');
    expect(checkoutHostBin(packageDir('plugin-ai'))).toBe(checkoutBin);
    expect(resolveHostCommand({}, packageDir('plugin-ai')).args).toEqual([checkoutBin]);

    const elsewhere = await createTempHome();
    try {
      const installed = path.join(elsewhere.home, 'node_modules', '@holic512', 'plugin-ai');
      expect(resolveHostCommand({}, installed)).toMatchObject({ args: [], display: 'slothtool' });
      expect(installCommandText(resolveHostCommand({}, installed))).toBe('slothtool install @holic512/plugin-llm-base');
    } finally {
      await elsewhere.cleanup();
    }
  });
});

/** Answers the setup's questions from a script, in order; records what it printed and asked. */
function scriptedUi(answers: unknown[]): SetupUi & { printed: string[]; asked: string[]; offered: unknown[] } {
  const printed: string[] = [];
  const asked: string[] = [];
  /** What each question offered first: a select's initial choice, a text's initial value. */
  const offered: unknown[] = [];
  const next = async <T>(message: string): Promise<T | undefined> => {
    asked.push(message);
    if (!answers.length) throw new Error(`scripted ui: no answer for "${message}"`);
    return answers.shift() as T | undefined;
  };
  return {
    printed,
    asked,
    offered,
    print: (line) => void printed.push(line),
    select: (message, choices, initial) => (offered.push(choices[initial ?? 0]?.value), next(message)),
    text: (message, options) => (offered.push(options?.initial), next(message)),
    password: (message) => (offered.push(undefined), next(message)),
    confirm: (message) => (offered.push(undefined), next(message)),
  };
}

describe('runSetup with an original llm-base 1.0.x (no doctor): saved, checked by one call, taken back on cancel', () => {
  const fx = useAiFixture({ llmBase: fakeLlmBase(ORIGINAL_WITH_PROFILES), profile: false, inProcess: true, server: { models: ['only'] } });
  const cfg = () => fx.temp.readJson<{ default_profile: string; profiles: Record<string, unknown> }>('plugin-configs/llm-base.json');
  const options = (ui: SetupUi) => ({
    lang: 'en' as const,
    env: fx.env,
    ui,
    probeTargets: probeTargetsFromEnv({ SLOTHTOOL_AI_PROBE_PORTS: `127.0.0.1:${fx.server.port}` }).targets,
  });

  test('a working server: ready', async () => {
    fx.server.enqueue({ json: { ok: true } });
    const ui = scriptedUi(['local:0']);
    expect(await runSetup(options(ui))).toEqual({ status: 'ready', profile: 'local' });
    expect(ui.printed).toContain(t('en', 'noDoctor'));
    expect(ui.printed).toContain(t('en', 'pingOk'));
    expect(await cfg()).toMatchObject({
      default_profile: 'local',
      profiles: { local: { base_url: fx.server.baseURL, low_model: 'only' } },
    });
  });

  test('a failing server, cancel: the profile saved for the check is removed again', async () => {
    fx.server.enqueue({ status: 500 });
    const ui = scriptedUi(['local:0', 'cancel']);
    expect(await runSetup(options(ui))).toEqual({ status: 'cancelled' });
    expect(ui.printed.some((l) => l.startsWith('The model call failed (PROVIDER_ERROR)'))).toBe(true);
    expect(await cfg()).toEqual({ default_profile: '', profiles: {} });
  });

  test('retry goes round again: a second choice that works is saved under its own name', async () => {
    fx.server.enqueue({ content: 'not json' }, { json: { ok: true } });
    // server → fails → retry → another server by URL, no key; one listed model: no model question
    const ui = scriptedUi(['local:0', 'retry', 'other', `${fx.server.baseURL}/`, 'none']);
    expect(await runSetup(options(ui))).toEqual({ status: 'ready', profile: 'custom' });
    expect(ui.printed.filter((l) => l.startsWith('The model call failed (JSON)'))).toHaveLength(1);
    const c = await cfg();
    expect(c.default_profile).toBe('custom');
    expect(Object.keys(c.profiles)).toEqual(['custom']);
    expect(c.profiles.custom).toMatchObject({ base_url: fx.server.baseURL, api_key: '', low_model: 'only', high_model: 'only' });
  });
});

describe('runSetup with this repo llm-base (doctor before saving)', () => {
  const fx = useAiFixture({ profile: false, inProcess: true });

  // issue #36: the server is checked before any model name is asked, and what was typed is kept
  test('an address where nothing answers is said before any model name; typing it again starts from it', async () => {
    fx.server.models = ['only'];
    const closed = `http://127.0.0.1:${await closedPort()}/v1`;
    fx.server.enqueue({ json: { ok: true } });
    const ui = scriptedUi(['other', closed, 'none', 'retype', fx.server.baseURL, 'none']);
    expect(await runSetup({ lang: 'en', env: fx.env, ui, probeTargets: [] })).toEqual({ status: 'ready', profile: 'custom' });
    const said = ui.printed.find((l) => l.startsWith('Nothing answers at'));
    expect(said).toBe(
      `Nothing answers at ${closed} (ECONNREFUSED): the server is not running, or the address is wrong. Start it, or type the address again.`,
    );
    expect(ui.asked).toEqual([
      t('en', 'chooseServer'),
      t('en', 'askUrl'),
      t('en', 'keyHow', { label: closed }),
      t('en', 'afterFail'),
      t('en', 'askUrl'),
      t('en', 'keyHow', { label: fx.server.baseURL }),
    ]);
    expect(ui.asked).not.toContain(t('en', 'askLow'));
    expect(ui.offered[4]).toBe(closed); // the address as typed, to correct
  });

  test('"change the settings and try again" offers the server, address and model names typed before', async () => {
    // No /models (the names are typed); the model fails until the person chose to try again.
    fx.server.models = null;
    const url = fx.server.baseURL;
    const ui = scriptedUi(['other', url, 'none', 'typed-low', 'typed-high', 'retry', 'other', url, 'none', 'typed-low', 'typed-high']);
    fx.server.setHandler(() => (ui.asked.includes(t('en', 'afterFail')) ? { json: { ok: true } } : { status: 500 }));
    expect(await runSetup({ lang: 'en', env: fx.env, ui, probeTargets: [] })).toEqual({ status: 'ready', profile: 'custom' });
    const second = ui.asked.indexOf(t('en', 'afterFail')) + 1;
    expect(ui.asked.slice(second)).toEqual([
      t('en', 'chooseServer'),
      t('en', 'askUrl'),
      t('en', 'keyHow', { label: url }),
      t('en', 'askLow'),
      t('en', 'askHigh'),
    ]);
    expect(ui.offered.slice(second)).toEqual(['other', url, 'none', 'typed-low', 'typed-high']);
    const cfg = await fx.temp.readJson<{ profiles: Record<string, unknown> }>('plugin-configs/llm-base.json');
    expect(cfg.profiles.custom).toMatchObject({ base_url: url, low_model: 'typed-low', high_model: 'typed-high' });
  });

  test('a local server that wants a key (401 on /models): the key is asked, then its models are listed', async () => {
    const KEY = 'local-secret-key';
    const http = await import('http');
    const srv = http.createServer((req, res) => {
      const authed = req.headers.authorization === `Bearer ${KEY}`;
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      req.resume().on('end', () => {
        if (!authed) return send(401, { error: { message: 'no key', type: 'invalid_request_error' } });
        if (req.url === '/v1/models') return send(200, { data: [{ id: 'served-model' }] });
        send(200, {
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'served-model',
          choices: [{ index: 0, message: { role: 'assistant', content: '{"ok": true}' }, finish_reason: 'stop' }],
        });
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as net.AddressInfo).port;
    try {
      const ui = scriptedUi(['local:0', 'paste', KEY]);
      const result = await runSetup({
        lang: 'en',
        env: fx.env,
        ui,
        probeTargets: probeTargetsFromEnv({ SLOTHTOOL_AI_PROBE_PORTS: `vllm=127.0.0.1:${port}` }).targets,
      });
      expect(result).toEqual({ status: 'ready', profile: 'vllm' });
      expect(ui.asked).toEqual([t('en', 'chooseServer'), t('en', 'keyHow', { label: 'vLLM' }), t('en', 'askKey')]);
      const cfg = await fx.temp.readJson<{ profiles: Record<string, unknown> }>('plugin-configs/llm-base.json');
      expect(cfg.profiles.vllm).toMatchObject({
        base_url: `http://127.0.0.1:${port}/v1`,
        api_key: KEY,
        low_model: 'served-model',
        high_model: 'served-model',
        json_mode: 'response_format',
      });
      expect(ui.printed.join('\n')).not.toContain(KEY);
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });

  test('a hosted preset keeps every preset field: the saved DeepSeek profile has json_mode, and the check sends response_format', async () => {
    fx.server.models = ['deepseek-chat'];
    fx.server.setHandler(() => ({ json: { ok: true } }));
    try {
      // llm-base resolves `env:NAME` from its own process environment.
      process.env.DEEPSEEK_API_KEY = 'sk-setup-test-0000000000000000';
      const env: NodeJS.ProcessEnv = { ...fx.env, DEEPSEEK_API_KEY: process.env.DEEPSEEK_API_KEY };
      const ui = scriptedUi(['hosted:deepseek', 'env']);
      const result = await runSetup({ lang: 'en', env, ui, probeTargets: [], hostedBaseUrl: fx.server.baseURL });
      expect({ result, printed: ui.printed }).toMatchObject({ result: { status: 'ready', profile: 'deepseek' } });
      const cfg = await fx.temp.readJson<{ profiles: Record<string, Record<string, unknown>> }>('plugin-configs/llm-base.json');
      expect(cfg.profiles.deepseek).toMatchObject({
        api_key: 'env:DEEPSEEK_API_KEY',
        low_model: 'deepseek-chat',
        json_mode: 'response_format',
        pricing: { currency: 'CNY' },
      });
      // doctor's check and the transport probe's JSON requests carry a response_format; the
      // probe's tool-call request carries tools instead.
      const chats = fx.server.requests.filter((q) => q.path.endsWith('/chat/completions') && !(q.body as { tools?: unknown }).tools);
      expect(chats.length).toBeGreaterThan(0);
      expect(chats.every((q) => (q.body as { response_format?: unknown }).response_format !== undefined)).toBe(true);
      expect(ui.printed.join('\n')).toContain('Recorded: its turns use json.');
      expect(cfg.profiles.deepseek).toMatchObject({ capabilities: { tools: false, json_schema: false, json_object: true } });
    } finally {
      delete process.env.DEEPSEEK_API_KEY;
    }
  });

  test('"Look again" probes a second time: a server started meanwhile is offered', async () => {
    let up = false;
    const fakeFetch = (async () => {
      if (!up) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      return new Response(JSON.stringify({ data: [{ id: 'm' }] }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as FetchFn;
    const seen: string[][] = [];
    const ui = scriptedUi([]);
    ui.select = async (message, choices) => {
      ui.asked.push(message);
      seen.push(choices.map((c) => c.value));
      if (seen.length === 1) {
        up = true; // the person starts `ollama serve`, then looks again
        return 'rescan' as never;
      }
      return 'cancel' as never;
    };
    const result = await runSetup({ lang: 'en', env: fx.env, ui, fetch: fakeFetch, probeTargets: [...DEFAULT_PROBE_TARGETS.slice(0, 1)] });
    expect(result).toEqual({ status: 'cancelled' });
    expect(seen[0][0]).toBe('hosted:deepseek');
    expect(seen[0]).toContain('rescan');
    expect(seen[1][0]).toBe('local:0');
    expect(ui.printed).toContain(t('en', 'probeNoneHint'));
    expect(ui.printed).toContain(t('en', 'probeFound', { list: 'Ollama (http://127.0.0.1:11434/v1)' }));
    await expect(fs.access(path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.json'))).rejects.toThrow();
  });

  test('the server list starts on a found server, else on a provider whose key variable is set', async () => {
    const refused = (async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    }) as unknown as FetchFn;
    const initials: Array<[string | undefined, string[]]> = [];
    const ui = scriptedUi([]);
    ui.select = async (_message, choices, initial) => {
      initials.push([choices[initial ?? 0]?.value, choices.map((c) => c.value)]);
      return 'cancel' as never;
    };
    const env: NodeJS.ProcessEnv = { ...fx.env, MOONSHOT_API_KEY: 'k' };
    for (const k of Object.keys(env)) if (/_API_KEY$/.test(k) && k !== 'MOONSHOT_API_KEY') delete env[k];
    await runSetup({ lang: 'en', env, ui, fetch: refused, probeTargets: [...DEFAULT_PROBE_TARGETS] });
    expect(initials[0][0]).toBe('hosted:kimi');
    delete env.MOONSHOT_API_KEY;
    await runSetup({ lang: 'en', env, ui, fetch: refused, probeTargets: [...DEFAULT_PROBE_TARGETS] });
    expect(initials[1][0]).toBe('hosted:deepseek');
  });
});

test("a server on Ollama's port is called Ollama in the profile only when Ollama's native API answers there", async () => {
  const ollama = await startScriptedOllama();
  const other = await startScriptedServer();
  try {
    expect(await answersAsOllama(`${ollama.baseURL}/v1`, { timeoutMs: 2000 })).toBe(true);
    expect(await answersAsOllama(other.baseURL, { timeoutMs: 2000 })).toBe(false);
    expect(await answersAsOllama('http://127.0.0.1:9/v1', { timeoutMs: 2000 })).toBe(false);
  } finally {
    await ollama.close();
    await other.close();
  }
});
