import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { agentIndex, agentMayUse, discoverAgents, readAgentFile, unknownAgentTools, type AgentFile } from '../src/extensions/agents';
import { agentTools } from '../src/cli/app-children';
import { extensionRoots } from '../src/extensions/folders';
import { agentsText } from '../src/interactive/agents-view';
import { createTheme } from '../src/interactive/theme';

// Agent files (issue #46): front matter name / description / tools / model, the body the agent's
// instructions; Claude Code's format as it is; bad files named with why.

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agents-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const root = { dir: '', scope: 'user' as const, origin: '~/.slothtool/agents' };
async function read(text: string) {
  const file = path.join(dir, 'a.md');
  await fs.writeFile(file, text);
  return readAgentFile(file, { ...root, dir });
}

test.each<[string, string, object]>([
  ['a comma list', 'tools: Read, Grep, Bash\n', { tools: ['Read', 'Grep', 'Bash'] }],
  ['a YAML list', 'tools:\n  - fs.read\n  - mcp__files__read_file\n', { tools: ['fs.read', 'mcp__files__read_file'] }],
  ['none: every tool', '', {}],
  ['"*": every tool', 'tools: "*"\n', {}],
  ['a model', 'model: sonnet\n', { model: 'sonnet' }],
])('front matter: %s', async (_name, more, expected) => {
  const r = await read(`---\nname: code-reviewer\ndescription: Reviews\n  code\n${more}color: red\n---\n\nYou review code.\n`);
  expect(r).toMatchObject({
    name: 'code-reviewer',
    description: 'Reviews code',
    prompt: 'You review code.',
    scope: 'user',
    origin: '~/.slothtool/agents',
    ...expected,
  });
  if (!more.startsWith('tools')) expect('tools' in r).toBe(false);
});

test.each<[string, string, string, object | undefined]>([
  ['no front matter', 'You review code.\n', 'agentNoFrontMatter', undefined],
  ['a bad name', '---\nname: Code Reviewer\ndescription: x\n---\nbody\n', 'agentBadName', { found: '"Code Reviewer"' }],
  ['no name', '---\ndescription: x\n---\nbody\n', 'agentBadName', { found: 'null' }],
  ['no description', '---\nname: a\n---\nbody\n', 'agentNoDescription', undefined],
  ['tools of the wrong kind', '---\nname: a\ndescription: x\ntools: 3\n---\nbody\n', 'agentBadTools', undefined],
  ['an empty model', '---\nname: a\ndescription: x\nmodel: ""\n---\nbody\n', 'agentBadModel', undefined],
  ['no body', '---\nname: a\ndescription: x\n---\n\n', 'agentNoBody', undefined],
  ['YAML that does not parse', '---\nname: [a\n---\nbody\n', 'agentFrontMatter', undefined],
  ['no closing line', '---\nname: a\n', 'agentFrontMatter', undefined],
])('%s is refused with why', async (_name, text, key, vars) => {
  const r = await read(text);
  expect(r).toMatchObject({ key, ...(vars ? { vars } : {}) });
});

test('discovery: later folders win a name, bad files come back naming themselves, other files are ignored', async () => {
  const user = path.join(dir, 'user');
  const project = path.join(dir, 'project');
  await fs.mkdir(user);
  await fs.mkdir(project);
  await fs.writeFile(path.join(user, 'r.md'), '---\nname: reviewer\ndescription: mine\n---\nMINE\n');
  await fs.writeFile(path.join(user, 'bad.md'), 'no front matter\n');
  await fs.writeFile(path.join(user, 'notes.txt'), 'not an agent');
  await fs.writeFile(path.join(project, 'r.md'), '---\nname: reviewer\ndescription: the project one\n---\nTHEIRS\n');
  const { agents, problems } = discoverAgents([
    { dir: user, scope: 'user', origin: 'u' },
    { dir: project, scope: 'project', origin: 'p' },
    { dir: path.join(dir, 'missing'), scope: 'project', origin: 'm' },
  ]);
  expect(agents.map((a) => [a.name, a.prompt, a.scope])).toEqual([['reviewer', 'THEIRS', 'project']]);
  expect(problems).toEqual([{ file: path.join(user, 'bad.md'), key: 'agentNoFrontMatter' }]);
});

test('the roots: Claude Code then ours, the user then the project; in the home folder the project ones are the user own', () => {
  expect(extensionRoots('agents', '/h/.slothtool', '/w', '/h', false).map((r) => [r.dir, r.scope, r.origin])).toEqual([
    ['/h/.claude/agents', 'user', '~/.claude/agents'],
    ['/h/.slothtool/agents', 'user', '~/.slothtool/agents'],
    ['/w/.claude/agents', 'project', '.claude/agents'],
    ['/w/.slothtool/agents', 'project', '.slothtool/agents'],
  ]);
  expect(extensionRoots('agents', '/h/.slothtool', '/h', '/h', true).map((r) => r.scope)).toEqual(['user', 'user']);
});

const agent = (tools?: string[]): AgentFile => ({
  name: 'r',
  description: 'd',
  prompt: 'p',
  file: '/f/r.md',
  scope: 'user',
  origin: 'o',
  ...(tools ? { tools } : {}),
});
const def = (name: string, claude: string[] = []) => ({ name, claude: { names: claude } });

test.each<[string, string[] | undefined, string, string[], boolean]>([
  ['Claude Code name', ['Read'], 'fs.read', ['Read'], true],
  ['our name', ['fs.read'], 'fs.read', ['Read'], true],
  ['a name both tools declare', ['Bash'], 'proc.start', ['Bash'], true],
  ['MultiEdit names fs.edit', ['MultiEdit'], 'fs.edit', ['Edit', 'MultiEdit'], true],
  ['not listed', ['Read'], 'fs.write', ['Write'], false],
  ['no list: every tool', undefined, 'exec', ['Bash'], true],
])('agentMayUse: %s', (_name, tools, name, claude, expected) => {
  expect(agentMayUse(agent(tools), def(name, claude))).toBe(expected);
});

test('a named child never has agent.run, even listed or with every tool; mcp.describe comes with an MCP tool', () => {
  const all = agentTools(agent());
  expect(all.only(def('agent.run', ['Task']))).toBe(false);
  expect(agentTools(agent(['Task', 'Read'])).only(def('agent.run', ['Task']))).toBe(false);
  expect(all.only(def('mcp.describe'))).toBe(true);
  expect(agentTools(agent(['Read'])).only(def('mcp.describe'))).toBe(false);
  expect(agentTools(agent(['mcp__files__read_file'])).only(def('mcp.describe'))).toBe(true);
  expect(agentTools(agent(['mcp__files__read_file'])).only(def('mcp.files.read_file', ['mcp__files__read_file']))).toBe(true);
  expect(all.note).toContain('/f/r.md');
});

test('unknown tool names are reported per file; MCP names wait for their servers', () => {
  const defs = [def('fs.read', ['Read']), def('exec', ['Bash'])];
  expect(unknownAgentTools([agent(['Read', 'NotebookEdit', 'mcp__x__y', 'Bash'])], defs)).toEqual([
    { file: '/f/r.md', key: 'agentUnknownTool', vars: { tool: 'NotebookEdit' } },
  ]);
});

test('the index carries names and descriptions, never a body; /agents shows folders, tools, models and problems', () => {
  const a = { ...agent(['Read', 'Grep']), model: 'high', prompt: 'SECRET-BODY' };
  expect(agentIndex([a])).toContain('- r: d');
  expect(agentIndex([a])).not.toContain('SECRET-BODY');
  expect(agentIndex([])).toBe('');
  const theme = createTheme(false);
  const text = agentsText([a, agent()], [{ file: '/x/bad.md', key: 'agentNoDescription' }], theme, 'en');
  expect(text).toContain('r  (o)  d');
  expect(text).toContain('tools: Read, Grep · model: high');
  expect(text).toContain('tools: all of yours');
  expect(text).toContain('/x/bad.md: front matter "description" is missing');
  expect(agentsText([], [], theme, 'zh')).toContain('没有代理');
});

test("the trust question names a project's agent files and its checks; their programs and the agent files are in the hash", async () => {
  const { projectExtras } = require('../src/extensions/trust') as typeof import('../src/extensions/trust');
  const { trustQuestionLines } = require('../src/interactive/trust-question') as typeof import('../src/interactive/trust-question');
  const ws = path.join(dir, 'ws');
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await fs.writeFile(path.join(ws, rel), text);
  };
  await write('.claude/agents/reviewer.md', '---\nname: reviewer\ndescription: r\n---\nbody\n');
  await write('.slothtool/settings.json', JSON.stringify({ checks: [{ match: '*.js', run: ['node', 'scripts/check.js'] }] }));
  await write('scripts/check.js', 'process.exit(0);\n');
  const extras = projectExtras(ws, path.join(dir, 'st'), path.join(dir, 'home'));
  expect(extras.files.map((f) => [f.rel, f.kind])).toEqual(
    expect.arrayContaining([
      ['.claude/agents/reviewer.md', 'agent'],
      ['.slothtool/settings.json', 'settings'],
      ['scripts/check.js', 'code'],
    ]),
  );
  const lines = trustQuestionLines(ws, false, 'en', extras).join('\n');
  expect(lines).toContain('checks run after edits of matching files:\n      *.js → node scripts/check.js');
  expect(lines).toContain('agents (their instructions and the tools they may use):\n    .claude/agents/reviewer.md');
  expect(trustQuestionLines(ws, false, 'zh', extras).join('\n')).toContain('代理(其说明及其可用的工具)');
  // Changing the check's program changes the hash: the folder is asked about again.
  const before = extras.hash;
  await write('scripts/check.js', 'process.exit(1);\n');
  expect(projectExtras(ws, path.join(dir, 'st'), path.join(dir, 'home')).hash).not.toBe(before);
});
