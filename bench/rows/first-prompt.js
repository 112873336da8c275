'use strict';
// Row 2: time from spawning `ai -i` (bin/ai.js) in a pseudo-terminal until its prompt is drawn,
// against bare `node -e 0` in the same run, one of each in turn.
const path = require('path');
const { stats, fmt, runNode } = require('../lib');

exports.title = 'Time to first prompt (ai -i)';

const PROMPT = '› ';

function once(pty, bin, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const term = pty.spawn(process.execPath, [bin, '-i'], { cols: 100, rows: 30, env: { ...env, TERM: 'xterm-256color' } });
    let out = '';
    let first;
    const guard = setTimeout(() => {
      term.kill();
      reject(new Error(`no prompt after 10 s; screen: ${out.slice(-300)}`));
    }, 10000);
    term.onData((d) => {
      out += d;
      if (first === undefined && out.includes(PROMPT)) {
        first = Number(process.hrtime.bigint() - start) / 1e6;
        term.write('\x04');
      }
    });
    term.onExit(() => {
      clearTimeout(guard);
      if (first !== undefined) resolve(first);
    });
  });
}

exports.run = async function run(ctx) {
  const pty = require('@lydell/node-pty');
  const bin = path.join(ctx.root, 'packages/plugin-ai/bin/ai.js');
  await ctx.temp.writeJson('plugin-configs/llm-base.json', {
    default_profile: 'p',
    profiles: { p: { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-bench', low_model: 'a', high_model: 'b', timeout: 1000 } },
  });
  await once(pty, bin, ctx.env); // warm the file cache
  const times = [];
  const node = [];
  for (let i = 0; i < ctx.runs; i++) {
    times.push(await once(pty, bin, ctx.env));
    node.push(runNode(['-e', '0'], { env: ctx.env }).ms);
  }
  const s = stats(times);
  const n = stats(node);
  const ratio = s.median / n.median;
  return [
    { name: 'node -e 0 (baseline, same run)', value: fmt(n, 'ms', 0) },
    {
      metric: ratio,
      better: 'lower',
      name: 'spawn → prompt drawn',
      value: `${fmt(s, 'ms', 0)} · ${ratio.toFixed(2)}× node`,
      target: '≤ 3× node',
      ok: ratio <= 3,
    },
  ];
};
