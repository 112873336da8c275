import * as os from 'os';
import { createToolRunner, type Step } from '../src';
import { finding, type Finding } from '../src/policy/finding';
import { render } from '../src/policy/render';
import type { Level } from '../src/types';

// render(verdict, lang) → Decision: the one place a verdict gets words. Each row: the verdict's
// level and findings, then the rendered rules (`level id`) and one reason in zh and in en.

const write = finding('write.file', 'L1', { p: 'touch' }, { cat: ['write'] });
const reads = finding('read.only', 'L0', { p: 'ls' });
const lowered = finding('policy.lowered', 'L0', { setting: 'allowWrite' });
const invalid = finding('step.invalid', 'L2', { e: 'program: expected a string' });

type Row = [string, Level, Finding[], string[], string, string];

const ROWS: Row[] = [
  ['a read-only step', 'L0', [reads], ['L0 read.only'], '`ls` 只读取，不修改任何东西', '`ls` only reads; it changes nothing'],
  [
    'above L0, "only reads" is left out',
    'L1',
    [reads, write],
    ['L1 write.file'],
    '`touch` 会创建、修改或删除文件',
    '`touch` creates, changes or removes files',
  ],
  [
    'but why something was let through stays',
    'L1',
    [write, { ...write, level: 'L0' }, lowered],
    ['L1 write.file', 'L0 policy.lowered'],
    '`touch` 会创建、修改或删除文件',
    '`touch` creates, changes or removes files',
  ],
  [
    'strictest first, duplicates dropped',
    'L2',
    [write, invalid, write],
    ['L2 step.invalid', 'L1 write.file'],
    '步骤格式不正确：program: expected a string',
    'the step is malformed: program: expected a string',
  ],
];

test.each(ROWS)('%s', (_name, level, findings, rules, zh, en) => {
  for (const [lang, first] of [
    ['zh', zh],
    ['en', en],
  ] as const) {
    const d = render({ level, findings }, lang);
    expect(d.level).toBe(level);
    expect(d.rules.map((r) => `${r.level} ${r.id}`)).toEqual(rules);
    expect(d.rules[0].reason).toBe(first);
  }
});

test('hints only for the findings that are not L0', () => {
  const sudo = finding('escalation', 'L2', { p: 'sudo' });
  const [rule] = render({ level: 'L2', findings: [sudo] }, 'en').rules;
  expect(rule.hint).toMatch(/allowSudo/);
  expect(render({ level: 'L0', findings: [{ ...sudo, level: 'L0' }] }, 'en').rules[0].hint).toBeUndefined();
});

test('reasons quote arguments: render gives the words, the runner redacts what it hands on', () => {
  const key = 'sk-abcdefghijklmnopqrstuvwxyz0123456789';
  const rendered = render({ level: 'L0', findings: [finding('fs.read', 'L0', { f: `${key}.txt` })] }, 'en');
  expect(rendered.rules[0].reason).toContain(key);
  const runner = createToolRunner({ cwd: os.tmpdir(), lang: 'en', sandbox: 'off', confirm: () => ({ action: 'decline' }) });
  const d = runner.judge({ tool: 'fs.read', path: `${key}.txt` } as Step);
  expect(d.rules.map((r) => r.id)).toEqual(['fs.read']);
  expect(JSON.stringify(d)).not.toContain(key);
});

test('an unknown message id is rendered as the id (never a crash)', () => {
  expect(render({ level: 'L1', findings: [finding('rules.new_one', 'L1')] }, 'zh').rules).toEqual([
    { id: 'rules.new_one', level: 'L1', reason: 'rules.new_one' },
  ]);
});
