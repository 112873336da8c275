'use strict';
// `npm test`: install if needed, build, type-check the tests (jest's ts-jest only transpiles
// them, so a test could call an API the way the types forbid and still pass), then run every
// package's jest tests. Extra arguments go to jest: `npm test -- packages/json-patch` (a subset
// skips the type check).
const path = require('path');
const { spawnSync } = require('child_process');
const { ensureReady, root } = require('./ensure');

try {
  ensureReady();
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(err.exitCode || 1);
}
if (process.argv.length <= 2) {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const types = spawnSync(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.jest.json'], { cwd: root, stdio: 'inherit' });
  if (types.status !== 0) {
    process.stderr.write('npm test: the tests do not type-check (above); fix them, or run a subset with `npm test -- <path>` meanwhile\n');
    process.exit(types.status ?? 1);
  }
}
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const r = spawnSync(process.execPath, [jest, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
