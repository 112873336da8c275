import path = require('path');
import readline = require('readline');
import { appOptionsOf, type RunArgs } from '../cli/args';
import type { AppAgent } from '../cli/app';
import { aiPaths, slothtoolHome } from '../home';
import { t, type Lang } from '../i18n';
import { PromptHistory } from './history';
import { Screen, type Surface } from './screen';
import { Lifetime } from '../cli/lifetime';
import { Terminal, type LiveFrame } from './terminal';
import { colorEnabled, createTheme } from './theme';
import { AiError } from '../errors';
import { exitCodeOfError } from '../cli/exit-codes';
import { appModule, redactionGate, setupModule, trustQuestion } from '../lazy-modules';

/** Options of runInteractive beyond the CLI arguments (tests and embedding). */
export interface InteractiveOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  input?: NodeJS.ReadStream;
  output?: NodeJS.WriteStream;
  /** Told when `ai` must stop (SIGTERM, SIGHUP: a closed terminal); the CLI entry exits after. */
  lifetime?: Lifetime;
}

/**
 * `ai -i`: the interactive screen. The prompt is drawn first; the agent (config, zod,
 * llm-base, the openai SDK) loads right after, while the user can already type. When no
 * model is configured yet, the guided setup (../setup) runs before the agent loads.
 */
export async function runInteractive(args: RunArgs, lang: Lang, options: InteractiveOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const live = Boolean(input.isTTY && output.isTTY);
  const theme = createTheme(colorEnabled(env, Boolean(output.isTTY)));
  const home = slothtoolHome(env);
  // Piped input is not something a person typed: it does not go into the history.
  const history = live ? new PromptHistory(path.join(home, 'ai', 'history')) : undefined;

  const terminal = live ? new Terminal(input, output, theme.enabled) : undefined;
  const surface: Surface = terminal ?? plainSurface(output);
  const screen = new Screen({ lang, theme, surface, history, cwd, env, mode: args.mode, profile: args.profile });
  const restore = () => terminal?.stop();
  const lifetime = options.lifetime ?? new Lifetime();
  // Leaving aborts the turn, kills the background processes and ends the session (Screen.exit).
  const loaded: { app?: AppAgent } = {};
  const unhook = lifetime.onStop(() => {
    // At once, before anything is drawn: the terminal may be gone (SIGHUP).
    loaded.app?.agent.dispose();
    void screen.exit();
  });
  if (!options.lifetime) process.once('SIGTERM', onTermSignal);
  const onSigint = () => lifetime.stop('SIGINT'); // a signal from outside (Ctrl+C itself arrives as a key)
  process.once('exit', restore);
  process.once('SIGINT', onSigint);
  function onTermSignal(): void {
    lifetime.stop('SIGTERM');
  }
  const finish = (code: number): number => {
    restore();
    unhook();
    process.removeListener('exit', restore);
    process.removeListener('SIGTERM', onTermSignal);
    process.removeListener('SIGINT', onSigint);
    if (!terminal) input.pause();
    return code;
  };

  if (terminal) {
    terminal.start(
      (keys) => screen.onKeys(keys),
      () => screen.render(),
    );
    input.once('end', () => void screen.exit());
  } else {
    pumpLines(input, screen);
  }
  screen.start();

  // After the prompt is on screen: the first-run setup when needed, then the agent.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const app = await loadAgent(args, lang, env, cwd, screen, terminal, input, output);
  if (typeof app === 'number') return finish(app);
  loaded.app = app;
  screen.attach(app, { continueLast: args.continue, prompt: args.prompt });
  const code = await screen.done;
  // The session's spans reach the collector before `ai` leaves.
  await app.telemetry?.shutdown();
  return finish(code);
}

async function loadAgent(
  args: RunArgs,
  lang: Lang,
  env: NodeJS.ProcessEnv,
  cwd: string,
  screen: Screen,
  terminal: Terminal | undefined,
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
): Promise<AppAgent | number> {
  try {
    const setup = setupModule();
    const needs = setup.needsSetup({ env, profile: args.profile ?? null });
    // A broken llm-base config is said when the session opens, not after the first message.
    if (needs.configProblem) screen.print(needs.configProblem);
    if (needs.reason) {
      if (!terminal) {
        output.write((setup.setupHint(lang, needs) ?? '') + '\n');
        return 4;
      }
      // The setup asks its own questions (prompts): hand it the terminal, then take it back.
      terminal.stop();
      const result = await setup.runSetup({ lang, env, input, output });
      terminal.start(
        (keys) => screen.onKeys(keys),
        () => screen.render(),
      );
      screen.render();
      if (result.status === 'cancelled') {
        terminal.stop();
        return 4;
      }
    }
    if (terminal) {
      // Before the agent loads what the project brings: ask whether to trust it (named exactly).
      const { askProjectTrust } = trustQuestion();
      await askProjectTrust(cwd, aiPaths(slothtoolHome(env)).trust, lang, {
        input,
        output,
        pause: () => terminal.stop(),
        resume: () => {
          terminal.start(
            (keys) => screen.onKeys(keys),
            () => screen.render(),
          );
          screen.render();
        },
      });
    }
    const { createAppAgent } = appModule();
    const app = createAppAgent({
      ...appOptionsOf(args),
      lang,
      env,
      cwd,
      confirm: screen.confirm,
    });
    if (args.runMode) {
      const r = app.agent.setRunMode(args.runMode);
      if (!r.ok) output.write(t(lang, 'runModeSkipped', { mode: args.runMode, reason: r.reason }) + '\n');
    }
    return app;
  } catch (err) {
    terminal?.stop();
    if (!AiError.isInstance(err)) {
      output.write(t(lang, 'startFailed', { message: (err as Error)?.message ?? String(err) }) + '\n');
      return 1;
    }
    output.write(t(lang, err.key, err.vars) + '\n');
    return exitCodeOfError(err);
  }
}

/** Output when stdout is not a terminal: plain lines, no live region, no cursor moves. */
function plainSurface(output: NodeJS.WriteStream): Surface {
  return {
    columns: 100,
    rows: 40,
    live: false,
    print: (text: string) => void output.write(text.endsWith('\n') ? text : text + '\n'),
    render: (_frame: LiveFrame) => undefined,
    clearScreen: () => undefined,
  };
}

/** stdin is not a terminal: read whole lines, one at a time, each when the screen can take
 * it (after the running turn, or as the answer to an open question). Piped text is not what a
 * person typed (`cat notes.txt | ai -i`): each line passes the redaction gate, as `ai -p`'s
 * piped input does. A line is taken only once the agent is attached, so the gate already
 * knows the run's secret values (the profiles' keys, secret-looking variables, .env files). */
function pumpLines(input: NodeJS.ReadStream, screen: Screen): void {
  const rl = readline.createInterface({ input, terminal: false });
  const lines: string[] = [];
  let ended = false;
  let pumping = false;
  const pump = () => {
    if (pumping) return; // onLine re-renders, which calls back here
    pumping = true;
    while (lines.length && screen.acceptsInput) screen.onLine(redactLine(lines.shift()!));
    pumping = false;
    if (ended && !lines.length) screen.endOfInput();
  };
  screen.onSettle = pump;
  rl.on('line', (line) => {
    lines.push(line);
    pump();
  });
  rl.on('close', () => {
    ended = true;
    pump();
  });
}

/** The redaction gate, loaded with the first piped line (a terminal session never needs it here). */
function redactLine(line: string): string {
  return redactionGate().redact(line);
}
