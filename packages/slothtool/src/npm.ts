import spawn from 'cross-spawn';
import { SlothToolError } from './errors';

/** How an npm run ended. `output` is the tail of its combined stdout and stderr. */
export interface NpmResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

export interface NpmRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Called with every chunk npm prints, for a verbose CLI. */
  onOutput?: (chunk: string) => void;
  /** Aborting it ends npm with SIGTERM. */
  signal?: AbortSignal;
}

/** Runs npm with an argument vector (never a shell string). */
export type RunNpm = (args: string[], options: NpmRunOptions) => Promise<NpmResult>;

const TAIL = 4000;

/**
 * npm settings inherited from an outer `npm run` (e.g. `npm start` of a workspace) that would
 * redirect an install away from the prefix we pass.
 */
const INHERITED_NPM_VARS = /^npm_config_(prefix|global|location|workspaces?|include_workspace_root)$/i;

/** Copy of `env` without npm variables that would fight `--prefix`. */
export function npmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!INHERITED_NPM_VARS.test(k)) out[k] = v;
  return out;
}

/** The real npm, found on PATH by cross-spawn (which also handles npm.cmd on Windows). */
export function createRunNpm(): RunNpm {
  return (args, options) =>
    new Promise((resolve, reject) => {
      const child = spawn('npm', args, { cwd: options.cwd, env: npmEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const collect = (chunk: Buffer): void => {
        const text = chunk.toString('utf8');
        options.onOutput?.(text);
        output = (output + text).slice(-TAIL);
      };
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      child.on('error', (err: NodeJS.ErrnoException) => {
        reject(err.code === 'ENOENT' ? new SlothToolError('NPM_NOT_FOUND', {}, { cause: err }) : err);
      });
      const abort = (): void => {
        child.kill('SIGTERM');
      };
      options.signal?.addEventListener('abort', abort, { once: true });
      child.on('close', (code, signal) => {
        options.signal?.removeEventListener('abort', abort);
        resolve({ code, signal, output });
      });
    });
}
