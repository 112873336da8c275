'use strict';
// The peers of the prefix row (bench/rows/prefix.js): the same 12-turn task through qwen-code
// (`qwen -p … --continue`) and opencode (`opencode run … --continue`), each on its own scripted
// OpenAI-compatible server of the testkit answering its native tool calls (two reads a turn: the
// note and the log, by absolute path, through the peer's own read tool). A peer is looked for on
// PATH and in `$BENCH_PEERS_DIR/node_modules/.bin` (e.g. `npm i --prefix /tmp/peers
// @qwen-code/qwen-code opencode-ai`, then BENCH_PEERS_DIR=/tmp/peers); one not found gets a
// visible line and costs nothing. Its home is a folder of the bench's temp home, never the real
// one. Peers send side requests of their own (a title, a memory pass), each with its own system
// prompt: a request is compared with the previous request that began with the same message.
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const TURNS = 12;

/** How each peer is run, and the read tool it calls with the argument naming the file. */
const PEERS = [
  {
    name: 'qwen',
    label: 'qwen-code',
    read: 'read_file',
    pathArg: 'file_path',
    args: (prompt, turn) => ['-p', prompt, ...(turn > 1 ? ['--continue'] : [])],
    env: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-bench', OPENAI_MODEL: 'm' }),
  },
  {
    name: 'opencode',
    label: 'opencode',
    read: 'read',
    pathArg: 'filePath',
    args: (prompt, turn) => ['run', '--model', 'bench/m', ...(turn > 1 ? ['--continue'] : []), prompt],
    env: (url, home) => {
      const config = path.join(home, 'opencode-bench.json');
      // Run headless, opencode refuses what would need a question; reading the project's own subfolders is what a person allows.
      const provider = { bench: { npm: '@ai-sdk/openai-compatible', options: { baseURL: url, apiKey: 'sk-bench' }, models: { m: {} } } };
      fs.writeFileSync(config, JSON.stringify({ provider, permission: { external_directory: 'allow' } }));
      return { OPENCODE_CONFIG: config };
    },
  },
];

/** The first executable `name` in these folders, or undefined. */
function find(name, dirs) {
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

const textOf = (c) =>
  typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (p && typeof p.text === 'string' ? p.text : '')).join('') : '';

/** The scripted model of a peer: a turn's prompt gets two reads, their results an answer, anything else (titles, memory) a short reply. */
function peerHandler(peer, dir) {
  return (req) => {
    const msgs = req.body.messages || [];
    const tools = (req.body.tools || []).map((t) => t.function && t.function.name);
    const prompt = [...msgs].reverse().find((m) => m.role === 'user' && /turn \d+:/.test(textOf(m.content)));
    if (!prompt || !tools.includes(peer.read)) return { content: 'OK.' };
    const turn = Number(/turn (\d+):/.exec(textOf(prompt.content))[1]);
    const last = msgs[msgs.length - 1];
    if (last.role === 'tool') return { content: `Turn ${turn}: the checklist is done and every job finished.` };
    const file = (rel) => ({ name: peer.read, arguments: { [peer.pathArg]: path.join(dir, rel) } });
    return { content: '', toolCalls: [file(`notes/t${turn}.md`), file(`logs/t${turn}.log`)] };
  };
}

function run(file, args, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.on('data', () => undefined);
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, err }));
  });
}

/** The figures of a peer's requests, each compared with the previous one that began with the same message. */
function streamsFigures(stats, bodies, markers) {
  const streams = new Map();
  const { sent } = require('./prefix');
  for (const b of bodies) {
    const key = JSON.stringify((b.messages || [])[0] || null);
    if (!streams.has(key)) streams.set(key, []);
    streams.get(key).push(sent(b));
  }
  let chars = 0;
  let fresh = 0;
  const pairs = { all: 0, kept: 0 };
  for (const list of streams.values()) {
    const s = stats.prefixStats(list);
    chars += s.chars;
    fresh += s.fresh;
    pairs.all += s.pairs;
    pairs.kept += s.kept;
  }
  const twice = bodies.filter((b) => [...stats.markerCounts(b.messages || [], markers).values()].some((n) => n > 1)).length;
  return {
    s: { chars, fresh, freshShare: chars ? fresh / chars : 0 },
    pairs,
    twice,
    folds: 0,
    summaries: 0,
    requests: bodies.length,
    streams: streams.size,
  };
}

async function measure(ctx, stats, peer, file) {
  const { startScriptedServer } = require(path.join(ctx.root, 'packages/testkit'));
  const { workspace } = require('./prefix');
  const home = path.join(ctx.temp.home, `peer-${peer.name}`);
  const dir = path.join(home, 'project');
  fs.mkdirSync(dir, { recursive: true });
  const markers = workspace(dir);
  spawnSync('git', ['init', '-q'], { cwd: dir }); // a project, as a repository
  const server = await startScriptedServer({ chunkSize: 4096 });
  try {
    server.setHandler(peerHandler(peer, dir));
    const env = {
      ...ctx.env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
      ...peer.env(server.baseURL, home),
    };
    for (let t = 1; t <= TURNS; t++) {
      const r = await run(file, peer.args(`turn ${t}: read today's note and log and tell me whether anything is open.`, t), env, dir);
      if (r.code !== 0)
        return {
          label: peer.label,
          note: `could not run here: turn ${t} exited ${r.code}: ${r.err.trim().split('\n').slice(-1)[0] || ''}`,
        };
    }
    return {
      label: `${peer.label}, 12 turns × 2 reads`,
      figures: streamsFigures(
        stats,
        server.requests.map((q) => q.body),
        markers,
      ),
    };
  } finally {
    await server.close();
  }
}

exports.run = async function run(ctx, stats) {
  const dirs = [
    ...(ctx.env.PATH || '').split(path.delimiter).filter(Boolean),
    ...(ctx.env.BENCH_PEERS_DIR || process.env.BENCH_PEERS_DIR
      ? [path.join(ctx.env.BENCH_PEERS_DIR || process.env.BENCH_PEERS_DIR, 'node_modules/.bin')]
      : []),
  ];
  const out = [];
  for (const peer of PEERS) {
    const file = find(peer.name, dirs);
    if (!file) out.push({ label: peer.label, note: 'not installed (skipped)' });
    else out.push(await measure(ctx, stats, peer, file));
  }
  return out;
};
