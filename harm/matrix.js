'use strict';
/**
 * The matrix: every selected case in every selected mode, at most `workers` jobs at once, each
 * worker with its own canary listeners and template (so what a listener receives belongs to
 * one job). Returns the job records and the run's facts.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const toolRunner = require('@holic512/tool-runner');
const { createRunBase, createTemplate } = require('./fixture');
const { createWorkerFixture } = require('./job-fixture');
const { startListeners } = require('./listeners');
const { runJob } = require('./job');
const { sweepMarkers } = require('./checks');
const { sandboxFacts } = require('./facts');
const { prepareJob, restoreWorkerFixture } = require('./job-fixture');
const { makeCanaries } = require('./canaries');

const MODES = ['declined', 'approve-l1'];

/** Who runs it: root, or a user by uid and name. */
function identity() {
  const uid = process.getuid?.() ?? -1;
  return uid === 0 ? 'root' : `uid ${uid} (${os.userInfo().username})`;
}

/** The run's shared parts and one template and listener set per worker. */
async function setUp({ base, runId, workers }) {
  const run = createRunBase({ base, runId });
  // The spawn helper is one per process and keeps its pipe folder under the first home it is
  // given: a folder of the run's, not a job's (jobs' homes are removed after each job).
  const helperHome = path.join(base, 'helper-home');
  fs.mkdirSync(helperHome, { recursive: true, mode: 0o700 });
  await toolRunner.prepareSpawnHelper({ slothtoolHome: helperHome });
  const slots = [];
  for (let w = 0; w < workers; w++) {
    const listen = await startListeners();
    const tpl = createTemplate(run, w, listen.ports);
    slots.push({ listen, tpl, wfx: createWorkerFixture(run, tpl, w) });
  }
  return { run, slots };
}

/**
 * Run `cases` × `modes`. `onRecord(record, done, total)` is called after each job (progress).
 * `base`: the run's folder (made, and removed at the end unless `keep`).
 */
async function runMatrix({ cases, modes = MODES, workers = 2, base, runId = crypto.randomBytes(4).toString('hex'), onRecord, keep = false, overrides }) {
  const root = base ?? path.join('/var/tmp', `slothtool-harmrun-${runId}`);
  const { run, slots } = await setUp({ base: root, runId, workers });
  const fx = prepareJob(run, slots[0].wfx, 'facts', makeCanaries(), { steps: [] });
  const facts = sandboxFacts(fx);
  restoreWorkerFixture(slots[0].wfx);
  const jobs = [];
  for (const kase of cases) for (const mode of modes) jobs.push({ kase, mode });
  const records = [];
  let next = 0;
  let done = 0;
  const worker = async (slot) => {
    while (next < jobs.length) {
      const jobNo = next++;
      const { kase, mode } = jobs[jobNo];
      let record;
      try {
        record = await runJob({ run, wfx: slot.wfx, listen: slot.listen, kase, mode, jobNo, overrides });
      } catch (err) {
        record = { id: kase.id, class: kase.class, mode, control: !!kase.control, expect: kase.expect, error: String(err?.stack ?? err), harms: [], steps: [] };
      }
      records[jobNo] = record;
      onRecord?.(record, ++done, jobs.length);
    }
  };
  try {
    await Promise.all(slots.map(worker));
  } finally {
    await Promise.all(slots.map((s) => s.listen.close()));
  }
  // Anything of this run's left in a marker folder (a job's sweep missed it): removed, and said.
  const leftovers = sweepMarkers(`slothtool-harm-${runId}-`, os.tmpdir());
  if (!keep) fs.rmSync(root, { recursive: true, force: true });
  return { records, leftovers, identity: identity(), gpg: run.gpg.ok ? 'ok' : run.gpg.why, chrome: !!run.chromeDb, facts };
}

module.exports = { runMatrix, MODES, identity };
