'use strict';
// `npm test`: install if needed, build, then run every package's jest tests.
// Extra arguments go to jest: `npm test -- packages/json-patch`.
const path = require('path');
const { spawnSync } = require('child_process');
const { ensureReady, root } = require('./ensure');

try {
  ensureReady();
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(err.exitCode || 1);
}
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const r = spawnSync(process.execPath, [jest, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
