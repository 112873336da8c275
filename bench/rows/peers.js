'use strict';
// Optional row: the installed peers against the same scripted server, so our lead stays measured.
// Each peer found on PATH (looked up in PATH's folders, no process started when absent) answers a
// one-shot prompt from a scripted OpenAI-compatible server (in a child process) answering at once:
// qwen-code (`qwen -p hi`, OPENAI_BASE_URL/OPENAI_API_KEY/OPENAI_MODEL), opencode (`opencode run
// hi`, an OPENCODE_CONFIG naming the server as an OpenAI-compatible provider); codex is timed for
// `codex --version` only. Figures: wall time as a ratio to bare `node -e 0` in the same run
// (interleaved), and peak RSS (GNU time's maximum resident size, when /usr/bin/time is there). A
// peer not on PATH gets a visible "not installed" line and costs nothing. The peers' own homes are
// the bench's temp home (never the real one).
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { stats, fmt } = require('../lib');
const { startServer } = require('./first-reply');

exports.title = 'Peers on PATH (optional)';

/** The first executable `name` in PATH's folders, or undefined. */
function onPath(name, env) {
  for (const dir of (env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** The peers: how each is run against the server at `url` in the temp home. */
function peers(url, temp) {
  const opencodeConfig = path.join(temp.home, 'opencode-bench.json');
  return [
    {
      name: 'qwen',
      label: 'qwen-code: `qwen -p "hi"` → reply',
      args: ['-p', 'hi'],
      env: { OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-bench', OPENAI_MODEL: 'm' },
    },
    {
      name: 'opencode',
      label: 'opencode: `opencode run "hi"` → reply',
      args: ['run', '--model', 'bench/m', 'hi'],
      env: { OPENCODE_CONFIG: opencodeConfig },
      setup: () =>
        fs.writeFileSync(
          opencodeConfig,
          JSON.stringify({
            provider: { bench: { npm: '@ai-sdk/openai-compatible', options: { baseURL: url, apiKey: 'sk-bench' }, models: { m: {} } } },
          }),
        ),
    },
    { name: 'codex', label: 'codex: `codex --version`', args: ['--version'], env: {} },
  ];
}

/** One timed run: wall ms, peak RSS in MB (NaN without GNU time). */
function timed(program, args, env, cwd) {
  const gnuTime = fs.existsSync('/usr/bin/time');
  const [cmd, argv] = gnuTime ? ['/usr/bin/time', ['-f', 'bench-peak-kb %M', program, ...args]] : [program, args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { env, cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0)
    throw new Error(`${path.basename(program)} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${(r.stderr || '').slice(-300)}`);
  const kb = /bench-peak-kb (\d+)/.exec(r.stderr || '');
  return { ms, peakMb: kb ? Number(kb[1]) / 1024 : NaN };
}

exports.run = async function run(ctx) {
  const found = ['qwen', 'opencode', 'codex'].map((name) => ({ name, file: onPath(name, ctx.env) }));
  const rows = found.filter((p) => !p.file).map((p) => ({ name: p.name, value: 'not installed (skipped)' }));
  if (!found.some((p) => p.file)) return rows;
  const server = await startServer(ctx.root);
  try {
    const cwd = ctx.temp.home;
    const runs = Math.max(3, Math.min(ctx.runs, 5));
    for (const peer of peers(server.url, ctx.temp)) {
      const file = found.find((p) => p.name === peer.name).file;
      if (!file) continue;
      peer.setup?.();
      const env = { ...ctx.env, ...peer.env };
      const node = [];
      const own = [];
      const rss = [];
      for (let i = 0; i < runs; i++) {
        node.push(timed(process.execPath, ['-e', '0'], env, cwd).ms);
        const r = timed(file, peer.args, env, cwd);
        own.push(r.ms);
        if (Number.isFinite(r.peakMb)) rss.push(r.peakMb);
      }
      const ratio = stats(own).median / stats(node).median;
      rows.push({
        name: peer.label,
        value: `${fmt(stats(own), 'ms', 0)} · ${ratio.toFixed(1)}× \`node -e 0\` (${stats(node).median.toFixed(0)} ms, same run)${rss.length ? ` · peak RSS ${fmt(stats(rss), 'MB', 0)}` : ''}`,
      });
    }
  } finally {
    server.stop();
  }
  return rows;
};
