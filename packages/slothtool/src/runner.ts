import type { ChildProcess, SpawnOptions } from 'child_process';
import fs = require('fs');
import path = require('path');
import { SlothToolError } from './errors';
import { childProcess, tty } from './lazy-libraries';
import type { RunnableEntry } from './registry-lookup';

/** How a plugin process ended. Exactly one of the two is set. */
export interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Side effects of running a plugin, replaceable in tests. */
export interface RunnerDeps {
  spawn: (command: string, args: string[], options: SpawnOptions) => ChildProcess;
  /** The node binary plugins are started with. */
  execPath: string;
  /** Where SIGINT/SIGTERM arrive (the host process). */
  signals: Pick<NodeJS.Process, 'on' | 'removeListener'>;
  /** Whether the host's stdin is a terminal (see `runPlugin`). */
  stdinIsTTY: boolean;
  fileExists: (file: string) => boolean;
}

export function createDefaultRunnerDeps(): RunnerDeps {
  return {
    spawn: (command, args, options) => childProcess().spawn(command, args, options),
    execPath: process.execPath,
    signals: process,
    // Asked only when a plugin is spawned (a run in this process has no use for tty); not
    // process.stdin: that would open fd 0.
    get stdinIsTTY() {
      return tty().isatty(0);
    },
    fileExists: (file) => fs.existsSync(file),
  };
}

/**
 * Start `node <binPath> ...args` with inherited stdio and wait for it. While it runs the host
 * stays alive and passes SIGTERM on to it, and SIGINT too unless stdin is a terminal: there
 * Ctrl-C already reaches the plugin (same process group), and a second copy would turn one
 * press into two (plugins treat a second Ctrl-C as "quit"). Throws BIN_MISSING or SPAWN_FAILED.
 */
export function runPlugin(
  alias: string,
  entry: RunnableEntry,
  args: string[],
  deps: RunnerDeps = createDefaultRunnerDeps(),
): Promise<RunOutcome> {
  if (!deps.fileExists(entry.binPath)) {
    return Promise.reject(new SlothToolError('BIN_MISSING', { alias, name: entry.name, binPath: entry.binPath }));
  }
  return new Promise((resolve, reject) => {
    const child = deps.spawn(deps.execPath, [entry.binPath, ...args], { stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => (): void => {
      if (signal === 'SIGINT' && deps.stdinIsTTY) return;
      child.kill(signal);
    };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    deps.signals.on('SIGINT', onInt);
    deps.signals.on('SIGTERM', onTerm);
    const done = (): void => {
      deps.signals.removeListener('SIGINT', onInt);
      deps.signals.removeListener('SIGTERM', onTerm);
    };
    child.on('error', (err) => {
      done();
      reject(new SlothToolError('SPAWN_FAILED', { alias, binPath: entry.binPath, detail: err.message }, { cause: err }));
    });
    child.on('exit', (code, signal) => {
      done();
      resolve({ code, signal });
    });
  });
}

/**
 * Whether a plugin may run inside the host's own node process: its package.json (the one that
 * owns the bin, with the registry's name) says `"slothtool": {"inProcess": true}`. Such a plugin
 * behaves the same either way (it reads `process.argv`, sets `process.exitCode`, handles its own
 * signals), and in-process it skips a second node start-up. Every other plugin is spawned.
 */
export function runsInProcess(entry: RunnableEntry, readFile: (file: string) => string = (f) => fs.readFileSync(f, 'utf8')): boolean {
  let dir = path.dirname(entry.binPath);
  for (let i = 0; i < 3; i++) {
    try {
      const pkg = JSON.parse(readFile(path.join(dir, 'package.json'))) as { name?: unknown; slothtool?: { inProcess?: unknown } };
      return pkg.name === entry.name && pkg.slothtool?.inProcess === true;
    } catch {
      dir = path.dirname(dir);
    }
  }
  return false;
}

/**
 * Run an in-process plugin: its bin is loaded with `process.argv` as a spawned one would see it.
 * The plugin owns the process from here (output, exit code, signals). Throws BIN_MISSING.
 */
export function runInProcess(
  alias: string,
  entry: RunnableEntry,
  args: string[],
  deps: Pick<RunnerDeps, 'execPath' | 'fileExists'> = createDefaultRunnerDeps(),
): void {
  if (!deps.fileExists(entry.binPath)) throw new SlothToolError('BIN_MISSING', { alias, name: entry.name, binPath: entry.binPath });
  process.argv = [deps.execPath, entry.binPath, ...args];
  // Loading the plugin's bin is running it: a path known only at run time, not an import.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(entry.binPath);
}
