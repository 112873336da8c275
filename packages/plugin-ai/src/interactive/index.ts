import * as readline from 'readline';
import type { RunArgs } from '../args';
import type { AgentConfirmFn } from '../agent';
import { createAppAgent } from '../app';
import { AiError } from '../errors';
import { exitCodeOfError, EXIT } from '../exit-codes';
import { t, type Lang } from '../i18n';
import { describeStep } from '../protocol';
import { renderProgress } from '../render';

/**
 * `ai -i`: a minimal readline loop over the core, so `slothtool ai -i` works end to end.
 * The full-screen interactive UI (issue #7) replaces this module; it keeps the same entry
 * `runInteractive(args, lang)`.
 */
export async function runInteractive(args: RunArgs, lang: Lang): Promise<number> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
  // Lines are queued as they arrive: piped input delivers many at once, while a turn runs.
  const lines: string[] = [];
  let closed = false;
  let waiting: ((line: string) => void) | undefined;
  rl.on('line', (line) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(line);
    } else lines.push(line);
  });
  rl.on('close', () => {
    closed = true;
    waiting?.('/exit');
  });
  /** The next line from the user; `/exit` once input ends (Ctrl-D or a closed pipe). */
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      if (lines.length) return resolve(lines.shift()!);
      if (closed) return resolve('/exit');
      process.stdout.write(question);
      waiting = resolve;
    });
  const confirm: AgentConfirmFn = async (request) => {
    if (request.decision.level === 'L2') return { action: 'decline' };
    if (request.preview) process.stdout.write(request.preview + '\n');
    const answer = (await ask(t(lang, 'confirmPrompt', { level: request.decision.level, summary: describeStep(request.step) })))
      .trim()
      .toLowerCase();
    if (answer === 'y' || answer === 'yes') return { action: 'run' };
    if (answer === 'a' || answer === 'always') return { action: 'allow-session' };
    return { action: 'decline', reason: 'declined by the user' };
  };

  let app;
  try {
    app = createAppAgent({ lang, mode: args.mode, profile: args.profile, maxAutoSteps: args.maxSteps, confirm });
  } catch (err) {
    rl.close();
    if (!AiError.isInstance(err)) throw err;
    process.stderr.write(t(lang, err.key, err.vars) + '\n');
    return exitCodeOfError(err);
  }
  const { agent } = app;
  if (args.continue) {
    process.stdout.write((agent.resumeLast() ? t(lang, 'resumed', { id: agent.sessionId }) : t(lang, 'noSessionHere')) + '\n');
  }
  agent.on((event) => {
    const line = renderProgress(event, lang);
    if (line) process.stdout.write(line + '\n');
  });
  process.stdout.write(t(lang, 'interactiveWelcome') + '\n');

  let controller: AbortController | undefined;
  rl.on('SIGINT', () => {
    if (controller) controller.abort();
    else rl.close();
  });

  const first = args.prompt ? [args.prompt] : [];
  for (;;) {
    const line = first.length ? first.shift()! : await ask('> ');
    const input = line.trim();
    if (!input) continue;
    if (input === '/exit' || input === '/quit') break;
    if (input.startsWith('/')) {
      process.stdout.write((await slash(input)) + '\n');
      continue;
    }
    controller = new AbortController();
    const result = input === 'continue' ? await agent.continue({ signal: controller.signal }) : await agent.send(input, { signal: controller.signal });
    controller = undefined;
    process.stdout.write(result.message + '\n');
  }
  rl.close();
  return EXIT.ok;

  async function slash(input: string): Promise<string> {
    const [cmd, ...rest] = input.split(/\s+/);
    const arg = rest.join(' ');
    switch (cmd) {
      case '/help':
        return t(lang, 'interactiveHelp');
      case '/clear':
        agent.clear();
        return t(lang, 'cleared');
      case '/compact': {
        const r = await agent.compact();
        return r ? t(lang, 'compacted', r) : t(lang, 'compacted', { method: '-', before: agent.contextSizes().total, after: agent.contextSizes().total });
      }
      case '/context': {
        const s = agent.contextSizes();
        return t(lang, 'contextSizes', { ...s, messages: s.windowMessages });
      }
      case '/cost': {
        const u = agent.usage();
        return t(lang, 'costLine', { input: u.input_tokens, output: u.output_tokens, calls: u.calls });
      }
      case '/mode':
        if (arg === 'low' || arg === 'high') agent.setMode(arg);
        return t(lang, 'modeSet', { mode: agent.getMode() });
      case '/profile':
        if (arg) agent.setProfile(arg);
        return t(lang, 'profileSet', { profile: agent.getProfile() ?? '-' });
      case '/sessions': {
        const list = agent.listSessions();
        return list.length ? list.map((s) => `${s.id}  ${s.cwd}  ${s.title}`).join('\n') : t(lang, 'sessionsNone');
      }
      case '/resume':
        if (arg) agent.resume(arg);
        else agent.resumeLast();
        return t(lang, 'resumed', { id: agent.sessionId });
      default:
        return t(lang, 'interactiveHelp');
    }
  }
}
