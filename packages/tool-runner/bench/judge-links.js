'use strict';
// Benchmark: what judging through a runner costs now that every path word of a command is
// resolved through links first (registry/path-links.ts), against the pure classify of the same
// steps. A temp workspace with a few links; prints one JSON line. Uses the built library.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { classify, createToolRunner } = require(path.join(__dirname, '..', 'lib', 'index.js'));

const LINES = [
  'git status',
  'ls -la src',
  'rg -n TODO src',
  'cat package.json',
  'wc -l src/a.ts',
  'git log --oneline -n 20',
  'grep -rn foo src',
  'head -n 20 src/a.ts',
  'cat build/out/x',
  'cp src/a.ts hooks/pre-commit',
  'sort -o out.txt src/a.ts',
  'jq .name package.json',
];
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-links-')));
try {
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'build'));
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'x');
  fs.writeFileSync(path.join(ws, 'package.json'), '{}');
  fs.symlinkSync(root, path.join(ws, 'build', 'out'));
  fs.symlinkSync('.git/hooks', path.join(ws, 'hooks'));
  const runner = createToolRunner({ cwd: ws, workspace: ws, lang: 'en', sandbox: 'off', env: { PATH: process.env.PATH, HOME: root } });
  const steps = LINES.map((l) => {
    const [program, ...args] = l.split(' ');
    return { tool: 'exec', program, args };
  });
  const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 500;
  const time = (f) => {
    for (const s of steps) f(s);
    const started = process.hrtime.bigint();
    for (let r = 0; r < rounds; r++) for (const s of steps) f(s);
    return Number(process.hrtime.bigint() - started) / 1e3 / (rounds * steps.length);
  };
  const pure = time((s) => classify(s, {}, { cwd: ws, workspace: ws, home: root, lang: 'en' }));
  const judged = time((s) => runner.judge(s));
  process.stdout.write(
    JSON.stringify({
      commands: steps.length,
      rounds,
      classifyMicros: Number(pure.toFixed(2)),
      judgeWithLinksMicros: Number(judged.toFixed(2)),
    }) + '\n',
  );
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
