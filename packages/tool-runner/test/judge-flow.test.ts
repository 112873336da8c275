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
import * as renderVerdictMod from '../src/render-verdict';
import { createToolRunner, renderVerdict, type ConfirmRequest, type Step } from '../src';

// One direction: a judged step enters each policy file once, in the order assess → decide, and
// never goes back; nothing is rendered while judging. render runs afterwards, called by the edge
// that shows the verdict (renderVerdict: judge(), the question, the tool_result), in that edge's
// language. A recording stub around every function the judgement files export writes the file
// entered and left; the trace of a judged step is then read as the sequence of files the stack
// moves through (calls inside one file are not entries).

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
  record(renderVerdictMod, 'render-verdict');
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

const RULES = { permissions: { allow: ['exec(touch *)'], deny: ['exec(git push *)'], ask: ['fs.read(secret/**)'] } };

function autoEditRunner(lang: 'zh' | 'en', confirm: (r: ConfirmRequest) => { action: 'decline' } = () => ({ action: 'decline' })) {
  const runner = createToolRunner({ cwd: ws, lang, sandbox: 'off', policy: RULES, confirm });
  runner.setMode('auto-edit');
  return runner;
}

const JUDGEMENT = ['runner-judge', '  policy/assess', '  policy/decide', '    permission-rules'];

test.each(STEPS)(
  '%s: the judgement is judgeValid → assess → decide (→ permission-rules), each once, and renders nothing',
  (_name, step) => {
    const runner = autoEditRunner('en');
    trace = [];
    const verdict = runner.verdict(step);
    const seen = entries(trace);
    expect(seen).toEqual(JUDGEMENT);
    // Each file once: the trace never returns to a file it left; render and i18n are never entered.
    const files = seen.map((s) => s.trim());
    expect(new Set(files).size).toBe(files.length);
    expect(trace.some((e) => e.file === 'policy/render' || e.file === 'i18n')).toBe(false);
    // The verdict has no language: ids, levels and params, no words.
    expect(JSON.stringify(verdict)).not.toMatch(/"reason"|"hint"/);
  },
);

test.each(STEPS)('%s: judge() renders once, after the judgement, at its edge (render-verdict → render → i18n)', (_name, step) => {
  const runner = autoEditRunner('en');
  trace = [];
  runner.judge(step);
  expect(entries(trace)).toEqual([...JUDGEMENT, 'render-verdict', '  policy/render', '    i18n']);
  // render is never called from inside the judgement: no render event sits under runner-judge.
  expect(trace.filter((e) => e.file === 'policy/render').every((e) => e.depth === 1)).toBe(true);
});

test('run(): the judgement renders nothing; the question and the tool_result each render at their edge', async () => {
  const runner = autoEditRunner('en');
  trace = [];
  // touch under an allow rule is L0 here; a read of secret/ asks (an ask rule): judged once, then rendered for the question and the result.
  const result = await runner.run({ tool: 'fs.read', path: 'secret/a.txt' });
  expect(result.decision.rules.map((r) => r.id)).toContain('permission.ask');
  const judged = trace.filter((e) => e.file === 'runner-judge');
  expect(judged.map((e) => e.fn)).toEqual(['judgeValid']);
  // Who called each render: the files on the stack when it was entered.
  const callers: string[][] = [];
  const stack: string[] = [];
  for (const e of trace) {
    stack.length = e.depth;
    if (e.file === 'policy/render') callers.push([...stack]);
    stack.push(e.file);
  }
  expect(callers.length).toBeGreaterThan(0);
  for (const c of callers) expect(c).toEqual(['render-verdict']);
  expect(trace.filter((e) => e.file === 'policy/assess').length).toBe(1);
  expect(trace.filter((e) => e.file === 'policy/decide').length).toBe(1);
});

test("one step, one verdict: zh at the tool_result (the runner's language), en at the question, in one process", async () => {
  fs.mkdirSync(path.join(ws, 'secret'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'secret', 'b.txt'), 'x');
  const shown: Array<{ en: string[]; decision: string[] }> = [];
  const runner = autoEditRunner('zh', (request) => {
    // The question's edge speaks English: it renders the language-free verdict itself.
    shown.push({
      en: renderVerdict(request.verdict, 'en').rules.map((r) => r.reason),
      decision: request.decision.rules.map((r) => r.reason),
    });
    return { action: 'decline' };
  });
  const result = await runner.run({ tool: 'fs.read', path: 'secret/b.txt' });
  expect(shown).toHaveLength(1);
  const ask = (reasons: string[]) => reasons.find((r) => r.includes('fs.read(secret/**)'));
  expect(ask(shown[0].en)).toMatch(/^[\x20-\x7e]+$/);
  expect(ask(shown[0].decision)).toMatch(/[\u4e00-\u9fff]/);
  // The model's tool_result: the runner's language, the same ids and levels as the English question.
  const zh = result.decision.rules;
  expect(ask(zh.map((r) => r.reason))).toMatch(/[\u4e00-\u9fff]/);
  const verdict = runner.verdict({ tool: 'fs.read', path: 'secret/b.txt' });
  const en = renderVerdict(verdict, 'en').rules;
  expect(en.map((r) => [r.id, r.level])).toEqual(zh.map((r) => [r.id, r.level]));
  expect(en.map((r) => r.reason)).not.toEqual(zh.map((r) => r.reason));
});

test('classify() runs the same three stages in the same order', () => {
  trace = [];
  classifyMod.classify({ tool: 'exec', program: 'curl', args: ['https://example.com'] }, { allowNetwork: true }, { lang: 'zh' });
  expect(entries(trace)).toEqual(['policy/classify', '  policy/assess', '  policy/decide', '  policy/render', '    i18n']);
});
