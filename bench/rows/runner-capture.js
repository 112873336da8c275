'use strict';
// Row: `head -c 1G /dev/zero` captured through `createToolRunner().run()` of an exec step, the
// path every step of `ai` takes (the judgement, the L0 sandbox as `ai` configures it: mode auto,
// the private home, the resource limits; the capture, the output parser, the redaction gate), in
// the bench's temp home. Reported as a fresh runner's first step and as a later step (after one
// small warm-up step), each as a ratio to `head -c 1G /dev/zero | cat > /dev/null` timed in the
// same run (interleaved), and the peak RSS of that process. Each run is a fresh process
// (packages/tool-runner/bench/runner-1gb.js).
const path = require('path');
const { stats, runNode, fmt } = require('../lib');
const { pipeSeconds } = require('./exec-capture');

exports.title = 'Output capture (1 GiB through the runner)';

exports.run = async function run(ctx) {
  const script = path.join(ctx.root, 'packages/tool-runner/bench/runner-1gb.js');
  const runs = Math.max(3, Math.min(ctx.runs, 5));
  const pipe = [];
  const first = [];
  const later = [];
  const rss = [];
  let sandbox = null;
  for (let i = 0; i < runs; i++) {
    pipe.push(pipeSeconds());
    for (const [flags, into] of [
      [['--first'], first],
      [[], later],
    ]) {
      const out = JSON.parse(
        runNode([script, ...flags], { env: ctx.env, cwd: ctx.temp.home })
          .stdout.trim()
          .split('\n')
          .pop(),
      );
      if (out.bytes < 2 ** 30) throw new Error(`captured only ${out.bytes} bytes`);
      into.push(out.seconds);
      rss.push(out.peakRssMb);
      sandbox = out.sandbox;
    }
  }
  const p = stats(pipe);
  const f = stats(first);
  const l = stats(later);
  const m = stats(rss);
  const rf = p.median / f.median;
  const rl = p.median / l.median;
  const box = sandbox ? `in ${sandbox}` : 'no sandbox here';
  return [
    {
      name: 'head -c 1G /dev/zero \\| cat > /dev/null (baseline, same run)',
      value: `${fmt(p, 's', 2)} · ${(1024 / p.median).toFixed(0)} MB/s`,
    },
    {
      metric: rf,
      better: 'higher',
      name: "runner.run() of the exec step, a fresh runner's first step",
      value: `${fmt(f, 's', 2)} · ${rf.toFixed(2)}× the pipe's speed (${box})`,
      target: '≥ 0.5× the pipe',
      ok: rf >= 0.5,
    },
    {
      metric: rl,
      better: 'higher',
      name: 'runner.run() of the exec step, a later step (the spawn helper up)',
      value: `${fmt(l, 's', 2)} · ${rl.toFixed(2)}× the pipe's speed (${box})`,
      target: '≥ 0.7× the pipe',
      ok: rl >= 0.7,
    },
    {
      metric: m.max,
      better: 'lower',
      name: 'peak RSS of that process (first and later steps)',
      value: fmt(m, 'MB'),
      target: '< 100 MB',
      ok: m.max < 100,
    },
  ];
};
