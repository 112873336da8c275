import { OPTION_NAMES, parseArgs } from './cli/args';
import { readLanguage, slothtoolHome } from './home';
import { aiCommand, t } from './i18n';
import { Lifetime, SIGNAL_EXIT, STOP_GRACE_MS, type StopSignal } from './cli/lifetime';
import { onClosedPipe } from '@holic512/shared/lib/epipe';
import { usageMessage, closest, USAGE_EXIT_CODE } from '@holic512/shared/lib/usage';
import {
  acpMode,
  interactiveMode,
  llmBaseLoader,
  mcpCommand,
  oneShotMode,
  packageJson,
  riskCommand,
  sandboxCommand,
  zodModule,
} from './lazy-modules';

/**
 * CLI entry: the only place that prints and sets the exit code. Kept tiny: `--version` and
 * `--help` load nothing else; zod, llm-base and tool-runner load only on the paths that
 * need them. `options.bundled`: bin/ai.js loaded this from dist/cli.js (scripts/bundle.js).
 */
export function main(argv: string[], options: { bundled?: boolean } = {}): void {
  // Run from the bundle (bin/ai.js): llm-base loads from its own bundle too, when it has one.
  if (options.bundled) llmBaseLoader().preferBundles();
  // A reader that goes away (`| head -1`) ends the CLI quietly with status 0.
  for (const stream of [process.stdout, process.stderr]) onClosedPipe(stream, () => process.exit(0));
  const parsed = parseArgs(argv);
  if (parsed.kind === 'version') {
    process.stdout.write(packageJson().version + '\n');
    return;
  }
  const lang = readLanguage(slothtoolHome());
  if (parsed.kind === 'help') {
    process.stdout.write(t(lang, 'help'));
    return;
  }
  if (parsed.kind === 'error') {
    // A bad command line reads the same in every SlothTool CLI (shared/usage): exit 2.
    const detail = t(lang, parsed.key, parsed.vars);
    const suggestion = parsed.key === 'unknownOption' ? closest(parsed.vars.option, OPTION_NAMES) : undefined;
    process.stderr.write(
      (parsed.key === 'riskUsage' ? detail : usageMessage(lang, { detail, suggestion, help: `${aiCommand()} --help` })) + '\n',
    );
    process.exitCode = USAGE_EXIT_CODE;
    return;
  }
  let run: Promise<number>;
  let modeLifetime: Lifetime | undefined;
  if (parsed.kind === 'risk') {
    run = riskCommand().runRisk(parsed, lang);
  } else if (parsed.kind === 'sandbox') {
    run = sandboxCommand().runSandboxCheck(lang);
  } else if (parsed.kind === 'mcp') {
    run = mcpCommand().runMcpCommand(parsed.argv, lang);
  } else {
    // zod compiles a parser (`new Function`) for each object schema on its first parse, which
    // V8's code cache cannot keep: every start compiled parsers it used once (docs/architecture.md
    // §6). Set before any schema is built (zod reads it then); llm-base's bundle shares this zod.
    zodModule().config({ jitless: true });
    const lifetime = stopOnSignals();
    modeLifetime = lifetime;
    const interactive =
      parsed.interactive || (!parsed.oneShot && parsed.prompt === undefined && process.stdin.isTTY && process.stdout.isTTY);
    run = parsed.acp
      ? // An editor drives the assistant over stdin and stdout (the Agent Client Protocol).
        acpMode().runAcp(parsed, lang, { lifetime })
      : interactive
        ? // `ai` alone in a terminal opens the interactive session, as terminal assistants do.
          interactiveMode().runInteractive(parsed, lang, { lifetime })
        : oneShotMode().runOneShot(parsed, lang, { lifetime });
    run = run.then((code) => {
      // Told to stop: the session is written and the processes are gone; leave now, even if
      // some handle (a half-closed socket, a terminal) would keep the event loop alive.
      if (lifetime.signal) process.exit(SIGNAL_EXIT[lifetime.signal]);
      return code;
    });
  }
  run.then(
    (code) => {
      process.exitCode = code;
      if (modeLifetime?.nothingLeft) exitWhenWritten(code);
    },
    (err: unknown) => {
      process.stderr.write(t(lang, 'unexpected', { detail: (err as Error)?.stack ?? String(err) }) + '\n');
      process.exitCode = 1;
    },
  );
}

/**
 * Exit once stdout and stderr have handed over what was written, instead of when the event loop
 * runs dry: with nothing of the run left, node would first wait for V8's background work
 * (optimising compiles, the collector's concurrent marking) that nobody needs, while the person
 * waits for their prompt (docs/architecture.md §6). 'exit' handlers still run (the session, audit and
 * call-log lines queued for it, the code cache). Writes to pipes and files are synchronous on
 * Linux; where a stream still holds some, its empty write's callback comes after them.
 */
function exitWhenWritten(code: number): void {
  const pending = [process.stdout, process.stderr].filter((s) => s.writableLength > 0);
  let left = pending.length;
  if (left === 0) process.exit(code);
  for (const stream of pending) stream.write('', () => --left === 0 && process.exit(code));
}

/**
 * SIGTERM and SIGHUP (a closed terminal) stop `ai` the way a second Ctrl+C does: the modes
 * abort the model request, kill the background process groups and end the session through
 * the Lifetime; the process exits when they are done, and after STOP_GRACE_MS regardless.
 * Without this, Node's default would end the process at once and leave detached process
 * groups (a dev server started with proc.start) running.
 */
function stopOnSignals(): Lifetime {
  const lifetime = new Lifetime();
  // SLOTHTOOL_AI_STOP_GRACE_MS (tests): a longer grace, so that an exit proves the clean path.
  const grace = Number(process.env.SLOTHTOOL_AI_STOP_GRACE_MS) > 0 ? Number(process.env.SLOTHTOOL_AI_STOP_GRACE_MS) : STOP_GRACE_MS;
  lifetime.onStopping = (signal: StopSignal) => {
    setTimeout(() => process.exit(SIGNAL_EXIT[signal]), grace).unref();
  };
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, () => lifetime.stop(signal));
  return lifetime;
}
