/**
 * What a question shows: its step's own registry summary (built-ins and MCP), values redacted
 * and cut with a count, the server's hints, and a keys line made from the choices it offers.
 */
import type { McpManager } from '../src/mcp/manager';
import { mcpToolDefinition } from '../src/mcp/tools';
import { buildFrame, questionLines } from '../src/interactive/live-frame';
import { createQuestion, keyHints, reduceQuestion, type Choice } from '../src/interactive/question';
import { summaryLines } from '../src/interactive/question-summary';
import { createTheme } from '../src/interactive/theme';
import type { ConfirmRequest } from '../src/agent/runner-types';
import { stepSummary } from '../src/agent/step-label';
import type { Step } from '../src/context/protocol';
import { verdict } from './helpers/fake-runner';

const plain = createTheme(false);
const L1 = { level: 'L1' as const, rules: [] };
const V1 = verdict('L1');

function lines(step: Step, lang: 'en' | 'zh' = 'en', extra: Partial<ConfirmRequest> = {}): string[] {
  const request: ConfirmRequest = { id: 'cmd_001', step, verdict: V1, decision: L1, sessionKey: 'k', ...extra };
  const all = questionLines({ request, state: createQuestion(false), ready: true }, plain, lang);
  // the title and the summary: everything above the choices
  return all.slice(
    0,
    all.findIndex((l) => /^(❯ )?\s*1\. /.test(l)),
  );
}

describe('built-in steps: the question shows what the tool says it will do', () => {
  const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  test.each<[string, Step, string[]]>([
    [
      'exec: the command line, quoted as it runs, and its folder',
      { tool: 'exec', program: 'git', args: ['commit', '-m', 'a b'], cwd: 'sub' },
      ["Allow this L1 step?  git commit -m 'a b'", '  cwd: "sub"'],
    ],
    [
      'fs.edit: the path and the start of the old and new text',
      { tool: 'fs.edit', path: 'src/a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;\nconst b = 3;' },
      [
        'Allow this L1 step?  fs.edit src/a.ts',
        '  path: "src/a.ts"',
        '  old_string (12 chars · 1 line)',
        '  │ const a = 1;',
        '  new_string (25 chars · 2 lines)',
        '  │ const a = 2;',
        '  │ const b = 3;',
      ],
    ],
    [
      'fs.write: the path, the size and the first lines',
      { tool: 'fs.write', path: 'notes.md', content: long },
      [
        'Allow this L1 step?  fs.write notes.md',
        '  path: "notes.md"',
        '  content (311 chars · 40 lines)',
        '  │ line 1',
        '  │ line 2',
        '  │ line 3',
        '  │ line 4',
        '  │ … (+36 lines)',
      ],
    ],
    [
      'http.get: the URL and its host',
      { tool: 'http.get', url: 'https://example.com/a?b=1' },
      ['Allow this L1 step?  http.get https://example.com/a?b=1', '  url: "https://example.com/a?b=1"', '  host: "example.com"'],
    ],
    [
      'plugin.run: the plugin and its arguments',
      { tool: 'plugin.run', plugin: 'loc', args: ['./src'] },
      ['Allow this L1 step?  plugin.run loc ./src', '  plugin: "loc"', '  args: ["./src"]'],
    ],
    [
      'config.json_patch: the file and each operation',
      {
        tool: 'config.json_patch',
        file: 'tsconfig.json',
        patch: [
          { op: 'replace', path: '/compilerOptions/strict', value: true },
          { op: 'remove', path: '/x' },
          { op: 'move', from: '/a', path: '/b' },
        ],
      },
      [
        'Allow this L1 step?  config.json_patch tsconfig.json',
        '  file: "tsconfig.json"',
        '  patch (62 chars · 3 lines)',
        '  │ replace /compilerOptions/strict = true',
        '  │ remove /x',
        '  │ move /b <- /a',
      ],
    ],
    [
      'proc.start detached: the command and that it outlives the session',
      { tool: 'proc.start', program: 'npm', args: ['run', 'dev'], detach: true },
      ['Allow this L1 step?  proc.start npm run dev', '  detach: true'],
    ],
  ])('%s', (_name, step, expected) => {
    expect(lines(step)).toEqual(expected);
  });

  test('a long value is cut with a count of what was cut; a secret is masked before it is cut', () => {
    const url = `https://example.com/${'a'.repeat(1300)}`;
    const [, first] = lines({ tool: 'http.get', url });
    expect(first).toBe(`  url: "${url.slice(0, 80)}…" (+1,240 chars)`);
    const secret = `ghp_${'x'.repeat(36)}`;
    const shown = lines({ tool: 'exec', program: 'curl', args: ['-H', `Authorization: token ${secret}`, 'https://a'], cwd: secret }).join(
      '\n',
    );
    expect(shown).toContain('curl -H');
    expect(shown).toContain('[redacted github token');
    expect(shown).not.toContain(secret);
    expect(lines({ tool: 'fs.write', path: 'a.env', content: `TOKEN=${secret}\n` }).join('\n')).not.toContain(secret);
  });

  test('control characters in a file or a name are shown as escapes, never sent to the terminal', () => {
    const shown = lines({ tool: 'fs.write', path: 'a.txt', content: 'x\u001b[2Jy\u009bz\n' }).join('\n');
    expect(shown).toContain('x\\x1b[2Jy\\x9bz');
    expect(shown).not.toMatch(/[\u001b\u009b]/);
  });
});

describe('MCP steps: server, tool, arguments and the server hints', () => {
  const info = (annotations: Record<string, boolean>) => ({
    server: 'filesystem',
    name: 'write_file',
    description: 'Write a file.',
    inputSchema: { type: 'object' },
    annotations,
  });
  const manager = (tool: ReturnType<typeof info>) =>
    ({ tool: () => ({ info: tool, trusted: false }), isOff: () => false }) as unknown as McpManager;
  const registryOf = (annotations: Record<string, boolean>) => {
    const tool = info(annotations);
    const def = mcpToolDefinition(manager(tool), tool)!;
    return { get: (name: string) => (name === def.name ? def : undefined) };
  };
  const step = (args: Record<string, unknown>) => ({ tool: 'mcp.filesystem.write_file', arguments: args }) as unknown as Step;
  const content = 'abc'.repeat(500);

  test.each<['en' | 'zh', Record<string, boolean>, string[]]>([
    [
      'en',
      { destructiveHint: true, readOnlyHint: false, idempotentHint: true, openWorldHint: false },
      [
        'Allow this L1 step?  mcp.filesystem.write_file',
        '  MCP server filesystem · tool write_file',
        '  path: "/tmp/notes.txt"',
        `  content: "${content.slice(0, 80)}…" (+1,420 chars)`,
        '  mode: 420',
        '  the server says (unchecked): may change things · destructive · idempotent · closed world',
      ],
    ],
    [
      'zh',
      { readOnlyHint: true },
      [
        '允许这个 L1 步骤吗?  mcp.filesystem.write_file',
        '  MCP 服务器 filesystem · 工具 write_file',
        '  path: "/tmp/notes.txt"',
        `  content: "${content.slice(0, 80)}…" (另 1,420 个字符)`,
        '  mode: 420',
        '  服务器自称(未经核实): 只读',
      ],
    ],
    [
      'en',
      {},
      [
        'Allow this L1 step?  mcp.filesystem.write_file',
        '  MCP server filesystem · tool write_file',
        '  path: "/tmp/notes.txt"',
        `  content: "${content.slice(0, 80)}…" (+1,420 chars)`,
        '  mode: 420',
        '  the server says nothing of what this tool changes',
      ],
    ],
  ])('%s, hints %j', (lang, annotations, expected) => {
    const s = step({ path: '/tmp/notes.txt', content, mode: 420 });
    expect(lines(s, lang, { summary: stepSummary(s, registryOf(annotations)) })).toEqual(expected);
  });

  test('an argument named like a secret is masked whatever it holds; many arguments are counted', () => {
    const args: Record<string, unknown> = { api_token: 'plain-looking-value', nested: { password: 'hunter2hunter2' } };
    for (let i = 0; i < 20; i++) args[`a${i}`] = i;
    const summary = stepSummary(step(args), registryOf({}));
    const shown = summaryLines(summary, 'en');
    expect(shown.join('\n')).not.toContain('plain-looking-value');
    expect(shown.join('\n')).not.toContain('hunter2hunter2');
    expect(shown).toContain('… (+10 arguments)');
  });

  test('on a short terminal the summary gives way: the choices and the keys always fit, the rest is counted', () => {
    const args: Record<string, unknown> = {};
    for (let i = 0; i < 12; i++) args[`a${i}`] = i;
    const s = step(args);
    const request: ConfirmRequest = {
      id: 'c',
      step: s,
      verdict: V1,
      decision: L1,
      sessionKey: 'k',
      rule: 'mcp.filesystem.write_file',
      summary: stepSummary(s, registryOf({})),
    };
    const view = { columns: 60, rows: 16, preview: '', queue: [], editor: { text: '', cursor: 0 }, hints: [], status: '' };
    const frame = buildFrame({ ...view, question: { request, state: createQuestion(false, true), ready: true } }, plain, 'en');
    expect(frame.lines.length).toBeLessThanOrEqual(16);
    expect(frame.lines.at(-1)).toBe('↑/↓ Enter · 1–5 · y/a/n/p/d · Esc declines');
    expect(frame.lines).toContain('  … (+8 lines)');
    // A tall terminal shows it all.
    const tall = buildFrame({ ...view, rows: 40, question: { request, state: createQuestion(false, true), ready: true } }, plain, 'en');
    expect(tall.lines).toContain('  a11: 11');
  });

  test('without the registry that knows the tool, the question falls back to its name', () => {
    expect(stepSummary(step({ path: 'a' }))).toEqual({ title: 'mcp.filesystem.write_file', fields: [] });
  });
});

describe('the keys line names exactly the choices offered', () => {
  // Every set of choices a question can offer: (editable, rule) → its keys line.
  test.each<[boolean, boolean, string, string]>([
    [false, false, '↑/↓ Enter · 1–3 · y/a/n · Esc declines', '↑/↓ Enter · 1–3 · y/a/n · Esc 拒绝'],
    [true, false, '↑/↓ Enter · 1–4 · y/a/n/e · Esc declines', '↑/↓ Enter · 1–4 · y/a/n/e · Esc 拒绝'],
    [false, true, '↑/↓ Enter · 1–5 · y/a/n/p/d · Esc declines', '↑/↓ Enter · 1–5 · y/a/n/p/d · Esc 拒绝'],
    [true, true, '↑/↓ Enter · 1–6 · y/a/n/p/d/e · Esc declines', '↑/↓ Enter · 1–6 · y/a/n/p/d/e · Esc 拒绝'],
  ])('editable=%s rule=%s', (editable, rule, en, zh) => {
    const state = createQuestion(editable, rule);
    const request: ConfirmRequest = {
      id: 'c',
      step: { tool: 'exec', program: 'rm', args: ['x'] },
      verdict: V1,
      decision: L1,
      sessionKey: 'exec rm x',
      ...(rule ? { rule: 'exec(rm x)' } : {}),
    };
    expect(questionLines({ request, state, ready: true }, plain, 'en').at(-1)).toBe(en);
    expect(questionLines({ request, state, ready: true }, plain, 'zh').at(-1)).toBe(zh);
  });

  test.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])('editable=%s rule=%s: every key named picks its choice, and no other key does', (editable, rule) => {
    const state = createQuestion(editable, rule);
    const { n, letters } = keyHints(state.choices);
    const picked = (text: string): Choice | undefined => {
      const r = reduceQuestion(state, { kind: 'text', text }, ['rm', 'x']);
      if (r.outcome && 'choice' in r.outcome) return r.outcome.choice;
      return r.state.editing ? 'edit' : undefined;
    };
    for (let i = 1; i <= 9; i++) expect([i, picked(String(i))]).toEqual([i, i <= n ? state.choices[i - 1] : undefined]);
    const named = letters.split('/');
    expect(named.map(picked)).toEqual(state.choices);
    for (const letter of 'yandpe'.split('').filter((l) => !named.includes(l)))
      expect([letter, picked(letter)]).toEqual([letter, undefined]);
  });
});

describe('a step that will run in a weakened or missing OS sandbox says so in its question, in the screen’s language', () => {
  const npmTest: Step = { tool: 'exec', program: 'npm', args: ['test'] };
  test.each<[string, ConfirmRequest['verdict'], string, string]>([
    [
      'no seccomp filter',
      {
        ...verdict('L1', ['project.script']),
        findings: [
          { id: 'project.script', level: 'L1', params: { p: 'npm' } },
          { id: 'sandbox.degraded.seccomp', level: 'L1', params: { why: 'no filter is built for riscv64 (only x86-64 and aarch64)' } },
        ],
      },
      '  ⚠ it runs in a weakened sandbox: no seccomp filter (no filter is built for riscv64 (only x86-64 and aarch64)); it may mount, make namespaces or attach to processes where the kernel lets it',
      '被削弱的沙箱中运行：没有 seccomp 过滤器',
    ],
    [
      'capabilities kept',
      {
        ...verdict('L1'),
        findings: [{ id: 'sandbox.degraded.capabilities', level: 'L1', params: { why: 'bubblewrap refused --cap-drop' } }],
      },
      '  ⚠ it runs in a weakened sandbox: the step keeps capabilities (bubblewrap refused --cap-drop); run as root it could undo the sandbox’s mounts',
      '步骤仍保有能力',
    ],
    [
      'no sandbox at all',
      { ...verdict('L1'), findings: [{ id: 'sandbox.unsandboxed', level: 'L1', params: { why: 'bubblewrap (bwrap) is not installed' } }] },
      '  ⚠ it runs without the OS sandbox (bubblewrap (bwrap) is not installed): what it can do is bounded only by your answer',
      '操作系统沙箱之外运行',
    ],
  ])('%s', (_what, v, en, zh) => {
    expect(lines(npmTest, 'en', { verdict: v })).toContain(en);
    expect(lines(npmTest, 'zh', { verdict: v }).join('\n')).toContain(zh);
  });
  test('a whole sandbox: no such line', () => {
    expect(lines(npmTest, 'en').join('\n')).not.toContain('⚠');
  });
});
