'use strict';
// `npm test`: install if needed, build, type-check the tests (jest's ts-jest only transpiles
// them, so a test could call an API the way the types forbid and still pass), lint (ESLint:
// eslint.config.mjs, sizes included) and check the format (Prettier), then run every
// package's jest tests. Extra arguments go to jest: `npm test -- packages/json-patch` (a subset
// skips these checks).
const path = require('path');
const { spawnSync } = require('child_process');
const { ensureReady, root } = require('./ensure');

try {
  ensureReady();
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(err.exitCode || 1);
}
/** Runs a package's bin from node_modules; on failure says what failed and what to do, and exits. */
function check(bin, args, what) {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', ...bin), ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`npm test: ${what} (above); fix them, or run a subset with \`npm test -- <path>\` meanwhile\n`);
    process.exit(r.status ?? 1);
  }
}

if (process.argv.length <= 2) {
  check(['typescript', 'bin', 'tsc'], ['--noEmit', '-p', 'tsconfig.jest.json'], 'the tests do not type-check');
  check(['eslint', 'bin', 'eslint.js'], ['--max-warnings', '0', '.'], 'the code does not lint clean (`npm run format` fixes what it can)');
  check(['prettier', 'bin', 'prettier.cjs'], ['--check', '--log-level', 'warn', '.'], 'these files are not formatted: `npm run format`');
}
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const r = spawnSync(process.execPath, [jest, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
