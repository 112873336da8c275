'use strict';
/**
 * One job: one case in one mode, in a fresh fixture. Make the fixture (the job's canaries in
 * every secret), start the victim process a case needs, snapshot, run the steps through the
 * runner, check everything, judge a control, remove the fixture.
 */
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { makeCanaries, needles } = require('./canaries');
const { vars, subst } = require('./fixture');
const { prepareJob, restoreWorkerFixture } = require('./job-fixture');
const { snapshotTree } = require('./snapshot');
const { checkJob, processClock } = require('./checks');
const { runSteps, outcomeOf } = require('./runner');
const { runUnguarded } = require('./unguarded');
const { judgeControl } = require('./control-check');

/** A process holding a canary in its environment and writing it out, for the ptrace and /proc probes. */
function startVictim(fx, c) {
  const code = "const fs=require('fs');const fd=fs.openSync('/dev/null','w');setInterval(()=>fs.writeSync(fd,process.env.VICTIM_TOKEN),20)";
  const child = spawn(process.execPath, ['-e', code], {
    cwd: fx.home,
    env: { HOME: fx.home, VICTIM_TOKEN: c.victimToken, PATH: fx.env.PATH },
    stdio: 'ignore',
  });
  child.on('error', () => undefined);
  return child;
}

/** A kernel key (user type, in the user keyring) holding a canary, for the keyctl probes; its id. */
function plantKey(fx, c) {
  const r = spawnSync('keyctl', ['add', 'user', `${fx.markPrefix}canary`, c.keyctlToken, '@u'], { encoding: 'utf8', timeout: 5000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The pass store's file is ciphertext: its own bytes (raw, hex, base64 from its start) are what an upload leaks. */
function fileNeedles(fx) {
  let buf;
  try {
    buf = fs.readFileSync(path.join(fx.home, '.password-store/github.com.gpg'));
  } catch {
    return [];
  }
  if (buf.length < 80) return [];
  const chunk = buf.subarray(buf.length - 40, buf.length - 16);
  return [{ name: 'passStoreFile', forms: [chunk.toString('latin1'), chunk.toString('hex'), buf.toString('base64').slice(40, 72)] }];
}

/** The levels a job's steps were judged, the highest first counted: what the table shows. */
function judged(results) {
  const order = { L0: 0, L1: 1, L2: 2 };
  return results.map((r) => outcomeOf(r).level).reduce((a, b) => (order[b] > order[a] ? b : a), 'L0');
}

/**
 * Run `kase` in `mode` on the worker's fixture `wfx` (listeners `listen`), put back to its
 * template afterwards. Returns the job's record: judged level, what ran, the harms found, and
 * for a control whether it worked.
 */
async function runJob({ run, wfx, listen, kase, mode, jobNo, overrides }) {
  const c = makeCanaries();
  const extra = run.gpg.secrets ?? {};
  const fx = prepareJob(run, wfx, jobNo, c, kase);
  const victim = kase.victim ? startVictim(fx, c) : undefined;
  if (victim) fx.victimPid = victim.pid;
  const keyId = kase.keyring ? plantKey(fx, c) : undefined;
  const list = [...needles(c, extra), ...fileNeedles(fx)];
  const steps = subst(kase.steps, vars(fx));
  const before = snapshotTree(fx.root);
  const since = processClock();
  let after;
  listen.take();
  const record = { id: kase.id, class: kase.class, mode, control: !!kase.control, expect: kase.expect };
  try {
    const { results, asked } = mode === 'unguarded' ? await runUnguarded(fx, steps) : await runSteps(fx, mode, steps, overrides);
    const outcomes = results.map(outcomeOf);
    if (victim) victim.kill('SIGKILL');
    if (keyId) spawnSync('keyctl', ['invalidate', keyId], { timeout: 5000 });
    const snapshot = () => (after = snapshotTree(fx.root));
    const harms = await checkJob({
      fx,
      list,
      results,
      received: () => listen.take(),
      before,
      snapshot,
      since,
      ignorePids: victim ? [victim.pid] : [],
    });
    Object.assign(record, { judged: judged(results), ran: outcomes.map((o) => o.status), asked, harms });
    if (kase.control) record.working = judgeControl(kase, fx, results, outcomes, mode);
    record.steps = kase.steps.map(stepText);
    return record;
  } finally {
    if (victim && victim.exitCode === null) victim.kill('SIGKILL');
    record.fixture = restoreWorkerFixture(wfx, after);
  }
}

/** A step in one line for the report. */
function stepText(s) {
  const tool = s.tool ?? 'exec';
  if (tool === 'exec' || tool === 'proc.start')
    return `${tool === 'exec' ? '' : 'proc.start '}${[s.program, ...(s.args ?? [])].map(quote).join(' ')}`;
  const { tool: _t, ...rest } = s;
  return `${tool} ${JSON.stringify(rest)}`;
}

const quote = (w) => (/^[\w@%+=:,./~{}-]+$/.test(w) ? w : `'${String(w).replace(/'/g, "'\\''")}'`);

module.exports = { runJob, stepText, judged };
