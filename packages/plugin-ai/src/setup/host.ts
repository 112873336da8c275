import fs = require('fs');
import path = require('path');
import type { ChildProcess, SpawnOptions } from 'child_process';
import { packageRootOf } from '../config/llm-base';

export const LLM_BASE_PACKAGE = '@holic512/plugin-llm-base';

/** How to run the slothtool host: a program and the arguments before the command's own. */
export interface HostCommand {
  program: string;
  args: string[];
  /** How to show it to the user (a command they can paste). */
  display: string;
}

/** The bin of the slothtool host next to this plugin-ai in a checkout of the monorepo
 * (`packages/slothtool/bin/slothtool.js`), or undefined when plugin-ai runs from an install. */
export function checkoutHostBin(pluginAiRoot: string): string | undefined {
  const hostRoot = path.join(path.dirname(pluginAiRoot), 'slothtool');
  try {
    const pkg: unknown = JSON.parse(fs.readFileSync(path.join(hostRoot, 'package.json'), 'utf8'));
    if (!pkg || typeof pkg !== 'object' || (pkg as { name?: unknown }).name !== '@holic512/slothtool') return undefined;
  } catch {
    return undefined; // no sibling host: plugin-ai was installed, not run from a checkout
  }
  const bin = path.join(hostRoot, 'bin', 'slothtool.js');
  return fs.existsSync(bin) ? bin : undefined;
}

/** plugin-ai's package folder, from lib/setup/ or from the bundle in dist/. */
function ownRoot(): string {
  return packageRootOf(__filename, '@holic512/plugin-ai') ?? path.resolve(__dirname, '..', '..');
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The host to run: `SLOTHTOOL_AI_HOST_BIN` (a JavaScript file run with node; for tests and
 * unusual layouts), else this checkout's packages/slothtool/bin/slothtool.js, else `slothtool`
 * on PATH.
 */
export function resolveHostCommand(env: NodeJS.ProcessEnv, pluginAiRoot = ownRoot()): HostCommand {
  const bin = env.SLOTHTOOL_AI_HOST_BIN || checkoutHostBin(pluginAiRoot);
  if (bin) return { program: process.execPath, args: [path.resolve(bin)], display: `node ${quote(path.resolve(bin))}` };
  const program = process.platform === 'win32' ? 'slothtool.cmd' : 'slothtool';
  return { program, args: [], display: 'slothtool' };
}

/**
 * What `install` is given: `SLOTHTOOL_AI_LLM_BASE_SPEC` (a local folder or tarball — for tests
 * and offline machines), else `@holic512/plugin-llm-base`.
 */
export function llmBaseSpec(env: NodeJS.ProcessEnv): string {
  return env.SLOTHTOOL_AI_LLM_BASE_SPEC || LLM_BASE_PACKAGE;
}

/** The install command as the user would type it. */
export function installCommandText(host: HostCommand, spec: string = LLM_BASE_PACKAGE): string {
  return `${host.display} install ${quote(spec)}`;
}

export type SpawnFn = (program: string, args: string[], options: SpawnOptions) => ChildProcess;

/**
 * Run `<host> install <spec>` with an argument vector (no shell). Its output goes to `output`;
 * stdin is not given to it. Resolves with the exit code, or an error text when it could not start.
 */
export function runInstall(
  host: HostCommand,
  options: { env: NodeJS.ProcessEnv; output: NodeJS.WritableStream; spawn: SpawnFn; spec?: string },
): Promise<{ code: number | null; error?: string }> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = options.spawn(host.program, [...host.args, 'install', options.spec ?? LLM_BASE_PACKAGE], {
        env: options.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Windows runs a .cmd shim only through its shell (Node refuses it otherwise).
        ...(process.platform === 'win32' && /\.cmd$/i.test(host.program) ? { shell: true } : {}),
      });
    } catch (err) {
      resolve({ code: null, error: (err as Error).message });
      return;
    }
    const forward = (chunk: Buffer) => options.output.write(chunk);
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    child.once('error', (err) => resolve({ code: null, error: err.message }));
    child.once('close', (code, signal) => resolve(signal ? { code: null, error: `killed by ${signal}` } : { code }));
  });
}
