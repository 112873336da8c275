import fs = require('fs');
import { onClosedPipe } from '@holic512/shared/lib/epipe';
import { resolveHome } from './paths';
import { lookupRunnable, type RunnableEntry } from './registry-lookup';
import { runInProcess, runsInProcess } from './runner';

/**
 * `slothtool <alias>` for a plugin that runs in this process (ai, llm-base), with only the few
 * modules that path needs: the bin loads this alone, bundled as dist/alias.js (scripts/bundle.js),
 * and the whole CLI (lib/cli.js `main`) for everything else. Answers the entry to start, or
 * undefined when the CLI should take `argv` (a plugin not installed or run as its own process, a
 * registry that cannot be read, a bin that is not there): the CLI then says what it says today.
 * Never runs the plugin itself, so a plugin that throws is never run a second time by the CLI.
 */
export function inProcessEntry(argv: string[]): { start(): void } | undefined {
  const [alias, ...args] = argv;
  let entry: RunnableEntry | undefined;
  try {
    entry = lookupRunnable(resolveHome(process.env), alias);
    if (!entry || !runsInProcess(entry) || !fs.existsSync(entry.binPath)) return undefined;
  } catch {
    return undefined;
  }
  const found = entry;
  return {
    start() {
      // As the CLI's main: a reader that goes away (`| head -1`) ends quietly with status 0.
      for (const stream of [process.stdout, process.stderr]) onClosedPipe(stream, () => process.exit(0));
      // What the CLI's runAlias sets: plugins name their commands `slothtool <alias> …` in hints.
      process.env.SLOTHTOOL_HOST = '1';
      runInProcess(alias, found, args);
    },
  };
}
