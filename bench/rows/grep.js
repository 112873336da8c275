'use strict';
// Row: fs.grep through the runner (judged, run, every shown line read back and redacted) against
// ripgrep alone (`rg -n` with the same ignore settings) on the same generated tree in the same
// run, runs interleaved: 2,000 source files of 200 lines (about 14 MB) with a .gitignore'd build
// folder, looking for one symbol. Also the Node fallback (no ripgrep on PATH) on the same tree.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { stats, fmt } = require('../lib');

exports.title = 'fs.grep vs ripgrep';

/** A tree of `n` files of 200 lines each; `needle` defined once, used in a few files; a copy under build/ that is ignored. */
function makeTree(dir, n) {
  fs.writeFileSync(path.join(dir, '.gitignore'), 'build/\n');
  for (let i = 0; i < n; i++) {
    const sub = path.join(dir, 'src', `m${i % 40}`);
    fs.mkdirSync(sub, { recursive: true });
    const lines = [];
    for (let l = 0; l < 200; l++)
      lines.push(`export function handler_${i}_${l}(req, res) { return res.send(req.body.value_${l} * ${l}); }`);
    if (i === 1234) lines[117] = 'export function computeLedgerTotal(items) { return items.length; }';
    if (i % 500 === 7) lines[3] = 'const total = computeLedgerTotal(req.items);';
    fs.writeFileSync(path.join(sub, `f${i}.js`), lines.join('\n') + '\n');
  }
  fs.mkdirSync(path.join(dir, 'build'));
  fs.writeFileSync(path.join(dir, 'build', 'bundle.js'), 'function computeLedgerTotal() {}\n'.repeat(1000));
}

function findRg() {
  for (const d of (process.env.PATH || '').split(path.delimiter)) {
    const p = path.join(d, 'rg');
    if (d && path.isAbsolute(d) && fs.existsSync(p)) return p;
  }
  return undefined;
}

exports.run = async function run(ctx) {
  const rg = findRg();
  if (!rg) return [{ name: 'ripgrep', value: 'not installed: no baseline to compare with', target: '', ok: null }];
  const { createToolRunner } = require(path.join(ctx.root, 'packages/tool-runner'));
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-grep-')));
  try {
    makeTree(dir, 2000);
    const pattern = 'computeLedgerTotal\\(';
    const runner = (engine) =>
      createToolRunner({
        cwd: dir,
        workspace: dir,
        lang: 'en',
        sandbox: 'off',
        confirm: () => ({ action: 'decline' }),
        env: {
          PATH: process.env.PATH,
          HOME: ctx.temp.home,
          SLOTHTOOL_HOME: ctx.temp.env.SLOTHTOOL_HOME,
          ...(engine === 'node' ? { SLOTHTOOL_GREP: 'node' } : {}),
        },
      });
    const withRg = runner('rg');
    const withNode = runner('node');
    const rgArgs = [
      '--no-config',
      '--hidden',
      '--no-require-git',
      '--glob=!.git',
      '-n',
      '--with-filename',
      '--no-heading',
      '--color=never',
      `--regexp=${pattern}`,
      '--',
      '.',
    ];
    const timeIt = async (fn) => {
      const t0 = process.hrtime.bigint();
      const out = await fn();
      return { ms: Number(process.hrtime.bigint() - t0) / 1e6, out };
    };
    const plain = () => timeIt(() => spawnSync(rg, rgArgs, { cwd: dir, encoding: 'utf8' }).stdout.trim().split('\n').length);
    const tool = (r) => timeIt(async () => (await r.run({ tool: 'fs.grep', pattern })).total);
    // Warm the file cache and the modules once, then interleave.
    const expected = (await plain()).out;
    for (const r of [withRg, withNode]) {
      const got = (await tool(r)).out;
      if (got !== expected) throw new Error(`fs.grep found ${got} lines, rg ${expected}`);
    }
    const base = [];
    const viaRg = [];
    const viaNode = [];
    for (let i = 0; i < ctx.runs; i++) {
      base.push((await plain()).ms);
      viaRg.push((await tool(withRg)).ms);
      viaNode.push((await tool(withNode)).ms);
    }
    const b = stats(base);
    const t = stats(viaRg);
    const n = stats(viaNode);
    const ratio = t.median / b.median;
    return [
      { name: 'rg -n alone (the baseline, same run)', value: `${fmt(b, 'ms', 1)} · ${expected} matching lines`, target: '', ok: null },
      {
        metric: ratio,
        better: 'lower',
        name: 'fs.grep through the runner (ripgrep engine)',
        value: `${fmt(t, 'ms', 1)} · ${ratio.toFixed(2)}× rg`,
        target: '≤ 3× rg',
        ok: ratio <= 3,
      },
      {
        name: 'fs.grep through the runner (Node fallback)',
        value: `${fmt(n, 'ms', 1)} · ${(n.median / b.median).toFixed(2)}× rg`,
        target: '',
        ok: null,
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
