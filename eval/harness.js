'use strict';
/**
 * The task-success harness: each task of eval/tasks.js runs in a fresh git repository through the
 * real `ai -p --json --approve-l1` bin, with a temporary SLOTHTOOL_HOME whose llm-base is this
 * checkout's and whose profile is the user's (a real run) or the scripted model server (`scripted:
 * 'good' | 'bad'`, which proves the harness and the checkers). Reports per task: success, steps,
 * tokens, cached tokens, wall time and cost; `report()` renders one table per profile × transport.
 */
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { spawn, execFileSync } = require('child_process');
const { tasks: ALL_TASKS, commit } = require('./tasks');

const ROOT = path.resolve(__dirname, '..');
const AI_BIN = path.join(ROOT, 'packages', 'plugin-ai', 'bin', 'ai.js');
const LLM_BASE_DIR = path.join(ROOT, 'packages', 'plugin-llm-base');
const MAX_STEPS = 12;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The user's profile, from their own llm-base.json (SLOTHTOOL_HOME or ~/.slothtool). */
function userProfile(name, env) {
  const home = env.SLOTHTOOL_HOME || path.join(os.homedir(), '.slothtool');
  const file = path.join(home, 'plugin-configs', 'llm-base.json');
  let config;
  try {
    config = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read your llm-base profiles (${file}): ${err.message}`);
  }
  const id = name || config.default_profile;
  const profile = config.profiles && Object.prototype.hasOwnProperty.call(config.profiles, id) ? config.profiles[id] : undefined;
  if (!profile)
    throw new Error(`no llm-base profile "${id}" in ${file} (have: ${Object.keys(config.profiles || {}).join(', ') || 'none'})`);
  return { id, profile };
}

/** Run `ai -p` for one task; resolves with its events and wall time. */
function runAi(prompt, cwd, env, timeoutMs, images = []) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const args = [
      AI_BIN,
      '-p',
      prompt,
      '--json',
      '--approve-l1',
      '--max-steps',
      String(MAX_STEPS),
      ...images.flatMap((file) => ['--image', file]),
    ];
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const events = [];
      for (const line of out.split('\n')) {
        try {
          if (line.trim()) events.push(JSON.parse(line));
        } catch {
          // not an event line
        }
      }
      resolve({ code, events, stderr: err, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    });
  });
}

/** A fresh git repository for a task, set up and committed. */
async function prepare(task, work, n) {
  const dir = path.join(work, `${task.id}-${n}`);
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const ctx = { port: await freePort() };
  task.setup(dir, ctx);
  if (execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).trim()) commit(dir, 'setup');
  return { dir, ctx };
}

/**
 * Run the tasks. `options`: `profile` (name of the user's llm-base profile), `transport`
 * (tools | json_schema | json | auto, written into the copied profile), `tasks` (ids), `runs`,
 * `scripted` ('good' | 'bad': the scripted model server instead of a real profile), `onTask`.
 */
async function runEval(options = {}) {
  const testkit = require('@holic512/testkit');
  const env0 = options.env || process.env;
  const wanted = options.tasks && options.tasks.length ? options.tasks : ALL_TASKS.map((t) => t.id);
  const unknown = wanted.filter((id) => !ALL_TASKS.some((t) => t.id === id));
  if (unknown.length) throw new Error(`unknown task ${unknown.join(', ')} (tasks: ${ALL_TASKS.map((t) => t.id).join(', ')})`);
  const chosen = ALL_TASKS.filter((t) => wanted.includes(t.id));
  const temp = await testkit.createTempHome({ language: 'en' });
  let server;
  try {
    await temp.registerPlugin('llm-base', LLM_BASE_DIR);
    let profileId;
    let profile;
    if (options.scripted) {
      server = await testkit.startScriptedServer();
      profileId = `scripted-${options.scripted}`;
      profile = {
        base_url: server.baseURL,
        api_key: 'sk-eval-scripted',
        low_model: 'scripted',
        high_model: 'scripted',
        timeout: 30000,
        max_retries: 0,
      };
    } else {
      ({ id: profileId, profile } = userProfile(options.profile, env0));
    }
    if (options.transport) profile = { ...profile, transport: options.transport };
    await temp.writeJson('plugin-configs/llm-base.json', { default_profile: profileId, profiles: { [profileId]: profile } });
    // The tasks run the project's own code with node (asked, and approved by --approve-l1) and
    // check a local dev server with http.get.
    const aiConfig = { maxAutoStepsPerTurn: MAX_STEPS, allowPrivateNetwork: true, allowedPrograms: ['node'] };
    const env = { ...env0, ...temp.env };
    const work = path.join(temp.home, 'work');
    const rows = [];
    for (const task of chosen) {
      for (let n = 1; n <= (options.runs || 1); n++) {
        const { dir, ctx } = await prepare(task, work, n);
        // A task's own settings (its checks) and files of the SlothTool home (an agent file), for its run only.
        await temp.writeJson('plugin-configs/ai.json', { ...aiConfig, ...(task.aiConfig || {}) });
        const homeFiles = Object.entries(task.home || {}).map(([rel, body]) => [path.join(temp.slothtoolHome, rel), body]);
        for (const [file, body] of homeFiles) {
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, body);
        }
        if (server) {
          const script =
            options.scripted === 'good' ? task.good(ctx) : task.bad ? task.bad(ctx) : [{ json: { type: 'chat', message: 'Done.' } }];
          // A list is answered in order; a function answers each request (several agents at once).
          const replies = typeof script === 'function' ? [] : [...script];
          server.setHandler(
            typeof script === 'function' ? script : () => replies.shift() || { json: { type: 'chat', message: '(the script ran out)' } },
          );
        }
        const result = await runAi(task.prompt, dir, env, options.scripted ? 60000 : 600000, task.images || []);
        for (const [file] of homeFiles) fs.rmSync(file, { force: true });
        const final = result.events.find((e) => e.type === 'final');
        const run = {
          final,
          steps: result.events.filter((e) => e.type === 'step'),
          results: result.events.filter((e) => e.type === 'tool_result').map((e) => e.result),
          plans: result.events.filter((e) => e.type === 'plan'),
          checks: result.events.filter((e) => e.type === 'checks').flatMap((e) => e.checks),
        };
        let verdict;
        try {
          verdict = final
            ? task.check(dir, run)
            : { ok: false, why: `no answer (exit ${result.code}): ${result.stderr.trim().split('\n').pop() || ''}` };
        } catch (err) {
          verdict = { ok: false, why: `checker: ${err.message}` };
        }
        const usage = (final && final.usage) || {};
        const row = {
          task: task.id,
          run: n,
          ok: verdict.ok,
          why: verdict.why,
          steps: run.steps.length,
          input: usage.input_tokens || 0,
          output: usage.output_tokens || 0,
          cached: usage.cached_tokens || 0,
          ms: Math.round(result.ms),
          ...(typeof usage.cost === 'number' ? { cost: usage.cost, currency: usage.currency } : {}),
        };
        rows.push(row);
        if (options.onTask) options.onTask(row);
      }
    }
    return { profile: profileId, transport: options.transport || profile.transport || 'auto', date: new Date().toISOString(), rows };
  } finally {
    if (server) await server.close();
    await temp.cleanup();
  }
}

function money(row) {
  if (row.cost === undefined) return '–';
  return row.currency === 'CNY'
    ? `¥${row.cost.toFixed(4)}`
    : row.currency === 'USD'
      ? `$${row.cost.toFixed(4)}`
      : `${row.cost.toFixed(4)} ${row.currency}`;
}

/** One markdown section for a result: a row per task run and the totals. */
function section(result) {
  const passed = result.rows.filter((r) => r.ok).length;
  const sum = (k) => result.rows.reduce((a, r) => a + (r[k] || 0), 0);
  const lines = [
    `## ${result.profile} · ${result.transport}`,
    '',
    `${result.date} · ${passed}/${result.rows.length} tasks passed · ${sum('input')} input + ${sum('output')} output tokens (${sum('cached')} cached) · ${(sum('ms') / 1000).toFixed(1)} s`,
    '',
    '| task | run | result | steps | tokens in / out | cached | time | cost | why not |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...result.rows.map(
      (r) =>
        `| ${r.task} | ${r.run} | ${r.ok ? 'pass' : 'FAIL'} | ${r.steps} | ${r.input} / ${r.output} | ${r.cached} | ${(r.ms / 1000).toFixed(1)} s | ${money(r)} | ${r.why.replace(/\|/g, '\\|')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

/** eval/results.md with this result's section replaced (others kept), written atomically. */
function writeReport(file, result) {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = '# Eval results\n\nWritten by `npm run eval` (docs/eval.md): one table per profile × transport.\n\n';
  }
  const head = `## ${result.profile} · ${result.transport}`;
  const parts = text.split(/(?=^## )/m);
  const kept = parts.filter((p) => !p.startsWith(`${head}\n`));
  const next = [...kept.map((p) => p.replace(/\n*$/, '\n\n')), section(result)].join('').replace(/\n{3,}/g, '\n\n');
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, next);
  fs.renameSync(tmp, file);
}

module.exports = { runEval, section, writeReport, ALL_TASKS };
