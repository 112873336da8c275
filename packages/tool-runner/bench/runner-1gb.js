'use strict';
// Benchmark: `head -c 1G /dev/zero` (or `--mb N` MiB) captured through createToolRunner().run(),
// the path every step of `ai` takes: the judgement, the L0 sandbox as `ai` configures it (mode
// auto, the private home, the resource limits), the capture, the output parser and the redaction
// gate. `--first`: the runner's first step; otherwise one small warm-up step runs first (a later
// step, the spawn helper up as it is after a model reply). Prints one JSON line: {bytes, seconds, peakRssMb, baselineRssMb, sandbox}.
// Uses the built library (run `npm run build` first); HOME and SLOTHTOOL_HOME from the environment.
const path = require('path');
const { createToolRunner, prepareSpawnHelper } = require(path.join(__dirname, '..', 'lib', 'index.js'));
const { arg, measured } = require('./measure');

async function main() {
  const mb = arg('--mb', 1024);
  const cwd = process.cwd();
  const runner = createToolRunner({
    cwd,
    workspace: cwd,
    lang: 'en',
    env: process.env,
    sandbox: 'auto',
    unattended: true,
    confirm: () => ({ action: 'decline' }),
  });
  const step = (bytes) => ({ tool: 'exec', program: 'head', args: ['-c', String(bytes), '/dev/zero'] });
  if (!process.argv.includes('--first')) {
    const w = await runner.run(step(4096));
    if (w.exitCode !== 0) throw new Error(`warm-up step failed: ${JSON.stringify(w).slice(0, 300)}`);
    // In `ai` a model reply comes between two steps, time enough for the spawn helper (started
    // by the first step) to come up: later steps run through it. Waiting for it stands for that.
    await prepareSpawnHelper({ slothtoolHome: process.env.SLOTHTOOL_HOME });
  }
  const { result: r, seconds, peakRssMb, baselineRssMb } = await measured(() => runner.run(step(mb * 2 ** 20)));
  // The result holds no byte count; a binary output is named with its size.
  const bytes = Number((/^<binary output, (\d+) bytes>$/.exec(r.stdoutTail) ?? [])[1]);
  if (r.exitCode !== 0 || !Number.isFinite(bytes)) throw new Error(`step failed: ${JSON.stringify(r).slice(0, 500)}`);
  process.stdout.write(
    JSON.stringify({
      bytes,
      seconds: Number(seconds.toFixed(3)),
      peakRssMb,
      baselineRssMb,
      sandbox: r.sandbox ? r.sandbox.kind : null,
    }) + '\n',
  );
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n');
  process.exitCode = 1;
});
