/**
 * `ai -p --input-format stream-json`: a script keeps one session open on stdin. Each line is a
 * user message in Claude Code's shape, `{"type":"user","message":{"role":"user","content":"…"}}`
 * (content also as an array of text parts), and runs one turn, answered with the `--json` events
 * (the turn ends with its `final` event). A line that is not such a message gets an `error` event
 * naming the line and what was wrong, and the session goes on. The run ends when stdin does.
 */
import readline = require('readline');
import { z } from 'zod';
import type { RunArgs } from './args';
import type { AppAgent } from './app';
import type { OneShotIo } from './oneshot';
import { openUnattended } from './unattended';
import { exitCodeOf, EXIT } from './exit-codes';
import { t, type Lang } from '../i18n';
import { JsonEventWriter } from './json-output';
import { Lifetime } from './lifetime';
import { commandTurnFor } from '../extensions/command-run';
import type { TurnResult } from '../agent/events';

/** The longest line read as one message (as `ai -p` reads at most this much of stdin). */
const LINE_MAX_CHARS = 1024 * 1024;

const Part = z.looseObject({ type: z.string() });
const UserLine = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(Part)]) }),
});

/** The text of one input line, or what is wrong with it (English detail, worded by the caller). */
export function readUserLine(line: string): { text: string } | { error: string } {
  if (line.length > LINE_MAX_CHARS) return { error: `the line has ${line.length} characters; at most ${LINE_MAX_CHARS}` };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { error: `not JSON (${(err as Error).message})` };
  }
  const parsed = UserLine.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `${issue.path.length ? issue.path.join('.') : '(line)'}: ${issue.message}` };
  }
  const content = parsed.data.message.content;
  let text: string;
  if (typeof content === 'string') text = content;
  else {
    const other = content.findIndex((p) => p.type !== 'text' || typeof p.text !== 'string');
    if (other >= 0) return { error: `message.content.${other} is a "${content[other].type}" part; only text parts are read` };
    text = content.map((p) => p.text as string).join('\n\n');
  }
  return text.trim() ? { text } : { error: 'the message is empty' };
}

/** Run the session; the exit code is the last turn's (bad lines alone: 2). */
export async function runStreamJson(args: RunArgs, lang: Lang, io?: Partial<OneShotIo>): Promise<number> {
  const json = new JsonEventWriter(io?.stdout ?? process.stdout, undefined, lang);
  try {
    return await streamTurns(args, lang, io, json);
  } finally {
    await json.flush();
  }
}

async function streamTurns(args: RunArgs, lang: Lang, io: Partial<OneShotIo> | undefined, json: JsonEventWriter): Promise<number> {
  const stderr = io?.stderr ?? process.stderr;
  const env = io?.env ?? process.env;
  const cwd = io?.cwd ?? process.cwd();
  const say = (code: string, message: string, extra: Record<string, unknown> = {}): void => {
    json.line({ type: 'error', code, message, ...extra });
    stderr.write(message + '\n');
  };
  const app = openUnattended(args, lang, { env, cwd, stderr, json, say });
  if (typeof app === 'number') return app;
  const { agent } = app;
  if (args.continue && !agent.resumeLast()) say('NO_SESSION', t(lang, 'noSessionHere'));
  agent.on((event) => json.event(event));
  return readTurns(app, args, lang, io, say);
}

/** One turn per good line, in order, until stdin ends or `ai` is told to stop. */
async function readTurns(
  app: AppAgent,
  args: RunArgs,
  lang: Lang,
  io: Partial<OneShotIo> | undefined,
  say: (code: string, message: string, extra?: Record<string, unknown>) => void,
): Promise<number> {
  const { agent } = app;
  const cwd = io?.cwd ?? process.cwd();
  const rl = readline.createInterface({ input: io?.stdin ?? process.stdin, terminal: false, crlfDelay: Infinity });
  const lifetime = io?.lifetime ?? new Lifetime();
  let turn: AbortController | undefined;
  const unhook = lifetime.onStop(() => {
    turn?.abort();
    rl.close();
    agent.dispose();
  });
  // Ctrl+C stops the running turn (the session reads on); with no turn running, it stops `ai`.
  const onSigint = () => (turn && !turn.signal.aborted ? turn.abort() : lifetime.stop('SIGINT'));
  process.on('SIGINT', onSigint);
  let last: TurnResult | undefined;
  let bad = 0;
  let n = 0;
  try {
    for await (const line of rl) {
      n++;
      if (!line.trim()) continue;
      const read = readUserLine(line);
      if ('error' in read) {
        bad++;
        say('BAD_INPUT_LINE', t(lang, 'streamJsonBadLine', { line: n, detail: read.error }), { line: n });
        continue;
      }
      turn = new AbortController();
      const custom = app.commands.length ? commandTurnFor(app, read.text, cwd) : undefined;
      for (const note of custom?.notes ?? []) (io?.stderr ?? process.stderr).write(t(lang, note.key, note.vars) + '\n');
      last = await agent.send(custom?.message ?? read.text, { ...custom?.options, signal: turn.signal });
      turn = undefined;
      if (lifetime.signal) break;
    }
  } finally {
    process.removeListener('SIGINT', onSigint);
    unhook();
    agent.dispose();
    await app.telemetry?.shutdown();
  }
  if (last) return exitCodeOf(last.outcome);
  if (!bad) say('NO_PROMPT', t(lang, 'streamJsonNothing'));
  return EXIT.usage;
}
