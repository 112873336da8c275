import { classify } from '../src/policy/classify';
import type { Step } from '../src/types';

// Deterministic pseudo-random fs/http/proc steps: classify never throws, always explains
// itself; writes are never judged lower than reads of the same path; requires never lowers.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PATHS = [
  'a.ts',
  'src/x/y.md',
  '../x',
  '../../etc/passwd',
  '/etc/shadow',
  '~/.ssh/id_rsa',
  '~/.ssh/config',
  '~/.bashrc',
  '.env',
  '.env.example',
  '../.env',
  '.git/hooks/pre-commit',
  '.git/config',
  '~/.slothtool/plugin-configs/ai.json',
  '~/.slothtool/registry.json',
  '/',
  '~',
  '.',
  'a\u0000b',
  'a\u202eb',
  '中文.txt',
  'x'.repeat(5000),
  'key.pem',
  'C:\\x',
  '\\\\server\\share',
  '/dev/sda',
  '/proc/1/environ',
  'node_modules/.bin/x',
  'constructor',
  '__proto__',
];
const URLS = [
  'https://example.com',
  'http://127.0.0.1',
  'http://localhost:3000/x',
  'http://[::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://10.0.0.1',
  'http://169.254.169.254/latest',
  'file:///etc/passwd',
  'ftp://x',
  'javascript:alert(1)',
  'https://user:pw@example.com',
  'not a url',
  '',
  'http://0x7f.1/',
  'http://2130706433/',
  'http://中文.example/',
];
const ORDER = { L0: 0, L1: 1, L2: 2 } as const;

test('fs/http/proc steps: never throw, always explain, writes ≥ reads, requires never lowers', () => {
  const rand = rng(4242);
  const pick = <T>(a: T[]): T => a[Math.floor(rand() * a.length)];
  const ctx = { cwd: '/home/u/p', home: '/home/u', slothtoolHome: '/home/u/.slothtool', workspace: '/home/u/p', lang: 'en' as const };
  for (let n = 0; n < 3000; n++) {
    const p = pick(PATHS);
    const policy = { allowWrite: rand() < 0.5, allowNetwork: rand() < 0.5, allowPrivateNetwork: rand() < 0.2 };
    const steps: Step[] = [
      { tool: 'fs.read', path: p },
      { tool: 'fs.edit', path: p, old_string: 'a', new_string: 'b' },
      { tool: 'fs.write', path: p, content: 'x' },
      { tool: 'http.get', url: pick(URLS) },
      { tool: 'proc.start', program: pick(['npm', 'ls', 'rm', 'node', 'x']), args: [p] },
      { tool: 'proc.status', proc_id: pick(['proc_1', '', 'x']) },
    ];
    const levels = steps.map((step) => {
      const d = classify(step, policy, ctx);
      expect(['L0', 'L1', 'L2']).toContain(d.level);
      expect(d.rules.length).toBeGreaterThan(0);
      const raised = classify({ ...step, requires: { confirm: true } } as Step, policy, ctx);
      expect(ORDER[raised.level]).toBeGreaterThanOrEqual(Math.max(ORDER[d.level], 1));
      return d.level;
    });
    if (ORDER[levels[2]] < ORDER[levels[0]] && levels[0] !== 'L2') throw new Error(`write of ${p} judged below its read`);
  }
});

test('the private-address rule sees through numeric and bracketed hosts', () => {
  for (const url of [
    'http://0x7f.1/',
    'http://2130706433/',
    'http://127.1/',
    'http://[::1]:8080/',
    'http://[::ffff:7f00:1]/',
    'http://0177.0.0.1/',
  ]) {
    expect([url, classify({ tool: 'http.get', url }, {}, {}).level]).toEqual([url, 'L2']);
  }
});
