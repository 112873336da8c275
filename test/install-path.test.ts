/**
 * The install path, end to end, as a user walks it (issue #8):
 *
 *   1. publish every public package to a real local npm registry with the release tooling
 *      (`node scripts/release.js publish`, i.e. `changeset publish`);
 *   2. in a fresh temp home, `slothtool install @holic512/plugin-llm-base` and `... plugin-ai`
 *      from that registry (the host itself is installed from the registry too);
 *   3. create an llm-base profile pointing at the testkit's scripted OpenAI-compatible server;
 *   4. `slothtool ai -p "..." --json` completes a cmd → tool_result → chat chain;
 *   5. `slothtool uninstall ai` and `llm-base` leave no plugin folders or registry entries.
 *
 * The quick start of README.md and README.zh-CN.md is then run literally, line by line, in a
 * fresh home: `npm install -g` of the host (into a temp prefix), both plugins, the Ollama preset
 * and the first answer of `slothtool ai -p`. The scripted Ollama listens on a free port (never
 * 11434: a real Ollama may be there, and a real `slothtool ai` must not meet the test's server),
 * and the user's environment says where, with OLLAMA_HOST — the variable the ollama CLI reads,
 * which the Ollama preset follows too (presets.ts presetBaseUrl). The README lines run as written.
 *
 * Then the same two plugins are installed the way the original SlothTool host does it
 * (`npm install <name> --prefix ~/.slothtool/plugins/<alias>` plus a registry.json entry
 * written by hand in the original format) and run the way it runs them (`node <binPath> ...`).
 *
 * The registry: verdaccio 6 on 127.0.0.1, a free port, config and storage in a temp folder,
 * no uplinks; started by this file and stopped by pid in afterAll; it also exits by itself when
 * this process ends (scripts/verdaccio/serve.js watches its stdin pipe).
 *
 * No internet: verdaccio also serves the third-party dependencies of our packages (openai, zod,
 * ...) at exactly the versions package-lock.json locked, written into its storage from the
 * tarballs `npm ci` left in this machine's npm cache (scripts/verdaccio/mirror.js). The sandbox
 * .npmrc sends every package to verdaccio, uses an empty temp npm cache, and sets proxy /
 * https-proxy to a closed 127.0.0.1 port (noproxy=127.0.0.1), so anything that is not local
 * fails at once instead of reaching a registry. (Reading the machine's cache with
 * --prefer-offline was tried and dropped: a cached registry document lists versions newer than
 * the locked ones, whose tarballs are not cached, so the test would break whenever a dependency
 * released inside our ranges.)
 * HOME, SLOTHTOOL_HOME, the npm user config and the npm cache all point into temp folders.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import {
  createTempHome,
  startScriptedOllama,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptedServer,
  type TempHome,
} from '@holic512/testkit';
import { cleanEnv, sandboxNpmrc, startRegistry, type LocalRegistry } from '../scripts/verdaccio';

const root = path.resolve(__dirname, '..');
const PLUGINS = { 'llm-base': '@holic512/plugin-llm-base', ai: '@holic512/plugin-ai' } as const;
type Alias = keyof typeof PLUGINS;

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Spawn without a shell and without blocking the event loop (the scripted model server lives
 * in this process). Killed after `timeoutMs`. */
function run(program: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

function explain(what: string, r: RunResult): string {
  return `${what} exited with ${r.code ?? r.signal} after ${r.ms} ms\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;
}

function expectOk(what: string, r: RunResult): void {
  if (r.code !== 0) throw new Error(explain(what, r));
}

function getJson(url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      })
      .on('error', reject);
  });
}

function readPackageJson(dir: string): { name: string; version: string; main?: string } {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

const published = ['shared', 'json-patch', 'tool-runner', 'plugin-llm-base', 'plugin-ai', 'slothtool'].map((f) =>
  readPackageJson(path.join(root, 'packages', f)),
);
const versions = Object.fromEntries(published.map((pkg) => [pkg.name, pkg.version]));

/** The model: first a cmd asking to list the project folder, then — once a tool_result came
 * back — a chat that says whether the result showed the marker file. A tool result is a
 * user-role message whose content is the JSON object (DESIGN §4); the system prompt quotes the
 * protocol too, so only user messages that parse to one count. */
type WireMessage = { role?: string; content?: unknown };
function toolResultIn(m: WireMessage): { stdoutTail?: string } | undefined {
  if (m.role !== 'user' || typeof m.content !== 'string' || !m.content.trim().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(m.content);
    return typeof parsed === 'object' && parsed !== null && (parsed as { _event?: unknown })._event === 'tool_result'
      ? (parsed as { stdoutTail?: string })
      : undefined;
  } catch {
    return undefined; // a user message that merely starts with a brace
  }
}
function messagesOf(req: RecordedRequest): WireMessage[] {
  return Array.isArray(req.body?.messages) ? req.body.messages : [];
}
function model(req: RecordedRequest): ScriptedReply {
  const result = messagesOf(req)
    .map(toolResultIn)
    .find((r) => r !== undefined);
  if (result) {
    const seen = (result.stdoutTail ?? '').includes('marker.txt');
    return { json: { type: 'chat', message: `The folder holds marker.txt (${seen ? 'seen' : 'not seen'}).`, data: { format: 'plain' } } };
  }
  return {
    json: {
      type: 'cmd',
      message: 'List the project folder to see what is there.',
      data: {
        cwd: null,
        commands: [{ tool: 'exec', program: 'ls', args: [], requires: { confirm: false, elevated: false, network: false, write: false } }],
        expected_effect: 'a file list',
      },
    },
  };
}

let work: string;
let registry: LocalRegistry | undefined;
let server: ScriptedServer | undefined;
let npmrc: string;
let hostBin: string | undefined;

/** The slothtool host installed from the registry by test 1; later tests need it. */
function host(): string {
  if (!hostBin) throw new Error('test 1 (publish + installing the host from the registry) did not complete; see its failure');
  return hostBin;
}
const homes: TempHome[] = [];
const timings: Record<string, number> = {};

/** A fresh temp HOME whose npm reads only the sandbox .npmrc (no npm_* from an outer npm run). */
async function sandboxHome(): Promise<TempHome & { npmEnv: NodeJS.ProcessEnv }> {
  const home = await createTempHome({ language: 'en' });
  homes.push(home);
  fs.writeFileSync(path.join(home.home, '.npmrc'), npmrc);
  const npmEnv = { ...cleanEnv(home.env), NO_COLOR: '1', FORCE_COLOR: '0' };
  return Object.assign(home, { npmEnv });
}

/** A project folder the assistant is run in, holding one marker file. */
function projectIn(home: TempHome): string {
  const dir = path.join(home.home, 'project');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'marker.txt'), 'hello\n');
  return dir;
}

/** Step 3: create and select a profile with llm-base's own CLI, the way a user would; `llmBase`
 * runs it (through `slothtool llm-base ...`, or `node <binPath> ...` as the original host does). */
async function createProfile(home: TempHome, llmBase: (args: string[]) => Promise<RunResult>): Promise<void> {
  const profile = [
    '--base-url',
    server!.baseURL,
    '--api-key',
    'sk-test',
    '--low-model',
    'test-low',
    '--high-model',
    'test-high',
    '--timeout',
    '20000',
  ];
  expectOk('llm-base config create local', await llmBase(['config', 'create', 'local', ...profile]));
  expectOk('llm-base config set-default local', await llmBase(['config', 'set-default', 'local']));
  const cfg = await home.readJson<{ default_profile: string; profiles: Record<string, { base_url: string }> }>(
    'plugin-configs/llm-base.json',
  );
  expect(cfg.default_profile).toBe('local');
  expect(cfg.profiles.local.base_url).toBe(server!.baseURL);
}

interface JsonEvent {
  type: string;
  [k: string]: any;
}

/** Step 4's checks: the JSON event stream and what the model was sent. */
function expectChain(r: RunResult, requestsBefore: number): void {
  if (r.code !== 0) throw new Error(explain('ai -p --json', r));
  const events: JsonEvent[] = r.stdout
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l));
  const types = events.map((e) => e.type);
  expect(types).toContain('tool_result');
  const toolResult = events.find((e) => e.type === 'tool_result')!.result;
  expect(toolResult).toMatchObject({ _event: 'tool_result', tool: 'exec', program: 'ls', exitCode: 0 });
  expect(toolResult.stdoutTail).toContain('marker.txt');
  const final = events.find((e) => e.type === 'final')!;
  expect(final).toMatchObject({ outcome: 'answered', steps: 1 });
  expect(final.message).toContain('marker.txt (seen)');
  const chats = server!.requests.slice(requestsBefore).filter((q) => q.path.endsWith('/chat/completions'));
  expect(chats).toHaveLength(2);
  expect(messagesOf(chats[0]).some((m) => toolResultIn(m))).toBe(false);
  expect(
    messagesOf(chats[1])
      .map(toolResultIn)
      .find((r) => r),
  ).toMatchObject({ tool: 'exec', program: 'ls', exitCode: 0 });
}

beforeAll(async () => {
  const t0 = Date.now();
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'slothtool-install-path-')));
  registry = await startRegistry({
    dir: path.join(work, 'verdaccio'),
    mirror: { roots: ['shared', 'json-patch', 'tool-runner', 'plugin-llm-base', 'plugin-ai', 'slothtool'].map((f) => `packages/${f}`) },
  });
  timings.registryUp = Date.now() - t0;
  const cache = path.join(work, 'npm-cache');
  npmrc = await sandboxNpmrc({ registry, cache });
  server = await startScriptedServer();
  server.setHandler(model);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await registry?.stop();
  for (const h of homes) await h.cleanup();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  console.log(`install-path timings (ms): ${JSON.stringify(timings)}`);
}, 30_000);

test('1. the release tooling publishes every public package to the local registry', async () => {
  const publisher = await sandboxHome();
  const r = await run(process.execPath, [path.join(root, 'scripts', 'release.js'), 'publish', '--no-git-tag'], {
    cwd: root,
    env: publisher.npmEnv,
    timeoutMs: 120_000,
  });
  timings.publish = r.ms;
  expectOk('node scripts/release.js publish --no-git-tag', r);
  for (const [name, version] of Object.entries(versions)) {
    const res = await getJson(`${registry!.url}/${name.replace('/', '%2f')}`);
    expect({ name, status: res.status }).toEqual({ name, status: 200 });
    expect({ name, latest: res.body['dist-tags'].latest }).toEqual({ name, latest: version });
  }
  // the host a user runs comes from the registry as well
  const bin = path.join(work, 'host', 'node_modules', '@holic512', 'slothtool', 'bin', 'slothtool.js');
  const installed = await run('npm', ['install', '@holic512/slothtool', '--prefix', path.join(work, 'host')], {
    cwd: work,
    env: publisher.npmEnv,
  });
  timings.installHost = installed.ms;
  expectOk('npm install @holic512/slothtool', installed);
  expect(fs.existsSync(bin)).toBe(true);
  hostBin = bin;
}, 150_000);

describe('a user with the slothtool host', () => {
  let user: TempHome & { npmEnv: NodeJS.ProcessEnv };
  const slothtool = (args: string[], cwd?: string, timeoutMs?: number): Promise<RunResult> =>
    run(process.execPath, [host(), ...args], { cwd: cwd ?? user.home, env: user.npmEnv, timeoutMs });

  beforeAll(async () => {
    user = await sandboxHome();
  });

  test('2. slothtool install llm-base and ai from the registry', async () => {
    for (const [alias, name] of Object.entries(PLUGINS) as [Alias, string][]) {
      const r = await slothtool(['install', name], undefined, 120_000);
      timings[`install ${alias}`] = r.ms;
      expectOk(`slothtool install ${name}`, r);
      const reg = await user.readJson<{ plugins: Record<string, { name: string; version: string; binPath: string; installedAt: string }> }>(
        'registry.json',
      );
      const entry = reg.plugins[alias];
      expect(entry).toMatchObject({ name, version: versions[name] });
      expect(entry.binPath).toBe(path.join(user.slothtoolHome, 'plugins', alias, 'node_modules', name, 'bin', `${alias}.js`));
      expect(fs.existsSync(entry.binPath)).toBe(true);
      expect(Number.isNaN(Date.parse(entry.installedAt))).toBe(false);
    }
    // plugin-ai's library chain came from the registry, not from this checkout
    const aiDir = path.join(user.slothtoolHome, 'plugins', 'ai');
    const trDir = path.join(aiDir, 'node_modules', '@holic512', 'tool-runner');
    expect(readPackageJson(trDir).version).toBe(versions['@holic512/tool-runner']);
    expect(readPackageJson(path.join(aiDir, 'node_modules', '@holic512', 'json-patch')).version).toBe(versions['@holic512/json-patch']);
    expect(fs.lstatSync(trDir).isSymbolicLink()).toBe(false);
  }, 150_000);

  test('3. an llm-base profile pointing at the scripted model server', async () => {
    await createProfile(user, (args) => slothtool(['llm-base', ...args]));
  });

  test('4. slothtool ai -p "..." --json completes cmd → tool_result → chat', async () => {
    const before = server!.requests.length;
    const r = await slothtool(['ai', '-p', 'What is in this folder?', '--json'], projectIn(user));
    timings.aiRun = r.ms;
    expectChain(r, before);
  });

  test('5. slothtool uninstall ai and llm-base leave no plugin folders or registry entries', async () => {
    for (const alias of ['ai', 'llm-base']) {
      const r = await slothtool(['uninstall', alias]);
      expectOk(`slothtool uninstall ${alias}`, r);
    }
    const reg = await user.readJson<{ plugins: Record<string, unknown> }>('registry.json');
    expect(reg.plugins).toEqual({});
    const pluginsDir = path.join(user.slothtoolHome, 'plugins');
    expect(fs.existsSync(pluginsDir) ? fs.readdirSync(pluginsDir) : []).toEqual([]);
  });
});

test("the original host's way: npm install --prefix plugins/<alias>, a hand-written registry entry, node <binPath>", async () => {
  const hostAtHand = host();
  const user = await sandboxHome();
  const plugins: Record<string, { name: string; version: string; binPath: string; installedAt: string }> = {};
  for (const [alias, name] of Object.entries(PLUGINS) as [Alias, string][]) {
    const prefix = path.join(user.slothtoolHome, 'plugins', alias);
    const r = await run('npm', ['install', name, '--prefix', prefix], { cwd: user.home, env: user.npmEnv, timeoutMs: 120_000 });
    timings[`original-style install ${alias}`] = r.ms;
    expectOk(`npm install ${name} --prefix ${prefix}`, r);
    const pkgDir = path.join(prefix, 'node_modules', name);
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
    plugins[alias] = {
      name,
      version: pkg.version,
      binPath: path.join(pkgDir, Object.values(pkg.bin)[0]),
      installedAt: new Date().toISOString(),
    };
  }
  // the original format, byte for byte what the original host writes
  fs.writeFileSync(path.join(user.slothtoolHome, 'registry.json'), JSON.stringify({ plugins }, null, 2));

  await createProfile(user, (args) => run(process.execPath, [plugins['llm-base'].binPath, ...args], { cwd: user.home, env: user.npmEnv }));

  const before = server!.requests.length;
  const r = await run(process.execPath, [plugins.ai.binPath, '-p', 'What is in this folder?', '--json'], {
    cwd: projectIn(user),
    env: user.npmEnv,
  });
  timings.originalStyleAiRun = r.ms;
  expectChain(r, before);

  // our host reads the registry the original host wrote
  const list = await run(process.execPath, [hostAtHand, 'list'], { cwd: user.home, env: user.npmEnv });
  expectOk('slothtool list', list);
  expect(list.stdout).toContain('llm-base');
  expect(list.stdout).toContain('ai');
}, 150_000);

/** What the Ollama preset says when nothing listens at its address, in each README's language. */
const refusedText = {
  en: (url: string) =>
    `Cannot connect to ${url} (ECONNREFUSED): nothing is listening there. Start it: ollama serve; or if the address is wrong, set it: slothtool llm-base config update ollama --base-url <url>. Check with: slothtool llm-base doctor ollama`,
  zh: (url: string) =>
    `无法连接 ${url}（ECONNREFUSED）：那里没有服务在监听。请启动它：ollama serve；如果地址不对，改正它：slothtool llm-base config update ollama --base-url <地址>。检查：slothtool llm-base doctor ollama`,
};

/** The command lines of the first indented block under a README heading, comments dropped. */
function quickStartLines(readme: string, heading: string): string[] {
  const text = fs.readFileSync(path.join(root, readme), 'utf8');
  const from = text.indexOf(`\n${heading}\n`);
  if (from < 0) throw new Error(`${readme} has no "${heading}" section`);
  const lines = text.slice(from + heading.length + 2).split('\n');
  const start = lines.findIndex((l) => l.startsWith('    '));
  const block: string[] = [];
  for (const l of lines.slice(start)) {
    if (!l.startsWith('    ')) break;
    block.push(l.trim());
  }
  return block;
}

/** A command line as a shell would split it: words, double-quoted words, no expansions. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] ?? m[2]);
  return out;
}

describe.each([
  ['README.md', '## Quick start', 'en', 'Hello from the quick start.'],
  ['README.zh-CN.md', '## 快速开始', 'zh', '你好，这是快速开始。'],
] as const)('%s quick start, run literally line by line', (readme, heading, language, answer) => {
  test('host, both plugins, a model, first answer', async () => {
    const lines = quickStartLines(readme, heading);
    expect(lines[0]).toBe('npm install -g @holic512/slothtool');
    // The preset's model server: the scripted Ollama (native API: llm-base sends num_ctx there),
    // on a free port that OLLAMA_HOST names, with the preset's model pulled.
    const ollama = await startScriptedOllama({ models: [{ name: 'qwen2.5:7b' }, { name: 'qwen2.5:14b' }] });
    try {
      ollama.setHandler(() => ({ json: { type: 'chat', message: answer, data: { format: 'plain' } } }));
      const user = await sandboxHome();
      await user.writeJson('settings.json', { language });
      const globalPrefix = path.join(user.home, 'npm-global');
      const env = {
        ...user.npmEnv,
        OLLAMA_HOST: `127.0.0.1:${ollama.port}`,
        npm_config_prefix: globalPrefix,
        PATH: [path.join(globalPrefix, 'bin'), path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter),
      };
      const project = projectIn(user);
      let last: RunResult | undefined;
      for (const line of lines) {
        const [program, ...args] = words(line);
        last = await run(program, args, { cwd: project, env, timeoutMs: 120_000 });
        expectOk(`${readme}: ${line}`, last);
      }
      expect(last!.stdout).toContain(answer);
      const profile = (await user.readJson<{ profiles: Record<string, { base_url: string }> }>('plugin-configs/llm-base.json')).profiles
        .ollama;
      expect(profile.base_url).toBe(`http://127.0.0.1:${ollama.port}/v1`);
      expect(
        ollama.requests.some(
          (q) => q.path === '/api/chat' && ((q.body as { options?: { num_ctx?: number } }).options?.num_ctx ?? 0) >= 16000,
        ),
      ).toBe(true);
      // The same last line with Ollama stopped (issue #36): refused, and what to do about it.
      await ollama.close();
      const [program, ...args] = words(lines[lines.length - 1]);
      const stopped = await run(program, args, { cwd: project, env, timeoutMs: 120_000 });
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toContain(refusedText[language](profile.base_url));
    } finally {
      await ollama.close();
    }
  }, 300_000);
});
