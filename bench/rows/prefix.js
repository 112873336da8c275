'use strict';
// What a prefix cache keeps: a scripted 12-turn session of `slothtool ai -p "turn N: …" --continue`
// (the first turn without --continue), two L0 steps a turn (fs.read of a note and `cat` of a log,
// about 1.5 KB each, each line marked with its turn and step), against the testkit's scripted
// OpenAI-compatible server in this process, which records every request. Figures: characters
// sent (each message as its JSON text; native tool definitions count as one more message first), the fresh share (characters not in the longest common
// prefix with the previous request, message by message; the first request is all fresh), the
// consecutive request pairs where the previous request is an exact prefix of the next (fold
// points, if any, left out), and requests that carry one step's output twice (a marker seen more
// than once). Peers (bench/rows/prefix-peers.js): the same 12 turns through qwen-code and
// opencode when they are found, each on its own scripted server answering its native tool calls,
// with the same figures for their requests.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

exports.title = 'Prompt prefix over a 12-turn --continue session';

const TURNS = 12;

function run(file, args, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** A workspace whose notes and logs mark every line with its turn and step. */
function workspace(dir) {
  fs.mkdirSync(path.join(dir, 'notes'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const markers = [];
  for (let t = 1; t <= TURNS; t++) {
    const note = [];
    const log = [];
    for (let k = 0; k < 24; k++) {
      note.push(`- note line ${k}: the release checklist item NOTE-${t}-${k} is done`);
      log.push(`2026-11-2${t % 10}T10:${String(k).padStart(2, '0')}:00Z INFO job LOG-${t}-${k} finished in ${k * 3} ms`);
    }
    fs.writeFileSync(path.join(dir, 'notes', `t${t}.md`), note.join('\n') + '\n');
    fs.writeFileSync(path.join(dir, 'logs', `t${t}.log`), log.join('\n') + '\n');
    markers.push(`NOTE-${t}-7 `, `LOG-${t}-7 `, `NOTE-${t}-23 `, `LOG-${t}-23 `);
  }
  return markers;
}

/** The scripted model: a prompt gets two steps, their results an answer, a summary request a summary. */
function ourHandler(summaryMarker) {
  return (req) => {
    const msgs = req.body.messages;
    if (msgs.some((m) => typeof m.content === 'string' && m.content.includes(summaryMarker))) {
      return { json: { summary: 'The user reviews notes and logs turn by turn.', keyFacts: [], openTasks: [] } };
    }
    const users = msgs.filter((m) => m.role === 'user' && typeof m.content === 'string' && /turn \d+:/.test(m.content));
    const turn = Number(/turn (\d+):/.exec(users[users.length - 1]?.content ?? '')?.[1] ?? 1);
    const last = msgs[msgs.length - 1];
    if (typeof last.content === 'string' && last.content.includes('"_event":"tool_result"')) {
      return { json: { type: 'chat', message: `Turn ${turn}: the checklist is done and every job finished.` } };
    }
    return {
      json: {
        type: 'cmd',
        message: `read turn ${turn}'s note and log`,
        data: {
          cwd: null,
          commands: [
            { tool: 'fs.read', path: `notes/t${turn}.md` },
            { program: 'cat', args: [`logs/t${turn}.log`] },
          ],
        },
      },
    };
  };
}

/** What a request sends that a prefix cache holds, in order: the tool definitions (native tool calls), then the messages. */
function sent(body) {
  return [...(Array.isArray(body.tools) && body.tools.length ? [{ tools: body.tools }] : []), ...(body.messages || [])];
}

/**
 * Figures of a list of request bodies: summary requests apart; a request that came right after a
 * fold (`foldBefore`: indexes among the non-summary requests) does not count as a pair.
 */
function figures(stats, bodies, markers, isSummary, foldBefore = new Set()) {
  const turns = bodies.filter((b) => !isSummary(b));
  const s = stats.prefixStats(turns.map(sent));
  const outside = s.requests.map((r, i) => ({ r, i })).filter(({ i }) => i > 0 && !foldBefore.has(i));
  const pairs = { all: outside.length, kept: outside.filter(({ r }) => r.extendsPrevious).length };
  const twice = turns.filter((b) => [...stats.markerCounts(b.messages, markers).values()].some((n) => n > 1)).length;
  return { s, pairs, twice, summaries: bodies.length - turns.length, folds: foldBefore.size, requests: turns.length };
}

async function ours(ctx, stats, server) {
  const cwd = path.join(ctx.temp.home, 'prefix-project');
  const markers = workspace(cwd);
  const { SUMMARY_MARKER } = require(path.join(ctx.root, 'packages/plugin-ai/lib/context/prompt'));
  server.setHandler(ourHandler(SUMMARY_MARKER));
  await ctx.temp.writeJson('plugin-configs/llm-base.json', {
    default_profile: 'p',
    profiles: { p: { base_url: server.baseURL, api_key: 'sk-bench', low_model: 'm', high_model: 'm', timeout: 30000, max_retries: 0 } },
  });
  const slothtool = path.join(ctx.root, 'packages/slothtool/bin/slothtool.js');
  const before = server.requests.length;
  // Where the folds were, from each turn's --json events: a fold comes before the request after it.
  const foldBefore = new Set();
  let requests = 0;
  for (let t = 1; t <= TURNS; t++) {
    const args = [
      'ai',
      '-p',
      `turn ${t}: read today's note and log and tell me whether anything is open.`,
      '--json',
      ...(t > 1 ? ['--continue'] : []),
    ];
    const r = await run(process.execPath, [slothtool, ...args], ctx.env, cwd);
    if (r.code !== 0) throw new Error(`turn ${t}: exit ${r.code}: ${r.err.slice(-300)}`);
    for (const line of r.out.split('\n').filter(Boolean)) {
      const e = JSON.parse(line);
      if (e.type === 'compaction') foldBefore.add(requests);
      if (e.type === 'request' && e.purpose !== 'summary') requests++;
    }
  }
  const bodies = server.requests.slice(before).map((q) => q.body);
  return figures(
    stats,
    bodies,
    markers,
    (b) => b.messages.some((m) => typeof m.content === 'string' && m.content.includes(SUMMARY_MARKER)),
    foldBefore,
  );
}

function rowsOf(label, f, target) {
  const { s, pairs } = f;
  const keptShare = pairs.all ? pairs.kept / pairs.all : 0;
  return [
    {
      name: `${label}: characters sent`,
      value: `${(s.chars / 1000).toFixed(1)} k in ${f.requests} requests (${f.streams !== undefined ? `${f.streams} request streams` : `${f.folds} folds, ${f.summaries} summary calls`})`,
      target: '',
      ok: null,
    },
    {
      metric: s.freshShare,
      better: 'lower',
      name: `${label}: fresh share (not in the previous request's prefix)`,
      value: `${(s.freshShare * 100).toFixed(1)}% (${(s.fresh / 1000).toFixed(1)} k)`,
      target: target ? '≤ 20%' : '',
      ok: target ? s.freshShare <= 0.2 : null,
    },
    {
      name: `${label}: requests that keep the previous one as an exact prefix (fold points apart)`,
      value: `${pairs.kept} of ${pairs.all} pairs (${(keptShare * 100).toFixed(0)}%)`,
      target: target ? '≥ 95%' : '',
      ok: target ? keptShare >= 0.95 : null,
    },
    {
      name: `${label}: requests carrying a step's output twice`,
      value: `${f.twice} of ${f.requests}`,
      target: target ? 'none' : '',
      ok: target ? f.twice === 0 : null,
    },
  ];
}

exports.run = async function run(ctx) {
  const stats = require(path.join(ctx.root, 'packages/testkit/lib/prefix-stats'));
  const { startScriptedServer } = require(path.join(ctx.root, 'packages/testkit'));
  const server = await startScriptedServer({ chunkSize: 4096 });
  try {
    const rows = rowsOf('ai, 12 turns × 2 steps', await ours(ctx, stats, server), true);
    const peerRows = await require('./prefix-peers').run(ctx, stats);
    return [...rows, ...peerRows.flatMap((p) => (p.figures ? rowsOf(p.label, p.figures, false) : [{ name: p.label, value: p.note }]))];
  } finally {
    await server.close();
  }
};

exports.figures = figures;
exports.sent = sent;
exports.workspace = workspace;
