'use strict';
// Preloaded into every node process a benchmark starts (NODE_OPTIONS=--require): on exit,
// append this process's peak resident set size in KiB to $BENCH_RSS_FILE.
const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    require('fs').appendFileSync(file, `${process.resourceUsage().maxRSS}\n`);
  });
}
