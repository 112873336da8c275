'use strict';
// Row 1: start-up of `ai --version`, `ai --help` and `slothtool ai --version` against bare
// `node -e 0`, wall time and peak memory, runs interleaved so machine noise hits all alike.
const path = require('path');
const { stats, runNode, fmt } = require('../lib');

exports.title = 'Start-up';

exports.run = async function run(ctx) {
  const ai = path.join(ctx.root, 'packages/plugin-ai/bin/ai.js');
  const slothtool = path.join(ctx.root, 'packages/slothtool/bin/slothtool.js');
  const cases = {
    node: ['-e', '0'],
    'ai --version': [ai, '--version'],
    'ai --help': [ai, '--help'],
    'slothtool ai --version': [slothtool, 'ai', '--version'],
  };
  const times = {};
  const mems = {};
  for (const name of Object.keys(cases)) {
    times[name] = [];
    mems[name] = [];
  }
  for (const args of Object.values(cases)) runNode(args, { env: ctx.env }); // warm the file cache
  for (let i = 0; i < ctx.runs; i++) {
    for (const [name, args] of Object.entries(cases)) {
      const r = runNode(args, { env: ctx.env });
      times[name].push(r.ms);
      mems[name].push(r.peakMb);
    }
  }
  const node = stats(times.node);
  const rows = [];
  for (const name of Object.keys(cases)) {
    const t = stats(times[name]);
    const m = stats(mems[name]);
    const ratio = t.median / node.median;
    let target = '';
    let ok = null;
    if (name === 'ai --version') {
      target = '≤ 1.5× node, < 60 MB';
      ok = ratio <= 1.5 && m.max < 60;
    } else if (name === 'slothtool ai --version') {
      // The host runs ai in its own process (slothtool.inProcess): one node start-up, not two.
      target = '≤ 1.3× node';
      ok = ratio <= 1.3;
    }
    rows.push({
      ...(name === 'slothtool ai --version' || name === 'ai --version' ? { metric: ratio, better: 'lower' } : {}),
      name: name === 'node' ? 'node -e 0 (baseline)' : name,
      value: `${fmt(t, 'ms')} · ${ratio.toFixed(2)}× node · peak ${fmt(m, 'MB')}`,
      target,
      ok,
    });
  }
  return rows;
};
