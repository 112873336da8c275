import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from './openai-server';
import { createTempHome, packageDir, type TempHome } from './temp-home';

/** What an end-to-end test of `ai` needs: a temp home with this checkout's llm-base registered,
 * a profile `local` on a scripted model server, and a workspace folder to run in. */
export interface AiFixture {
  temp: TempHome;
  server: ScriptedServer;
  /** The workspace: `<home>/project`. */
  cwd: string;
  /** The temp home's environment (a copy: a test may change it). */
  env: NodeJS.ProcessEnv;
  /** Something to stop before the server and the home go (a child process: kill it and wait). */
  onCleanup(stop: () => unknown): void;
  /** Stop what `onCleanup` names (last first), close the server, remove the home once every
   * process in it has exited. */
  cleanup(): Promise<void>;
}

export interface AiFixtureOptions {
  language?: 'en' | 'zh';
  server?: ScriptedServerOptions;
  /** Fields of the profile `local` (base_url, api_key, models `m`, timeout 10 s, no retries). */
  profile?: Record<string, unknown>;
  /** `plugin-configs/ai.json`. */
  aiConfig?: object;
  /** The llm-base package folder to register (this checkout's by default). */
  llmBase?: string;
  /** Make the workspace a git repository (its own identity; the temp HOME has no git config). */
  git?: boolean;
}

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> =>
  new Promise((resolve, reject) => execFile(cmd, args, { cwd, env }, (err) => (err ? reject(err) : resolve())));

export async function createAiFixture(options: AiFixtureOptions = {}): Promise<AiFixture> {
  const temp = await createTempHome({ language: options.language ?? 'en' });
  const server = await startScriptedServer(options.server);
  const stops: Array<() => unknown> = [];
  const fixture: AiFixture = {
    temp,
    server,
    cwd: path.join(temp.home, 'project'),
    env: { ...temp.env },
    onCleanup: (stop) => void stops.push(stop),
    async cleanup() {
      for (const stop of stops.splice(0).reverse()) await stop();
      await server.close();
      await temp.cleanup();
    },
  };
  try {
    await fs.mkdir(fixture.cwd);
    if (options.git) {
      await run('git', ['init', '-q'], fixture.cwd, temp.env);
      await run('git', ['config', 'user.email', 'test@example.invalid'], fixture.cwd, temp.env);
      await run('git', ['config', 'user.name', 'Test'], fixture.cwd, temp.env);
    }
    await temp.registerPlugin('llm-base', options.llmBase ?? packageDir('plugin-llm-base'));
    await temp.writeJson('plugin-configs/llm-base.json', {
      default_profile: 'local',
      profiles: { local: { base_url: server.baseURL, api_key: 'sk-test', low_model: 'm', high_model: 'm', timeout: 10000, max_retries: 0, ...options.profile } },
    });
    if (options.aiConfig) await temp.writeJson('plugin-configs/ai.json', options.aiConfig);
  } catch (err) {
    await fixture.cleanup();
    throw err;
  }
  return fixture;
}

declare const beforeEach: (fn: () => Promise<void>) => void;
declare const afterEach: (fn: () => Promise<void>) => void;

/** A fixture made before each test (jest) and cleaned up after it. The object returned is filled
 * anew for each test. */
export function useFixture<T extends { cleanup(): Promise<void> }>(create: () => Promise<T>): T {
  const fx = {} as T;
  beforeEach(async () => {
    Object.assign(fx, await create());
  });
  afterEach(() => fx.cleanup());
  return fx;
}

/** `createAiFixture` before each test, `cleanup` after it. */
export const useAiFixture = (options: AiFixtureOptions = {}): AiFixture => useFixture(() => createAiFixture(options));
