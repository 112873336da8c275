'use strict';
// `npm run bench`: build if needed, run every row in bench/rows/ in a temp SlothTool home,
// print a table and write bench/results.md. `npm run bench -- startup context` runs some rows;
// `--runs N` sets the repetitions per measurement (default 9). `--check` exits 1 when a target
// is missed (not only when a row could not run). `--ci` (what CI runs, with `--runs 3`) exits 1
// when a measurement with a same-run ratio is more than 2× worse than bench/ci-reference.json;
// `--ci --record` writes that file from this run.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { ensureReady, root } = require('./ensure');

const ORDER = [
  'startup',
  'first-reply',
  'first-prompt',
  'runner-overhead',
  'sandbox-mounts',
  'streamed-reply',
  'runner-capture',
  'exec-capture',
  'context',
  'prefix',
  'continue',
  'classify',
  'redact',
  'grep',
  'json-1gb',
  'peers',
];

function parseArgs(argv) {
  const opts = { runs: 9, only: [], check: false, ci: false, record: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') opts.runs = Number(argv[++i]);
    else if (argv[i] === '--check') opts.check = true;
    else if (argv[i] === '--ci') opts.ci = true;
    else if (argv[i] === '--record') opts.record = true;
    else if (argv[i].startsWith('-')) throw new Error(`unknown option ${argv[i]} (known: --runs N, --check, --ci [--record], row names)`);
    else opts.only.push(argv[i]);
  }
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error('--runs needs a whole number ≥ 1');
  return opts;
}

function machine() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0] ? cpus[0].model.trim() : 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, node ${process.version}`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  ensureReady({ quiet: true });
  const { createTempHome, packageDir } = require(path.join(root, 'packages/testkit'));
  const temp = await createTempHome({ language: 'en' });
  try {
    await temp.registerPlugin('llm-base', packageDir('plugin-llm-base'));
    await temp.registerPlugin('ai', packageDir('plugin-ai'));
    const ctx = { root, env: temp.env, temp, runs: opts.runs };
    const available = fs.readdirSync(path.join(root, 'bench/rows')).map((f) => f.replace(/\.js$/, ''));
    const names = ORDER.filter((n) => available.includes(n) && (!opts.only.length || opts.only.includes(n)));
    const sections = [];
    let failed = false;
    for (const name of names) {
      const row = require(path.join(root, 'bench/rows', name));
      process.stderr.write(`bench: ${row.title}…\n`);
      let rows;
      try {
        rows = await row.run(ctx);
      } catch (err) {
        failed = true;
        rows = [{ name: row.title, value: `failed: ${err.message.split('\n')[0]}`, target: '', ok: false }];
      }
      sections.push({ title: row.title, rows, method: methodOf(path.join(root, 'bench/rows', `${name}.js`)) });
    }
    const mark = (ok) => (ok === null || ok === undefined ? '' : ok ? 'met' : 'MISSED');
    const lines = [
      '# Benchmark results',
      '',
      `Machine: ${machine()}  `,
      `Date: ${new Date().toISOString()}  `,
      `Runs per figure: ${opts.runs} (median, min–max)`,
      '',
      '| row | measurement | figure | target | |',
      '| --- | --- | --- | --- | --- |',
    ];
    for (const s of sections) {
      for (const r of s.rows) lines.push(`| ${s.title} | ${r.name} | ${r.value} | ${r.target || ''} | ${mark(r.ok)} |`);
    }
    lines.push('', '## How each row is measured', '');
    for (const s of sections) if (s.method) lines.push(`- **${s.title}**: ${s.method}`);
    const text = lines.join('\n') + '\n';
    process.stdout.write(text);
    if (opts.ci) {
      if (ciCompare(sections, opts.record)) process.exitCode = 1;
      return;
    }
    if (!opts.only.length) fs.writeFileSync(path.join(root, 'bench/results.md'), text);
    // A missed target is a finding shown in the table; with --check it fails the run too.
    const missed = sections.flatMap((sec) => sec.rows.filter((r) => r.ok === false).map((r) => `${sec.title}: ${r.name}`));
    if (failed || (opts.check && missed.length)) {
      if (opts.check && missed.length)
        process.stderr.write(`bench: missed ${missed.length} target(s):\n${missed.map((m) => `  ${m}`).join('\n')}\n`);
      process.exitCode = 1;
    }
  } finally {
    await temp.cleanup();
  }
}

/** The method of a row: the comment its file opens with (after 'use strict'), as one paragraph. */
function methodOf(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out = [];
  for (const line of lines.slice(lines[0].includes('use strict') ? 1 : 0)) {
    if (!line.startsWith('//')) break;
    out.push(line.replace(/^\/\/\s?/, ''));
  }
  return out
    .join(' ')
    .replace(/^Row(?: \d+)?:\s*/, '')
    .trim();
}

/**
 * The CI check: every measurement with a `metric` (a same-run ratio or a figure against its own
 * baseline) against bench/ci-reference.json; more than 2× worse fails. Returns whether one did.
 */
function ciCompare(sections, record) {
  const file = path.join(root, 'bench/ci-reference.json');
  const measured = {};
  for (const sec of sections)
    for (const r of sec.rows)
      if (typeof r.metric === 'number' && Number.isFinite(r.metric))
        measured[`${sec.title} / ${r.name}`] = { value: r.metric, better: r.better };
  if (record) {
    const out = Object.fromEntries(Object.entries(measured).map(([k, m]) => [k, { value: Number(m.value.toFixed(4)), better: m.better }]));
    fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
    process.stderr.write(`bench: recorded ${Object.keys(out).length} reference figures in ${file}\n`);
    return false;
  }
  const reference = JSON.parse(fs.readFileSync(file, 'utf8'));
  const worse = [];
  for (const [key, ref] of Object.entries(reference)) {
    const m = measured[key];
    if (!m) {
      worse.push(`${key}: not measured (row missing or failed)`);
      continue;
    }
    const factor = ref.better === 'higher' ? ref.value / m.value : m.value / ref.value;
    const line = `${key}: ${m.value.toFixed(3)} (reference ${ref.value}, ${factor.toFixed(2)}× worse)`;
    if (factor > 2) worse.push(line);
    else process.stderr.write(`bench ci: ok  ${line}\n`);
  }
  for (const w of worse) process.stderr.write(`bench ci: REGRESSION  ${w}\n`);
  return worse.length > 0;
}

main().catch((err) => {
  process.stderr.write(`bench: ${err.message}\n`);
  process.exit(1);
});
