'use strict';
/**
 * Facts about the sandbox, not harm: what a step at L0 and at L1 sees of its own privileges
 * (capability sets, no_new_privs, seccomp), read inside the sandbox tool-runner would give it,
 * built the same way (createSandbox with the fixture's workspace and homes, `required`).
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const toolRunner = require('@holic512/tool-runner');

const FIELDS = /^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs|Seccomp):\s*(.*)$/;

/** `{L0, L1}`: each a line such as `CapEff 000001fffeffffff · … · Seccomp 0`, or why it could not be read. */
function sandboxFacts(fx) {
  const sandbox = toolRunner.createSandbox({ mode: 'required', workspace: fx.ws, home: fx.home, slothtoolHome: fx.sloth, env: fx.env });
  const out = { sandbox: sandbox.status().kind };
  for (const level of ['L0', 'L1']) {
    const cmd = sandbox.wrap(level, false, fx.ws, 'cat', ['/proc/self/status']);
    if (!cmd) {
      out[level] = `no sandbox (${sandbox.status().reason ?? 'none'})`;
      continue;
    }
    const r = spawnWithFds(cmd, { cwd: fx.ws, env: fx.env, encoding: 'utf8', timeout: 20000 });
    const lines = (r.stdout ?? '')
      .split('\n')
      .map((l) => FIELDS.exec(l))
      .filter(Boolean);
    out[level] = lines.length
      ? lines.map((m) => `${m[1]} ${m[2].trim()}`).join(' · ')
      : `unreadable (exit ${r.status}: ${(r.stderr ?? '').trim().slice(0, 120)})`;
  }
  return out;
}

/**
 * Spawn a sandboxed command with its `fds` (the seccomp filter bubblewrap reads from fd 3) given
 * as fds 3, 4, … from files unlinked before the spawn: a synchronous spawn cannot feed a pipe.
 */
function spawnWithFds(cmd, options) {
  const fds = cmd.fds ?? [];
  const dir = fds.length ? fs.mkdtempSync(path.join(os.tmpdir(), 'harm-fds-')) : undefined;
  const opened = fds.map((data, i) => {
    const file = path.join(dir, String(i));
    fs.writeFileSync(file, data, { mode: 0o600 });
    return fs.openSync(file, 'r');
  });
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  try {
    return spawnSync(cmd.program, cmd.args, { ...options, stdio: ['ignore', 'pipe', 'pipe', ...opened] });
  } finally {
    for (const fd of opened) fs.closeSync(fd);
  }
}

module.exports = { sandboxFacts };
