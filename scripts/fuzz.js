'use strict';
// `npm run fuzz`: the redaction gate's property test (idempotent, never throws) with a random
// seed and many runs, the nightly-style companion of the fixed seed `npm test` uses. It prints
// the seed first; `npm run fuzz -- --seed N` runs that seed again, `--runs N` sets the runs.
// A counterexample found here becomes a fixed case in packages/shared/test/redact-fuzz.test.ts.
const path = require('path');
const { spawnSync } = require('child_process');
const { ensureReady, root } = require('./ensure');

function parseArgs(argv) {
  const opts = { seed: Math.floor(Math.random() * 2 ** 31), runs: 5000 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--seed') opts.seed = Number(argv[++i]);
    else if (argv[i] === '--runs') opts.runs = Number(argv[++i]);
    else throw new Error(`unknown option ${argv[i]} (known: --seed N, --runs N)`);
  }
  if (!Number.isInteger(opts.seed)) throw new Error('--seed needs a whole number');
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error('--runs needs a whole number ≥ 1');
  return opts;
}

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
  ensureReady();
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(err.exitCode || 2);
}
process.stdout.write(`fuzz seed: ${opts.seed}, runs: ${opts.runs} (run it again: npm run fuzz -- --seed ${opts.seed})\n`);
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const r = spawnSync(process.execPath, [jest, 'packages/shared/test/redact-fuzz.test.ts', '-t', 'idempotent'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, REDACT_FUZZ_SEED: String(opts.seed), REDACT_FUZZ_RUNS: String(opts.runs) },
});
if (r.status !== 0) process.stdout.write(`fuzz seed ${opts.seed} found a counterexample (npm run fuzz -- --seed ${opts.seed})\n`);
process.exit(r.status ?? 1);
