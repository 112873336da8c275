import { parseRule, type PermissionRule, type PermissionSubject } from '../src/permission-rules';
import { decide, type DecideOptions } from '../src/policy/decide';
import { finding, type Finding } from '../src/policy/finding';

// decide(findings, options) → Verdict: pure, no language. Each row: the findings, the options,
// then the level, the ids (with their levels after deciding), bySession, the adjustments.

const rule = (text: string, effect: 'allow' | 'ask' | 'deny'): PermissionRule => parseRule(text, effect, 'ai.json') as PermissionRule;
const cmd = (line: string): PermissionSubject => ({ kind: 'command', words: line.split(' ') });
const exec = (line: string): DecideOptions => ({ tool: 'exec', key: line.split(' ').slice(0, 2).join(' '), subject: cmd(line) });

const write = finding('write.file', 'L1', { p: 'touch' }, { cat: ['write'] });
const net = finding('network', 'L1', { p: 'curl' }, { cat: ['network'] });
const reads = finding('read.only', 'L0');
const secret = finding('secret.read', 'L1', { p: 'cat' });
const rmRoot = finding('rm.root', 'L2');
const edit = finding('fs.edit', 'L1', { p: 'a.txt' });

type Row = [string, Finding[], DecideOptions, string, string[], boolean, string[]];

const ROWS: Row[] = [
  ['nothing fired: L0', [], {}, 'L0', [], false, []],
  ['the strictest finding decides', [reads, write, rmRoot], {}, 'L2', ['L0 read.only', 'L1 write.file', 'L2 rm.root'], false, []],
  [
    'allowWrite lowers a write finding and says so',
    [write],
    { policy: { allowWrite: true } },
    'L0',
    ['L0 write.file', 'L0 policy.lowered'],
    false,
    ['policy policy.lowered L0'],
  ],
  ['allowWrite does not lower a network finding', [net], { policy: { allowWrite: true } }, 'L1', ['L1 network'], false, []],
  ['a setting never lowers L2', [rmRoot], { policy: { allowWrite: true, allowNetwork: true } }, 'L2', ['L2 rm.root'], false, []],
  [
    'a deny rule refuses an L0 step',
    [reads],
    { ...exec('ls -l'), rules: [rule('exec(ls *)', 'deny')] },
    'L2',
    ['L0 read.only', 'L2 permission.deny'],
    false,
    ['rule permission.deny L2'],
  ],
  [
    'an ask rule asks about an L0 step, every time',
    [reads],
    { ...exec('git status'), rules: [rule('exec(git status)', 'ask')], allowances: new Set(['git status']) },
    'L1',
    ['L0 read.only', 'L1 permission.ask'],
    false,
    ['rule permission.ask L1'],
  ],
  [
    'an allow rule lowers L1',
    [write],
    { ...exec('touch a'), rules: [rule('exec(touch *)', 'allow')] },
    'L0',
    ['L0 write.file', 'L0 permission.allow'],
    false,
    ['rule permission.allow L0'],
  ],
  [
    'an allow rule never lowers L2',
    [write, rmRoot],
    { ...exec('rm -rf /'), rules: [rule('exec(rm *)', 'allow')] },
    'L2',
    ['L1 write.file', 'L2 rm.root'],
    false,
    [],
  ],
  [
    'an allow rule never lowers a finding about this exact step',
    [secret],
    { ...exec('cat x'), rules: [rule('exec(cat *)', 'allow')] },
    'L1',
    ['L1 secret.read'],
    false,
    [],
  ],
  [
    'deny beats allow',
    [write],
    { ...exec('touch a'), rules: [rule('exec(touch *)', 'allow'), rule('exec(touch *)', 'deny')] },
    'L2',
    ['L1 write.file', 'L2 permission.deny'],
    false,
    ['rule permission.deny L2'],
  ],
  [
    'plan refuses what is not read-only',
    [write],
    { ...exec('touch a'), mode: 'plan' },
    'L2',
    ['L1 write.file', 'L2 mode.plan'],
    false,
    ['mode mode.plan L2'],
  ],
  ['plan lets a read through', [reads], { ...exec('ls'), mode: 'plan' }, 'L0', ['L0 read.only'], false, []],
  [
    'auto-edit lowers an edit',
    [edit],
    { tool: 'fs.edit', key: 'fs.edit a.txt', subject: { kind: 'path', path: 'a.txt' }, mode: 'auto-edit' },
    'L0',
    ['L0 fs.edit', 'L0 mode.auto_edit'],
    false,
    ['mode mode.auto_edit L0'],
  ],
  ['auto-edit leaves a command asking', [write], { ...exec('touch a'), mode: 'auto-edit' }, 'L1', ['L1 write.file'], false, []],
  [
    'yolo lowers every L1',
    [write, net],
    { ...exec('touch a'), mode: 'yolo' },
    'L0',
    ['L0 write.file', 'L0 network', 'L0 mode.yolo'],
    false,
    ['mode mode.yolo L0'],
  ],
  ['yolo never lowers L2', [rmRoot], { ...exec('rm -rf /'), mode: 'yolo' }, 'L2', ['L2 rm.root'], false, []],
  [
    'yolo never lowers an ask rule',
    [reads],
    { ...exec('git status'), mode: 'yolo', rules: [rule('exec(git status)', 'ask')] },
    'L1',
    ['L0 read.only', 'L1 permission.ask'],
    false,
    ['rule permission.ask L1'],
  ],
  [
    'an allowance lowers L1 last',
    [write],
    { ...exec('touch a'), allowances: new Set(['touch a']) },
    'L0',
    ['L0 write.file', 'L0 session.allowed'],
    true,
    ['session session.allowed L0'],
  ],
  [
    'an allowance of another key does nothing',
    [write],
    { ...exec('touch a'), allowances: new Set(['touch b']) },
    'L1',
    ['L1 write.file'],
    false,
    [],
  ],
  [
    'an allowance never silences an exact-step finding',
    [secret],
    { ...exec('cat x'), allowances: new Set(['cat x']) },
    'L1',
    ['L1 secret.read'],
    false,
    [],
  ],
  [
    'an allowance never silences a tool that always asks',
    [write],
    { ...exec('touch a'), allowances: new Set(['touch a']), alwaysConfirm: true },
    'L1',
    ['L1 write.file'],
    false,
    [],
  ],
];

describe('decide', () => {
  test.each(ROWS)('%s', (_name, findings, options, level, ids, bySession, adjustments) => {
    const v = decide(findings, options);
    expect(v.level).toBe(level);
    expect(v.findings.map((f) => `${f.level} ${f.id}`)).toEqual(ids);
    expect(v.bySession).toBe(bySession);
    expect(v.adjustments.map((a) => `${a.by} ${a.id} ${a.to}`)).toEqual(adjustments);
  });

  test('the rule offered for "don\'t ask again" is exact, and only for an L1 step about its kind', () => {
    expect(decide([write], exec('touch a.txt')).rule).toBe('exec(touch a.txt)');
    expect(decide([secret], exec('cat x')).rule).toBeUndefined();
    expect(decide([rmRoot], exec('rm -rf /')).rule).toBeUndefined();
    expect(decide([write], { ...exec('touch a'), alwaysConfirm: true }).rule).toBeUndefined();
  });

  test('no language: the verdict carries ids and params, never words', () => {
    const v = decide([write], { ...exec('touch a'), rules: [rule('exec(touch *)', 'allow')] });
    expect(v.findings.find((f) => f.id === 'permission.allow')!.params).toEqual({ r: 'exec(touch *)', f: 'ai.json' });
    expect(JSON.stringify(v)).not.toMatch(/reason|hint/);
  });

  test('the findings passed in are not changed', () => {
    const given = [write];
    decide(given, { mode: 'yolo', tool: 'exec' });
    expect(given).toEqual([write]);
    expect(write.level).toBe('L1');
  });
});
