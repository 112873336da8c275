import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import path = require('path');
import { startScriptedOllama, type ScriptedOllama, type ScriptedOllamaOptions } from './ollama-server';
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from './openai-server';
import { createTempHome, packageDir, type TempHome } from './temp-home';

/** What an end-to-end test of `ai` needs: a temp home with this checkout's llm-base registered,
 * a profile `local` on a scripted model server, and a workspace folder to run in. `S` is the
 * server: the scripted OpenAI-compatible one, or the scripted Ollama when `ollama` was given. */
export interface AiFixture<S extends ScriptedServer | ScriptedOllama = ScriptedServer> {
  temp: TempHome;
  server: S;
  /** The workspace: `<home>/project`. */
  cwd: string;
  /** The temp home's environment without the machine's API key variables (`*_API_KEY`) and
   * `SLOTHTOOL_AI_*` settings: what `ai` sees is what the test gives it (a copy: a test may
   * change it). */
  env: NodeJS.ProcessEnv;
  /** Something to stop before the server and the home go (a child process: kill it and wait). */
  onCleanup(stop: () => unknown): void;
  /** Stop what `onCleanup` names (last first), close the server, remove the home once every
   * process in it has exited. */
  cleanup(): Promise<void>;
}

export interface AiFixtureOptions {
  /** `settings.json`'s language (default `en`); `null` writes no settings (the locale decides). */
  language?: 'en' | 'zh' | null;
  server?: ScriptedServerOptions;
  /** Start the scripted Ollama (with these options) instead of the OpenAI-compatible server; the
   * profile then says `provider: "ollama"`, `base_url: <ollama>/v1` and no key. */
  ollama?: ScriptedOllamaOptions;
  /** Fields of the profile `local` (base_url on the server, api_key, models `m`, timeout 10 s,
   * no retries); `false`: no `llm-base.json` at all (a home before the setup). */
  profile?: Record<string, unknown> | false;
  /** Further profiles beside `local`, each with the same defaults as `local` under its fields
   * (a profile whose server is gone: `{ base_url: <a closed port> }`). */
  profiles?: Record<string, Record<string, unknown>>;
  /** `plugin-configs/ai.json`. */
  aiConfig?: object;
  /** The llm-base package folder to register (this checkout's by default), or a function that
   * writes one into the new home and returns its folder (another llm-base); `false`: none. */
  llmBase?: string | false | ((temp: TempHome) => Promise<string>);
  /** Register this checkout's plugin-ai as `ai` too (for commands run through the host). */
  registerAi?: boolean;
  /** Make the workspace a git repository (its own identity; the temp HOME has no git config). */
  git?: boolean;
  /** Point this process's SLOTHTOOL_HOME at the temp home until cleanup (for code run in this
   * process that reads it from process.env, as llm-base's module does). */
  inProcess?: boolean;
}

type FixtureServer<O extends AiFixtureOptions> = O extends { ollama: ScriptedOllamaOptions } ? ScriptedOllama : ScriptedServer;

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> =>
  new Promise((resolve, reject) => execFile(cmd, args, { cwd, env }, (err) => (err ? reject(err) : resolve())));

/** The home's env without what the machine may set for a real `ai`: API keys, `SLOTHTOOL_AI_*`
 * (the temp home's empty probe list stays: a test never meets a real server on a usual port). */
function fixtureEnv(temp: TempHome): NodeJS.ProcessEnv {
  const env = { ...temp.env };
  for (const key of Object.keys(env)) {
    if (/_API_KEY$/.test(key) || (key.startsWith('SLOTHTOOL_AI_') && key !== 'SLOTHTOOL_AI_PROBE_PORTS')) delete env[key];
  }
  return env;
}

/** The fields every profile of the fixture starts from. */
function profileBase(server: ScriptedServer | ScriptedOllama, ollama: boolean): Record<string, unknown> {
  const common = { low_model: 'm', high_model: 'm', timeout: 10000, max_retries: 0 };
  return ollama
    ? { base_url: `${server.baseURL}/v1`, provider: 'ollama', api_key: '', ...common }
    : { base_url: server.baseURL, api_key: 'sk-test', ...common };
}

async function writeHome(fixture: AiFixture<ScriptedServer | ScriptedOllama>, options: AiFixtureOptions): Promise<void> {
  const { temp, server } = fixture;
  await fs.mkdir(fixture.cwd);
  if (options.git) {
    await run('git', ['init', '-q'], fixture.cwd, temp.env);
    await run('git', ['config', 'user.email', 'test@example.invalid'], fixture.cwd, temp.env);
    await run('git', ['config', 'user.name', 'Test'], fixture.cwd, temp.env);
  }
  if (options.llmBase !== false) {
    const llmBase = typeof options.llmBase === 'function' ? await options.llmBase(temp) : options.llmBase;
    await temp.registerPlugin('llm-base', llmBase ?? packageDir('plugin-llm-base'));
  }
  if (options.registerAi) await temp.registerPlugin('ai', packageDir('plugin-ai'));
  if (options.profile !== false) {
    const base = profileBase(server, options.ollama !== undefined);
    const profiles: Record<string, Record<string, unknown>> = { local: { ...base, ...options.profile } };
    for (const [name, fields] of Object.entries(options.profiles ?? {})) profiles[name] = { ...base, ...fields };
    await temp.writeJson('plugin-configs/llm-base.json', { default_profile: 'local', profiles });
  }
  if (options.aiConfig) await temp.writeJson('plugin-configs/ai.json', options.aiConfig);
}

export function createAiFixture<O extends AiFixtureOptions = AiFixtureOptions>(options?: O): Promise<AiFixture<FixtureServer<O>>>;
export async function createAiFixture(options: AiFixtureOptions = {}): Promise<AiFixture<ScriptedServer | ScriptedOllama>> {
  const language = options.language === undefined ? 'en' : options.language;
  const temp = await createTempHome(language ? { language } : {});
  const server = options.ollama ? await startScriptedOllama(options.ollama) : await startScriptedServer(options.server);
  const stops: Array<() => unknown> = [];
  const savedHome = process.env.SLOTHTOOL_HOME;
  if (options.inProcess) process.env.SLOTHTOOL_HOME = temp.slothtoolHome;
  const fixture: AiFixture<ScriptedServer | ScriptedOllama> = {
    temp,
    server,
    cwd: path.join(temp.home, 'project'),
    env: fixtureEnv(temp),
    onCleanup: (stop) => void stops.push(stop),
    async cleanup() {
      for (const stop of stops.splice(0).reverse()) await stop();
      if (options.inProcess) {
        if (savedHome === undefined) delete process.env.SLOTHTOOL_HOME;
        else process.env.SLOTHTOOL_HOME = savedHome;
      }
      await server.close();
      await temp.cleanup();
    },
  };
  try {
    await writeHome(fixture, options);
  } catch (err) {
    await fixture.cleanup();
    throw err;
  }
  return fixture;
}

declare const beforeEach: (fn: () => Promise<void>) => void;
declare const afterEach: (fn: () => Promise<void>) => void;
declare const beforeAll: (fn: () => Promise<void>) => void;
declare const afterAll: (fn: () => Promise<void>) => void;

/** When a fixture is made: before each test (a fresh one per test) or once for the file's tests
 * (or the describe block it is called in). */
export type FixtureScope = 'each' | 'all';

/** A fixture made before each test (jest; `scope: 'all'`: once, before all) and cleaned up after
 * it. The object returned is filled anew each time it is made. */
export function useFixture<T extends { cleanup(): Promise<void> }>(create: () => Promise<T>, scope: FixtureScope = 'each'): T {
  const fx = {} as T;
  const [before, after] = scope === 'all' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    Object.assign(fx, await create());
  });
  after(() => fx.cleanup());
  return fx;
}

/** `createAiFixture` before each test (or once: `scope: 'all'`), `cleanup` after it. `options`
 * may be a function, called each time (for options that are only known then, e.g. a closed port). */
export function useAiFixture<O extends AiFixtureOptions = AiFixtureOptions>(
  options?: O | (() => O | Promise<O>),
  scope?: FixtureScope,
): AiFixture<FixtureServer<O>>;
export function useAiFixture(
  options: AiFixtureOptions | (() => AiFixtureOptions | Promise<AiFixtureOptions>) = {},
  scope: FixtureScope = 'each',
): AiFixture<ScriptedServer | ScriptedOllama> {
  return useFixture(async () => createAiFixture(typeof options === 'function' ? await options() : options), scope);
}
