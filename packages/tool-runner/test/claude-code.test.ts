import { promises as fsp } from 'fs';
import * as path from 'path';
import { z } from 'zod';
import {
  builtinRegistry,
  claudeRuleArgument,
  claudeToolFields,
  createToolRegistry,
  knownNames,
  RequiresSchema,
  shellLine,
  splitCommandLine,
  stepFromClaude,
  toolsNamed,
  type AnyToolDefinition,
  type ToolDefinition,
} from '../src';
import { finding } from '../src/policy/finding';
import { tempWorld, testCtx, testSession } from './tools-session';

// Claude Code's names and fields for our tools are declared by each tool's own definition
// (ToolDefinition.claude); these tables say what a Claude Code hook, rule or command sees.
const defs = builtinRegistry().tools;
const def = (name: string) => builtinRegistry().get(name)!;
const ctx = { cwd: '/w/proj', home: '/home/u', slothtoolHome: '/st' };

describe("each built-in tool's Claude Code form", () => {
  test.each([
    ['exec', ['Bash']],
    ['proc.start', ['Bash']],
    ['proc.status', ['BashOutput']],
    ['proc.kill', ['KillShell', 'KillBash']],
    ['fs.read', ['Read']],
    ['fs.edit', ['Edit', 'MultiEdit']],
    ['fs.write', ['Write']],
    ['fs.glob', ['Glob']],
    ['fs.grep', ['Grep']],
    ['http.get', ['WebFetch']],
    ['web.search', ['WebSearch']],
    ['plugin.run', []],
    ['config.json_patch', []],
    ['plan.update', ['TodoWrite']],
  ])('%s is known as %j', (tool, names) => expect(knownNames(def(tool))).toEqual([tool, ...names]));

  test.each([
    [
      { tool: 'exec', program: 'git', args: ['commit', '-m', "it's done"], timeoutMs: 5000 },
      'Bash',
      { command: `git commit -m 'it'\\''s done'`, timeout: 5000 },
    ],
    [{ tool: 'exec', program: 'rm', args: ['-rf', '/tmp/x y'], cwd: 'sub' }, 'Bash', { command: "rm -rf '/tmp/x y'" }],
    [{ tool: 'proc.start', program: 'npm', args: ['run', 'dev'] }, 'Bash', { command: 'npm run dev', run_in_background: true }],
    [{ tool: 'proc.status', proc_id: 'proc_1', wait_ms: 10 }, 'BashOutput', { bash_id: 'proc_1' }],
    [{ tool: 'fs.read', path: 'src/a.ts', offset: 10, limit: 5 }, 'Read', { file_path: '/w/proj/src/a.ts', offset: 10, limit: 5 }],
    [{ tool: 'fs.read', path: '~/.env' }, 'Read', { file_path: '/home/u/.env' }],
    [{ tool: 'fs.read', path: '../up/.env' }, 'Read', { file_path: '/w/up/.env' }],
    [
      { tool: 'fs.edit', path: 'a.ts', old_string: 'a', new_string: 'b', replace_all: true },
      'Edit',
      { file_path: '/w/proj/a.ts', old_string: 'a', new_string: 'b', replace_all: true },
    ],
    [{ tool: 'fs.write', path: '/abs/.env', content: 'K=v' }, 'Write', { file_path: '/abs/.env', content: 'K=v' }],
    [{ tool: 'fs.glob', pattern: '**/*.ts', path: 'src' }, 'Glob', { pattern: '**/*.ts', path: '/w/proj/src' }],
    [{ tool: 'fs.glob', pattern: '*.md' }, 'Glob', { pattern: '*.md' }],
    [
      { tool: 'fs.grep', pattern: 'TODO', glob: '*.ts', ignoreCase: true, context: 2, maxResults: 9 },
      'Grep',
      { pattern: 'TODO', glob: '*.ts', output_mode: 'content', '-i': true, '-n': true, '-C': 2, head_limit: 9 },
    ],
    [{ tool: 'http.get', url: 'https://x.dev/a' }, 'WebFetch', { url: 'https://x.dev/a', prompt: '' }],
    [{ tool: 'web.search', query: 'zod v4', maxResults: 3 }, 'WebSearch', { query: 'zod v4' }],
    [{ tool: 'plugin.run', plugin: 'loc', args: ['.'] }, 'plugin.run', { plugin: 'loc', args: ['.'] }],
  ])('%j → %s %j', (step, toolName, toolInput) => {
    expect(claudeToolFields(def(step.tool), step, ctx)).toEqual({ tool_name: toolName, tool_input: toolInput });
  });

  test('a Bash command line reads back as the same words (what a guard matches is what runs)', () => {
    for (const args of [
      ['-la', 'src'],
      ['--format=%h %s', '-n', '3'],
      ['a "b"', 'c d', "it's", '$HOME', '`id`', 'x;y', ''],
      ['line one\nline two', 'tab\there', '~/x', '#not-a-comment', 'naïve ☃'],
    ]) {
      expect(splitCommandLine(shellLine('git', args))).toEqual({ words: ['git', ...args] });
    }
  });

  test.each([
    'ls | wc -l',
    'make && make test',
    'echo $HOME',
    'cat `which x`',
    'ls *.md',
    'cat < f',
    'a; b',
    'echo "$(id)"',
    'cd ~',
    "echo 'open",
    '',
    '# comment',
  ])('splitCommandLine(%j) needs a shell (or is empty)', (line) => {
    expect(splitCommandLine(line)).toHaveProperty('error');
  });

  test.each([
    [
      'Bash',
      { command: 'git log --oneline -n 3', timeout: 2000 },
      { tool: 'exec', program: 'git', args: ['log', '--oneline', '-n', '3'], timeoutMs: 2000 },
    ],
    ['Bash', { command: 'npm run dev', run_in_background: true }, { tool: 'proc.start', program: 'npm', args: ['run', 'dev'] }],
    ['Read', { file_path: '/w/a.md', offset: 3 }, { tool: 'fs.read', path: '/w/a.md', offset: 3 }],
    ['Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }, { tool: 'fs.edit', path: 'a.ts', old_string: 'x', new_string: 'y' }],
    [
      'MultiEdit',
      { file_path: 'a.ts', edits: [{ old_string: 'x', new_string: 'y', replace_all: true }] },
      { tool: 'fs.edit', path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: true },
    ],
    ['Write', { file_path: 'n.md', content: 'hi' }, { tool: 'fs.write', path: 'n.md', content: 'hi' }],
    ['Grep', { pattern: 'x', '-i': true, head_limit: 4 }, { tool: 'fs.grep', pattern: 'x', ignoreCase: true, maxResults: 4 }],
    ['WebFetch', { url: 'https://a.b', prompt: 'summarise' }, { tool: 'http.get', url: 'https://a.b' }],
    ['KillBash', { shell_id: 'proc_2' }, { tool: 'proc.kill', proc_id: 'proc_2' }],
  ])('Claude Code %s %j is the step %j', (name, input, step) => {
    expect(stepFromClaude(name, input, defs)).toEqual({ step });
  });

  test.each([
    ['Bash', { command: 'ls | wc -l' }, 'it needs a shell ("|")'],
    ['Bash', { command: 42 }, 'command must be a string'],
    [
      'MultiEdit',
      {
        file_path: 'a',
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c', new_string: 4 },
        ],
      },
      'edits[1].new_string must be a string',
    ],
    ['NotebookEdit', { notebook_path: 'x.ipynb' }, 'no counterpart here'],
  ])('Claude Code %s %j is refused: %s', (name, input, why) => {
    expect(stepFromClaude(name, input, defs)).toEqual({ error: expect.stringContaining(why) });
  });

  test.each([
    ['words', 'npm run test:*', { arg: 'npm run test *' }],
    ['words', 'git diff', { arg: 'git diff' }],
    ['path', './src/**', { arg: 'src/**' }],
    ['path', '/docs/*.md', { arg: 'docs/*.md' }],
    ['path', '.env', { arg: '.env' }],
    ['path', '~/.zshrc', { skip: expect.any(String) }],
    ['path', '//etc/passwd', { skip: expect.any(String) }],
    ['domain', 'domain:docs.anthropic.com', { arg: 'domain:docs.anthropic.com' }],
    ['domain', 'https://x.y', { skip: expect.any(String) }],
    ['name', 'Explore', { arg: 'Explore' }],
  ] as const)('a %s rule argument %j → %j', (kind, arg, out) => expect(claudeRuleArgument(kind, arg)).toEqual(out));
});

describe('responses in Claude Code shape, from real results', () => {
  let world: Awaited<ReturnType<typeof tempWorld>>;
  beforeEach(async () => {
    world = await tempWorld();
  });
  afterEach(() => world.cleanup());

  test('Read, Write, Edit, Glob, Grep', async () => {
    const s = testSession(world.ws, world.home);
    const at = { cwd: world.ws, home: world.home };
    const run = async (step: Record<string, unknown>) => {
      const d = def(String(step.tool));
      const { tool: _t, ...input } = step;
      const r = (await d.execute(input, testCtx(s, { deps: { now: () => Date.now() } as never }))) as unknown as Record<string, unknown>;
      return d.claude!.response!(input, r, at);
    };
    expect(await run({ tool: 'fs.write', path: 'src/a.ts', content: 'one\ntwo\nthree\n' })).toEqual({
      type: 'create',
      filePath: path.join(world.ws, 'src/a.ts'),
      content: 'one\ntwo\nthree\n',
    });
    expect(await run({ tool: 'fs.read', path: 'src/a.ts', offset: 2, limit: 1 })).toEqual({
      type: 'text',
      file: { filePath: path.join(world.ws, 'src/a.ts'), content: 'two', numLines: 1, startLine: 2, totalLines: expect.any(Number) },
    });
    expect(await run({ tool: 'fs.edit', path: 'src/a.ts', old_string: 'two', new_string: '2' })).toEqual({
      filePath: path.join(world.ws, 'src/a.ts'),
      oldString: 'two',
      newString: '2',
      replaceAll: false,
      userModified: false,
    });
    expect(await fsp.readFile(path.join(world.ws, 'src/a.ts'), 'utf8')).toBe('one\n2\nthree\n');
    expect(await run({ tool: 'fs.glob', pattern: '**/*.ts' })).toEqual({
      filenames: [path.join(world.ws, 'src/a.ts')],
      numFiles: 1,
      truncated: false,
    });
    expect(await run({ tool: 'fs.grep', pattern: 'thr' })).toEqual({
      mode: 'content',
      numFiles: 1,
      filenames: [path.join(world.ws, 'src/a.ts')],
      content: `${path.join(world.ws, 'src/a.ts')}:3:three`,
      numLines: 1,
    });
  });

  test('Bash, WebFetch and WebSearch from their results', () => {
    expect(def('exec').claude!.response!({ program: 'ls' }, { exitCode: 0, stdoutTail: 'a\n', stderrTail: '' }, ctx)).toEqual({
      stdout: 'a\n',
      stderr: '',
      interrupted: false,
      isImage: false,
    });
    expect(
      def('exec').claude!.response!({ program: 'sleep' }, { exitCode: null, timedOut: true, stdoutTail: '', stderrTail: '' }, ctx),
    ).toMatchObject({ interrupted: true });
    expect(def('http.get').claude!.response!({ url: 'https://a.b' }, { httpStatus: 404, content: 'nope' }, ctx)).toEqual({
      url: 'https://a.b',
      code: 404,
      codeText: 'Not Found',
      result: 'nope',
      bytes: 4,
    });
    expect(
      def('web.search').claude!.response!({ query: 'q' }, { id: 'cmd_1', results: [{ title: 't', url: 'https://u', snippet: 's' }] }, ctx),
    ).toEqual({ query: 'q', results: [{ tool_use_id: 'cmd_1', content: [{ title: 't', url: 'https://u' }] }] });
  });
});

describe('a tool that declares a Claude Code name is found by it, and nothing else is needed', () => {
  // A sibling plugin's tool that declares a Claude Code name (NotebookEdit, which no built-in answers to).
  interface PlanStep {
    items: Array<{ text: string; done: boolean }>;
  }
  const planUpdate: ToolDefinition<PlanStep> = {
    name: 'notebook.edit',
    description: { en: 'Update the plan.', zh: '更新计划。' },
    input: z.object({ items: z.array(z.object({ text: z.string(), done: z.boolean() })), requires: RequiresSchema }),
    example: { items: [] },
    permission: { arg: 'name', subject: () => ({ kind: 'none' }) },
    assess: () => ({ findings: [finding('read.only', 'L0', { p: 'plan' })], touches: { read: [], write: [], network: [], exec: [] } }),
    approvalKey: () => 'notebook.edit',
    digest: (s) => `plan (${s.items.length})`,
    execute: async () => ({ _event: 'tool_result', id: 'x', decision: { level: 'L0', by: 'policy', rules: [] } }) as never,
    claude: {
      names: ['NotebookEdit'],
      input: (s) => ({ todos: s.items.map((i) => ({ content: i.text, status: i.done ? 'completed' : 'pending' })) }),
      fromInput: (c) => ({
        items: (c.todos as Array<{ content: string; status: string }>).map((t) => ({ text: t.content, done: t.status === 'completed' })),
      }),
    },
  };

  test('hook fields, matcher names, rules and steps all come from the definition', () => {
    const registry = createToolRegistry([planUpdate as unknown as AnyToolDefinition]);
    const step = { tool: 'notebook.edit', items: [{ text: 'write tests', done: true }] };
    expect(claudeToolFields(registry.get('notebook.edit'), step, ctx)).toEqual({
      tool_name: 'NotebookEdit',
      tool_input: { todos: [{ content: 'write tests', status: 'completed' }] },
    });
    expect(knownNames(registry.get('notebook.edit')!)).toEqual(['notebook.edit', 'NotebookEdit']);
    expect(toolsNamed('NotebookEdit', registry.tools).map((t) => t.name)).toEqual(['notebook.edit']);
    expect(stepFromClaude('NotebookEdit', { todos: [{ content: 'a', status: 'pending' }] }, registry.tools)).toEqual({
      step: { tool: 'notebook.edit', items: [{ text: 'a', done: false }] },
    });
  });

  test('a malformed Claude Code form is refused when the tool is registered', () => {
    expect(() =>
      createToolRegistry([{ ...planUpdate, name: 'bad.one', claude: { names: [''], input: () => ({}) } } as unknown as AnyToolDefinition]),
    ).toThrow(/claude needs names/);
    expect(() =>
      createToolRegistry([{ ...planUpdate, name: 'bad.two', claude: { names: ['X'] } } as unknown as AnyToolDefinition]),
    ).toThrow(/claude needs names/);
  });
});
