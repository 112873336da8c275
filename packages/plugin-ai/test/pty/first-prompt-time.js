// Measures the time from spawning `node bin/ai.js -i` in a pty to the first drawn prompt.
// Usage: node test/pty/first-prompt-time.js [runs]   (uses a throw-away SLOTHTOOL_HOME)
const pty = require('@lydell/node-pty');
const fs = require('fs');
const os = require('os');
const path = require('path');

const bin = path.resolve(__dirname, '..', '..', 'bin', 'ai.js');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-bench-'));
const env = { ...process.env, HOME: home, SLOTHTOOL_HOME: path.join(home, '.slothtool'), TERM: 'xterm-256color' };
fs.mkdirSync(env.SLOTHTOOL_HOME, { recursive: true });
const llmBase = path.resolve(__dirname, '..', '..', '..', 'plugin-llm-base');
const pkg = JSON.parse(fs.readFileSync(path.join(llmBase, 'package.json'), 'utf8'));
fs.writeFileSync(
  path.join(env.SLOTHTOOL_HOME, 'registry.json'),
  JSON.stringify({
    plugins: {
      'llm-base': {
        name: pkg.name,
        version: pkg.version,
        binPath: path.join(llmBase, Object.values(pkg.bin)[0]),
        installedAt: new Date().toISOString(),
      },
    },
  }),
);
fs.mkdirSync(path.join(env.SLOTHTOOL_HOME, 'plugin-configs'));
fs.writeFileSync(
  path.join(env.SLOTHTOOL_HOME, 'plugin-configs', 'llm-base.json'),
  JSON.stringify({
    default_profile: 'p',
    profiles: { p: { base_url: 'http://127.0.0.1:9/v1', api_key: 'x', low_model: 'a', high_model: 'b', timeout: 1000 } },
  }),
);

function once() {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const term = pty.spawn(process.execPath, [bin, '-i'], { cols: 100, rows: 30, env });
    let out = '';
    let first;
    term.onData((d) => {
      out += d;
      if (first === undefined && out.includes('› ')) {
        first = Number(process.hrtime.bigint() - start) / 1e6;
        term.write('\x04');
      }
    });
    term.onExit(() => resolve(first));
  });
}

(async () => {
  const runs = Number(process.argv[2] || 7);
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  times.sort((a, b) => a - b);
  const bare = [];
  for (let i = 0; i < 3; i++) {
    const s = process.hrtime.bigint();
    require('child_process').spawnSync(process.execPath, ['-e', '0']);
    bare.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  console.log(
    `first prompt: median ${times[Math.floor(runs / 2)].toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times[runs - 1].toFixed(0)} ms (node -e 0: ${Math.min(...bare).toFixed(0)} ms)`,
  );
  fs.rmSync(home, { recursive: true, force: true });
})();
