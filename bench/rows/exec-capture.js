'use strict';
// Row 4: diagnostic (exec() only), the layer below what users run (the runner's row, "Output
// capture (1 GiB through the runner)", measures runner.run()). `head -c 1G /dev/zero` captured
// through tool-runner's exec against the same producer
// piped to `cat > /dev/null` in the same run, and our peak RSS above idle. Each run is a fresh
// process (packages/tool-runner/bench/exec-1gb.js).
const path = require('path');
const { spawnSync } = require('child_process');
const { stats, runNode, fmt } = require('../lib');

exports.title = 'Output capture (1 GiB through exec), diagnostic (exec() only)';
exports.pipeSeconds = pipeSeconds;

/** The physical baseline, in the same run: `head -c 1G /dev/zero | cat > /dev/null`. */
function pipeSeconds() {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('sh', ['-c', 'head -c 1073741824 /dev/zero | cat > /dev/null']);
  if (r.status !== 0) throw new Error(`head | cat failed: ${String(r.stderr)}`);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** The ceiling of reading a pipe in node at all: the same producer, a 'data' handler that only counts. */
function nodeReadSeconds() {
  const code =
    "const c = require('child_process').spawn('head', ['-c', '1073741824', '/dev/zero'], { stdio: ['ignore', 'pipe', 'ignore'] }); const t0 = process.hrtime.bigint(); let n = 0; c.stdout.on('data', (b) => (n += b.length)); c.on('close', () => console.log(Number(process.hrtime.bigint() - t0) / 1e9));";
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  return Number(r.stdout.trim());
}

exports.run = async function run(ctx) {
  const script = path.join(ctx.root, 'packages/tool-runner/bench/exec-1gb.js');
  const runs = Math.max(3, Math.min(ctx.runs, 5));
  const secs = [];
  const pipe = [];
  const above = [];
  const nodeRead = [];
  const first = [];
  const warm = [];
  for (let i = 0; i < runs; i++) {
    // Interleaved, so machine noise hits both alike; the same producer (head) for both.
    pipe.push(pipeSeconds());
    nodeRead.push(nodeReadSeconds());
    const out = JSON.parse(runNode([script, '--head'], { env: ctx.env }).stdout.trim().split('\n').pop());
    if (out.bytes < 2 ** 30) throw new Error(`captured only ${out.bytes} bytes`);
    secs.push(out.seconds);
    above.push(out.peakRssMb - out.baselineRssMb);
    first.push(JSON.parse(runNode([script, '--head', '--direct'], { env: ctx.env }).stdout.trim().split('\n').pop()).seconds);
    warm.push(JSON.parse(runNode([script, '--head', '--warm'], { env: ctx.env }).stdout.trim().split('\n').pop()).seconds);
  }
  const f = stats(first);
  const s = stats(secs);
  const p = stats(pipe);
  const m = stats(above);
  const ratio = p.median / s.median;
  const nr = stats(nodeRead);
  return [
    {
      name: 'head -c 1G /dev/zero \\| cat > /dev/null (baseline, same run)',
      value: `${fmt(p, 's', 2)} · ${(1024 / p.median).toFixed(0)} MB/s`,
    },
    {
      name: "node reading its own spawn pipe (a socketpair) with a 'data' handler that only counts (the ceiling before the worker and the FIFO)",
      value: `${fmt(nr, 's', 2)} · ${(1024 / nr.median).toFixed(0)} MB/s · ${(p.median / nr.median).toFixed(2)}× the pipe's speed`,
    },
    {
      name: "a session's first step (spawned directly: node's socketpair, read by a worker past 8 MiB)",
      value: `${fmt(f, 's', 2)} · ${(p.median / f.median).toFixed(2)}× the pipe's speed`,
    },
    {
      metric: ratio,
      better: 'higher',
      name: "exec capturing head -c 1G /dev/zero (later steps: the spawn helper's FIFO, read by a worker past 8 MiB)",
      value: `${fmt(s, 's', 2)} · ${(1024 / s.median).toFixed(0)} MB/s · ${ratio.toFixed(2)}× the pipe's speed`,
      target: '≥ 0.7× the pipe',
      ok: ratio >= 0.7,
    },
    {
      name: 'a later large output, its reading worker kept from an earlier one (16 MiB) in the session',
      value: `${fmt(stats(warm), 's', 2)} · ${(p.median / stats(warm).median).toFixed(2)}× the pipe's speed`,
    },
    { name: 'peak RSS above idle', value: fmt(m, 'MB'), target: '< 64 MB', ok: m.max < 64 },
  ];
};
