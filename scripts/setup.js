'use strict';
// `npm run setup`: make this checkout's plugins runnable through slothtool.
//
// 1. ensureReady(): npm ci when node_modules is missing or stale, then tsc -b (incremental).
// 2. Register every packages/plugin-* that has a bin in the SlothTool registry
//    (SLOTHTOOL_HOME, default ~/.slothtool) under its alias, pointing at
//    packages/<dir>/bin/<bin>.js in this checkout. Nothing is copied, nothing global is touched.
// 3. Say how to run slothtool from here.
//
// An alias already registered to something else (e.g. a real `slothtool install
// @holic512/plugin-ai`) is left alone and reported; `--force` replaces it. Running it again
// with nothing changed writes nothing.
//
//   node scripts/setup.js [--force] [--no-build]
//   --no-build   skip step 1 (tests and CI, where the build already ran); also SLOTHTOOL_SKIP_BUILD=1
const fs = require('fs');
const path = require('path');
const { ensureReady, root } = require('./ensure');

const hostBin = path.join(root, 'packages', 'slothtool', 'bin', 'slothtool.js');
const hostLib = path.join(root, 'packages', 'slothtool', 'lib', 'index.js');

/** Folders of this checkout that are SlothTool plugins: packages/plugin-* with a bin. */
function pluginDirs() {
  const packages = path.join(root, 'packages');
  return fs
    .readdirSync(packages)
    .filter((dir) => dir.startsWith('plugin-'))
    .map((dir) => path.join(packages, dir))
    .filter((dir) => {
      try {
        return Boolean(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).bin);
      } catch {
        return false; // no or unreadable package.json: not a package (yet)
      }
    })
    .sort();
}

/**
 * Files the bin requires from the package (`require('../lib/cli.js')`) that do not exist:
 * the package has not been built.
 */
function missingBuildOutput(binPath) {
  let text;
  try {
    text = fs.readFileSync(binPath, 'utf8');
  } catch {
    return [binPath];
  }
  const missing = [];
  for (const m of text.matchAll(/require\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
    const target = path.resolve(path.dirname(binPath), m[1]);
    if (![target, `${target}.js`, path.join(target, 'index.js')].some((f) => fs.existsSync(f))) missing.push(target);
  }
  return missing;
}

const rel = (p) => path.relative(root, p) || '.';

/**
 * Run the setup. Returns what happened so `npm start` can decide what to run.
 * @param {{force?: boolean, build?: boolean, env?: NodeJS.ProcessEnv}} options
 */
function setup({ force = false, build = true, env = process.env } = {}) {
  if (build) ensureReady();
  if (!fs.existsSync(hostLib)) {
    const err = new Error(`${rel(hostLib)} is missing: build first (npm run build), or run without --no-build`);
    err.exitCode = 1;
    throw err;
  }
  const host = require(hostLib);
  const paths = host.resolveHome(env);
  const outcomes = host.linkLocalPlugins(paths, pluginDirs(), { force });
  const unbuilt = new Map(outcomes.map((o) => [o.alias, missingBuildOutput(o.entry.binPath)]));
  return { paths, outcomes, unbuilt };
}

/** Human-readable report of a setup() result, one line per plugin plus how to run slothtool. */
function describe({ paths, outcomes, unbuilt }) {
  const lines = [`SlothTool registry: ${paths.registry}`];
  for (const o of outcomes) {
    const target = rel(o.entry.binPath);
    const notBuilt = unbuilt.get(o.alias).length ? `  (not built yet: ${unbuilt.get(o.alias).map(rel).join(', ')} missing)` : '';
    const prev = o.previous ? `${o.previous.name} ${o.previous.version} at ${o.previous.binPath}` : '';
    switch (o.status) {
      case 'added':
        lines.push(`  + ${o.alias} -> ${target}${notBuilt}`);
        break;
      case 'unchanged':
        lines.push(`  = ${o.alias} -> ${target} (already registered)${notBuilt}`);
        break;
      case 'updated':
        lines.push(`  ~ ${o.alias} -> ${target} (version ${o.previous.version} -> ${o.entry.version})${notBuilt}`);
        break;
      case 'replaced':
        lines.push(
          `  ! ${o.alias} -> ${target} (--force: replaced ${prev};`,
          `      to get it back: slothtool uninstall ${o.alias} && slothtool install ${o.previous.name})${notBuilt}`,
        );
        break;
      case 'conflict':
        lines.push(
          `  ! ${o.alias} left unchanged: it is registered to ${prev}`,
          `      to point it at this checkout instead: npm run setup -- --force`,
        );
        break;
    }
  }
  lines.push(
    '',
    'Run slothtool from this checkout (nothing was installed globally):',
    '  npx slothtool <alias> [args]          (inside this checkout; npm linked the workspace bin)',
    `  node ${rel(hostBin)} <alias> [args]`,
    'or, if you want it everywhere, add this to your shell yourself:',
    `  alias slothtool='node ${hostBin}'`,
  );
  return lines.join('\n');
}

function main(argv) {
  const known = new Set(['--force', '--no-build', '--help', '-h']);
  const unknown = argv.filter((a) => !known.has(a));
  if (unknown.length || argv.includes('--help') || argv.includes('-h')) {
    const usage = 'usage: node scripts/setup.js [--force] [--no-build]';
    (unknown.length ? process.stderr : process.stdout).write(
      `${unknown.length ? `unknown argument: ${unknown.join(' ')}\n` : ''}${usage}\n`,
    );
    process.exitCode = unknown.length ? 2 : 0;
    return;
  }
  try {
    const result = setup({
      force: argv.includes('--force'),
      build: !argv.includes('--no-build') && process.env.SLOTHTOOL_SKIP_BUILD !== '1',
    });
    process.stdout.write(describe(result) + '\n');
  } catch (err) {
    const detail =
      err.code === 'REGISTRY_CORRUPT'
        ? `the registry file is corrupt: ${err.params.file}\n  ${err.params.detail}\nFix it by hand, or back it up and move it away; setup will not overwrite it.`
        : err.message;
    process.stderr.write(`setup failed: ${detail}\n`);
    process.exitCode = err.exitCode || 1;
  }
}

module.exports = { setup, describe, hostBin };

if (require.main === module) main(process.argv.slice(2));
