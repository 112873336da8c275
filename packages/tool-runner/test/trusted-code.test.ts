import { classify } from '../src';
import { normalizePolicy } from '../src/policy/classify';

// policy.trustedCodeRoots (plugin-ai passes the session's skill folders): a script inside one is
// asked about as project code (L1) instead of refused as an unknown script; nothing else changes.
const ROOT = '/home/u/.claude/skills/pdf';
const policy = { trustedCodeRoots: [ROOT] };
const ctx = { cwd: '/work/repo', home: '/home/u', lang: 'en' as const };
const judge = (program: string, args: string[], cwd?: string) => {
  const d = classify({ tool: 'exec', program, args, ...(cwd ? { cwd } : {}) }, policy, ctx);
  return { level: d.level, rules: d.rules.map((r) => r.id) };
};

test.each([
  ['the script as the program', `${ROOT}/scripts/fill.sh`, [], undefined],
  ['through python', 'python3', [`${ROOT}/scripts/fill.py`, 'in.pdf'], undefined],
  ['through node', 'node', [`${ROOT}/scripts/x.js`], undefined],
  ['relative to the step folder', 'python3', ['scripts/fill.py'], ROOT],
])('%s: L1 with program.trusted_code', (_what, program, args, cwd) => {
  const d = judge(program as string, args as string[], cwd as string | undefined);
  expect(d.level).toBe('L1');
  expect(d.rules).toContain('program.trusted_code');
});

test.each([
  ['a script elsewhere', 'python3', ['/srv/other/evil.py'], undefined],
  ['.. out of the root', 'python3', [`${ROOT}/../other/x.py`], undefined],
  ['a root that only shares a prefix', 'python3', [`${ROOT}-evil/x.py`], undefined],
  ['inline code stays refused', 'python3', ['-c', 'import os'], ROOT],
  ['the root itself is not a script', ROOT, [], undefined],
])('%s: still L2', (_what, program, args, cwd) => {
  expect(judge(program as string, args as string[], cwd as string | undefined).level).toBe('L2');
});

test('without roots nothing changes; relative roots from a config file are dropped', () => {
  expect(classify({ tool: 'exec', program: 'python3', args: [`${ROOT}/x.py`] }, {}, ctx).level).toBe('L2');
  expect(normalizePolicy({ trustedCodeRoots: [ROOT, 'relative/dir', 3] })).toEqual({ trustedCodeRoots: [ROOT] });
});
