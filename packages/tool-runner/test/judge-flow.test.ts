import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as i18n from '../src/i18n';
import * as permissionRules from '../src/permission-rules';
import * as assessMod from '../src/policy/assess';
import * as classifyMod from '../src/policy/classify';
import * as decideMod from '../src/policy/decide';
import * as renderMod from '../src/policy/render';
import * as runnerJudge from '../src/runner-judge';
import { createToolRunner, type Step } from '../src';

// One direction: a judged step enters each policy file once, in the order assess → decide →
// render, and never goes back. A recording stub around every function the judgement files export
// writes the file entered and left; the trace of a judged step is then read as the sequence of
// files the stack moves through (calls inside one file are not entries).

type Event = { file: string; fn: string; depth: number };
let trace: Event[] = [];
let depth = 0;

function record(mod: object, file: string): void {
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value !== 'function' || /^[A-Z]/.test(name)) continue;
    const original = value as (...a: unknown[]) => unknown;
    jest.spyOn(mod as Record<string, (...a: unknown[]) => unknown>, name).mockImplementation((...args: unknown[]) => {
      trace.push({ file, fn: name, depth: depth++ });
      try {
        return original(...args);
      } finally {
        depth--;
      }
    });
  }
}

let ws: string;
beforeAll(() => {
  record(runnerJudge, 'runner-judge');
  record(classifyMod, 'policy/classify');
  record(assessMod, 'policy/assess');
  record(decideMod, 'policy/decide');
  record(renderMod, 'policy/render');
  record(permissionRules, 'permission-rules');
  record(i18n, 'i18n');
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'flow-')));
});
afterAll(() => {
  jest.restoreAllMocks();
  fs.rmSync(ws, { recursive: true, force: true });
});

/**
 * The files the judgement moves through, indented by depth: a call from a file to itself is no
 * entry, and calls one after another from the same caller into the same file (render asking
 * i18n for each rule's words) are one visit.
 */
function entries(events: Event[]): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const e of events) {
    stack.length = e.depth;
    const line = `${'  '.repeat(stack.filter((f, i) => f !== stack[i - 1]).length)}${e.file}`;
    if (stack[stack.length - 1] !== e.file && out[out.length - 1] !== line) out.push(line);
    stack.push(e.file);
  }
  return out;
}

const STEPS: Array<[string, Step]> = [
  ['an L1 command under an allow rule and the mode', { tool: 'exec', program: 'touch', args: ['a.txt'] }],
  ['a denied command', { tool: 'exec', program: 'git', args: ['push', 'origin', 'main'] }],
  ['a read', { tool: 'fs.read', path: 'a.txt' }],
];

test.each(STEPS)('%s: judgeValid → assess → decide (→ permission-rules) → render (→ i18n), each once', (_name, step) => {
  const runner = createToolRunner({
    cwd: ws,
    lang: 'en',
    sandbox: 'off',
    policy: { permissions: { allow: ['exec(touch *)'], deny: ['exec(git push *)'], ask: ['fs.read(secret/**)'] } },
    confirm: () => ({ action: 'decline' }),
  });
  runner.setMode('auto-edit');
  trace = [];
  runner.judge(step);
  const seen = entries(trace);
  expect(seen).toEqual([
    'runner-judge',
    '  policy/assess',
    '  policy/decide',
    '    permission-rules',
    '  policy/render',
    '    i18n',
  ]);
  // Each file once: the trace never returns to a file it left.
  const files = seen.map((s) => s.trim());
  expect(new Set(files).size).toBe(files.length);
});

test('classify() runs the same three stages in the same order', () => {
  trace = [];
  classifyMod.classify({ tool: 'exec', program: 'curl', args: ['https://example.com'] }, { allowNetwork: true }, { lang: 'zh' });
  expect(entries(trace)).toEqual(['policy/classify', '  policy/assess', '  policy/decide', '  policy/render', '    i18n']);
});
