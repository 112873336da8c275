'use strict';
// What the capture benchmarks (exec-1gb.js, runner-1gb.js) share: their numeric options and the
// timing and peak RSS of one awaited call.

/** The number after `name` on the command line, or `fallback`. */
function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Run `fn` once: its result, wall seconds, and the process's RSS (MB) before and at its peak. */
async function measured(fn) {
  if (global.gc) global.gc();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = process.hrtime.bigint();
  const result = await fn();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
  return { result, seconds, peakRssMb: Number((peak / 2 ** 20).toFixed(1)), baselineRssMb: Number((baseline / 2 ** 20).toFixed(1)) };
}

module.exports = { arg, measured };
