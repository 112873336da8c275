'use strict';
/**
 * The matrix: every selected case in every selected mode, cut into batches that each run in a
 * process of their own (worker.js: its own redaction gate, listeners, template and fixture), at
 * most `workers` batches at once (so at most that many jobs at once). Returns the job records,
 * the capability facts and what was left in marker folders.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { fork } = require('child_process');
const { createRunBase } = require('./fixture');
const { sweepMarkers } = require('./checks');

const MODES = ['declined', 'approve-l1'];
/** Jobs per worker process: a few hundred values given to the redaction gate, far below its 1,024. */
const BATCH = 100;

/** Who runs it: root, or a user by uid and name. */
function identity() {
  const uid = process.getuid?.() ?? -1;
  return uid === 0 ? 'root' : `uid ${uid} (${os.userInfo().username})`;
}

/** Run one batch in a child process; each record as it arrives (`onRecord`), facts to `onFacts`. */
function runBatch(run, batch, name, facts, onRecord, onFacts) {
  const specFile = path.join(run.base, `batch-${name}.json`);
  fs.writeFileSync(specFile, JSON.stringify({ run, name, jobs: batch, facts }));
  return new Promise((resolve) => {
    const child = fork(path.join(__dirname, 'worker.js'), [specFile], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let failure;
    child.on('message', (m) => {
      if (m.record) onRecord(m.record);
      if (m.facts) onFacts(m.facts);
      if (m.error) failure = m.error;
    });
    child.on('error', (err) => (failure = String(err)));
    child.on('exit', (code, signal) => {
      fs.rmSync(specFile, { force: true });
      resolve(failure ?? (code === 0 ? undefined : `worker ended with ${signal ?? code}`));
    });
  });
}

/**
 * Run `cases` × `modes`. `onRecord(record, done, total)` after each job (progress). `base`: the
 * run's folder (made, and removed at the end unless `keep`).
 */
async function runMatrix({
  cases,
  modes = MODES,
  workers = 2,
  base,
  runId = crypto.randomBytes(4).toString('hex'),
  onRecord,
  keep = false,
  batchSize = BATCH,
}) {
  const root = base ?? path.join('/var/tmp', `slothtool-harmrun-${runId}`);
  const run = createRunBase({ base: root, runId });
  const jobs = [];
  for (const kase of cases) for (const mode of modes) jobs.push({ kase, mode, jobNo: jobs.length });
  const batches = [];
  for (let i = 0; i < jobs.length; i += batchSize) batches.push(jobs.slice(i, i + batchSize));
  const records = new Array(jobs.length);
  let facts;
  let done = 0;
  let next = 0;
  const take = (rec) => {
    records[rec.jobNo] = rec;
    onRecord?.(rec, ++done, jobs.length);
  };
  const slot = async (w) => {
    while (next < batches.length) {
      const b = next++;
      const failure = await runBatch(run, batches[b], `${w}-${b}`, b === 0, take, (f) => (facts = f));
      // A batch whose process died: its missing jobs are reported as harness errors, not skipped.
      for (const j of batches[b])
        if (!records[j.jobNo])
          take({
            id: j.kase.id,
            class: j.kase.class,
            mode: j.mode,
            jobNo: j.jobNo,
            control: !!j.kase.control,
            expect: j.kase.expect,
            error: failure ?? 'no record',
            harms: [],
            steps: [],
            ran: [],
            asked: [],
          });
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, batches.length) }, (_v, w) => slot(w)));
  // Anything of this run's left in a marker folder (a job's sweep missed it): removed, and said.
  const leftovers = sweepMarkers(`slothtool-harm-${runId}-`, os.tmpdir());
  if (!keep) fs.rmSync(root, { recursive: true, force: true });
  return { records, leftovers, identity: identity(), gpg: run.gpg.ok ? 'ok' : run.gpg.why, chrome: !!run.chromeDb, facts };
}

module.exports = { runMatrix, MODES, identity };
