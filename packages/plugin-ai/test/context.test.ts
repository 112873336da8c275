import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ConversationContext, type WindowMessage } from '../src/context/context';
import { compactToolResult, fitToolResult } from '../src/context/fit';
import { eventMessage, toolMessage, userMessage } from '../src/context/messages';
import { capSummary, renderSummary, ruleBasedSummary } from '../src/context/summary';
import type { ToolResult } from '../src/agent/runner-types';
import { SessionStore, newSessionId } from '../src/sessions/sessions';
import { estimateMessagesTokens, estimateTokens } from '../src/context/tokens';
import { config } from './helpers/agent-setup';

const big = (n: number): ToolResult => ({
  _event: 'tool_result',
  id: 'cmd_001',
  tool: 'exec',
  program: 'cat',
  args: ['x'],
  exitCode: 0,
  stdoutTail: '日志'.repeat(n) + 'END',
  stderrTail: 'warn '.repeat(n),
  truncated: false,
  parsed: { kind: 'file_list', total: n, items: Array.from({ length: n }, (_, i) => `item ${i}`) },
  decision: { level: 'L0', by: 'policy', rules: [{ id: 'read.only', level: 'L0', reason: 'reads' }] },
});

test.each([50, 200, 400, 1000])('fitToolResult keeps valid JSON within %d tokens, tail kept', (max) => {
  const text = fitToolResult(big(5000), max);
  expect(estimateTokens(text)).toBeLessThanOrEqual(max);
  if (max >= 200) {
    const parsed = JSON.parse(text);
    expect(parsed).toMatchObject({ id: 'cmd_001', exitCode: 0, truncated: true });
    expect(parsed.stdoutTail.endsWith('END')).toBe(true);
  }
});

test('a result whose strings alone are over the budget is cut without being serialised whole, and one that fits is kept whole', () => {
  const r = big(20000);
  const stringify = jest.spyOn(JSON, 'stringify');
  try {
    const text = fitToolResult(r, 400);
    expect(stringify.mock.calls.some(([value]) => value === r)).toBe(false);
    expect(estimateTokens(text)).toBeLessThanOrEqual(400);
    expect(JSON.parse(text).stdoutTail.endsWith('END')).toBe(true);
    // A result that fits is kept whole, as before.
    const small = { ...big(10), stdoutTail: 'a'.repeat(390), stderrTail: '' } as ToolResult;
    expect(fitToolResult(small, 400)).toBe(JSON.stringify(small));
  } finally {
    stringify.mockRestore();
  }
});

test.each([
  [
    'fs.grep',
    'matches',
    (i: number) => ({ file: `src/f${i}.ts`, line: i + 1, text: `const value${i} = compute(${i}); // ${'x'.repeat(80)}` }),
  ],
  ['fs.glob', 'files', (i: number) => `packages/p${i}/src/some/deep/folder/file${i}.ts`],
  ['web.search', 'results', (i: number) => ({ title: `Result ${i}`, url: `https://example.com/${i}`, snippet: 'words '.repeat(40) })],
] as const)('a %s result over the budget keeps its first %s whole, says how many, stays valid JSON', (tool, key, item) => {
  const result = {
    _event: 'tool_result',
    id: 'cmd_002',
    tool,
    [key]: Array.from({ length: 300 }, (_, i) => item(i)),
    total: 300,
    decision: { level: 'L0', by: 'policy', rules: [] },
  } as unknown as ToolResult;
  const text = fitToolResult(result, 1200);
  expect(estimateTokens(text)).toBeLessThanOrEqual(1200);
  const parsed = JSON.parse(text);
  const list = parsed[key] as unknown[];
  expect(list.length).toBeGreaterThan(3);
  expect(list.length).toBeLessThan(300);
  expect(list).toEqual((result as unknown as Record<string, unknown[]>)[key].slice(0, list.length));
  expect(parsed.note).toContain(`${list.length} of 300 ${key} shown`);
  expect(parsed).toMatchObject({ total: 300, truncated: true });
});

test.each([
  [
    { tool: 'fs.grep', pattern: 'applyDiscount', path: 'src', summary: '1 matching line in 1 file (rg)' },
    'fs.grep applyDiscount in src',
    '1 matching line',
  ],
  [{ tool: 'fs.glob', pattern: '**/*.test.js', path: '.', summary: '2 files' }, 'fs.glob **/*.test.js in .', '2 files'],
  [{ tool: 'web.search', query: 'zod unions', summary: 'searxng: 3 results' }, 'web.search zod unions', 'searxng: 3 results'],
])('the compact form of a %j result names what was looked for', (fields, step, out) => {
  const compact = JSON.parse(
    compactToolResult({
      _event: 'tool_result',
      id: 'cmd_003',
      decision: { level: 'L0', by: 'policy', rules: [] },
      ...fields,
    } as unknown as ToolResult),
  );
  expect(compact).toMatchObject({ step, level: 'L0' });
  expect(compact.out).toContain(out);
});

test('a small result is passed through unchanged', () => {
  const r = big(2);
  expect(JSON.parse(fitToolResult(r, 1000))).toEqual(r);
});

test('a request past the whole budget (an oversized system prompt or input) is cut: the input first, then the system prompt', () => {
  const budgets = { ...config().context, maxRequestTokens: 3000 };
  const ctx = new ConversationContext('SYSTEM '.repeat(4000), budgets);
  for (let i = 0; i < 3; i++) ctx.append([userMessage('问题'.repeat(100), 3000, 2000), toolMessage(big(300), 300)]);
  const messages = ctx.request([eventMessage('x'.repeat(100000))]);
  expect(estimateMessagesTokens(messages)).toBeLessThanOrEqual(3000);
  expect(messages[0].content.startsWith('SYSTEM')).toBe(true);
  expect(messages.at(-1)!.role).toBe('user');
});

test('rule-based summary keeps the previous one, lists folded turns, stays capped', () => {
  const folded: WindowMessage[] = [
    { role: 'user', kind: 'user', content: 'find the bug' },
    { role: 'assistant', kind: 'assistant', content: JSON.stringify({ type: 'cmd', message: 'search', ran: ['rg bug'] }) },
    { role: 'user', kind: 'tool', content: JSON.stringify({ _event: 'tool_result', id: 'cmd_001', step: 'rg bug', exitCode: 0 }) },
  ];
  const s = ruleBasedSummary({ summary: 'earlier stuff', keyFacts: ['k'], openTasks: ['t'] }, folded, 600);
  expect(s.summary).toBe('earlier stuff\nuser: find the bug\nassistant cmd: search (ran: rg bug)\nresult rg bug: exit 0');
  expect(s).toMatchObject({ keyFacts: ['k'], openTasks: ['t'] });
  const long = ruleBasedSummary({ summary: 'x'.repeat(100000), keyFacts: [], openTasks: [] }, folded, 300);
  expect(estimateTokens(long.summary)).toBeLessThanOrEqual(300);
});

test('capSummary fits the rendered summary', () => {
  const s = capSummary(
    { summary: '长'.repeat(5000), keyFacts: Array(40).fill('a fact '.repeat(30)), openTasks: Array(20).fill('task') },
    400,
  );
  expect(estimateTokens(renderSummary(s))).toBeLessThanOrEqual(400);
});

test('SessionStore skips invalid lines and lists newest first', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-store-'));
  const store = new SessionStore(dir);
  store.append('a', { t: 'meta', v: 1, id: 'a', cwd: '/x', createdAt: '2026-01-01T00:00:00.000Z' });
  store.append('a', { t: 'user', at: '2026-01-01T00:00:01.000Z', content: 'first question' });
  fs.appendFileSync(store.fileOf('a'), '{broken\n{"t":"user"}\n');
  store.append('b', { t: 'meta', v: 1, id: 'b', cwd: '/y', createdAt: '2026-01-02T00:00:00.000Z' });
  expect(store.read('a')).toMatchObject({ skipped: 2 });
  expect(store.list().map((s) => [s.id, s.title])).toEqual([
    ['b', ''],
    ['a', 'first question'],
  ]);
  expect(store.lastFor('/x')?.id).toBe('a');
  expect(store.lastFor('/z')).toBeUndefined();
  expect(() => store.fileOf('../etc/passwd')).toThrow();
  expect(newSessionId(new Date('2026-11-22T05:30:12Z'), () => 0.5)).toBe('20261122-053012-7fffff');
  fs.rmSync(dir, { recursive: true });
});

test('the markdown renderer renders inline markdown in list items too, and strips colour when off', () => {
  const { createMarkdownRenderer } = require('../src/interactive/markdown') as typeof import('../src/interactive/markdown');
  const plain = createMarkdownRenderer({ color: false, width: 80 })(
    '# Title\n\n- item with **bold** and `code`\n  1. nested *em*\n\nPara **x**.',
  );
  expect(plain).not.toMatch(/\x1b\[/);
  expect(plain).toContain('item with bold and code');
  expect(plain).toContain('nested em');
  expect(plain).not.toMatch(/\*\*|`|\*em\*/);
  // colour follows our decision, not chalk's guess about the environment (jest has no TTY)
  const coloured = createMarkdownRenderer({ color: true, width: 80 })('- item with **bold**');
  expect(coloured).toContain('\x1b[1mbold\x1b[22m');
});

test('SessionStore.list reads only the head and tail of long sessions', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-store-'));
  const store = new SessionStore(dir);
  store.append('long', { t: 'meta', v: 1, id: 'long', cwd: '/x', createdAt: '2026-01-01T00:00:00.000Z' });
  store.append('long', { t: 'user', at: '2026-01-01T00:00:01.000Z', content: 'hello' });
  for (let i = 0; i < 200; i++) store.append('long', { t: 'assistant', at: '2026-01-01T00:00:02.000Z', content: 'x'.repeat(1000) });
  store.append('long', { t: 'user', at: '2026-03-01T00:00:00.000Z', content: 'last' });
  store.append('short', { t: 'meta', v: 1, id: 'short', cwd: '/x', createdAt: '2026-02-01T00:00:00.000Z' });
  expect(store.list().map((s) => [s.id, s.title, s.updatedAt])).toEqual([
    ['long', 'hello', '2026-03-01T00:00:00.000Z'],
    ['short', '', '2026-02-01T00:00:00.000Z'],
  ]);
  fs.rmSync(dir, { recursive: true });
});
