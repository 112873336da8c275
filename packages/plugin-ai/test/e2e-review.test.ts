import { execFileSync } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { useAiFixture, type RecordedRequest, type ScriptedReply } from '@holic512/testkit';
import { findingsText, parseFindings, reviewTask } from '../src/extensions/review';
import { runAi } from './run-bin';

// `/review` (issue #46): the workspace's changes (git diff HEAD and untracked files) reviewed by a
// plan-mode child agent; its findings reach the parent by file and line. A `review` command file
// replaces it.
const fx = useAiFixture({ git: true });

type Msg = { role: string; content: string };
const messages = (r: RecordedRequest): Msg[] => r.body.messages as Msg[];
const isChild = (r: RecordedRequest): boolean =>
  messages(r).some((m) => m.role === 'system' && m.content.includes('You are a helper agent'));
const firstUser = (r: RecordedRequest): string => messages(r).find((m) => m.role === 'user')?.content ?? '';
const lastUser = (r: RecordedRequest): string =>
  messages(r)
    .filter((m) => m.role === 'user')
    .at(-1)?.content ?? '';
const chat = (message: string): ScriptedReply => ({ json: { type: 'chat', message } });
const git = (...args: string[]) => execFileSync('git', args, { cwd: fx.cwd, encoding: 'utf8' });

async function committed(files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(fx.cwd, rel)), { recursive: true });
    await fs.writeFile(path.join(fx.cwd, rel), text);
  }
  git('add', '-A');
  git('commit', '-qm', 'base');
}

test('the diff and the untracked files go to a plan-mode reviewer; its findings reach the parent by file and line', async () => {
  await committed({ 'src/calc.js': 'exports.div = (a, b) => a / b;\n', 'src/name.js': 'exports.n = 1;\n' });
  await fs.writeFile(
    path.join(fx.cwd, 'src/calc.js'),
    'exports.div = (a, b) => a / b;\nexports.avg = (xs) => xs.reduce((s, x) => s + x) / xs.length;\n',
  );
  await fs.writeFile(path.join(fx.cwd, 'notes.txt'), 'new file\n');
  fx.server.setHandler((r) => {
    if (!isChild(r)) return chat('Two findings: see above.');
    // The reviewer tries to fix things itself: plan mode refuses; then it answers.
    if (!lastUser(r).includes('tool_result'))
      return {
        json: { type: 'cmd', message: 'fix', data: { cwd: null, commands: [{ tool: 'fs.write', path: 'src/calc.js', content: 'x' }] } },
      };
    return chat(
      '- src/name.js:1: [low] the name n says nothing\n- src/calc.js:2: [high] avg of an empty list divides by zero\nAlso: no tests cover avg.',
    );
  });
  const r = await runAi(['-p', '/review numbers', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const steps = r.events.filter((e) => e.type === 'step');
  expect(steps.map((s) => s.step.tool)).toEqual(['exec', 'exec', 'exec', 'agent.run']);
  expect(steps.every((s) => s.decision.level === 'L0')).toBe(true);
  expect(steps[3].step).toMatchObject({ mode: 'plan' });
  const child = fx.server.requests.find(isChild)!;
  const task = firstUser(child);
  expect(task).toContain('Focus on: numbers');
  expect(task).toContain('+exports.avg = (xs) =>');
  expect(task).toContain('src/calc.js | 1 +');
  expect(task).toContain('- notes.txt');
  // Plan mode: the reviewer's write was refused and nothing changed.
  expect(fx.server.requests.filter(isChild).map(lastUser).join('\n')).toContain('"status":"blocked"');
  expect(await fs.readFile(path.join(fx.cwd, 'src/calc.js'), 'utf8')).toContain('exports.avg');
  const parent = fx.server.requests.find((x) => !isChild(x))!;
  const message = lastUser(parent);
  expect(message).toContain(
    'Its findings, by file and line:\n- src/calc.js:2 [high] avg of an empty list divides by zero\n- src/name.js:1 [low] the name n says nothing',
  );
  expect(message).toContain('It also said:\n  Also: no tests cover avg.');
  expect(r.events.find((e) => e.type === 'final')).toMatchObject({ outcome: 'answered', message: 'Two findings: see above.' });
});

test('with nothing changed no reviewer starts; outside a git repository /review says why and sends nothing', async () => {
  await committed({ 'a.txt': 'a\n' });
  fx.server.setHandler((r) => chat(isChild(r) ? 'should not run' : 'Nothing to review.'));
  const r = await runAi(['-p', '/review', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(fx.server.requests.filter(isChild)).toHaveLength(0);
  expect(lastUser(fx.server.requests[0])).toContain('there is nothing to review');

  const outside = path.join(fx.temp.home, 'plain');
  await fs.mkdir(outside);
  const n = fx.server.requests.length;
  const no = await runAi(['-p', '/review'], { env: fx.env, cwd: outside });
  expect(no.code).toBe(2);
  expect(no.stderr).toContain(`/review reviews the changes of a git repository; ${outside} is not in one.`);
  expect(fx.server.requests.length).toBe(n);
});

test('a review command file replaces the built-in one', async () => {
  await committed({ 'a.txt': 'a\n' });
  await fs.mkdir(path.join(fx.temp.slothtoolHome, 'commands'), { recursive: true });
  await fs.writeFile(
    path.join(fx.temp.slothtoolHome, 'commands', 'review.md'),
    '---\ndescription: my review\n---\nMY-OWN-REVIEW of $ARGUMENTS\n',
  );
  fx.server.enqueue(chat('mine'));
  const r = await runAi(['-p', '/review src', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain('built-in command');
  expect(lastUser(fx.server.requests[0])).toBe('MY-OWN-REVIEW of src');
  expect(r.events.filter((e) => e.type === 'step')).toEqual([]);
});

describe('reading the findings', () => {
  test.each<[string, object[]]>([
    ['src/a.ts:12: [high] it breaks', [{ file: 'src/a.ts', line: 12, severity: 'high', text: 'it breaks' }]],
    ['- `src/a.ts:3-5` (medium) — too long', [{ file: 'src/a.ts', line: 3, severity: 'medium', text: 'too long' }]],
    ['1. b.py:7 missing check', [{ file: 'b.py', line: 7, text: 'missing check' }]],
    ['No findings.', []],
  ])('%s', (line, findings) => expect(parseFindings(line).findings).toEqual(findings));

  test('sorted by file, then line; the rest kept as said', () => {
    const { findings, other } = parseFindings('b.ts:2: [low] x\na.ts:9: [high] y\na.ts:3: [low] z\nOverall fine.');
    expect(findingsText(findings)).toBe('- a.ts:3 [low] z\n- a.ts:9 [high] y\n- b.ts:2 [low] x');
    expect(other).toEqual(['Overall fine.']);
  });

  test("a long diff is not quoted: the reviewer is told to read each file's", () => {
    const task = reviewTask({ focus: '', stat: ' a | 2 +-', diff: 'x'.repeat(20_000), diffCut: false, untracked: [] });
    expect(task).not.toContain('xxxx');
    expect(task).toContain('The diff is too long to quote');
    expect(task.length).toBeLessThan(20_000);
  });
});
