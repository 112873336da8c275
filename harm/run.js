'use strict';
/**
 * One identity's run (the matrix, the unguarded ceiling when asked, the `ai -p` sample), and
 * the same run as another user: this script again under `setpriv --reuid UID --regid GID
 * --clear-groups`, in a folder that user owns, its records handed back as JSON.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawn, execFileSync } = require('child_process');
const { runMatrix, identity } = require('./matrix');
const { runE2eSample } = require('./e2e');
const { createRunBase } = require('./fixture');
const { selectCases, e2eSample } = require('./select');

const ROOT = path.join(__dirname, '..');

function commit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

/** A progress line every 100 jobs (and at the end) on stderr. */
function progress(who, log) {
  const harm = {};
  return (rec, done, total) => {
    if (rec.harms.length) harm[rec.mode] = (harm[rec.mode] ?? 0) + 1;
    if (done % 100 === 0 || done === total)
      log(
        `[${who}] ${done}/${total} jobs · realized harm so far: ${
          Object.entries(harm)
            .map(([m, n]) => `${m} ${n}`)
            .join(', ') || 'none'
        }`,
      );
  };
}

/** Run the selection here, as this process's user. */
async function runHere(opts, log = (s) => process.stderr.write(s + '\n')) {
  const started = Date.now();
  const runId = opts.runId ?? crypto.randomBytes(4).toString('hex');
  const base = opts.base ?? path.join('/var/tmp', `slothtool-harmrun-${runId}`);
  const cases = selectCases(opts);
  const modes = [...opts.modes, ...(opts.unguarded ? ['unguarded'] : [])];
  const who = identity();
  const matrix = await runMatrix({ cases, modes, base, runId, keep: true, onRecord: progress(who, log) });
  let e2e = [];
  const sample = e2eSample(cases, opts.e2e);
  if (sample.length) {
    log(`[${who}] ai -p sample: ${sample.length} cases × ${opts.modes.join(', ')}`);
    const run = createRunBase({ base: path.join(base, 'e2e'), runId: `${runId}e` });
    e2e = await runE2eSample({ run, base: path.join(base, 'e2e'), cases: sample, modes: opts.modes, runnerRecords: matrix.records });
  }
  fs.rmSync(base, { recursive: true, force: true });
  const meta = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    commit: commit(),
    cases: cases.length,
    seconds: (Date.now() - started) / 1000,
    gpg: matrix.gpg,
  };
  return { identity: who, records: matrix.records, e2e, leftovers: matrix.leftovers, facts: matrix.facts, meta };
}

/** uid → {name, gid} from the passwd database. */
function account(uid) {
  const line = execFileSync('getent', ['passwd', String(uid)], { encoding: 'utf8' }).trim();
  const [name, , , gid] = line.split(':');
  return { name, gid: Number(gid) };
}

/**
 * The same run as user `uid` (this process must be root): a folder owned by that user for its
 * fixture and temp files, this script re-run under setpriv with `--child-json`.
 */
async function runAsUser(uid, argv, log = (s) => process.stderr.write(s + '\n')) {
  const { name, gid } = account(uid);
  const runId = crypto.randomBytes(4).toString('hex');
  const base = path.join('/var/tmp', `slothtool-harmrun-${runId}-u${uid}`);
  for (const d of [base, path.join(base, 'tmp'), path.join(base, 'home')]) {
    fs.mkdirSync(d, { recursive: true, mode: 0o700 });
    fs.chownSync(d, uid, gid);
  }
  const out = path.join(base, 'records.json');
  const child = [
    process.execPath,
    path.join(ROOT, 'scripts', 'harm.js'),
    ...argv,
    '--child-json',
    out,
    '--base',
    path.join(base, 'run'),
    '--run-id',
    runId,
  ];
  const env = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: path.join(base, 'home'),
    TMPDIR: path.join(base, 'tmp'),
    LANG: 'C.UTF-8',
    USER: name,
    LOGNAME: name,
  };
  log(`[root] running the matrix as uid ${uid} (${name}) in ${base}`);
  const code = await new Promise((resolve) => {
    const p = spawn('setpriv', ['--reuid', String(uid), '--regid', String(gid), '--clear-groups', '--', ...child], {
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      cwd: ROOT,
    });
    p.on('error', (err) => resolve(`setpriv: ${err.message}`));
    p.on('close', resolve);
  });
  try {
    if (code !== 0) throw new Error(`the run as uid ${uid} ended with ${code}`);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    // git refuses a checkout another user owns ("dubious ownership"): the commit is read here.
    return { ...run, meta: { ...run.meta, commit: commit() } };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

module.exports = { runHere, runAsUser, account };
