'use strict';
/**
 * A worker's fixture, fresh for every job: a copy of the worker's template made once, then for
 * each job the job's secrets and the case's files written in, and after the job put back to
 * the template entry by entry (what a job added removed, what it changed or removed copied
 * again) and verified equal to it, file by file; when it cannot be put back, it is removed and
 * copied anew. (Copying 200 files per job costs half a second on this disk; putting back the
 * few a job touched costs milliseconds.)
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { snapshotTree, entryOf, diffTrees } = require('./snapshot');
const { WS_REL, fixtureEnv, writeSecrets, writeCaseFiles, subst, vars } = require('./fixture');

/** The worker's fixture folder, a copy of its template; `baseline` is its snapshot. */
function createWorkerFixture(run, tpl, worker) {
  const root = path.join(run.base, `worker-${worker}`);
  const home = path.join(root, 'home');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  fs.cpSync(tpl.home, home, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  return {
    root,
    home,
    ws: path.join(home, WS_REL),
    sloth: path.join(home, '.slothtool'),
    ports: tpl.ports,
    tmp: os.tmpdir(),
    user: os.userInfo().username,
    repo: tpl.repo,
    tplHome: tpl.home,
    baseline: snapshotTree(root),
  };
}

/** Ready the worker's fixture for one job: marker names, the job's canaries, the case's files. */
function prepareJob(run, wfx, jobNo, canaries, kase) {
  const fx = { ...wfx, mark: `slothtool-harm-${run.runId}-${jobNo}-m`, markPrefix: `slothtool-harm-${run.runId}-${jobNo}-` };
  writeSecrets(run, fx, canaries);
  if (kase.needs?.includes('typescript')) {
    fs.cpSync(run.typescript, path.join(fx.ws, 'node_modules', 'typescript'), { recursive: true });
    fs.mkdirSync(path.join(fx.ws, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync('../typescript/bin/tsc', path.join(fx.ws, 'node_modules', '.bin', 'tsc'));
  }
  fx.env = fixtureEnv(fx, canaries);
  writeCaseFiles(fx, subst(kase.files, vars(fx)));
  return fx;
}

/** Remove `p` (a file, a link or a folder); if a job made its folder read-only, make it writable and try again. */
function removeEntry(p) {
  try {
    fs.rmSync(p, { recursive: true, force: true });
  } catch {
    for (const d of [path.dirname(p), p]) {
      try {
        if (fs.lstatSync(d).isDirectory()) fs.chmodSync(d, 0o755);
      } catch {
        // gone already
      }
    }
    fs.rmSync(p, { recursive: true, force: true });
  }
}

/** Copy one template entry back (a folder, a link or a file, with its mode and times). */
function restoreEntry(wfx, rel, entry) {
  const src = path.join(wfx.tplHome, rel.replace(/^home\/?/, ''));
  const dst = path.join(wfx.root, rel);
  const st = fs.lstatSync(src);
  if (entry.kind === 'd') {
    try {
      if (!fs.lstatSync(dst).isDirectory()) removeEntry(dst);
    } catch {
      // absent: made below
    }
    fs.mkdirSync(dst, { recursive: true });
    fs.chmodSync(dst, entry.mode);
    return;
  }
  removeEntry(dst);
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  if (entry.kind === 'l') fs.symlinkSync(fs.readlinkSync(src), dst);
  else {
    fs.copyFileSync(src, dst);
    fs.chmodSync(dst, entry.mode);
    fs.utimesSync(dst, st.atime, st.mtime);
  }
}

/** Whether the entry at `rel` is now as the baseline has it (absent when the baseline has none). */
function matches(wfx, rel) {
  const want = wfx.baseline.get(rel);
  const now = entryOf(path.join(wfx.root, rel));
  if (!want || !now) return !want && !now;
  return want.kind === now.kind && want.hash === now.hash && (want.kind === 'l' || want.mode === now.mode);
}

/**
 * Put the worker's fixture back to its template, given its snapshot after the job (`after`;
 * taken again when absent). Returns 'restored', or 'recopied' when an entry could not be put
 * back (the folder is then removed and copied anew).
 */
function restoreWorkerFixture(wfx, after = snapshotTree(wfx.root)) {
  const d = diffTrees(wfx.baseline, after);
  const touched = [...d.added, ...d.removed, ...d.changed];
  let ok = true;
  try {
    for (const rel of d.added.sort((a, b) => b.length - a.length)) removeEntry(path.join(wfx.root, rel));
    for (const rel of [...d.removed, ...d.changed].sort((a, b) => a.length - b.length)) restoreEntry(wfx, rel, wfx.baseline.get(rel));
    ok = touched.every((rel) => matches(wfx, rel));
  } catch {
    ok = false;
  }
  if (ok) return 'restored';
  removeEntry(wfx.root);
  fs.mkdirSync(wfx.root, { recursive: true });
  fs.cpSync(wfx.tplHome, path.join(wfx.root, 'home'), { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  return 'recopied';
}

module.exports = { createWorkerFixture, prepareJob, restoreWorkerFixture };
