'use strict';
// `npm run release`: turn pending changesets into versions and changelogs, refresh the lockfile,
// build, test, and publish every public package whose version is not on the registry yet.
// The registry is whatever npm's own configuration says (`npm config get @holic512:registry`,
// falling back to `npm config get registry`): .npmrc files, npm_config_* variables, --registry.
// docs/releasing.md explains the whole flow.
//
//   npm run release                     version → npm install → build → test → publish
//   npm run release -- version          only: changeset version → npm install
//   npm run release -- publish          only: build → changeset publish
//   npm run release -- --dry-run        print the plan, the pending bumps and what is unpublished; change nothing
//   --no-git-tag                        passed to `changeset publish` (no <name>@<version> git tags)
//   --tag <dist-tag>                    passed to `changeset publish` (default: latest)
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { BUNDLES } = require('./bundle');

const root = path.resolve(__dirname, '..');
const SCOPE = '@holic512';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const changesetBin = path.join(path.dirname(require.resolve('@changesets/cli/package.json', { paths: [root] })), 'bin.js');
const tscBin = path.join(path.dirname(require.resolve('typescript/package.json', { paths: [root] })), 'bin', 'tsc');

class ReleaseError extends Error {
  constructor(message, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

const USAGE = 'usage: node scripts/release.js [version | publish] [--dry-run] [--no-git-tag] [--tag <dist-tag>]';

/** Parse argv into {command, dryRun, gitTag, tag}; unknown arguments are an error. */
function parseArgs(argv) {
  const opts = { command: 'all', dryRun: false, gitTag: true, tag: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === 'version' || a === 'publish') opts.command = a;
    else if (a === '--dry-run') opts.dryRun = true;
    else if (a === '--no-git-tag') opts.gitTag = false;
    else if (a === '--tag' && argv[i + 1]) opts.tag = argv[++i];
    else if (a === '-h' || a === '--help') opts.command = 'help';
    else throw new ReleaseError(`unknown argument ${JSON.stringify(a)}\n${USAGE}`, 2);
  }
  return opts;
}

const shown = (a) => (path.isAbsolute(a) && a.startsWith(root + path.sep) ? path.relative(root, a) : a);

function run(cmd, args, what, options = {}) {
  process.stderr.write(`\n> ${what}: ${[path.basename(cmd), ...args.map(shown)].join(' ')}\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (r.status !== 0) {
    throw new ReleaseError(
      `${what} failed (exit ${r.status ?? r.signal ?? r.error}); nothing after it ran. Fix it and run the release again.`,
      r.status || 1,
    );
  }
}

function capture(cmd, args, options = {}) {
  return spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...options });
}

/** npm's own answers for config keys (one npm run), undefined for keys that are not set. */
function npmConfig(keys) {
  const r = capture(npm, ['config', 'get', ...keys]);
  if (r.status !== 0) throw new ReleaseError(`npm config get ${keys.join(' ')} failed: ${(r.stderr || '').trim()}`);
  const lines = (r.stdout || '').trim().split('\n');
  // one key prints the bare value; several print key=value lines
  const values = keys.length === 1 ? [lines[0]] : keys.map((k) => (lines.find((l) => l.startsWith(`${k}=`)) || '').slice(k.length + 1));
  return values.map((v) => (v && v !== 'undefined' && v !== 'null' ? v.trim() : undefined));
}

/** Where `npm publish` would send our scope, by npm's configuration. */
function resolveRegistry() {
  const [scoped, configured] = npmConfig([`${SCOPE}:registry`, 'registry']);
  const fallback = configured || 'https://registry.npmjs.org/';
  return { scoped, fallback, registry: scoped || fallback };
}

/** The environment for changeset: it reads registries from npm_config_* variables only (not
 * from .npmrc), so they are set from npm's resolved configuration; everything else passes. */
function publishEnv(reg) {
  const env = { ...process.env, npm_config_registry: reg.fallback };
  if (reg.scoped) env[`npm_config_${SCOPE}:registry`] = reg.scoped;
  return env;
}

/** Every packages/* folder with a package.json. */
function workspacePackages(base = root) {
  const dir = path.join(base, 'packages');
  return fs
    .readdirSync(dir)
    .map((name) => path.join(dir, name))
    .filter((d) => fs.existsSync(path.join(d, 'package.json')))
    .map((d) => ({ dir: d, pkg: JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')) }));
}

/** The workspace packages that get published: those without "private": true. */
function publicPackages(base = root) {
  return workspacePackages(base).filter(({ pkg }) => !pkg.private);
}

/** What a publish is missing before it goes out (files npm would silently leave out); `base`:
 * a checkout laid out like this one (tests). */
function preflight(base = root) {
  const problems = [];
  for (const { dir, pkg } of publicPackages(base)) {
    const rel = path.relative(base, dir);
    for (const f of ['README.md', 'LICENSE']) {
      if (!fs.existsSync(path.join(dir, f))) problems.push(`${rel}/${f} is missing (npm packs it from the package folder only)`);
    }
    if (pkg.main && !fs.existsSync(path.join(dir, pkg.main))) problems.push(`${rel}/${pkg.main} (main) is missing: build first`);
    for (const b of BUNDLES) {
      const out = path.join(base, path.relative(root, b.out));
      if (path.dirname(path.dirname(out)) === dir && !fs.existsSync(out))
        problems.push(`${path.relative(base, out)} (bundle) is missing: run scripts/bundle.js`);
    }
    for (const bin of Object.values(typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : pkg.bin || {})) {
      if (!fs.existsSync(path.join(dir, bin))) problems.push(`${rel}/${bin} (bin) is missing`);
    }
  }
  return problems;
}

/** 'published' | 'unpublished' | a reason the registry could not tell. */
function publishState(name, version, reg) {
  const r = capture(npm, ['view', `${name}@${version}`, 'version', '--json', `--${SCOPE}:registry=${reg.registry}`]);
  if (r.status === 0) return (r.stdout || '').trim() ? 'published' : 'unpublished';
  const text = `${r.stdout}\n${r.stderr}`;
  if (/E404|404 Not Found/.test(text)) return 'unpublished';
  const line = text.split('\n').find((l) => /npm error/.test(l)) || `npm view exited with ${r.status}`;
  return `unknown (${line.replace(/^npm error\s*/, '').trim()})`;
}

function dryRun(opts, reg) {
  const out = (s) => process.stdout.write(`${s}\n`);
  out(`registry for ${SCOPE}: ${reg.registry}${reg.scoped ? '' : " (no scoped registry set; npm's default registry)"}`);
  out('\npending changesets (changeset status --verbose):');
  const st = capture(process.execPath, [changesetBin, 'status', '--verbose']);
  out((st.stdout + st.stderr).trim().replace(/^/gm, '  '));
  const steps = [];
  if (opts.command !== 'publish') steps.push('changeset version', 'npm install (refresh package-lock.json)');
  if (opts.command !== 'version') steps.push('tsc -b (build)', 'scripts/bundle.js (bundles)');
  if (opts.command === 'all') steps.push('npm test');
  if (opts.command !== 'version')
    steps.push(`changeset publish${opts.gitTag ? '' : ' --no-git-tag'}${opts.tag ? ` --tag ${opts.tag}` : ''}`);
  out(`\nsteps: ${steps.join(' → ')}`);
  if (opts.command !== 'version') {
    out('\npublic packages at their current versions:');
    for (const { pkg } of publicPackages()) {
      const state = publishState(pkg.name, pkg.version, reg);
      const said = { published: 'already published (skipped)', unpublished: 'would be published' }[state] || state;
      out(`  ${pkg.name}@${pkg.version}: ${said}`);
    }
    const problems = preflight();
    if (problems.length) out(`\nproblems to fix before publishing:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  out('\ndry run: nothing was changed.');
}

function main(argv) {
  const opts = parseArgs(argv);
  if (opts.command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const reg = resolveRegistry();
  if (opts.dryRun) return dryRun(opts, reg);

  if (opts.command !== 'publish') {
    run(process.execPath, [changesetBin, 'version'], 'versions and changelogs');
    // changeset version edits package.json files but not the lockfile.
    run(npm, ['install', '--no-audit', '--no-fund'], 'lockfile refresh');
  }
  if (opts.command === 'version') return;

  if (opts.command === 'all') {
    // A full release builds from nothing, so no file of a deleted module lingers in lib/ and
    // ships (tsc never removes outputs whose source is gone).
    for (const { dir } of workspacePackages())
      for (const out of ['lib', 'dist']) fs.rmSync(path.join(dir, out), { recursive: true, force: true });
  }
  run(process.execPath, [tscBin, '-b'], 'build');
  run(process.execPath, [path.join(root, 'scripts', 'bundle.js')], 'bundle');
  if (opts.command === 'all') run(npm, ['test'], 'tests');
  const problems = preflight();
  if (problems.length) throw new ReleaseError(`not publishing:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.stderr.write(`\npublishing ${SCOPE}/* to ${reg.registry}\n`);
  const args = [changesetBin, 'publish'];
  if (!opts.gitTag) args.push('--no-git-tag');
  if (opts.tag) args.push('--tag', opts.tag);
  run(process.execPath, args, 'publish', { env: publishEnv(reg) });
}

module.exports = { parseArgs, publicPackages, preflight, resolveRegistry };

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`release: ${err.message}\n`);
    process.exit(err.exitCode || 1);
  }
}
