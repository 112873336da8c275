'use strict';
// Measuring helpers shared by the benchmark rows. Plain Node: no dependencies.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const PROBE = path.join(__dirname, 'rss-probe.js');

/** Median, min and max of a list of numbers. */
function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, min: s[0], max: s[s.length - 1], n: s.length };
}

/**
 * Run a node command once; returns wall time (ms) and the peak RSS (MB) of the largest node
 * process it started (every node process inherits NODE_OPTIONS=--require rss-probe.js, which
 * appends its own peak RSS to a file when it exits).
 */
function runNode(args, { env = process.env, cwd = process.cwd(), input } = {}) {
  const rssFile = path.join(os.tmpdir(), `bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const nodeOptions = `${env.NODE_OPTIONS ? env.NODE_OPTIONS + ' ' : ''}--require ${PROBE}`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    cwd,
    env: { ...env, NODE_OPTIONS: nodeOptions, BENCH_RSS_FILE: rssFile },
    input,
    encoding: 'utf8',
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  let peakMb = NaN;
  try {
    const lines = fs.readFileSync(rssFile, 'utf8').trim().split('\n').map(Number);
    peakMb = Math.max(...lines) / 1024;
    fs.rmSync(rssFile, { force: true });
  } catch {
    // The probe writes on exit; a process killed by a signal leaves no figure.
  }
  if (r.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited with ${r.status ?? r.signal}: ${(r.stderr || '').slice(0, 500)}`);
  }
  return { ms, peakMb, stdout: r.stdout };
}

/** Format a stats object: "12.3 ms (11.9–14.0)". */
function fmt(s, unit, digits = 1) {
  return `${s.median.toFixed(digits)} ${unit} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

module.exports = { stats, runNode, fmt };
