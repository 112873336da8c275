import path = require('path');
import type { ExecResult } from '../exec';
import { parseOutput, type Parsed } from '../parse-output';
import { redact, redactValue } from '../redact';
import { npmSecretOutput } from '../policy/programs';
import { findProgram } from '../sandbox';
import { sandboxReport } from '../sandbox/report';
import type { ExecStep } from '../types';
import * as git from './git-harden';
import type { RunToolResult, ToolContext } from './types';

/**
 * Redact a run's whole output, in place, before it is cut into parsed items: a line of a key
 * block alone (one `grep -rn` match) has lost the context that shows it is one.
 */
export function redactOutput<R extends Pick<ExecResult, 'stdoutTail' | 'stderrTail'>>(r: R): R {
  r.stdoutTail = redact(r.stdoutTail);
  r.stderrTail = redact(r.stderrTail);
  return r;
}

/**
 * The fields of a tool_result that describe a finished run, for the model and logs. `r` comes
 * through {@link redactOutput}: its tails are not scanned again here (the runner's gate passes
 * the whole result once more, so a scan here would only repeat one of the other two).
 */
export function runFields(r: ExecResult, parsed: Parsed | undefined) {
  return {
    exitCode: r.exitCode,
    ...(r.signal ? { signal: r.signal } : {}),
    ...(r.timedOut ? { timedOut: true as const } : {}),
    ...(r.aborted ? { aborted: true as const } : {}),
    durationMs: r.durationMs,
    stdoutTail: r.stdoutTail,
    stderrTail: r.stderrTail,
    truncated: r.truncated,
    ...(parsed ? { parsed: redactValue(parsed) } : {}),
    ...(r.error ? { error: { code: r.error.code, message: redact(r.error.message) } } : {}),
  };
}

/**
 * Whether to spawn through the sandbox: only a program that exists. A missing one is spawned
 * directly, where it fails at once with ENOENT (nothing runs), instead of a bubblewrap error.
 */
export function sandboxable(program: string, cwd: string, env: NodeJS.ProcessEnv): boolean {
  const name = program.includes('/') ? path.resolve(cwd, program) : program;
  // Only a found program is remembered: one installed later is looked up again (and sandboxed).
  const key = `${name}\0${env.PATH ?? ''}`;
  if (foundPrograms.has(key)) return true;
  const found = findProgram(name, env) !== undefined;
  if (found) {
    if (foundPrograms.size >= 256) foundPrograms.clear();
    foundPrograms.add(key);
  }
  return found;
}

/** Programs found on a PATH before (name and PATH). */
const foundPrograms = new Set<string>();

/** How a sandboxed run is reported: the sandbox, and what it stopped or which limit the run hit when it failed (sandbox/report.ts). */
export function sandboxField(
  sandbox: NonNullable<ToolContext['sandbox']> & { isolatedNetwork?: boolean },
  r: Pick<ExecResult, 'exitCode' | 'signal' | 'stdoutTail' | 'stderrTail'>,
  cwd: string,
  lang: ToolContext['lang'],
): NonNullable<RunToolResult['sandbox']> {
  return sandboxReport(sandbox, r, cwd, lang, redact);
}

/** Environment additions that keep programs from waiting on a terminal that is not there. */
export const NON_INTERACTIVE_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  MANPAGER: 'cat',
};

/**
 * Command-scope git configuration (it overrides a repository's own .git/config): a cloned
 * repository cannot make a read-only `git status` run its fsmonitor program.
 */
export function hardenedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // A runner passes the same environment every step: the last answer is reused while every
  // variable of it is unchanged (compared one by one, so a change made meanwhile counts), and it
  // is frozen, so nobody can change the shared answer. node's live process.env is read variable
  // by variable through the C environment: checking it would cost what building does, so it is
  // built each time.
  if (env === process.env) return buildHardenedEnv(env);
  if (lastHardened && lastHardened.base === env && sameEnv(env, lastHardened.seen)) return lastHardened.out;
  const out = Object.freeze(buildHardenedEnv(env));
  lastHardened = { base: env, seen: { ...env }, out };
  return out;
}

/** The last environment hardenedEnv was given, a copy of its variables then, and its answer. */
let lastHardened: { base: NodeJS.ProcessEnv; seen: NodeJS.ProcessEnv; out: NodeJS.ProcessEnv } | undefined;

function sameEnv(env: NodeJS.ProcessEnv, seen: NodeJS.ProcessEnv): boolean {
  let n = 0;
  for (const key in env) {
    if (env[key] !== seen[key]) return false;
    n++;
  }
  let m = 0;
  for (const _key in seen) m++;
  return n === m;
}

function buildHardenedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, ...NON_INTERACTIVE_ENV };
  // An empty or relative PATH entry means "the current folder": `git` could then be a file
  // the workspace ships. Keep only absolute entries, so a name is the program it was judged as.
  for (const key of Object.keys(out)) {
    if (key.toUpperCase() !== 'PATH' || typeof out[key] !== 'string') continue;
    const sep = process.platform === 'win32' ? ';' : ':';
    out[key] = (out[key] as string)
      .split(sep)
      .filter((dir) => path.isAbsolute(dir))
      .join(sep);
  }
  if (out.GIT_CONFIG_COUNT === undefined) {
    out.GIT_CONFIG_COUNT = '2';
    out.GIT_CONFIG_KEY_0 = 'core.fsmonitor';
    out.GIT_CONFIG_VALUE_0 = 'false';
    out.GIT_CONFIG_KEY_1 = 'core.pager';
    out.GIT_CONFIG_VALUE_1 = 'cat';
  }
  return out;
}

/**
 * The argument vector and environment a model-requested command really runs with: the
 * non-interactive environment for every program, and for git everything the repository's own
 * configuration could make it run switched off (see git-harden.ts); `hardened` says what.
 */
export async function hardenedCommand(
  program: string,
  args: readonly string[],
  cwd: string,
  base: NodeJS.ProcessEnv,
  sandbox?: ToolContext['sandbox'],
): Promise<{ args: string[]; env: NodeJS.ProcessEnv; hardened: string[] }> {
  const env = hardenedEnv(base);
  // go.mod's `toolchain` line would make go download and run another toolchain: stay local.
  if (program === 'go' || program.endsWith('/go'))
    return { args: [...args], env: { ...env, GOTOOLCHAIN: 'local' }, hardened: ['GOTOOLCHAIN=local'] };
  const wrapped = git.isGit(program) ? { index: -1, chdir: [] } : git.wrappedGit(program, args);
  const inner = wrapped.index;
  if (!git.isGit(program) && inner < 0) return { args: [...args], env, hardened: [] };
  const wrap = sandbox && sandboxable(program, cwd, env) ? (p: string, a: string[]) => sandbox.wrap(p, a, cwd) : undefined;
  const gitArgs = inner < 0 ? args : args.slice(inner + 1);
  // The drivers of the repository git will really use: `env -C dir` and git's own `-C`, `--git-dir`, … included.
  const globals = [...wrapped.chdir.flatMap((d) => ['-C', d]), ...git.repositoryGlobals(gitArgs)];
  const h = git.hardenGit(gitArgs, await git.filterDrivers(cwd, env, wrap, globals));
  if (inner < 0) return { args: h.args, env: { ...env, ...h.env }, hardened: h.notes };
  // Under a wrapper (`timeout 5 git log`, `env -i git diff`) the environment may be cleared: the
  // overrides go on git's own command line too (`-c` is the same command scope).
  const config = h.config.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  return { args: [...args.slice(0, inner + 1), ...config, ...h.args], env: { ...env, ...h.env }, hardened: h.notes };
}

/** Resolve a step's cwd against the runner's cwd. */
export function stepCwd(step: { cwd?: string | null }, base: string): string {
  return typeof step.cwd === 'string' && step.cwd.trim() ? path.resolve(base, step.cwd) : base;
}

/** Run an exec step: no shell, the hardened environment, output captured and redacted. */
export async function runExec(step: ExecStep, ctx: ToolContext): Promise<RunToolResult> {
  const cwd = stepCwd(step, ctx.cwd);
  const timeoutMs = typeof step.timeoutMs === 'number' && step.timeoutMs > 0 ? Math.min(step.timeoutMs, ctx.timeoutMs * 10) : ctx.timeoutMs;
  const { args, env, hardened } = await hardenedCommand(step.program, step.args, cwd, ctx.env, ctx.sandbox);
  const wrapped = ctx.sandbox && sandboxable(step.program, cwd, env) ? ctx.sandbox.wrap(step.program, args, cwd) : undefined;
  const r = await ctx.deps.exec({
    program: wrapped?.program ?? step.program,
    args: wrapped?.args ?? args,
    ...(wrapped?.fds ? { fds: wrapped.fds } : {}),
    // A sandbox prepared ahead only while nothing of the session runs beside the steps (a background process could change its files meanwhile).
    ...(wrapped?.commandAt !== undefined && !ctx.session?.procs.running() ? { commandAt: wrapped.commandAt } : {}),
    cwd,
    env,
    timeoutMs,
    signal: ctx.signal,
    maxOutputBytes: ctx.maxOutputBytes,
    onStdout: ctx.onOutput ? (s, skipped) => ctx.onOutput?.(s, 'stdout', skipped) : undefined,
    onStderr: ctx.onOutput ? (s, skipped) => ctx.onOutput?.(s, 'stderr', skipped) : undefined,
  });
  // A credential printed as a bare value matches no redaction pattern: mask the whole output.
  if ((step.program === 'npm' || step.program.endsWith('/npm')) && npmSecretOutput(step.args) === 'value' && r.stdoutTail) {
    r.stdoutTail = `[redacted: ${Buffer.byteLength(r.stdoutTail)} bytes of npm configuration that may hold credentials]`;
  }
  const parsed = parseOutput(step, redactOutput(r));
  return {
    _event: 'tool_result',
    id: ctx.id,
    tool: 'exec',
    cwd,
    program: step.program,
    args: redactValue(step.args),
    ...runFields(r, parsed),
    ...(wrapped && ctx.sandbox
      ? { sandbox: sandboxField(wrapped.isolatedNetwork ? { ...ctx.sandbox, isolatedNetwork: true } : ctx.sandbox, r, cwd, ctx.lang) }
      : {}),
    ...(hardened.length ? { hardened } : {}),
    decision: ctx.decision,
  };
}
