'use strict';
// `--continue` with 2,000 sessions vs with 1: the time to find this folder's last session
// (SessionStore.lastFor), both measured in this run. The sessions are real files with a meta
// line and a few records, other folders' sessions mixed in.
const fs = require('fs');
const path = require('path');
const { stats, fmt } = require('../lib');

exports.title = '--continue with many sessions';

function fillStore(SessionStore, dir, n, cwd) {
  const store = new SessionStore(dir);
  for (let i = 0; i < n; i++) {
    const id = `s${String(i).padStart(5, '0')}`;
    store.append(id, {
      t: 'meta',
      v: 1,
      id,
      cwd: i === n - 1 ? cwd : `/elsewhere/${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      mode: 'low',
      profile: null,
    });
    store.append(id, { t: 'user', at: new Date().toISOString(), content: `question ${i}` });
  }
  store.markLast(cwd, `s${String(n - 1).padStart(5, '0')}`);
  return store;
}

function timeLast(store, cwd, runs) {
  for (let i = 0; i < 200; i++) store.lastFor(cwd); // warm up
  const out = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 50; i++) store.lastFor(cwd);
    out.push(Number(process.hrtime.bigint() - t0) / 1e6 / 50);
  }
  return stats(out);
}

exports.run = async function run(ctx) {
  const { SessionStore } = require(path.join(ctx.root, 'packages/plugin-ai/lib/sessions/sessions'));
  const cwd = '/work/proj';
  const one = fillStore(SessionStore, path.join(ctx.temp.home, 'one', 'sessions'), 1, cwd);
  const many = fillStore(SessionStore, path.join(ctx.temp.home, 'many', 'sessions'), 2000, cwd);
  const base = timeLast(one, cwd, ctx.runs);
  const big = timeLast(many, cwd, ctx.runs);
  const ratio = big.median / base.median;
  // What it cost before the pointer: every session looked at.
  const scan = [];
  for (let r = 0; r < Math.min(ctx.runs, 5); r++) {
    const t0 = process.hrtime.bigint();
    many.list().find((s) => s.cwd === cwd);
    scan.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  fs.rmSync(path.join(ctx.temp.home, 'many'), { recursive: true, force: true });
  return [
    { name: 'find the last session, 1 session (baseline)', value: fmt(base, 'ms', 3), target: '', ok: true },
    {
      metric: ratio,
      better: 'lower',
      name: 'find the last session, 2,000 sessions',
      value: `${fmt(big, 'ms', 3)} = ${ratio.toFixed(2)}× the baseline`,
      target: '≤ 1.1×',
      ok: ratio <= 1.1,
    },
    { name: '(for reference) a scan of all 2,000, as before the pointer', value: fmt(stats(scan), 'ms', 1), target: '', ok: true },
  ];
};
