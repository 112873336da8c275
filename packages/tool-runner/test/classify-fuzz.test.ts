import { classify } from '../src/policy/classify';
import type { Step } from '../src/types';

// Deterministic pseudo-random argument vectors: classify must never throw, always returns a
// level with at least one rule, and wrapping a command never lowers its level.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PROGRAMS = [
  'git',
  'ls',
  'cat',
  'rg',
  'grep',
  'find',
  'fd',
  'sed',
  'awk',
  'tar',
  'sort',
  'npm',
  'npx',
  'node',
  'python3',
  'env',
  'timeout',
  'nice',
  'sudo',
  'rm',
  'cp',
  'mv',
  'chmod',
  'kill',
  'curl',
  'ssh',
  'docker',
  'jq',
  'xargs',
  'make',
  'yarn',
  'pnpm',
  'busybox',
  'dd',
  'tee',
  'less',
  'gh',
  'kubectl',
  'unknown-x',
  './x',
  '/usr/bin/git',
  'gіt',
  '',
];
const TOKENS = [
  '-',
  '--',
  '-c',
  '-e',
  '-i',
  '-rf',
  '-f',
  '--force',
  '--output=x',
  '-exec',
  '-delete',
  'status',
  'log',
  'push',
  'commit',
  'reset',
  '--hard',
  'install',
  'run',
  'test',
  'x',
  '.',
  '/',
  '~',
  '/etc/passwd',
  '/home/u/.ssh/id_rsa',
  '.env',
  's/a/b/',
  's/a/b/w f',
  '1e id',
  '{print}',
  'BEGIN{system("x")}',
  'FOO=1',
  'PATH=.',
  '5',
  '-1',
  '-9',
  'sh',
  'bash',
  '-p',
  '--pre=x',
  '=',
  '"',
  "'",
  '\\',
  '\u200b',
  '\u202e',
  '\u001b',
  '中文',
  '{}',
  ';',
  '|',
  '>',
  '$(id)',
  '`id`',
  'constructor',
  '__proto__',
  'toString',
];

describe('classify fuzz', () => {
  test('never throws and always explains itself', () => {
    const rand = rng(12345);
    const pick = <T>(a: T[]): T => a[Math.floor(rand() * a.length)];
    for (let n = 0; n < 4000; n++) {
      const program = pick(PROGRAMS);
      const args = Array.from({ length: Math.floor(rand() * 6) }, () => pick(TOKENS));
      const step = { tool: 'exec', program, args } as Step;
      const d = classify(
        step,
        { allowNetwork: rand() < 0.5, allowWrite: rand() < 0.5 },
        { cwd: '/home/u/p', home: '/home/u', lang: rand() < 0.5 ? 'en' : 'zh' },
      );
      expect(['L0', 'L1', 'L2']).toContain(d.level);
      expect(d.rules.length).toBeGreaterThan(0);
      expect(d.rules.some((r) => r.level === d.level)).toBe(true);
      const order = { L0: 0, L1: 1, L2: 2 };
      for (const wrapper of [['timeout', '5'], ['env', 'A=1'], ['nice', '-n', '5'], ['nohup']]) {
        const wrapped = classify(
          { tool: 'exec', program: wrapper[0], args: [...wrapper.slice(1), program, ...args] } as Step,
          {},
          { cwd: '/home/u/p', home: '/home/u' },
        );
        const plain = classify(step, {}, { cwd: '/home/u/p', home: '/home/u' });
        if (order[wrapped.level] < order[plain.level])
          throw new Error(`${wrapper.join(' ')} lowered ${JSON.stringify(step)}: ${plain.level} -> ${wrapped.level}`);
      }
    }
  });
});
