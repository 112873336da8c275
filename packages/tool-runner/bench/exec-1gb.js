'use strict';
// Benchmark: exec capturing a command that prints 1 GiB (or `--mb N` MiB) of text.
// Prints one JSON line: {bytes, seconds, mbPerSec, peakRssMb, baselineRssMb, maxOutputBytes, truncated}.
// Uses the built library (run `npx tsc -b packages/tool-runner` first).
const path = require('path');
const { exec, prepareSpawnHelper } = require(path.join(__dirname, '..', 'lib', 'index.js'));
const { arg, measured } = require('./measure');

async function main() {
  const mb = arg('--mb', 1024);
  const maxOutputBytes = arg('--max-output', 65536);
  const producer = [
    `const line = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz 汉字テスト\\n'.repeat(1 << 15));`,
    `const chunk = line.subarray(0, 1 << 20);`,
    `let left = ${mb};`,
    `function pump() { while (left > 0) { left--; if (!process.stdout.write(chunk)) { process.stdout.once('drain', pump); return; } } }`,
    `pump();`,
  ].join('\n');
  // Steps after a session's first go through the spawn helper (real pipes); it is made ready
  // here so the figure is theirs. `--direct`: the first step's path (node's socketpairs).
  if (!process.argv.includes('--direct')) await prepareSpawnHelper({ slothtoolHome: process.env.SLOTHTOOL_HOME });
  // `--warm`: an earlier large output of the session (16 MiB) has started the reading worker,
  // which is kept for the next one (capture-offload.ts).
  if (process.argv.includes('--warm'))
    await exec({ program: 'head', args: ['-c', String(16 * 2 ** 20), '/dev/zero'], cwd: process.cwd(), maxOutputBytes });
  // `--head`: the producer is `head -c <size> /dev/zero`, the one the physical baseline pipes to cat.
  const command = process.argv.includes('--head')
    ? { program: 'head', args: ['-c', String(mb * 2 ** 20), '/dev/zero'] }
    : { program: process.execPath, args: ['-e', producer] };
  const { result: r, seconds, peakRssMb, baselineRssMb } = await measured(() => exec({ ...command, cwd: process.cwd(), maxOutputBytes }));
  if (r.exitCode !== 0) throw new Error(`producer failed: ${r.exitCode} ${r.stderrTail}`);
  const bytes = r.stdoutBytes;
  const out = {
    bytes,
    seconds: Number(seconds.toFixed(3)),
    mbPerSec: Number((bytes / 2 ** 20 / seconds).toFixed(1)),
    peakRssMb,
    baselineRssMb,
    maxOutputBytes,
    keptChars: r.stdoutTail.length,
    truncated: r.truncated,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n');
  process.exitCode = 1;
});
