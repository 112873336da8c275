/**
 * Records every judgement the tool-runner tests make, for comparing a refactor of the judgement
 * before and after (docs/architecture.md, "How the one direction was checked"). Loaded by
 * `scripts/risk-corpus.sh` as a jest setupFilesAfterEnv: it wraps `classify` (and renders each
 * call in zh and en) and every runner's `judge` and `run`, and writes one JSON line per call to
 * $RISK_CORPUS_OUT/<test file>.jsonl. Temporary folder names are normalised.
 */
const fs = require('fs');
const path = require('path');

const out = process.env.RISK_CORPUS_OUT;
const src = path.join(__dirname, '..', 'packages', 'tool-runner', 'src');
const records = [];
const norm = (v) =>
  JSON.parse(
    JSON.stringify(v === undefined ? null : v)
      .replace(/\/tmp\/[A-Za-z0-9._-]+/g, '/tmp/X')
      .replace(/\/private\/var\/folders\/[^"]+?\/T\/[A-Za-z0-9._-]+/g, '/tmp/X'),
  );

jest.mock(path.join(src, 'policy', 'classify'), () => {
  const actual = jest.requireActual(path.join(src, 'policy', 'classify'));
  return {
    ...actual,
    classify(step, policy = {}, ctx = {}) {
      const result = actual.classify(step, policy, ctx);
      try {
        records.push(
          norm({
            kind: 'classify',
            step,
            policy,
            lang: ctx.lang,
            result,
            zh: actual.classify(step, policy, { ...ctx, lang: 'zh' }),
            en: actual.classify(step, policy, { ...ctx, lang: 'en' }),
          }),
        );
      } catch (e) {
        records.push({ kind: 'classify', error: String(e) });
      }
      return result;
    },
  };
});

jest.mock(path.join(src, 'runner'), () => {
  const actual = jest.requireActual(path.join(src, 'runner'));
  return {
    ...actual,
    createToolRunner(options) {
      const runner = actual.createToolRunner(options);
      const judge = runner.judge;
      const run = runner.run;
      runner.judge = (step) => {
        const result = judge(step);
        records.push(norm({ kind: 'judge', step, mode: runner.mode, allowances: runner.sessionAllowances, result }));
        return result;
      };
      runner.run = async (step, o) => {
        const result = await run(step, o);
        records.push(
          norm({ kind: 'run', step, mode: runner.mode, status: result.status, decision: result.decision, reason: result.reason }),
        );
        return result;
      };
      return runner;
    },
  };
});

afterAll(() => {
  if (!out) return;
  fs.mkdirSync(out, { recursive: true });
  const name = path.basename(expect.getState().testPath || 'unknown');
  fs.appendFileSync(path.join(out, `${name}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
  records.length = 0;
});
