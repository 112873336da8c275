'use strict';
// The home of a jest run (jest.config.js globalSetup; globalTeardown is jest-home-teardown.js).
// Tests never touch the real ~/.slothtool: for the whole run HOME, USERPROFILE and SLOTHTOOL_HOME
// name a fresh folder that stands in for the user's home, with an empty SlothTool home in it (as a
// user who installed SlothTool has one: code that writes only into an existing home shows up too).
// The workers inherit that environment. A test that writes there (a runner, a call log, a cache
// made with the environment the test was started with rather than a temp home of its own) would
// have written into the real ~/.slothtool: the run fails and names what was written.
//
// Only the stand-in is watched, not the real home: with HOME and SLOTHTOOL_HOME pointing away
// from it, no code of ours can find the real one (every lookup goes through them:
// packages/shared/src/home.ts), and on a shared machine the real one changes under other runs and
// the user's own `ai`, which would fail this run for nothing.
//
// npm keeps its cache and user config where the real HOME has them (`npm test` and npx already
// pass both as npm_config_cache / npm_config_userconfig; a plain `jest` run gets npm's defaults
// under the real home): the install-path test mirrors the tarballs `npm ci` left in that cache.
const fs = require('fs');
const os = require('os');
const path = require('path');

/** The variables the guard sets, restored at the end. */
const NAMES = ['HOME', 'USERPROFILE', 'SLOTHTOOL_HOME', 'npm_config_cache', 'npm_config_userconfig', 'SLOTHTOOL_JEST_HOME'];

/** npm's default cache folder for a home (npm config `cache`). */
function npmCacheOf(realHome, env) {
  return process.platform === 'win32' && env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'npm-cache') : path.join(realHome, '.npm');
}

/**
 * Point `env` (process.env; tests pass their own) at a fresh stand-in home. Returns what
 * {@link teardown} needs, or undefined when `env` already names one (a jest run started by a
 * test keeps the outer run's).
 */
function setup(env = process.env) {
  if (env.SLOTHTOOL_JEST_HOME) return undefined;
  const realHome = env.HOME || env.USERPROFILE || os.homedir();
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'slothtool-jest-home-')));
  const home = path.join(base, 'home');
  fs.mkdirSync(path.join(home, '.slothtool'), { recursive: true, mode: 0o700 });
  const saved = Object.fromEntries(NAMES.map((n) => [n, env[n]]));
  env.npm_config_cache ??= npmCacheOf(realHome, env);
  env.npm_config_userconfig ??= path.join(realHome, '.npmrc');
  env.HOME = home;
  env.USERPROFILE = home;
  env.SLOTHTOOL_HOME = path.join(home, '.slothtool');
  env.SLOTHTOOL_JEST_HOME = base;
  return { base, saved };
}

/** Every path under `dir`, depth first, relative to it. */
function listTree(dir) {
  const out = [];
  const walk = (rel) => {
    let names;
    try {
      names = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return; // removed meanwhile
    }
    for (const d of names) {
      const child = rel ? path.join(rel, d.name) : d.name;
      out.push(d.isDirectory() ? child + path.sep : child);
      if (d.isDirectory()) walk(child);
    }
  };
  walk('');
  return out.sort();
}

/**
 * What the run wrote into the stand-in SlothTool home (paths relative to it; [] when nothing) and
 * the test files that were running then (jest-home-watch.js), once the environment is restored
 * and the stand-in removed. `made`: what {@link setup} returned.
 */
function teardown(made, env = process.env) {
  if (!made) return { written: [], writers: [] };
  const written = listTree(path.join(made.base, 'home', '.slothtool'));
  let writers = [];
  try {
    writers = [...new Set(fs.readFileSync(path.join(made.base, 'writers'), 'utf8').split('\n').filter(Boolean))];
  } catch {
    // no file saw a change (or jest-home-watch.js is not in the config)
  }
  for (const n of NAMES) {
    if (made.saved[n] === undefined) delete env[n];
    else env[n] = made.saved[n];
  }
  fs.rmSync(made.base, { recursive: true, force: true });
  return { written, writers };
}

/** The error a run with writes fails with: what was written, by which files, and what to do. */
function writtenError({ written, writers }) {
  const shown = written.slice(0, 20).map((p) => `  ~/.slothtool/${p}`);
  if (written.length > shown.length) shown.push(`  … and ${written.length - shown.length} more`);
  if (writers.length) shown.push('while these test files ran:', ...writers.map((f) => `  ${path.relative(path.join(__dirname, '..'), f)}`));
  return new Error(
    [
      'tests wrote into the SlothTool home of the environment they were started with (in a normal',
      'run, your real ~/.slothtool):',
      ...shown,
      'Give the test a home of its own: testkit createTempHome() and its env, or an env with HOME and',
      'SLOTHTOOL_HOME in a temp folder, for every runner, agent or bin it starts (a runner without',
      '`env` uses process.env). `npx jest <file>` alone tells which of the files named wrote.',
    ].join('\n'),
  );
}

// What globalSetup made, for globalTeardown (the same process; jest keeps globals between the two).
module.exports = async function globalSetup() {
  globalThis.__slothtoolJestHome = setup();
};
module.exports.setup = setup;
module.exports.teardown = teardown;
module.exports.writtenError = writtenError;
module.exports.listTree = listTree;
