import { createTempHome, packageDir, startScriptedServer, type ScriptedServer, type ScriptedServerOptions, type TempHome } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';

/** What an end-to-end test of the real bin needs: a temp home with this repo's llm-base, a
 * profile on the scripted model server, and a project folder to run in. */
export interface E2eFixture {
  temp: TempHome;
  server: ScriptedServer;
  cwd: string;
}

/** Set it up before each test and take it down after; `profile` overrides fields of the profile. */
export function useE2eFixture(options: { profile?: Record<string, unknown>; server?: ScriptedServerOptions } = {}): E2eFixture {
  const fx = {} as E2eFixture;
  beforeEach(async () => {
    fx.temp = await createTempHome({ language: 'en' });
    fx.server = await startScriptedServer(options.server);
    fx.cwd = path.join(fx.temp.home, 'project');
    await fs.mkdir(fx.cwd);
    await fx.temp.registerPlugin('llm-base', packageDir('plugin-llm-base'));
    await fx.temp.writeJson('plugin-configs/llm-base.json', {
      default_profile: 'local',
      profiles: { local: { base_url: fx.server.baseURL, api_key: 'sk-test', low_model: 'm', high_model: 'm', timeout: 10000, max_retries: 0, ...options.profile } },
    });
  });
  afterEach(async () => {
    await fx.server.close();
    await fx.temp.cleanup();
  });
  return fx;
}
