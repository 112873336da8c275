import { spawn, spawnSync } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, type TempHome } from '@holic512/testkit';
import { homePaths, type HomePaths } from '../src/paths';

export const BIN = path.resolve(__dirname, '..', 'bin', 'slothtool.js');

/** A plugin bin that echoes its arguments as JSON and exits with `--exit <n>` when given. */
export const ECHO_BIN = `#!/usr/bin/env node
const args = process.argv.slice(2);
process.stdout.write(JSON.stringify({ args }) + '\\n');
const i = args.indexOf('--exit');
process.exitCode = i === -1 ? 0 : Number(args[i + 1]);
`;

export interface FixtureOptions {
  name: string;
  version?: string;
  /** package.json `bin`; defaults to `{<last name part>: 'bin/cli.js'}`. `null` for none. */
  bin?: string | Record<string, string> | null;
  /** Files to write, relative to the package folder. Defaults to the bin with ECHO_BIN. */
  files?: Record<string, string>;
  extra?: Record<string, unknown>;
}

/** Write a plugin package folder (package.json + bin) under `parent/<folder>`. */
export async function makePlugin(parent: string, folder: string, options: FixtureOptions): Promise<string> {
  const dir = path.join(parent, folder);
  const bin = options.bin === undefined ? { [options.name.replace(/^.*\//, '')]: 'bin/cli.js' } : options.bin;
  const pkg: Record<string, unknown> = { name: options.name, version: options.version ?? '1.0.0', ...options.extra };
  if (bin !== null) pkg.bin = bin;
  const files = options.files ?? { 'bin/cli.js': ECHO_BIN };
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
  return dir;
}

/** `npm pack` a fixture folder into `dest` (works offline); returns the tarball path. */
export function pack(dir: string, dest: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
  const [{ filename }] = JSON.parse(r.stdout) as Array<{ filename: string }>;
  return path.join(dest, filename);
}

/** Environment for the real bin: the temp home's, with npm forbidden to reach the network. */
export function offlineEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
}

export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run `slothtool ...args` to completion. */
export function cli(args: string[], env: NodeJS.ProcessEnv, cwd?: string): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { env, cwd, encoding: 'utf8' });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Start `slothtool ...args`; `ready` resolves once `marker` shows up on `stream`. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, marker: string, stream: 'stdout' | 'stderr' = 'stdout') {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  const ready = new Promise<void>((resolve, reject) => {
    for (const name of ['stdout', 'stderr'] as const) {
      child[name].on('data', (c: Buffer) => {
        out[name] += c.toString();
        if (name === stream && out[name].includes(marker)) resolve();
      });
    }
    child.on('exit', () => reject(new Error(`exited before "${marker}": ${out.stdout} ${out.stderr}`)));
  });
  ready.catch(() => undefined); // awaited by the test when it matters
  const exited = new Promise<CliResult>((resolve) =>
    child.on('close', (status, signal) => resolve({ status, signal, stdout: out.stdout, stderr: out.stderr })),
  );
  return { child, ready, exited };
}

/** Entries of a folder, or [] when it does not exist. */
export async function entries(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch {
    return [];
  }
}

/** A temp home and the SlothTool paths in it, made before each test and removed after it. */
export function useHome(): { temp: TempHome; paths: HomePaths } {
  const home = {} as { temp: TempHome; paths: HomePaths };
  beforeEach(async () => {
    home.temp = await createTempHome();
    home.paths = homePaths(home.temp.slothtoolHome);
  });
  afterEach(() => home.temp.cleanup());
  return home;
}
