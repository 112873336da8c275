#!/usr/bin/env node
'use strict';
/**
 * `npm run eval -- --profile NAME [--transport tools|json_schema|json|auto] [--tasks a,b] [--runs N]
 * [--out eval/results.md]`: run the task suite against one of your llm-base profiles and write
 * the results table (docs/eval.md). `--scripted good|bad` runs it against the scripted model
 * instead (what CI does to prove the harness).
 */
const path = require('path');
const { parseArgs } = require('util');
const { runEval, writeReport, ALL_TASKS } = require('../eval/harness');

async function main() {
  let args;
  try {
    args = parseArgs({
      options: {
        profile: { type: 'string' },
        transport: { type: 'string' },
        tasks: { type: 'string' },
        runs: { type: 'string' },
        scripted: { type: 'string' },
        out: { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    process.stderr.write(`${err.message}\nSee: npm run eval -- --help\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(
      'npm run eval -- --profile NAME [--transport tools|json_schema|json|auto] [--tasks a,b] [--runs N] [--out FILE] [--list]\n',
    );
    return 0;
  }
  if (args.list) {
    for (const t of ALL_TASKS) process.stdout.write(`${t.id.padEnd(20)} ${t.prompt}\n`);
    return 0;
  }
  if (args.transport && !['tools', 'json_schema', 'json', 'auto'].includes(args.transport)) {
    process.stderr.write(`--transport must be tools, json_schema, json or auto (got ${args.transport})\n`);
    return 2;
  }
  if (args.scripted && !['good', 'bad'].includes(args.scripted)) {
    process.stderr.write(`--scripted must be good or bad (got ${args.scripted})\n`);
    return 2;
  }
  const runs = args.runs === undefined ? 1 : Number(args.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write(`--runs must be a whole number ≥ 1 (got ${args.runs})\n`);
    return 2;
  }
  const out = path.resolve(args.out || path.join(__dirname, '..', 'eval', 'results.md'));
  try {
    const result = await runEval({
      profile: args.profile,
      transport: args.transport,
      tasks: args.tasks
        ? args.tasks
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined,
      runs,
      scripted: args.scripted,
      onTask: (r) =>
        process.stderr.write(
          `${r.ok ? 'pass' : 'FAIL'}  ${r.task}#${r.run}  ${r.steps} steps  ${(r.ms / 1000).toFixed(1)} s${r.ok ? '' : `  ${r.why}`}\n`,
        ),
    });
    writeReport(out, result);
    const passed = result.rows.filter((r) => r.ok).length;
    process.stdout.write(`${passed}/${result.rows.length} passed · ${result.profile} · ${result.transport} → ${out}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`eval: ${err.message}\n`);
    return 1;
  }
}

main().then((code) => (process.exitCode = code));
