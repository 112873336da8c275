'use strict';
// Row 3: runner overhead of one L0 step in `slothtool ai -p` as users run it (its bundles, its own
// process, the spawn helper, the sandbox as `ai` configures it: the private home and the resource
// limits), excluding the model. The scripted server (a child process) answers steps running `true`
// (the floor's program, so what is left is ours) one after another (`--max-steps`), and stamps on the wire when an answer's last byte went out and
// when the next request's head came in: ai judged the step, ran it in the sandbox, parsed and
// redacted the output, rebuilt the context and sent the next request. The floor, timed by the
// server between steps (so steps and floor alternate): a plain `bwrap --ro-bind / / --dev /dev
// --proc /proc --unshare-net --die-with-parent true` spawn (plain `true` without bubblewrap) plus
// one request to a second scripted server (a round trip with a small body). Overhead = the median
// interval − the median floor: our sandbox's extra mounts, probes, limits, user namespace and
// seccomp filter count as overhead.
// `true` in ai's own sandbox (its mounts, private home and limits) is reported beside it. The first steps of each process
// (start-up, the helper not up yet) and steps that held a fold of the context (the context row
// measures those) are left out.
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { stats, fmt } = require('../lib');

exports.title = 'Runner overhead per L0 step';

/** Steps per `ai -p` process, and how many of its first ones are left out. */
const STEPS = 30;
const WARM = 3;

/** The floor's spawn: a plain bubblewrap start of `true` (plain `true` without bubblewrap). */
function floorCommand() {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--die-with-parent', 'true'];
  if (spawnSync('bwrap', args).status === 0) return { program: 'bwrap', args };
  return { program: 'true', args: [] };
}

/** The stamping server in a child process; `wrapped` is `true` in the sandbox ai uses and
 * `floor` the plain spawn of the floor, both run by the server between steps. */
function stampingServer(root, summaryMarker, wrapped, floor, repo) {
  const code = `
    const http = require('http');
    const { spawn } = require('child_process');
    const create = http.createServer;
    let arrived = 0n;
    let ended = 0n;
    http.createServer = (handler) => create((req, res) => {
      arrived = process.hrtime.bigint();
      const end = res.end;
      res.end = function (...a) { const r = end.apply(this, a); ended = process.hrtime.bigint(); return r; };
      handler(req, res);
    });
    // fds: what the command reads from fds 3, 4, … (base64; the sandbox's seccomp filter), each through a pipe.
    const timed = (program, args, fds = []) => new Promise((resolve) => {
      const t0 = process.hrtime.bigint();
      const c = spawn(program, args, { cwd: ${JSON.stringify(repo)}, stdio: ['ignore', 'pipe', 'pipe', ...fds.map(() => 'pipe')] });
      fds.forEach((b64, i) => c.stdio[3 + i].end(Buffer.from(b64, 'base64')));
      c.stdout.resume();
      c.stderr.resume();
      c.on('close', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
    });
    const { startScriptedServer } = require(${JSON.stringify(path.join(root, 'packages/testkit'))});
    const agent = new http.Agent({ keepAlive: true });
    // One request to a second scripted server, as ai's client sends one: a round trip.
    const request = (url) => new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'floor' }] });
      const req = http.request(url + '/chat/completions', { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer sk-bench' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
      });
      req.on('error', reject);
      req.end(body);
    });
    Promise.all([startScriptedServer({ chunkSize: 4096 }), startScriptedServer({ chunkSize: 4096 })]).then(([server, floorServer]) => {
      floorServer.setHandler(() => ({ json: { type: 'chat', message: 'ok' } }));
      const floor = async () => (await timed(${JSON.stringify(floor.program)}, ${JSON.stringify(floor.args)})) + (await request(floorServer.baseURL));
      let step = 0;
      let cmdSent = false;
      let folded = false;
      let gaps = [];
      let boxed = [];
      let floors = [];
      let withFold = 0;
      server.setHandler(async (req) => {
        const msgs = req.body.messages;
        if (msgs.some((m) => m.content.includes(${JSON.stringify(summaryMarker)}))) {
          folded = cmdSent;
          return { json: { summary: 'The user asks what changed; git status shows one modified file.', keyFacts: ['src/f1.js is modified'], openTasks: [] } };
        }
        if (msgs[msgs.length - 1].content.includes('"_event":"tool_result"')) {
          const gap = Number(arrived - ended) / 1e6;
          if (cmdSent && !folded && step > ${WARM}) gaps.push(gap);
          else if (cmdSent && folded) withFold++;
          cmdSent = false;
          folded = false;
          if (step > ${WARM}) {
            floors.push(await floor());
            boxed.push(await timed(${JSON.stringify(wrapped.program)}, ${JSON.stringify(wrapped.args)}, ${JSON.stringify((wrapped.fds ?? []).map((b) => b.toString('base64')))}));
          }
        }
        if (step++ < ${STEPS}) {
          cmdSent = true;
          return { json: { type: 'cmd', message: 'check the tree', data: { cwd: null, commands: [{ program: 'true', args: [] }] } } };
        }
        step = 0;
        return { json: { type: 'chat', message: 'One file changed.' } };
      });
      process.on('message', (m) => { if (m === 'gaps') process.send({ gaps, boxed, floors, withFold }); });
      process.send({ baseURL: server.baseURL });
    });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (m) => {
      resolve({
        baseURL: m.baseURL,
        gaps: () =>
          new Promise((r) => {
            child.once('message', r);
            child.send('gaps');
          }),
        close: () => child.kill(),
      });
    });
  });
}

exports.run = async function run(ctx) {
  const repo = path.join(ctx.temp.home, 'small-repo');
  fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, 'src', `f${i}.js`), `module.exports = ${i};\n`);
  const git = (...args) =>
    spawnSync('git', args, {
      cwd: repo,
      env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' },
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  fs.writeFileSync(path.join(repo, 'src', 'f1.js'), 'module.exports = "changed";\n');

  // The sandbox ai wraps an L0 `true` in (the same arguments; plain when there is none).
  const { createSandbox } = require(path.join(ctx.root, 'packages/tool-runner'));
  const sandbox = createSandbox({
    mode: 'auto',
    workspace: repo,
    home: ctx.temp.home,
    slothtoolHome: ctx.temp.slothtoolHome,
    env: process.env,
  });
  const wrapped = sandbox.wrap('L0', false, repo, 'true', []) ?? { program: 'true', args: [] };
  const { SUMMARY_MARKER } = require(path.join(ctx.root, 'packages/plugin-ai'));
  const floorCmd = floorCommand();
  const server = await stampingServer(ctx.root, SUMMARY_MARKER, wrapped, floorCmd, repo);
  try {
    await ctx.temp.writeJson('plugin-configs/llm-base.json', {
      default_profile: 'p',
      profiles: { p: { base_url: server.baseURL, api_key: 'sk-bench', low_model: 'm', high_model: 'm', timeout: 10000, max_retries: 0 } },
    });
    const slothtool = path.join(ctx.root, 'packages/slothtool/bin/slothtool.js');
    const processes = Math.max(2, Math.ceil(ctx.runs / 3));
    for (let i = 0; i < processes; i++) {
      const r = spawnSync(process.execPath, [slothtool, 'ai', '-p', 'what changed?', '--max-steps', String(STEPS + 1)], {
        env: ctx.env,
        cwd: repo,
        encoding: 'utf8',
      });
      if (r.status !== 0 || !r.stdout.includes('One file changed.'))
        throw new Error(`ai -p failed (${r.status}): ${(r.stderr || r.stdout).slice(-300)}`);
    }
    const { gaps, boxed, floors, withFold } = await server.gaps();
    const g = stats(gaps);
    const b = stats(boxed);
    const fl = stats(floors);
    const over = g.median - fl.median;
    const floorName = floorCmd.program === 'bwrap' ? 'a plain `bwrap --ro-bind / / … true`' : 'a plain `true` (no bubblewrap here)';
    return [
      {
        name: "answer sent → next request arrived, in `slothtool ai -p` (the server's clock)",
        value: `${fmt(g, 'ms')} · ${gaps.length} steps in ${processes} processes (${withFold} more held a fold of the context: left out)`,
        target: '',
        ok: null,
      },
      {
        name: `the floor: ${floorName} plus one request to a scripted server, run between the steps (same run)`,
        value: fmt(fl, 'ms'),
        target: '',
        ok: null,
      },
      {
        name: "`true` in ai's own sandbox (its mounts, private home, limits), run between the steps (diagnostic)",
        value: fmt(b, 'ms'),
        target: '',
        ok: null,
      },
      {
        metric: g.median / fl.median,
        better: 'lower',
        name: 'overhead above the floor (median difference)',
        value: `${over.toFixed(1)} ms · the interval is ${(g.median / fl.median).toFixed(2)}× the floor`,
        target: '≤ 5 ms',
        ok: over <= 5,
      },
    ];
  } finally {
    server.close();
  }
};
