'use strict';
// Make a checkout ready to run: install from the lockfile when node_modules is missing or
// older than package-lock.json, then build every package (tsc -b is incremental, so a
// second run with nothing changed costs well under a second) and the bundles (scripts/bundle.js). Used by `npm test` and
// `npm start` so that both work on a fresh clone with nothing run before them.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    const err = new Error(`${what} failed (${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal})`);
    err.exitCode = r.status || 1;
    throw err;
  }
}

function needsInstall() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(marker)) return true;
  return fs.statSync(path.join(root, 'package-lock.json')).mtimeMs > fs.statSync(marker).mtimeMs;
}

function ensureReady({ quiet = false } = {}) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (needsInstall()) {
    if (!quiet) process.stderr.write('> npm ci (installing from the lockfile)\n');
    run(npm, ['ci', '--no-audit', '--no-fund'], 'installing dependencies');
  }
  run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], 'building');
  run(process.execPath, [path.join(root, 'scripts', 'bundle.js')], 'bundling');
}

module.exports = { ensureReady, root };
