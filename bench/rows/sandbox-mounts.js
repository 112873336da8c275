'use strict';
// Row: the per-step cost of the sandbox's mounts and limits (issue #32). In a home populated like
// a developer's (ten toolchain entries of the allow-list, a secret store of every class; and once
// with every entry of the allow-list), the command line tool-runner builds for an L0 step (private
// home: an empty tmpfs, the allow-list bound back, the workspace inside it, prlimit before the
// program) and for an L1 step (the whole home, every secret store hidden) runs `true`, interleaved
// with the floor: a plain `bwrap --ro-bind / / --dev /dev --proc /proc --unshare-net --unshare-pid
// --die-with-parent -- true` in the same run. Each figure is the median wall time of spawning and
// reaping it; the overhead is the median of its differences to the floor measured just before it
// (paired, so drifting load hits both). Building the command line (the spec: what exists to hide,
// the argv) is timed in-process on its own, per step.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { stats, fmt } = require('../lib');

exports.title = 'Sandbox mounts per step';

/** Files holding the bytes a command reads from fd 3 (the seccomp filter), opened fresh for each spawn. */
const fdFiles = new Map();
function fdFile(data) {
  const key = data.toString('base64');
  if (!fdFiles.has(key)) {
    const file = path.join(fs.mkdtempSync(path.join(require('os').tmpdir(), 'bench-fd-')), 'data');
    fs.writeFileSync(file, data);
    fdFiles.set(key, file);
  }
  return fdFiles.get(key);
}

/** Spawn and reap one command line; `fds` (tool-runner's SandboxedCommand) read from fds 3, 4, … */
function timed(program, args, cwd, fds = []) {
  const opened = fds.map((d) => fs.openSync(fdFile(d), 'r'));
  const t0 = process.hrtime.bigint();
  const r = spawnSync(program, args, { cwd, stdio: ['ignore', 'ignore', 'ignore', ...opened] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  for (const fd of opened) fs.closeSync(fd);
  if (r.status !== 0) throw new Error(`${program} ${args.slice(-3).join(' ')} exited with ${r.status ?? r.signal}`);
  return ms;
}

/** What a typical developer's home holds of the allow-list (git, Rust, Node, Python, Java, Go). */
const TYPICAL = [
  '.gitconfig',
  '.config/git',
  '.cargo',
  '.rustup',
  '.nvm',
  '.npm/_cacache',
  '.local/bin',
  '.pyenv',
  '.m2/repository',
  'go/pkg',
];

/** A home with `entries` of the allow-list and one of each secret class. */
function populate(home, tr, entries) {
  for (const rel of entries) {
    const p = path.join(home, rel.replace('*', '3.11'));
    if (/\.(gitconfig|editorconfig|gitignore_global|tool-versions)$/.test(rel)) {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, '# bench\n');
    } else fs.mkdirSync(p, { recursive: true });
  }
  for (const c of tr.SECRET_CLASSES) {
    const p = path.join(home, c.paths[0]);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, 'secret\n');
  }
}

exports.run = async function run(ctx) {
  const tr = require(path.join(ctx.root, 'packages/tool-runner'));
  const full = path.join(ctx.temp.home, 'sandbox-bench-full');
  fs.mkdirSync(path.join(full, 'proj'), { recursive: true });
  populate(full, tr, tr.DEFAULT_ALLOW_READ);
  const home = path.join(ctx.temp.home, 'sandbox-bench-home');
  const ws = path.join(home, 'proj');
  fs.mkdirSync(ws, { recursive: true });
  populate(home, tr, TYPICAL);
  const everything = tr.createSandbox({
    mode: 'auto',
    workspace: path.join(full, 'proj'),
    home: full,
    slothtoolHome: ctx.temp.slothtoolHome,
    env: process.env,
  });
  const sandbox = tr.createSandbox({ mode: 'auto', workspace: ws, home, slothtoolHome: ctx.temp.slothtoolHome, env: process.env });
  if (sandbox.status().kind !== 'bwrap') throw new Error(`no bubblewrap here: ${sandbox.status().reason}`);
  const noLimits = tr.createSandbox({
    mode: 'auto',
    workspace: ws,
    home,
    slothtoolHome: ctx.temp.slothtoolHome,
    env: process.env,
    limits: false,
  });
  const bwrap = sandbox.wrap('L0', false, ws, 'true', []).program;
  const floorArgs = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--unshare-net',
    '--unshare-pid',
    '--die-with-parent',
    '--',
    'true',
  ];
  const l0 = sandbox.wrap('L0', false, ws, 'true', []);
  const l0plain = noLimits.wrap('L0', false, ws, 'true', []);
  const l1 = sandbox.wrap('L1', false, ws, 'true', []);
  const l0full = everything.wrap('L0', false, path.join(full, 'proj'), 'true', []);
  const n = Math.max(15, ctx.runs * 5);
  const floor = [];
  const withL0 = [];
  const withL0full = [];
  const withL0plain = [];
  const withL1 = [];
  for (let i = 0; i < 3; i++) timed(bwrap, floorArgs, ws);
  for (let i = 0; i < n; i++) {
    // Interleaved, so machine noise hits all alike.
    floor.push(timed(bwrap, floorArgs, ws));
    withL0.push(timed(l0.program, l0.args, ws, l0.fds));
    withL0plain.push(timed(l0plain.program, l0plain.args, ws, l0plain.fds));
    withL1.push(timed(l1.program, l1.args, ws, l1.fds));
    withL0full.push(timed(l0full.program, l0full.args, full, l0full.fds));
  }
  for (const file of fdFiles.values()) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  fdFiles.clear();
  // The in-process part of every step: the spec (probing what exists) and the argv.
  const builds = [];
  for (const level of ['L0', 'L1']) {
    const reps = 500;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) sandbox.wrap(level, false, ws, 'true', []);
    builds.push(Number(process.hrtime.bigint() - t0) / 1e3 / reps);
  }
  const f = stats(floor);
  // Paired: each figure against the floor measured just before it, so load that drifts hits both.
  // The minima too: on a loaded machine they show the cost itself better than the medians.
  const row = (name, values, mounts, target = true) => {
    const s = stats(values);
    const over = stats(values.map((v, i) => v - floor[i])).median;
    // The count of mounts is in the figure, not the name (the key of bench/ci-reference.json): it
    // is one more once the spawn helper's pipe folder exists (hidden too), as after earlier rows.
    const value = `${fmt(s, 'ms')} · ${(s.median / f.median).toFixed(2)}× the floor · +${over.toFixed(1)} ms (minima: +${(s.min - f.min).toFixed(1)} ms) · ${mounts} mounts`;
    return { metric: s.median / f.median, better: 'lower', name, value, ...(target ? { target: '≤ floor + 5 ms', ok: over <= 5 } : {}) };
  };
  const mounts = (w) => w.args.filter((a) => a.startsWith('--') && /bind|tmpfs/.test(a)).length;
  return [
    { name: 'floor: plain `bwrap --ro-bind / / … true` (same run)', value: fmt(f, 'ms') },
    row(
      `L0 step in a typical home (${TYPICAL.length} allow-list entries): private home, allow-list, workspace, prlimit`,
      withL0,
      mounts(l0),
    ),
    row('the same L0 step without limits (no prlimit exec)', withL0plain, mounts(l0plain)),
    row(
      `L0 step in a home with every allow-list entry (${tr.DEFAULT_ALLOW_READ.length}: the worst case)`,
      withL0full,
      mounts(l0full),
      false,
    ),
    row('L1 step: whole home, every secret class hidden', withL1, mounts(l1)),
    {
      name: 'building the command line in-process (spec + argv), per step',
      value: `L0 ${builds[0].toFixed(0)} µs · L1 ${builds[1].toFixed(0)} µs`,
    },
  ];
};
