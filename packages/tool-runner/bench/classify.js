'use strict';
// Benchmark: classify() speed over a mix of everyday and hostile commands.
// Prints one JSON line: {commands, calls, seconds, microsPerCall}. Uses the built library.
const path = require('path');
const { classify } = require(path.join(__dirname, '..', 'lib', 'index.js'));

const LINES = [
  'git status',
  'ls -la',
  'rg -n TODO src',
  'cat package.json',
  'wc -l src/index.ts',
  'git log --oneline -n 20',
  'npm test',
  'npm install',
  'git push --force',
  'rm -rf /',
  'find . -name x -exec rm {} ;',
  'sed -i s/a/b/ f',
  'env FOO=1 git status',
  'timeout 5 rm -rf /',
  'nice -n 5 xargs rm',
  'git -c core.pager=sh log',
  'curl https://x',
  'node -e x',
  'python3 -c x',
  'sudo ls',
  'chmod -R 777 /',
  'awk {print $1} f',
  'sed -n 1,20p f',
  'npx jest',
  'git diff --ext-diff',
  'tar -xzf a.tgz',
  'cat /home/u/.ssh/id_rsa',
  'mystery-tool --flag',
  'gіt status',
];

const steps = LINES.map((l) => {
  const [program, ...args] = l.split(' ');
  return { tool: 'exec', program, args };
});
const ctx = { cwd: '/home/u/proj', home: '/home/u', lang: 'en' };
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 2000;
for (const s of steps) classify(s, {}, ctx);
const started = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) for (const s of steps) classify(s, {}, ctx);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const calls = rounds * steps.length;
process.stdout.write(
  JSON.stringify({
    commands: steps.length,
    calls,
    seconds: Number(seconds.toFixed(3)),
    microsPerCall: Number(((seconds * 1e6) / calls).toFixed(2)),
  }) + '\n',
);
