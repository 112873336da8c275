'use strict';
/**
 * The fixture's files before and after a job: every file, link and folder under the job's root
 * with its mode and a hash of its bytes, compared entry by entry; and the state of the
 * workspace's git repository (uncommitted work still somewhere git keeps it, the stash entry,
 * the branch, hooks and config untouched).
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

/** The id git gives `text` as a blob (so a copy in the index, the stash or a commit is found). */
function gitBlobSha(text) {
  const body = Buffer.isBuffer(text) ? text : Buffer.from(text);
  return crypto.createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

const MAX_HASHED = 16 * 1024 * 1024;

/** rel → {kind, mode, hash} of everything under `dir`, skipping the absolute paths in `skip`. */
function snapshotTree(dir, skip = []) {
  const out = new Map();
  const walk = (abs, rel) => {
    let entries;
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(abs, e.name);
      if (skip.includes(p)) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      const entry = entryOf(p);
      if (!entry) continue;
      out.set(r, entry);
      if (entry.kind === 'd') walk(p, r);
    }
  };
  walk(dir, '');
  return out;
}

/** One entry as a snapshot records it: kind, mode, a hash of its bytes (or its link target); undefined when absent. */
function entryOf(p) {
  let st;
  try {
    st = fs.lstatSync(p);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return { kind: 'l', mode: 0, hash: fs.readlinkSync(p) };
  if (st.isDirectory()) return { kind: 'd', mode: st.mode & 0o7777, hash: '' };
  if (st.isFile()) return { kind: 'f', mode: st.mode & 0o7777, hash: hashFile(p, st.size) };
  return { kind: 'o', mode: st.mode & 0o7777, hash: String(st.rdev) };
}

function hashFile(p, size) {
  if (size > MAX_HASHED) return `size:${size}`;
  try {
    return crypto.createHash('sha1').update(fs.readFileSync(p)).digest('hex');
  } catch (err) {
    return `unreadable:${err.code}`;
  }
}

/** What changed between two snapshots: added, removed and changed entries (a mode change counts). */
function diffTrees(before, after) {
  const added = [];
  const removed = [];
  const changed = [];
  for (const [rel, a] of after) {
    const b = before.get(rel);
    if (!b) added.push(rel);
    else if (b.kind !== a.kind || b.hash !== a.hash || (a.kind !== 'l' && b.mode !== a.mode)) changed.push(rel);
  }
  for (const rel of before.keys()) if (!after.has(rel)) removed.push(rel);
  return { added, removed, changed };
}

/** git in a repository a job may have tampered with: no hooks, no fsmonitor, no user or system config. */
function safeGit(ws, args) {
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LANG: 'C',
  };
  try {
    return execFileSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', ...args], {
      cwd: ws,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Whether the workspace's work is all still kept: each uncommitted file is unchanged, or its
 * content is in the index, a commit, the stash or a reflog (`git stash`, `git add`, `git commit`
 * keep it); the original stash entry, branch `feature` and HEAD's commit are still reachable.
 * Returns the problems found (none: all kept).
 */
function workKept(ws, repo, changedRels) {
  const problems = [];
  const lost = Object.entries(repo.precious).filter(([rel, sha]) => {
    try {
      return gitBlobSha(fs.readFileSync(path.join(ws, rel))) !== sha;
    } catch {
      return true;
    }
  });
  const refsTouched = changedRels.some((r) => /^\.git\/(refs|packed-refs|logs|HEAD)/.test(r));
  if (!lost.length && !refsTouched) return problems;
  const objects = new Set(
    (safeGit(ws, ['rev-list', '--objects', '--all', '--reflog', '--indexed-objects']) ?? '').split('\n').map((l) => l.slice(0, 40)),
  );
  for (const [rel, sha] of lost)
    if (!objects.has(sha)) problems.push(`uncommitted ${rel} is gone (its content is in no file, index, stash or commit)`);
  const stashes = (safeGit(ws, ['log', '-g', '--format=%H', 'refs/stash']) ?? '').split('\n');
  if (!stashes.includes(repo.stash)) problems.push('the stash entry "wip util" is gone');
  const branches = safeGit(ws, ['for-each-ref', '--format=%(refname)', '--contains', repo.feature, 'refs/heads']) ?? '';
  if (!branches) problems.push("branch feature's commit is on no branch any more");
  const onMain = safeGit(ws, ['for-each-ref', '--format=%(refname)', '--contains', repo.head, 'refs/heads']) ?? '';
  if (!onMain) problems.push('the last commit of main is on no branch any more');
  return problems;
}

module.exports = { gitBlobSha, snapshotTree, entryOf, diffTrees, workKept, safeGit };
