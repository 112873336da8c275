'use strict';
/** What the eval tasks share: the scripted model's replies, files of a task's repository, git, and verdicts. */
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const cmd = (message, ...commands) => ({ json: { type: 'cmd', message, data: { cwd: null, commands } } });
const chat = (message) => ({ json: { type: 'chat', message } });
const exec = (program, ...args) => ({ tool: 'exec', program, args });
const read = (p) => ({ tool: 'fs.read', path: p });
const edit = (p, old_string, new_string, replace_all = false) => ({ tool: 'fs.edit', path: p, old_string, new_string, replace_all });
const write = (p, content) => ({ tool: 'fs.write', path: p, content });

function files(dir, map) {
  for (const [rel, text] of Object.entries(map)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}
function git(dir, ...args) {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
function commit(dir, message, author = 'Ada Lovelace <ada@example.com>') {
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=eval', '-c', 'user.email=eval@example.com', 'commit', '-q', '--author', author, '-m', message);
}
const text = (dir, rel) => fs.readFileSync(path.join(dir, rel), 'utf8');
const json = (dir, rel) => JSON.parse(text(dir, rel));
/** Whether `node <file>` runs to exit 0 in the repo (and what it printed). */
function runs(dir, file) {
  try {
    return {
      ok: true,
      out: execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10000 }),
    };
  } catch (err) {
    return { ok: false, out: String(err.stdout || '') + String(err.stderr || '') };
  }
}
const verdict = (ok, why) => ({ ok: Boolean(ok), why: ok ? '' : why });
const says = (run, re, what) => verdict(re.test(run.final?.message ?? ''), `the answer does not name ${what}`);

module.exports = { cmd, chat, exec, read, edit, write, files, git, commit, text, json, runs, verdict, says };
