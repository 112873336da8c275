'use strict';
// `ai -p --json` running a step that prints 1 GiB (`head -c 1073741824 /dev/zero`): the JSON
// event stream carries only the head and tail of it, so the peak RSS of the ai process stays
// flat. Baseline in the same run: the same command printing 1 KiB.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { stats, fmt } = require('../lib');

exports.title = 'ai -p --json with a 1 GiB step';

const PROBE = path.join(__dirname, '..', 'rss-probe.js');

/** One run: peak RSS (MB) of the ai process, seconds, and whether every stdout line was JSON. */
function once(ctx, server, bytes, cwd) {
  server.enqueue(
    {
      json: {
        type: 'cmd',
        message: 'zeros',
        data: { cwd: null, commands: [{ program: 'head', args: ['-c', String(bytes), '/dev/zero'] }] },
      },
    },
    { json: { type: 'chat', message: 'done' } },
  );
  const rssFile = path.join(os.tmpdir(), `bench-json-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const bin = path.join(ctx.root, 'packages/plugin-ai/bin/ai.js');
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--require', PROBE, bin, '-p', 'print zeros', '--json', '--profile', 'bench-json'], {
      cwd,
      env: { ...ctx.env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let rest = '';
    let lines = 0;
    let bad = 0;
    let carried = 0;
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      const parts = (rest + d).split('\n');
      rest = parts.pop();
      for (const line of parts) {
        lines++;
        try {
          const e = JSON.parse(line);
          if (e.type === 'output') carried += Buffer.byteLength(e.chunk);
        } catch {
          bad++;
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (code !== 0) return reject(new Error(`ai exited with ${code}: ${stderr.slice(0, 300)}`));
      const peakMb = Math.max(...fs.readFileSync(rssFile, 'utf8').trim().split('\n').map(Number)) / 1024;
      fs.rmSync(rssFile, { force: true });
      resolve({ peakMb, seconds, valid: bad === 0 && rest === '' && lines > 0, carried });
    });
  });
}

exports.run = async function run(ctx) {
  const { startScriptedServer } = require(path.join(ctx.root, 'packages/testkit'));
  const server = await startScriptedServer();
  const configFile = path.join(ctx.temp.slothtoolHome, 'plugin-configs', 'llm-base.json');
  let config = { profiles: {} };
  try {
    config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  } catch {
    // no llm-base config yet: ours is the only profile
  }
  config.profiles = {
    ...config.profiles,
    'bench-json': { base_url: server.baseURL, api_key: 'sk-bench', low_model: 'm', high_model: 'm', timeout: 120000, max_retries: 0 },
  };
  await ctx.temp.writeJson('plugin-configs/llm-base.json', config);
  const cwd = fs.mkdtempSync(path.join(ctx.temp.home, 'json-1gb-'));
  try {
    const runs = Math.max(3, Math.min(ctx.runs, 5));
    const base = [];
    const big = [];
    const secs = [];
    for (let i = 0; i < runs; i++) {
      const small = await once(ctx, server, 1024, cwd);
      const large = await once(ctx, server, 2 ** 30, cwd);
      if (!small.valid || !large.valid) throw new Error('stdout had a line that is not JSON');
      if (large.carried > 2 * 64 * 1024) throw new Error(`--json carried ${large.carried} bytes of output`);
      base.push(small.peakMb);
      big.push(large.peakMb);
      secs.push(large.seconds);
    }
    const b = stats(big);
    const ratio = stats(big.map((v, i) => v / base[i]));
    return [
      { name: 'peak RSS, 1 GiB step', value: `${fmt(b, 'MB')} · ${fmt(stats(secs), 's', 2)}`, target: '< 200 MB', ok: b.max < 200 },
      {
        metric: ratio.median,
        better: 'lower',
        name: 'peak RSS vs a 1 KiB step',
        value: fmt(ratio, '×', 2),
        target: '≤ 1.5×',
        ok: ratio.max <= 1.5,
      },
    ];
  } finally {
    await server.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  }
};
