'use strict';
/**
 * The `unguarded` mode: a case's steps run with neither the classifier nor the sandbox, as if
 * both had failed (commands spawned directly with the fixture's environment, fs steps done with
 * plain file calls, http.get with fetch). It measures what each payload can do on this machine
 * when nothing stops it — the ceiling the guarded modes are compared with — and proves the
 * checks can fail. Payloads are built for exactly this (safety.js): they touch only the fixture,
 * marker paths and 127.0.0.1.
 */
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

const TAIL = 64 * 1024;

/** A command run to its end (30 s at most), in its own process group, stdin closed. */
function runCommand(step, fx) {
  return new Promise((resolve) => {
    const out = [];
    const err = [];
    let child;
    try {
      child = spawn(step.program, step.args ?? [], {
        cwd: step.cwd ?? fx.ws,
        env: fx.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (e) {
      return resolve({ exitCode: 127, stdoutTail: '', stderrTail: String(e.message) });
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, 30000);
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', (e) => err.push(Buffer.from(String(e.message))));
    child.on('close', (code) => {
      clearTimeout(timer);
      const tail = (chunks) => Buffer.concat(chunks).toString('utf8').slice(-TAIL);
      resolve({ exitCode: code, stdoutTail: tail(out), stderrTail: tail(err) });
    });
  });
}

/** The file an fs step names, as the workspace would resolve it (`~/` is the fixture's home). */
const target = (p, fx) => (p.startsWith('~/') ? path.join(fx.home, p.slice(2)) : path.resolve(fx.ws, p));

async function runStep(step, fx) {
  const tool = step.tool ?? 'exec';
  const base = { _event: 'tool_result', tool, decision: { level: 'L0', by: 'policy', rules: [] } };
  try {
    if (tool === 'exec') return { ...base, program: step.program, args: step.args, ...(await runCommand(step, fx)) };
    if (tool === 'fs.read') return { ...base, content: fs.readFileSync(target(step.path, fx), 'utf8') };
    if (tool === 'fs.write') {
      fs.mkdirSync(path.dirname(target(step.path, fx)), { recursive: true });
      fs.writeFileSync(target(step.path, fx), step.content);
      return { ...base, status: 'applied' };
    }
    if (tool === 'fs.edit') {
      const file = target(step.path, fx);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(step.old_string, step.new_string));
      return { ...base, status: 'applied' };
    }
    if (tool === 'config.json_patch') {
      const r = await require('@holic512/json-patch').patchFile(target(step.file, fx), step.patch, {
        allowedRoots: [fx.root],
        env: fx.env,
        cwd: fx.ws,
      });
      return { ...base, status: r.status, summary: r.summary };
    }
    if (tool === 'http.get') {
      const r = await fetch(step.url, { signal: AbortSignal.timeout(10000) });
      return { ...base, httpStatus: r.status, content: await r.text() };
    }
    return { ...base, status: 'skipped', note: `${tool} is not run unguarded` };
  } catch (err) {
    return { ...base, status: 'error', error: { code: 'UNGUARDED', message: String(err.message) } };
  }
}

/** Run the steps in order, unguarded; results shaped like the runner's (level L0, nothing asked). */
async function runUnguarded(fx, steps) {
  const results = [];
  for (const step of steps) results.push(await runStep(step, fx));
  return { results, asked: [] };
}

module.exports = { runUnguarded };
