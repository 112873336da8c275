'use strict';
// `slothtool ai -p "hi"` to its first (only) reply against the scripted model server answering at
// once, against bare `node -e 0` in the same run (interleaved), and the peak RSS of the process.
// The scripted server runs in a child process, so its work is not in the figures of this one.
const path = require('path');
const { spawn } = require('child_process');
const { stats, runNode, fmt } = require('../lib');

exports.title = 'First reply (slothtool ai -p)';
exports.startServer = startServer;

/** The scripted OpenAI-compatible server in a child process; resolves with its base URL. */
function startServer(root) {
  const code = `
    const { startScriptedServer } = require(${JSON.stringify(path.join(root, 'packages/testkit'))});
    startScriptedServer().then((s) => {
      s.setHandler(() => ({ json: { type: 'chat', message: 'hello' }, usage: { prompt_tokens: 10, completion_tokens: 2 } }));
      process.stdout.write(s.baseURL + '\\n');
    });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ url: out.trim(), stop: () => child.kill() });
    });
    child.on('error', reject);
  });
}

exports.run = async function run(ctx) {
  const server = await startServer(ctx.root);
  try {
    await ctx.temp.writeJson('plugin-configs/llm-base.json', {
      default_profile: 'p',
      profiles: { p: { base_url: server.url, api_key: 'sk-bench', low_model: 'm', high_model: 'm', timeout: 10000, max_retries: 0 } },
    });
    const slothtool = path.join(ctx.root, 'packages/slothtool/bin/slothtool.js');
    const cwd = ctx.temp.home;
    const reply = () => runNode([slothtool, 'ai', '-p', 'hi'], { env: ctx.env, cwd });
    // The floor (a diagnostic): node loading the official openai SDK and zod from node_modules,
    // nothing else. A reply needs both: the SDK, and zod to check registry.json, llm-base.json and
    // the reply. (Node's own fetch classes are not in it: llm-base's bundle uses web-lite's instead.)
    const floorCode = `require(${JSON.stringify(require.resolve('openai', { paths: [path.join(ctx.root, 'packages/plugin-llm-base')] }))}); require(${JSON.stringify(require.resolve('zod', { paths: [path.join(ctx.root, 'packages/plugin-ai')] }))});`;
    const floor = () => runNode(['-e', floorCode], { env: ctx.env });
    reply(); // warm the file cache
    floor();
    const times = [];
    const mems = [];
    const node = [];
    const floors = [];
    const floorMems = [];
    for (let i = 0; i < ctx.runs; i++) {
      node.push(runNode(['-e', '0'], { env: ctx.env }).ms);
      const f = floor();
      floors.push(f.ms);
      floorMems.push(f.peakMb);
      const r = reply();
      if (!r.stdout.includes('hello')) throw new Error(`no reply: ${r.stdout.slice(0, 200)}`);
      times.push(r.ms);
      mems.push(r.peakMb);
    }
    const t = stats(times);
    const n = stats(node);
    const m = stats(mems);
    const ratio = t.median / n.median;
    const fl = stats(floors);
    const flm = stats(floorMems);
    return [
      { name: 'node -e 0 (baseline, same run)', value: fmt(n, 'ms') },
      {
        name: 'the floor (diagnostic): node loading only the openai SDK and zod (same run)',
        value: `${fmt(fl, 'ms')} · ${(fl.median / n.median).toFixed(2)}× node · peak ${fmt(flm, 'MB')}`,
      },
      // Issue #48: every file and reply checked by its one schema, with node's own crypto and web
      // streams, within 2.3× a bare node start (docs/architecture.md §6).
      {
        metric: ratio,
        better: 'lower',
        name: 'slothtool ai -p "hi" → reply',
        value: `${fmt(t, 'ms')} · ${ratio.toFixed(2)}× node`,
        target: '≤ 2.3× node',
        ok: ratio <= 2.3,
      },
      { metric: m.median, better: 'lower', name: 'peak RSS of that process', value: fmt(m, 'MB'), target: '≤ 70 MB', ok: m.max <= 70 },
    ];
  } finally {
    server.stop();
  }
};
