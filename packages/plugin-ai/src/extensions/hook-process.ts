/**
 * A hook command as a process: the shell it runs with, and one run of it with its output capped,
 * its time limit and its abort (hooks.ts decides what the result means).
 */
import fs = require('fs');
import { childProcess } from '../lazy-modules';

const MAX_OUTPUT = 64 * 1024;

/** How one hook command ended, with what it printed (each stream capped at MAX_OUTPUT). */
export interface HookRan {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  error?: string;
}

/**
 * The shell hooks run with: bash found on the hook environment's PATH (Claude Code runs hook
 * commands with bash, so `[[ … ]]`, arrays and `$'…'` work as they do there), else /bin/sh;
 * cmd.exe on Windows.
 */
export function hookShell(env: NodeJS.ProcessEnv = process.env): { file: string; name: string } {
  if (process.platform === 'win32') return { file: env.ComSpec || 'cmd.exe', name: 'cmd' };
  for (const dir of (env.PATH ?? '').split(':')) {
    if (!dir.startsWith('/')) continue; // a relative PATH entry would depend on the hook's folder
    const file = `${dir.replace(/\/+$/, '')}/bash`;
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return { file, name: 'bash' };
    } catch {
      // not here: the next PATH entry
    }
  }
  return { file: '/bin/sh', name: 'sh' };
}

/** One hook command in its own process group, `input` on its stdin; killed (the whole group) at `timeoutMs` or on abort. */
export function runHookCommand(
  command: string,
  input: string,
  timeoutMs: number,
  options: { cwd: string; env: NodeJS.ProcessEnv; signal?: AbortSignal },
  shellFile: string,
): Promise<HookRan> {
  return new Promise((resolve) => {
    const shell =
      process.platform === 'win32' ? { file: shellFile, args: ['/d', '/s', '/c', command] } : { file: shellFile, args: ['-c', command] };
    // child_process is loaded when a hook runs: app.ts reads the hooks of every session.
    const child = childProcess().spawn(shell.file, shell.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const keep = (prev: string, chunk: Buffer) => (prev.length < MAX_OUTPUT ? (prev + chunk.toString('utf8')).slice(0, MAX_OUTPUT) : prev);
    child.stdout.on('data', (c: Buffer) => (stdout = keep(stdout, c)));
    child.stderr.on('data', (c: Buffer) => (stderr = keep(stderr, c)));
    const kill = () => {
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = () => kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = (r: HookRan) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    child.on('error', (err) => done({ code: null, stdout, stderr, timedOut, error: err.message }));
    child.on('close', (code) => done({ code, stdout, stderr, timedOut }));
    child.stdin.on('error', () => undefined); // a hook that does not read its input is fine
    child.stdin.end(input);
  });
}
