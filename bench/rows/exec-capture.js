'use strict';
// Row 4: a command printing 1 GiB through tool-runner's exec: throughput and our peak RSS
// above idle. Each run is a fresh process (packages/tool-runner/bench/exec-1gb.js).
const path = require('path');
const { stats, runNode, fmt } = require('../lib');

exports.title = 'Output capture (1 GiB through exec)';

exports.run = async function run(ctx) {
  const script = path.join(ctx.root, 'packages/tool-runner/bench/exec-1gb.js');
  const runs = Math.max(3, Math.min(ctx.runs, 5));
  const speed = [];
  const secs = [];
  const above = [];
  for (let i = 0; i < runs; i++) {
    const out = JSON.parse(runNode([script], { env: ctx.env }).stdout.trim().split('\n').pop());
    if (out.bytes < 2 ** 30) throw new Error(`captured only ${out.bytes} bytes`);
    speed.push(out.mbPerSec);
    secs.push(out.seconds);
    above.push(out.peakRssMb - out.baselineRssMb);
  }
  const s = stats(speed);
  const m = stats(above);
  return [
    { name: 'throughput', value: `${fmt(s, 'MB/s', 0)} · ${fmt(stats(secs), 's', 2)} for 1 GiB`, target: '≥ 300 MB/s', ok: s.median >= 300 },
    { name: 'peak RSS above idle', value: fmt(m, 'MB'), target: '< 64 MB', ok: m.max < 64 },
  ];
};
