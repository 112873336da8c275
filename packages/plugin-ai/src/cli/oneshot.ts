import { redact } from '@holic512/shared';
import type { RunArgs } from './args';
import { createAppAgent, type AppAgent } from './app';
import type { ImageAttachment } from '../context/images';
import { AiError } from '../errors';
import type { AgentEvent, TurnResult } from '../agent/events';
import { exitCodeOf, exitCodeOfError, EXIT } from './exit-codes';
import { aiCommand, t, type Lang } from '../i18n';
import { JsonEventWriter } from './json-output';
import { openUnattended } from './unattended';
import { Lifetime } from './lifetime';
import { renderProgress } from './render';
import { commandTurnFor, fileRefsFor } from '../extensions/command-run';
import { initPrompt } from '../extensions/init-prompt';
import { usageMessage } from '@holic512/shared/lib/usage';
import { imagesModule, markdownView, streamJsonMode } from '../lazy-modules';

/** I/O of a one-shot run; the CLI passes the process streams. */
export interface OneShotIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Told when `ai` must stop (SIGTERM, SIGHUP, a second Ctrl+C); the CLI entry exits after. */
  lifetime: Lifetime;
}

const STDIN_MAX_BYTES = 1024 * 1024;

/** How long `ai -p "<prompt>"` waits for the first byte of a stdin that is not a terminal. */
export const STDIN_FIRST_CHUNK_WAIT_MS = 2000;

/** What came of reading stdin: the text, and whether we stopped waiting for a silent pipe. */
export interface PipedStdin {
  text: string;
  gaveUp: boolean;
}

/**
 * Read piped stdin (not a TTY) as extra context, up to 1 MiB (the context caps it further).
 * With `firstChunkWaitMs`, a stdin that stays open without sending anything (a parent process
 * that never closes it) is given up on after that long instead of hanging the run; once data
 * flows it is read to the end.
 */
export function readPipedStdin(stdin: OneShotIo['stdin'], options: { firstChunkWaitMs?: number } = {}): Promise<PipedStdin> {
  if (stdin.isTTY) return Promise.resolve({ text: '', gaveUp: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (gaveUp: boolean): void => {
      clearTimeout(timer);
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', onEnd);
      if (gaveUp) stdin.pause();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), gaveUp });
    };
    const onData = (chunk: Buffer | string): void => {
      clearTimeout(timer);
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (size < STDIN_MAX_BYTES) chunks.push(buf.subarray(0, STDIN_MAX_BYTES - size));
      size += buf.length;
    };
    const onEnd = (): void => finish(false);
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onEnd);
    if (options.firstChunkWaitMs !== undefined) {
      timer = setTimeout(() => {
        if (size === 0) finish(true);
      }, options.firstChunkWaitMs);
    }
  });
}

/** A markdown answer for a terminal, with the screen's renderer (loaded only here). The
 * answer matters more than its styling: when rendering fails the text goes out as it is. */
function renderMarkdownReply(text: string, env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream): string {
  try {
    const { createMarkdownRenderer, colorEnabled } = markdownView();
    const width = (stdout as { columns?: number }).columns ?? 80;
    return createMarkdownRenderer({ color: colorEnabled(env, true), width })(text);
  } catch {
    return text;
  }
}

/** Combine the prompt with piped input. The piped text goes to the model, so it passes the
 * redaction gate first (`cat .env | ai -p "check this"` sends no key). Call it once the gate
 * knows the run's secret values (after createAppAgent), or a known value with no shape of its
 * own (a profile's key for a local server) goes through as it is. */
export function withStdin(prompt: string | undefined, stdin: string): string {
  const extra = stdin.trim() ? `<stdin>\n${redact(stdin.replace(/\s+$/, ''))}\n</stdin>` : '';
  if (!prompt) return extra;
  return extra ? `${prompt}\n\n${extra}` : prompt;
}

/**
 * What a one-shot turn sends: `ai -p "/review src"` runs a custom command as `ai -i` does, `ai -p
 * /init` the built-in one (a custom `init` replaces it), and `@path` in the typed prompt (never in
 * what was piped in) brings in a file. Notes and files left out are said on stderr.
 */
function turnInput(
  app: ReturnType<typeof createAppAgent>,
  prompt: string,
  typed: string,
  cwd: string,
  lang: Lang,
  stderr: NodeJS.WritableStream,
): {
  message: string;
  options?: Pick<import('../agent/agent').SendOptions, 'prepare' | 'allow' | 'profile' | 'mode'>;
  refused?: { key: 'reviewNotGit'; vars: Record<string, string> };
} {
  // `/review` is built in: it needs no command file.
  const custom = app.commands.length || /^\s*\/review(\s|$)/i.test(prompt) ? commandTurnFor(app, prompt, cwd) : undefined;
  for (const n of custom?.notes ?? []) stderr.write(t(lang, n.key, n.vars) + '\n');
  if (custom) return custom;
  const init = /^\/init(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (init)
    return {
      message: initPrompt(app.projectDir, init[1] ?? '', cwd),
    };
  const onSkip = (rel: string, why: string) => stderr.write(t(lang, 'fileRefSkipped', { file: rel, why }) + '\n');
  return {
    message: prompt,
    options: typed.includes('@') ? fileRefsFor(app, prompt, cwd, { refsIn: typed, lang, onSkip }) : undefined,
  };
}

/** `ai -p "<prompt>"`: one turn, events as text or JSON lines, a meaningful exit code. */
export async function runOneShot(args: RunArgs, lang: Lang, io?: Partial<OneShotIo>): Promise<number> {
  // One session fed line by line from stdin (cli/stream-json.ts).
  if (args.inputFormat === 'stream-json') return streamJsonMode().runStreamJson(args, lang, io);
  const stdout = io?.stdout ?? process.stdout;
  const json = new JsonEventWriter(stdout, undefined, lang);
  try {
    return await oneShot(args, lang, io, json);
  } finally {
    // Every JSON line reaches stdout before the exit code is set.
    await json.flush();
  }
}

/** The turn's answer as text: the answer on stdout (Markdown drawn on a terminal), anything else and the suggestions on stderr. */
function printAnswer(
  result: TurnResult,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env: NodeJS.ProcessEnv },
): void {
  const { stdout, stderr, env } = io;
  const target = result.outcome === 'answered' ? stdout : stderr;
  const reply = result.reply;
  const markdown = (stdout as { isTTY?: boolean }).isTTY && !result.raw && reply?.type === 'chat' && reply.data?.format === 'markdown';
  target.write((markdown ? renderMarkdownReply(result.message, env, stdout) : result.message) + '\n');
  // What the model offers to do next, numbered as `ai -i` shows them (stdout stays the answer).
  if (result.suggestions?.length) stderr.write(result.suggestions.map((s, i) => `  ${i + 1}. ${s}`).join('\n') + '\n');
}

async function oneShot(args: RunArgs, lang: Lang, io: Partial<OneShotIo> | undefined, json: JsonEventWriter): Promise<number> {
  const stdout = io?.stdout ?? process.stdout;
  const stderr = io?.stderr ?? process.stderr;
  const env = io?.env ?? process.env;
  const cwd = io?.cwd ?? process.cwd();
  const emitJson = (event: unknown) => json.line(event);
  /** Say why the run stops (also as a --json error event); its exit code. */
  const stop = (code: string, message: string, exit: number): number => {
    if (args.json) emitJson({ type: 'error', code, message });
    stderr.write(message + '\n');
    return exit;
  };
  const fail = (err: unknown): number => {
    if (AiError.isInstance(err)) return stop(err.code, t(lang, err.key, err.vars), exitCodeOfError(err));
    throw err;
  };

  // With a prompt, stdin is only extra context: don't let a pipe nobody writes to hang the run.
  const piped = await readPipedStdin(io?.stdin ?? process.stdin, args.prompt ? { firstChunkWaitMs: STDIN_FIRST_CHUNK_WAIT_MS } : {});
  if (piped.gaveUp) stderr.write(t(lang, 'stdinSilent', { seconds: STDIN_FIRST_CHUNK_WAIT_MS / 1000 }) + '\n');
  // `ai -c -p` with nothing to say goes on with the last turn of this folder's last session.
  const saysSomething = Boolean(args.prompt?.trim() || piped.text.trim());
  const continueOnly = args.continue && !saysSomething;
  if (!saysSomething && !continueOnly) {
    stderr.write(usageMessage(lang, { detail: t(lang, 'missingPrompt'), help: `${aiCommand()} --help` }) + '\n');
    return EXIT.usage;
  }

  const app = openUnattended(args, lang, { env, cwd, stderr, json, say: (code, message) => void stop(code, message, 0) });
  if (typeof app === 'number') return app;
  const { agent } = app;
  // Only now, with the gate told every value the run knows (createAppAgent: the profiles' keys,
  // secret-looking variables, the workspace's .env files), does piped text join the prompt.
  const prompt = withStdin(args.prompt, piped.text);
  // Images are read and checked before any request: a missing or unsuitable one stops here.
  const attached = args.images?.length ? imagesModule().loadImages(args.images, cwd, app.config.images.maxBytes, lang) : { images: [] };
  if ('error' in attached) {
    agent.dispose();
    return stop('BAD_IMAGE', attached.error, EXIT.usage);
  }
  const { images } = attached;
  const resumed = resumeIfAsked(app, args, continueOnly, { lang, stderr, stop });
  if (resumed !== undefined) return resumed;
  agent.on((event: AgentEvent) => {
    if (args.json) return json.event(event);
    if (event.type === 'final' || event.type === 'error') return;
    const line = renderProgress(event, lang);
    if (line) stderr.write(line + '\n');
  });
  const turn: TurnToRun = { prompt, typed: args.prompt ?? '', continueOnly, images };
  return runTurnToEnd(app, args, turn, { stdout, stderr, env, cwd, lang, stop, fail, lifetime: io?.lifetime });
}

/** `-c`: the last session of this folder, resumed; an exit code when the run must stop (nothing to continue). */
function resumeIfAsked(
  app: AppAgent,
  args: RunArgs,
  continueOnly: boolean,
  ctx: { lang: Lang; stderr: NodeJS.WritableStream; stop: (code: string, message: string, exit: number) => number },
): number | undefined {
  if (!args.continue || app.agent.resumeLast()) return undefined;
  if (continueOnly) return ctx.stop('NO_SESSION', t(ctx.lang, 'noSessionToContinue'), EXIT.usage);
  if (!args.json) ctx.stderr.write(t(ctx.lang, 'noSessionHere') + '\n');
  return undefined;
}

/** What the run's one turn is made of. */
interface TurnToRun {
  prompt: string;
  /** What the person typed (stdin aside): `@file` references are looked for in it. */
  typed: string;
  continueOnly: boolean;
  images: ImageAttachment[];
}

/** The turn, run under Ctrl+C and the process's lifetime; the answer printed; its exit code. The agent is disposed after. */
async function runTurnToEnd(
  app: AppAgent,
  args: RunArgs,
  input: TurnToRun,
  ctx: {
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
    env: NodeJS.ProcessEnv;
    cwd: string;
    lang: Lang;
    stop: (code: string, message: string, exit: number) => number;
    fail: (err: unknown) => number;
    lifetime?: Lifetime;
  },
): Promise<number> {
  const { agent } = app;
  const { stdout, stderr, env, cwd, lang, stop, fail } = ctx;
  const { prompt, continueOnly, images } = input;
  const controller = new AbortController();
  const lifetime = ctx.lifetime ?? new Lifetime();
  const unhook = lifetime.onStop(() => {
    controller.abort();
    agent.dispose();
  });
  // The first Ctrl+C stops the turn (the session keeps what was done); a second one stops `ai`.
  const onSigint = () => (controller.signal.aborted ? lifetime.stop('SIGINT') : controller.abort());
  process.on('SIGINT', onSigint);
  try {
    const turn = continueOnly ? { message: prompt, options: undefined } : turnInput(app, prompt, input.typed, cwd, lang, stderr);
    if ('refused' in turn && turn.refused) return stop('COMMAND_REFUSED', t(lang, turn.refused.key, turn.refused.vars), EXIT.usage);
    const { message, options } = turn;
    const result = continueOnly
      ? await agent.continue({ signal: controller.signal })
      : await agent.send(message, { ...options, signal: controller.signal, ...(images.length ? { images } : {}) });
    if (!args.json) printAnswer(result, { stdout, stderr, env });
    return exitCodeOf(result.outcome);
  } catch (err) {
    return fail(err);
  } finally {
    // After a Ctrl+C `ai` is on its way out: a second one (often already on its way) must still
    // find the handler, or Node's default would kill it in the middle of its clean-up.
    if (!controller.signal.aborted) process.removeListener('SIGINT', onSigint);
    unhook();
    // Background processes the model started end with the run.
    agent.dispose();
    await app.telemetry?.shutdown(); // the run's spans reach the collector before the exit code is given
    // A turn that built no runner (no background process, no spawn helper) and started no MCP
    // server leaves nothing running: the CLI entry may exit without waiting for the event loop.
    if (!controller.signal.aborted && !app.mcp && !agent.runnerBuilt) lifetime.nothingLeft = true;
  }
}
