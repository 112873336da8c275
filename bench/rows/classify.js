'use strict';
// Row 6: risk classifications per second over a mixed table of everyday, writing and
// dangerous commands (pure function, no I/O).
const path = require('path');
const { stats, fmt } = require('../lib');

exports.title = 'Risk classification';

const TABLE = [
  ['git', 'status'],
  ['git', 'log', '--oneline', '-n', '20'],
  ['git', 'diff', 'HEAD~1'],
  ['git', 'commit', '-m', 'x'],
  ['git', 'push', '--force'],
  ['git', '-c', 'core.pager=sh', 'log'],
  ['git', 'reset', '--hard'],
  ['ls', '-la'],
  ['rg', 'TODO', 'src'],
  ['rg', '--pre', 'sh', 'x'],
  ['cat', 'package.json'],
  ['wc', '-l', 'a.txt'],
  ['find', '.', '-name', '*.ts'],
  ['find', '.', '-delete'],
  ['find', '.', '-exec', 'rm', '{}', ';'],
  ['sed', '-n', '1,10p', 'f'],
  ['sed', '-i', 's/a/b/', 'f'],
  ['awk', '{print $1}', 'f'],
  ['awk', 'BEGIN{system("id")}'],
  ['npm', 'install'],
  ['npm', 'test'],
  ['npm', 'ls'],
  ['curl', 'https://example.com'],
  ['sudo', 'ls'],
  ['rm', '-rf', '/'],
  ['env', 'FOO=1', 'git', 'status'],
  ['timeout', '5', 'rm', '-rf', 'x'],
  ['node', '-e', '1'],
  ['sh', '-c', 'id'],
  ['python3', '-c', 'print(1)'],
  ['xargs', 'rm'],
  ['dd', 'if=/dev/zero', 'of=/dev/sda'],
  ['chmod', '-R', '777', '/'],
  ['kill', '-9', '-1'],
  ['head', '-n', '5', 'README.md'],
  ['tree', '-L', '2'],
  ['./git', 'status'],
  ['/usr/bin/git', 'status'],
  ['gіt', 'status'],
  ['tar', '--checkpoint-action=exec=sh', '-cf', 'a', 'b'],
  ['make'],
  ['sort', '-o', 'out', 'in'],
  ['tee', 'file'],
  ['cat', '/root/.ssh/id_rsa'],
  ['du', '-sh', '.'],
  ['mkfs.ext4', '/dev/sdb'],
  ['shutdown', 'now'],
  ['pwd'],
  ['echo', 'hi'],
  ['which', 'node'],
];

exports.run = async function run(ctx) {
  const { classify } = require(path.join(ctx.root, 'packages/tool-runner'));
  const steps = TABLE.map(([program, ...args]) => ({ tool: 'exec', program, args }));
  const opts = { cwd: ctx.root, home: ctx.temp.home, lang: 'en' };
  for (let i = 0; i < 2000; i++) classify(steps[i % steps.length], {}, opts); // warm up the JIT
  const rates = [];
  for (let r = 0; r < ctx.runs; r++) {
    const n = 100000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) classify(steps[i % steps.length], {}, opts);
    rates.push(n / (Number(process.hrtime.bigint() - t0) / 1e9) / 1000);
  }
  const s = stats(rates);
  return [{ name: `${steps.length} mixed commands`, value: fmt(s, 'k/s', 0), target: '≥ 200k/s', ok: s.median >= 200 }];
};
