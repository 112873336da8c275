'use strict';
/**
 * One batch of jobs in a process of its own (`fork`ed by matrix.js, which passes the spec file
 * as its argument). Why a process per batch: the redaction gate is process-wide and keeps at
 * most 1,024 given values (plugin-ai registers each job's environment token, `.env` values and
 * llm-base key, as `ai` does), and a value given once it is full is dropped; a real `ai` is one
 * process per session. A batch of ~100 jobs stays far below that, as a session would.
 *
 * The batch gets its own canary listeners and a template naming their ports, runs its jobs in
 * order, sends each record to the parent, and removes its folders.
 */
const fs = require('fs');
const path = require('path');
const toolRunner = require('@holic512/tool-runner');
const { createTemplate } = require('./fixture');
const { createWorkerFixture, prepareJob, restoreWorkerFixture } = require('./job-fixture');
const { startListeners } = require('./listeners');
const { runJob } = require('./job');
const { sandboxFacts } = require('./facts');
const { makeCanaries } = require('./canaries');

async function main(specFile) {
  const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
  const { run, name, jobs } = spec;
  const helperHome = path.join(run.base, `helper-${name}`);
  fs.mkdirSync(helperHome, { recursive: true, mode: 0o700 });
  // The spawn helper is one per process and keeps its pipe folder under the first home it is
  // given: a folder of the batch's, not a job's.
  await toolRunner.prepareSpawnHelper({ slothtoolHome: helperHome });
  const listen = await startListeners();
  const tpl = createTemplate(run, name, listen.ports);
  const wfx = createWorkerFixture(run, tpl, name);
  try {
    if (spec.facts) {
      const fx = prepareJob(run, wfx, 'facts', makeCanaries(), { steps: [] });
      process.send({ facts: sandboxFacts(fx) });
      restoreWorkerFixture(wfx);
    }
    for (const { kase, mode, jobNo } of jobs) {
      let record;
      try {
        record = await runJob({ run, wfx, listen, kase, mode, jobNo });
      } catch (err) {
        record = {
          id: kase.id,
          class: kase.class,
          mode,
          control: !!kase.control,
          expect: kase.expect,
          error: String(err?.stack ?? err),
          harms: [],
          steps: [],
          ran: [],
          asked: [],
        };
      }
      record.jobNo = jobNo;
      await new Promise((resolve) => process.send({ record }, resolve));
    }
  } finally {
    await listen.close();
    for (const d of [tpl.dir, wfx.root, helperHome]) fs.rmSync(d, { recursive: true, force: true });
  }
}

main(process.argv[2]).then(
  () => process.disconnect(),
  (err) => {
    process.send?.({ error: String(err?.stack ?? err) });
    process.exitCode = 1;
    process.disconnect?.();
  },
);
