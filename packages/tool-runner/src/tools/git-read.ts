/**
 * Running a read-only git command for the person (`/diff` in `ai -i`), not for the model: no
 * shell, and the same hardening as a model's git step (git-harden.ts: the repository's external
 * diff, textconv, filters, fsmonitor, pager and hooks switched off), so a repository cannot run
 * its own programs through it. Only git's read subcommands are taken.
 */
import { exec, type ExecResult } from '../exec';
import { GIT_READ_SUBCOMMANDS } from '../policy/git';
import { hardenedCommand } from './exec-tool';
import { subcommandIndex } from '../policy/git-subcommand-index';

export interface GitReadOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Bytes of each stream kept (head and tail); default 4 MiB. */
  maxOutputBytes?: number;
  /** Default 30 s. */
  timeoutMs?: number;
}

/** Run `git args` (a read subcommand) hardened; spawn failures and time-outs are results too. */
export async function gitRead(args: readonly string[], options: GitReadOptions): Promise<ExecResult> {
  const at = subcommandIndex(args);
  const sub = at >= 0 ? args[at] : '';
  if (!GIT_READ_SUBCOMMANDS.has(sub)) throw new TypeError(`gitRead runs git's read subcommands only, not "${sub || args.join(' ')}"`);
  const hardened = await hardenedCommand('git', args, options.cwd, options.env ?? process.env);
  return exec({
    program: 'git',
    args: hardened.args,
    cwd: options.cwd,
    env: hardened.env,
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxOutputBytes: options.maxOutputBytes ?? 4 * 1024 * 1024,
  });
}
