import { promises as fs, readFileSync } from 'fs';
import os = require('os');
import path = require('path');
import { registryEntry } from './registry-entry';

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
  /** Read a JSON Lines file under the SlothTool home (an audit log, a session, a call log): one value a line. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- records are checked by the test that reads them
  readJsonLines<T = any>(rel: string): Promise<T[]>;
  /** Register a package folder of this checkout (or any folder with a package.json and a bin)
   * in `registry.json` the way `slothtool install` would, without copying it. */
  registerPlugin(alias: string, packageDir: string): Promise<void>;
  /** Remove everything, once every process started in this home has exited (see
   * `removeWhenQuiet`). Safe to call twice. */
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
    // The guided setup knocks on the usual local ports (Ollama's 11434, …) unless told: a test
    // never meets a real server there. A test that wants the probe sets its own list.
    SLOTHTOOL_AI_PROBE_PORTS: '',
  };
  // The Ollama preset follows OLLAMA_HOST (as the ollama CLI does): the machine's setting stays out.
  delete env.OLLAMA_HOST;
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
    async readJsonLines<T>(rel: string): Promise<T[]> {
      const text = (await fs.readFile(resolve(rel), 'utf8')).trim();
      return text ? text.split('\n').map((line) => JSON.parse(line) as T) : [];
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
      registry.plugins[alias] = registryEntry(pkg.name, path.resolve(packageDir, binRel), {
        version: pkg.version,
        installedAt: new Date().toISOString(),
      });
      await temp.writeJson('registry.json', registry);
    },
    async cleanup() {
      await removeWhenQuiet(home);
    },
  };
  if (options.language) await temp.writeJson('settings.json', { language: options.language });
  return temp;
}

/** Processes (other than this one) started in `home`: HOME or SLOTHTOOL_HOME in their
 * environment points into it, or their working folder is inside it. Linux only (/proc);
 * elsewhere none are seen. */
export async function processesIn(home: string): Promise<number[]> {
  let pids: string[];
  try {
    pids = (await fs.readdir('/proc')).filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid);
  } catch {
    return [];
  }
  const inside = (p: string) => p === home || p.startsWith(home + path.sep);
  const found: number[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      try {
        const environ = (await fs.readFile(`/proc/${pid}/environ`, 'latin1')).split('\0');
        const fromEnv = environ.some(
          (kv) => (kv.startsWith('HOME=') || kv.startsWith('SLOTHTOOL_HOME=')) && inside(kv.slice(kv.indexOf('=') + 1)),
        );
        if (fromEnv || inside(await fs.readlink(`/proc/${pid}/cwd`))) found.push(Number(pid));
      } catch {
        // gone meanwhile, a zombie, or another user's
      }
    }),
  );
  return found;
}

/** How long `removeWhenQuiet` waits for a home's processes to end by themselves (ms; polled
 * every 20 ms). A deadline, not a count of polls: on a busy machine one scan of /proc can take
 * longer than the poll interval. */
const QUIET_MS = 10_000;

/**
 * Remove `home` after every process started in it has exited. A child can outlive the one the
 * test waited for (ai's spawn helper ends when ai's IPC channel closes, a few milliseconds
 * later, and may still write into the project folder), and removing a folder while something
 * writes into it fails with ENOTEMPTY. So: wait until `processesIn(home)` is empty (up to
 * QUIET_MS; what is still running then is the test's own leftover and gets SIGKILL),
 * then remove; ENOTEMPTY is retried a few times only as a last resort (a process the scan
 * could not see, e.g. outside Linux).
 */
export async function removeWhenQuiet(home: string): Promise<void> {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let left = await processesIn(home);
  const deadline = Date.now() + QUIET_MS;
  while (left.length && Date.now() < deadline) {
    await pause(20);
    left = await processesIn(home);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (let i = 0; left.length && i < 100; i++) {
    await pause(20);
    left = await processesIn(home);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.rm(home, { recursive: true, force: true });
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EBUSY') || attempt >= 5) throw err;
      await pause(50);
    }
  }
}

/** Absolute path of a package folder of this checkout, e.g. `packageDir('plugin-llm-base')`. */
export function packageDir(name: string): string {
  return path.resolve(__dirname, '..', '..', name);
}

/** Alive = in the process table and not a zombie (a zombie has ended; only its parent's wait is
 * missing, and inside a container nobody may ever reap it). A zombie is seen on Linux (/proc). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}
