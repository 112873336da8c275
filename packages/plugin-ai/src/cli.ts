import { parseArgs } from './args';
import { readLanguage, slothtoolHome } from './home';
import { t } from './i18n';

/**
 * CLI entry: the only place that prints and sets the exit code. Kept tiny: `--version` and
 * `--help` load nothing else; zod, llm-base and tool-runner load only on the paths that
 * need them.
 */
export function main(argv: string[]): void {
  const parsed = parseArgs(argv);
  if (parsed.kind === 'version') {
    process.stdout.write((require('../package.json') as { version: string }).version + '\n');
    return;
  }
  const lang = readLanguage(slothtoolHome());
  if (parsed.kind === 'help') {
    process.stdout.write(t(lang, 'help'));
    return;
  }
  if (parsed.kind === 'error') {
    const detail = t(lang, parsed.key, parsed.vars);
    process.stderr.write((parsed.key === 'riskUsage' ? detail : t(lang, 'usageError', { detail })) + '\n');
    process.exitCode = 2;
    return;
  }
  let run: Promise<number>;
  if (parsed.kind === 'risk') {
    run = (require('./risk-command') as typeof import('./risk-command')).runRisk(parsed, lang);
  } else if (parsed.kind === 'mcp') {
    run = (require('./mcp/command') as typeof import('./mcp/command')).runMcpCommand(parsed.argv, lang);
  } else if (parsed.interactive || (parsed.prompt === undefined && process.stdin.isTTY && process.stdout.isTTY)) {
    // `ai` alone in a terminal opens the interactive session, as terminal assistants do.
    run = (require('./interactive') as typeof import('./interactive')).runInteractive(parsed, lang);
  } else {
    run = (require('./oneshot') as typeof import('./oneshot')).runOneShot(parsed, lang);
  }
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(t(lang, 'unexpected', { detail: (err as Error)?.stack ?? String(err) }) + '\n');
      process.exitCode = 1;
    },
  );
}
