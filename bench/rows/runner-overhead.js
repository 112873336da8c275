'use strict';
// Row 3: runner overhead of one L0 step, excluding the model. The scripted server (a child
// process) answers `git status` (a cmd reply) and stamps when the answer's last byte went out;
// the agent (llm-base from its bundle, as bin/ai.js runs it) judges the step, runs it in the
// sandbox, parses and redacts the output, rebuilds the context and sends the next request, whose
// arrival the server stamps. Overhead = the median interval − the median of `git status` in the
// same sandbox, run between the turns.
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { stats, fmt } = require('../lib');
const { withAgentHome } = require('./in-process');

exports.title = 'Runner overhead per L0 step';

function timeGitStatus(cwd, wrapped) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(wrapped ? wrapped.program : 'git', wrapped ? wrapped.args : ['status'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
  });
}

/** The scripted server in a child process that answers `git status` and then a chat, and stamps
 * the interval from sending the cmd reply to receiving the next request (the step round trip). */
function stampingServer(root) {
  const code = `
    // Stamped on the wire: when a request arrives (its head parsed) and when an answer's last
    // byte is handed to the socket, so the server's own work (making the answer, parsing the
    // next request's body) is not counted as ours.
    const http = require('http');
    const create = http.createServer;
    let arrived = 0n;
    let ended = 0n;
    http.createServer = (handler) => create((req, res) => {
      arrived = process.hrtime.bigint();
      const end = res.end;
      res.end = function (...a) { const r = end.apply(this, a); ended = process.hrtime.bigint(); return r; };
      handler(req, res);
    });
    const { startScriptedServer } = require(${JSON.stringify(path.join(root, 'packages/testkit'))});
    startScriptedServer({ chunkSize: 4096 }).then((server) => {
      let cmdSent = false;
      const gaps = [];
      server.setHandler((req) => {
        const msgs = req.body.messages;
        if (msgs[msgs.length - 1].content.includes('"_event":"tool_result"')) {
          if (cmdSent) gaps.push(Number(arrived - ended) / 1e6);
          cmdSent = false;
          return { json: { type: 'chat', message: 'One file changed.' } };
        }
        cmdSent = true;
        return { json: { type: 'cmd', message: 'check the tree', data: { cwd: null, commands: [{ program: 'git', args: ['status'] }] } } };
      });
      process.on('message', (m) => { if (m === 'gaps') process.send({ gaps }); });
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
            child.once('message', (g) => r(g.gaps));
            child.send('gaps');
          }),
        close: async () => void child.kill(),
      });
    });
  });
}

/** `git status` wrapped as tool-runner wraps an L0 step (undefined without a sandbox here). */
function sandboxedGitStatus(ctx, repo) {
  const { createSandbox } = require(path.join(ctx.root, 'packages/tool-runner'));
  const sandbox = createSandbox({ mode: 'auto', workspace: repo, home: ctx.temp.home, slothtoolHome: ctx.temp.slothtoolHome, env: process.env });
  return sandbox.wrap('L0', false, repo, 'git', ['status']);
}

exports.run = async function run(ctx) {
  const repo = path.join(ctx.temp.home, 'small-repo');
  fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, 'src', `f${i}.js`), `module.exports = ${i};\n`);
  const git = (...args) => spawnSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  fs.writeFileSync(path.join(repo, 'src', 'f1.js'), 'module.exports = "changed";\n');

  // The scripted model runs in a child process: its parsing and streaming are not our overhead.
  const server = await stampingServer(ctx.root);
  return withAgentHome(ctx, async ({ createAppAgent }) => {
    const { agent } = createAppAgent({ env: ctx.temp.env, cwd: repo, lang: 'en' });
    // The step runs inside the OS sandbox (bubblewrap here): the baseline is the same command in
    // the same sandbox, so the difference is what plugin-ai, tool-runner and llm-base add. Turns
    // and baseline runs alternate, so a busier moment of the machine weighs on both alike.
    const sandboxed = sandboxedGitStatus(ctx, repo);
    const turns = Math.max(30, ctx.runs * 4);
    const alone = [];
    const boxed = [];
    for (let i = 0; i < turns + 3; i++) {
      const r = await agent.send('what changed?');
      if (r.outcome !== 'answered') throw new Error(`turn ended with ${r.outcome}: ${r.message}`);
      alone.push(await timeGitStatus(repo));
      if (sandboxed) boxed.push(await timeGitStatus(repo, sandboxed));
    }
    agent.dispose?.();
    const gaps = await server.gaps();
    const g = stats(gaps.slice(3)); // the first turns load tool-runner and warm the JIT
    const a = stats(alone.slice(3));
    const b = sandboxed ? stats(boxed.slice(3)) : a;
    const over = g.median - b.median;
    return [
      { name: 'answer sent → next request arrived (the server\'s clock)', value: fmt(g, 'ms'), target: '', ok: null },
      { name: '`git status` alone', value: fmt(a, 'ms'), target: '', ok: null },
      ...(sandboxed ? [{ name: '`git status` in the same sandbox (the baseline, same run)', value: fmt(b, 'ms'), target: '', ok: null }] : []),
      { name: 'overhead (median difference)', value: `${over.toFixed(1)} ms`, target: '≤ 5 ms', ok: over <= 5 },
    ];
  }, { server });
};
