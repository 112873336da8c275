import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A throw-away HOME with a SlothTool home inside it, for tests that run real bins. */
export interface TempHome {
  /** The temporary HOME directory. */
  home: string;
  /** `<home>/.slothtool`, also exported as SLOTHTOOL_HOME in `env`. */
  slothtoolHome: string;
  /** process.env with HOME, USERPROFILE and SLOTHTOOL_HOME pointing into the temp dir. */
  env: NodeJS.ProcessEnv;
  /** Write JSON under the SlothTool home (`rel` is relative to it); parents are created. */
  writeJson(rel: string, data: unknown): Promise<string>;
  /** Read JSON under the SlothTool home. */
  readJson<T = unknown>(rel: string): Promise<T>;
  /** Register a package folder of this checkout (or any folder with a package.json and a bin)
   * in `registry.json` the way `slothtool install` would, without copying it. */
  registerPlugin(alias: string, packageDir: string): Promise<void>;
  /** Remove everything. Safe to call twice. */
  cleanup(): Promise<void>;
}

export interface TempHomeOptions {
  /** Writes `settings.json` with this language when given. */
  language?: 'zh' | 'en';
}

/** Create a temp HOME + SLOTHTOOL_HOME. Never touches the real home. */
export async function createTempHome(options: TempHomeOptions = {}): Promise<TempHome> {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'slothtool-test-')));
  const slothtoolHome = path.join(home, '.slothtool');
  await fs.mkdir(slothtoolHome, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    SLOTHTOOL_HOME: slothtoolHome,
    NO_UPDATE_NOTIFIER: '1',
  };
  const resolve = (rel: string): string => path.join(slothtoolHome, rel);
  const temp: TempHome = {
    home,
    slothtoolHome,
    env,
    async writeJson(rel, data) {
      const file = resolve(rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, JSON.stringify(data, null, 2) + '\n');
      return file;
    },
    async readJson<T>(rel: string): Promise<T> {
      return JSON.parse(await fs.readFile(resolve(rel), 'utf8')) as T;
    },
    async registerPlugin(alias, packageDir) {
      const pkg = JSON.parse(await fs.readFile(path.join(packageDir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        bin?: string | Record<string, string>;
      };
      const binRel = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
      if (!binRel) throw new Error(`${packageDir}/package.json has no bin`);
      let registry: { plugins: Record<string, unknown> } = { plugins: {} };
      try {
        registry = JSON.parse(await fs.readFile(resolve('registry.json'), 'utf8'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      registry.plugins[alias] = {
        name: pkg.name,
        version: pkg.version,
        binPath: path.resolve(packageDir, binRel),
        installedAt: new Date().toISOString(),
      };
      await temp.writeJson('registry.json', registry);
    },
    async cleanup() {
      await fs.rm(home, { recursive: true, force: true });
    },
  };
  if (options.language) await temp.writeJson('settings.json', { language: options.language });
  return temp;
}

/** Absolute path of a package folder of this checkout, e.g. `packageDir('plugin-llm-base')`. */
export function packageDir(name: string): string {
  return path.resolve(__dirname, '..', '..', name);
}
