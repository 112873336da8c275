'use strict';
/**
 * The user's path for a sample of cases: `ai -p --json [--approve-l1]` (the built bin) against
 * testkit's scripted model, in testkit's AI fixture with this harness's home, secrets and
 * workspace copied in. The model asks for the case's steps in one `cmd` reply, then says
 * `done`. What the model got is what the server received; the same checks run after.
 * Comparing each job with the runner-path job of the same case and mode shows the runner path
 * the matrix measures is the user's path.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { createAiFixture, runProcess } = require('@holic512/testkit');
const { makeCanaries, needles } = require('./canaries');
const { createTemplate, vars, subst, fixtureEnv, writeSecrets, writeCaseFiles, WS_REL } = require('./fixture');
const { snapshotTree } = require('./snapshot');
const { checkJob, processClock } = require('./checks');
const { startListeners } = require('./listeners');
const { outcomeOf } = require('./runner');
const { judgeControl } = require('./control-check');

const AI_BIN = path.join(__dirname, '..', 'packages', 'plugin-ai', 'bin', 'ai.js');
/** What `ai` itself keeps in its SlothTool home (sessions, audit, code cache, llm-base's call log). */
const AI_OWN = /^\.slothtool\/(ai|cache)(\/|$)|^\.slothtool\/plugin-configs$|^\.slothtool\/plugin-configs\/llm-base\.(logs|usage|calls)/;

/** testkit's fixture, its home made outside the temp folder the sandbox makes writable (where a user's home is). */
async function aiFixture(base) {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = base;
  try {
    return await createAiFixture({ language: 'en' });
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/** The harness's home in testkit's: the template copied over it (its registry kept), the job's secrets, llm-base on the scripted server. */
function fillHome(run, tpl, ai, jobNo, c, kase) {
  const home = ai.temp.home;
  fs.cpSync(tpl.home, home, {
    recursive: true,
    force: true,
    verbatimSymlinks: true,
    filter: (src) => !src.endsWith('/.slothtool/registry.json'),
  });
  const fx = {
    root: home,
    home,
    ws: path.join(home, WS_REL),
    sloth: path.join(home, '.slothtool'),
    ports: tpl.ports,
    tmp: os.tmpdir(),
    user: os.userInfo().username,
    repo: tpl.repo,
    mark: `slothtool-harm-${run.runId}-${jobNo}-m`,
    markPrefix: `slothtool-harm-${run.runId}-${jobNo}-`,
  };
  writeSecrets(run, fx, c);
  const llm = path.join(fx.sloth, 'plugin-configs', 'llm-base.json');
  const config = JSON.parse(fs.readFileSync(llm, 'utf8'));
  config.profiles.local.base_url = ai.server.baseURL;
  fs.writeFileSync(llm, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  fx.env = { ...fixtureEnv(fx, c), SLOTHTOOL_AI_PROBE_PORTS: '' };
  writeCaseFiles(fx, subst(kase.files, vars(fx)));
  return fx;
}

/** The tool results `ai -p --json` reported (one `tool_result` event per step, the object the model is sent). */
function toolResults(stdout) {
  const out = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const event = JSON.parse(line);
      if (event.type === 'tool_result' && event.result) out.push(event.result);
    } catch {
      // not an event line
    }
  }
  return out;
}

/** One case in one mode through `ai -p`. */
async function aiJob({ run, tpl, listen, base, kase, mode, jobNo }) {
  const ai = await aiFixture(base);
  try {
    const c = makeCanaries();
    const fx = fillHome(run, tpl, ai, jobNo, c, kase);
    const steps = subst(kase.steps, vars(fx));
    ai.server.setHandler((req) =>
      ai.server.requests.filter((r) => r.path.includes('chat')).length <= 1
        ? { json: { type: 'cmd', message: 'running the steps', data: { cwd: null, commands: steps, expected_effect: 'the steps run' } } }
        : { json: { type: 'chat', message: 'done' } },
    );
    const before = snapshotTree(fx.root);
    const since = processClock();
    listen.take();
    const args = ['-p', 'run the steps', '--json', ...(mode === 'approve-l1' ? ['--approve-l1'] : [])];
    const proc = await runProcess(process.execPath, [AI_BIN, ...args], { env: fx.env, cwd: fx.ws, input: '' });
    const results = toolResults(proc.stdout);
    const bodies = ai.server.requests.map((r) => r.body);
    const harms = await checkJob({
      fx,
      list: needles(c, run.gpg.secrets ?? {}),
      results: bodies,
      received: () => listen.take(),
      before,
      snapshot: () => snapshotTree(fx.root),
      since,
      ignore: AI_OWN,
    });
    const levels = results.map((r) => outcomeOf(r).level);
    const judged = levels.reduce((a, b) => (b > a ? b : a), levels.length ? 'L0' : '-');
    const row = {
      id: kase.id,
      class: kase.class,
      mode,
      judged,
      ran: results.map((r) => outcomeOf(r).status),
      harms,
      exit: proc.code,
      steps: steps.length,
      results: results.length,
    };
    if (kase.control) row.working = judgeControl(kase, fx, results, results.map(outcomeOf), mode);
    return row;
  } finally {
    await ai.cleanup();
  }
}

/**
 * Run the sample through `ai -p`; `runnerRecords` (the matrix's records of the same identity)
 * are matched by case and mode. Each row says whether the two paths agree on the judged level
 * and on realized harm.
 */
async function runE2eSample({ run, base, cases, modes, runnerRecords, onRecord }) {
  const listen = await startListeners();
  const tpl = createTemplate(run, 'e2e', listen.ports);
  const rows = [];
  let n = 0;
  try {
    for (const kase of cases) {
      for (const mode of modes) {
        const e2e = await aiJob({ run, tpl, listen, base, kase, mode, jobNo: `e${n++}` });
        const runner = runnerRecords.find((r) => r.id === kase.id && r.mode === mode);
        const row = { ...e2e, runnerJudged: runner?.judged, runnerHarm: runner ? runner.harms.length > 0 : undefined };
        row.runnerWorking = runner?.working?.working;
        const sameControl = !kase.control || runner?.working?.working === e2e.working?.working;
        row.agree = runner !== undefined && runner.judged === e2e.judged && runner.harms.length > 0 === e2e.harms.length > 0 && sameControl;
        rows.push(row);
        onRecord?.(row);
      }
    }
  } finally {
    await listen.close();
  }
  return rows;
}

module.exports = { runE2eSample, aiJob, toolResults };
