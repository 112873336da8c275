import * as fs from 'fs';
import * as path from 'path';
import { builtinRegistry } from '@holic512/tool-runner';
import { mapClaudeRule } from '../src/extensions/claude-names';
import { hookNames, hookToolFields, ourStep, updatedStep, type HookTool } from '../src/extensions/hook-steps';
import { skillLoadNames } from '../src/extensions/skill-tool';
import { agentRunNames } from '../src/agent/agent-children';
import { mcpClaudeName } from '../src/mcp/tools';
import { claudeJsonServers, readClaudeSettings } from '../src/extensions/claude-settings';
import { readAllowedTools, turnAllows } from '../src/extensions/command-allow';
import { commandTurn, modelChoice } from '../src/extensions/command-run';
import { discoverCommands, type CustomCommand } from '../src/extensions/commands';
import { extensionRoots } from '../src/extensions/folders';
import { readHooks, runHooks } from '../src/extensions/hooks';
import { executedProjectFiles } from '../src/extensions/trust-code';
import { projectExtras } from '../src/extensions/trust';
import { readMcpServers, safeServerName } from '../src/mcp/config';
import { Agent } from '../src/agent/agent';
import { config } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';
import { useTempFolder } from './helpers/temp-folder';

const tmp = useTempFolder('ai-claude-');
const write = tmp.write;

/** The tools a session knows: the built-ins, plugin-ai's own (by their exported names), and an MCP tool's Claude Code form. */
function toolDef(name: string): HookTool | undefined {
  if (name === agentRunNames.name) return agentRunNames as unknown as HookTool;
  if (name === skillLoadNames.name) return skillLoadNames as unknown as HookTool;
  const mcp = /^mcp\.([^.]+)\.(.+)$/.exec(name);
  if (mcp) return { name, claude: { names: [mcpClaudeName(mcp[1], mcp[2])], input: (s: { arguments: object }) => s.arguments } as never };
  return builtinRegistry().get(name) as unknown as HookTool | undefined;
}

/** A user's command `x` (from x.md); `fields` replace. */
const command = (fields: Partial<CustomCommand>): CustomCommand => ({
  name: 'x',
  description: '',
  template: '',
  file: 'x.md',
  scope: 'user',
  origin: 'u',
  ...fields,
});
/** The turn's context: the temp folder is the workspace and the working folder, no profiles. */
const inWorkspace = () => ({ workspace: tmp.root, cwd: tmp.root, profiles: [] });

describe('names at the hook boundary', () => {
  test.each([
    ['exec', ['exec', 'Bash']],
    ['proc.start', ['proc.start', 'Bash']],
    ['fs.edit', ['fs.edit', 'Edit', 'MultiEdit']],
    ['fs.write', ['fs.write', 'Write']],
    ['http.get', ['http.get', 'WebFetch']],
    ['mcp.files_local.read_file', ['mcp.files_local.read_file', 'mcp__files_local__read_file']],
    ['mcp.kit.a.b', ['mcp.kit.a.b', 'mcp__kit__a_b']],
    ['skill.load', ['skill.load', 'Skill']],
    ['agent.run', ['agent.run', 'Task', 'Agent']],
    ['config.json_patch', ['config.json_patch']],
  ])('the names of %s, from its definition', (tool, names) => expect(hookNames(toolDef(tool), tool)).toEqual(names));

  test('matchers work on either name, with regex semantics; * and empty match all', async () => {
    const opts = (tool: string) => ({ cwd: tmp.root, env: process.env, redact: (s: string) => s, names: hookNames(toolDef(tool), tool) });
    const { hooks } = readHooks(
      {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo bash >&2; exit 2' }] },
          { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'echo edit >&2; exit 2' }] },
          { matcher: 'mcp__.*', hooks: [{ type: 'command', command: 'echo mcp >&2; exit 2' }] },
          { matcher: '*', hooks: [{ type: 'command', command: 'echo all >&2; exit 2' }] },
        ],
      },
      'settings.json',
    );
    const reasons = async (tool: string) => ((await runHooks('PreToolUse', {}, hooks, opts(tool))).reason ?? '').split('\n').sort();
    expect(await reasons('exec')).toEqual(['all', 'bash']);
    expect(await reasons('fs.edit')).toEqual(['all', 'edit']);
    expect(await reasons('fs.write')).toEqual(['all', 'edit']);
    expect(await reasons('fs.read')).toEqual(['all']);
    expect(await reasons('mcp.srv.tool')).toEqual(['all', 'mcp']);
    // `Edit` alone does not match MultiEdit's other names, nor a tool whose name only contains it.
    const only = readHooks({ PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'exit 2' }] }] }, 'f').hooks;
    expect((await runHooks('PreToolUse', {}, only, opts('fs.write'))).block).toBe(false);
    expect((await runHooks('PreToolUse', {}, only, opts('fs.edit'))).block).toBe(true);
  });

  test('SessionStart matchers match the source; UserPromptSubmit ignores a matcher', async () => {
    const { hooks } = readHooks(
      {
        SessionStart: [
          { matcher: 'startup', hooks: [{ type: 'command', command: 'echo fresh' }] },
          { matcher: 'resume|compact', hooks: [{ type: 'command', command: 'echo again' }] },
        ],
        UserPromptSubmit: [{ matcher: 'whatever', hooks: [{ type: 'command', command: 'echo always' }] }],
      },
      'f',
    );
    const base = { cwd: tmp.root, env: process.env, redact: (s: string) => s };
    expect((await runHooks('SessionStart', {}, hooks, { ...base, subject: 'startup' })).context).toBe('fresh');
    expect((await runHooks('SessionStart', {}, hooks, { ...base, subject: 'resume' })).context).toBe('again');
    expect((await runHooks('UserPromptSubmit', {}, hooks, base)).context).toBe('always');
  });

  test('unsupported entries are skipped one by one, each type named once; the command hooks beside them load', () => {
    const r = readHooks(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', prompt: 'ok?' },
              { type: 'command', command: 'a' },
              { type: 'http', url: 'http://x' },
            ],
          },
        ],
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'done?' },
              { type: 'command', command: 'b' },
            ],
          },
        ],
        SubagentStop: [{ hooks: [{ type: 'command', command: 'c' }] }],
        Wat: [],
      },
      'settings.json',
    );
    expect(r.hooks.map((h) => h.command)).toEqual(['a', 'b']);
    expect(r.problems.map((p) => p.error)).toEqual([
      expect.stringContaining('"type": "prompt" are not run here'),
      expect.stringContaining('"type": "http" are not run here'),
      expect.stringContaining('hooks.SubagentStop: is not run here'),
      expect.stringContaining('hooks.Wat: is not a known event'),
    ]);
  });

  test("a Claude Code hook reads Claude Code's stdin exactly; ours read our names with Claude Code's fields beside; both carry ours", () => {
    const at = { cwd: tmp.root };
    const git = { tool: 'exec', program: 'git', args: ['commit', '-m', "it's done"] };
    const fields = hookToolFields(toolDef('exec'), git, at);
    expect(fields('claude')).toEqual({ tool_name: 'Bash', tool_input: { command: `git commit -m 'it'\\''s done'` } });
    expect(fields('slothtool')).toEqual({ tool_name: 'exec', tool_input: { ...git, command: `git commit -m 'it'\\''s done'` } });
    expect(ourStep(git)).toEqual({ tool: 'exec', input: { program: 'git', args: ['commit', '-m', "it's done"] } });
    const edit = { tool: 'fs.edit', path: 'src/a.ts', old_string: 'a', new_string: 'b' };
    expect(hookToolFields(toolDef('fs.edit'), edit, at)('claude')).toMatchObject({
      tool_name: 'Edit',
      tool_input: { file_path: path.join(tmp.root, 'src', 'a.ts'), old_string: 'a', new_string: 'b' },
    });
    const task = { tool: 'agent.run', task: 'Find where the config is parsed' };
    expect(hookToolFields(toolDef('agent.run'), task, at)('claude')).toMatchObject({
      tool_name: 'Task',
      tool_input: { description: 'Find where the config is parsed', prompt: 'Find where the config is parsed', subagent_type: 'Plan' },
    });
    const mcp = { tool: 'mcp.kit.echo', arguments: { text: 'hi' } };
    expect(hookToolFields(toolDef('mcp.kit.echo'), mcp, at)('claude')).toMatchObject({
      tool_name: 'mcp__kit__echo',
      tool_input: { text: 'hi' },
    });
    // A tool Claude Code has no name for: ours, in both.
    const patch = { tool: 'config.json_patch', file: 'x.json', patch: [] };
    expect(hookToolFields(toolDef('config.json_patch'), patch, at)('claude')).toMatchObject({
      tool_name: 'config.json_patch',
      tool_input: { file: 'x.json', patch: [] },
    });
  });

  test("updatedInput becomes a new step: validated, in the hook's own field names; unchanged is no change", () => {
    const registry = builtinRegistry() as never;
    const at = { cwd: tmp.root };
    const step = { tool: 'exec', program: 'npm', args: ['install'], requires: { confirm: true } };
    const claude = (input: Record<string, unknown>) => updatedStep(registry, step, { input, dialect: 'claude', hook: 'h' }, at);
    expect(claude({ command: 'npm install --save-exact' })).toEqual({
      step: { tool: 'exec', program: 'npm', args: ['install', '--save-exact'], requires: { confirm: true } },
    });
    expect(claude({ command: 'npm install' })).toEqual({ same: true });
    expect(claude({ command: 'npm install && curl x | sh' })).toEqual({ error: expect.stringContaining('needs a shell') });
    expect(claude({ command: 'npm i', run_in_background: true })).toEqual({ error: expect.stringContaining('background') });
    const ours = (input: Record<string, unknown>) => updatedStep(registry, step, { input, dialect: 'slothtool', hook: 'h' }, at);
    expect(ours({ args: ['ci'] })).toEqual({ step: { tool: 'exec', program: 'npm', args: ['ci'], requires: { confirm: true } } });
    expect(ours({ command: 'npm ci' })).toEqual({ error: expect.stringContaining('has no field command') });
    expect(ours({ args: 'ci' })).toEqual({ error: expect.stringContaining('args') });
  });
});

describe('permission rules', () => {
  test.each([
    ['Bash', 'exec'],
    ['Task', 'agent.run'],
    ['Skill(pdf)', 'skill.load(pdf)'],
    ['Bash(npm run test:*)', 'exec(npm run test *)'],
    ['Bash(git diff)', 'exec(git diff)'],
    ['Read(./src/**)', 'fs.read(src/**)'],
    ['Read(src/**/*.ts)', 'fs.read(src/**/*.ts)'],
    ['Edit(docs/**)', 'fs.edit(docs/**)'],
    ['MultiEdit', 'fs.edit'],
    ['Write(*.md)', 'fs.write(*.md)'],
    ['WebFetch(domain:docs.anthropic.com)', 'http.get(domain:docs.anthropic.com)'],
    ['mcp__github__create_issue', 'mcp.github.create_issue'],
    ['mcp__github', 'mcp.github.*'],
    ['mcp__github__*', 'mcp.github.*'],
  ])('%s → %s', (claude, ours) =>
    expect(mapClaudeRule(claude)).toEqual({ rules: /^exec\b/.test(ours) ? [ours, ours.replace('exec', 'proc.start')] : [ours] }),
  );

  test.each(['NotebookEdit', 'Read(~/.zshrc)', 'Read(//etc/passwd)', 'WebFetch(https://x.y)', 'nonsense rule'])(
    '%s has no counterpart: skipped with why',
    (claude) => {
      expect(mapClaudeRule(claude)).toHaveProperty('skip');
    },
  );

  test('settings: user < project < local; untrusted project files give deny rules only; env a project may not set is refused', () => {
    const home = path.join(tmp.root, 'home');
    const ws = path.join(tmp.root, 'ws');
    write(
      'home/.claude/settings.json',
      JSON.stringify({
        permissions: { allow: ['Bash(npm test)'], deny: ['Bash(git push:*)'] },
        env: { A: 'user', B: 'user' },
        hooks: { Stop: [] },
      }),
    );
    write(
      'ws/.claude/settings.json',
      JSON.stringify({
        permissions: { allow: ['Edit'], deny: ['Read(.env)'] },
        env: { B: 'project', PATH: '/evil', NODE_OPTIONS: '--require x' },
        hooks: { Stop: [] },
      }),
    );
    write('ws/.claude/settings.local.json', JSON.stringify({ env: { B: 'local' }, permissions: { ask: ['NotebookEdit'] } }));
    const trusted = readClaudeSettings(home, ws, true);
    expect(trusted.env).toEqual({ A: 'user', B: 'local' });
    expect(trusted.hooks.map((h) => path.relative(tmp.root, h.source))).toEqual(['home/.claude/settings.json', 'ws/.claude/settings.json']);
    expect(trusted.rules).toEqual([
      {
        source: path.join(home, '.claude', 'settings.json'),
        deny: ['exec(git push *)', 'proc.start(git push *)'],
        allow: ['exec(npm test)', 'proc.start(npm test)'],
      },
      { source: path.join(ws, '.claude', 'settings.json'), deny: ['fs.read(.env)'], allow: ['fs.edit'] },
    ]);
    expect(trusted.problems.map((p) => p.error)).toEqual([
      expect.stringContaining('env.PATH'),
      expect.stringContaining('env.NODE_OPTIONS'),
      expect.stringContaining('NotebookEdit'),
    ]);
    const untrusted = readClaudeSettings(home, ws, false);
    expect(untrusted.env).toEqual({ A: 'user', B: 'user' });
    expect(untrusted.hooks).toHaveLength(1);
    expect(untrusted.rules[1]).toEqual({ source: path.join(ws, '.claude', 'settings.json'), deny: ['fs.read(.env)'] });
    // Started in the home folder: ~/.claude is the user's, read once.
    expect(readClaudeSettings(home, home, false).files).toEqual([{ file: path.join(home, '.claude', 'settings.json'), scope: 'user' }]);
  });

  test('allowed-tools answer a question only for what they name', () => {
    const { rules, skipped } = readAllowedTools(
      ['Bash(git add:*)', 'Read(src/**)', 'mcp__kit__echo', 'exec(npm test)', 'NotebookEdit'],
      'review.md',
    );
    expect(skipped).toEqual([expect.stringContaining('NotebookEdit')]);
    expect(turnAllows(rules, 'exec(git add src/a.ts)')).toBe(true);
    expect(turnAllows(rules, 'exec(git commit -m x)')).toBe(false);
    expect(turnAllows(rules, 'fs.read(../outside.txt)')).toBe(false);
    expect(turnAllows(rules, 'fs.read(src/a.ts)')).toBe(true);
    expect(turnAllows(rules, 'fs.write(src/a.ts)')).toBe(false);
    expect(turnAllows(rules, 'mcp.kit.echo')).toBe(true);
    expect(turnAllows(rules, 'exec(npm test)')).toBe(true);
  });
});

describe('MCP servers', () => {
  test('names Claude Code accepts map to safe step names; two that collide in a file are numbered', () => {
    expect(safeServerName('files.local')).toBe('files_local');
    const { servers, problems } = readMcpServers(
      { 'my.srv': { command: 'a' }, my_srv: { command: 'b' }, 'x@1': { command: 'c' }, 'bad name': { command: 'd' } },
      'f',
      {},
    );
    expect(servers.map((s) => [s.name, s.label])).toEqual([
      ['my_srv', 'my.srv'],
      ['my_srv_2', 'my_srv'],
      ['x_1', 'x@1'],
    ]);
    expect(problems.map((p) => p.name)).toEqual(['bad name']);
  });

  test('~/.claude.json: the project-local servers first, then the user scope', () => {
    const home = path.join(tmp.root, 'home');
    write(
      'home/.claude.json',
      JSON.stringify({
        mcpServers: { u: { command: 'u' } },
        projects: { '/w': { mcpServers: { l: { command: 'l' } } }, '/other': { mcpServers: { o: { command: 'o' } } } },
      }),
    );
    const r = claudeJsonServers(home, '/w');
    expect(r.sources.map((s) => Object.keys(s.raw as object))).toEqual([['l'], ['u']]);
    expect(claudeJsonServers(path.join(tmp.root, 'nobody'), '/w')).toEqual({ sources: [], problems: [] });
  });

  test('~/.claude.json through a private cache keyed by size and time; a changed file is read again', () => {
    const home = path.join(tmp.root, 'home');
    const file = write('home/.claude.json', JSON.stringify({ history: 'x'.repeat(1000), mcpServers: { u: { command: 'u' } } }));
    const cache = path.join(tmp.root, 'st', 'ai', 'claude-json-cache.json');
    expect(claudeJsonServers(home, '/w', '/w', cache).sources.map((s) => s.raw)).toEqual([{ u: { command: 'u' } }]);
    expect(fs.statSync(cache).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(cache, 'utf8')).not.toContain('xxxx'); // only the server blocks are kept
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { v: { command: 'v' } } }));
    expect(claudeJsonServers(home, '/w', '/w', cache).sources.map((s) => s.raw)).toEqual([{ v: { command: 'v' } }]);
    fs.writeFileSync(file, '{"mcpServers": broken');
    expect(claudeJsonServers(home, '/w', '/w', cache).problems).toEqual([
      { source: file, error: expect.stringContaining('not valid JSON') },
    ]);
  });
});

describe('trust covers what runs', () => {
  test('project files named by hooks and servers join the hash; a change to one changes it', () => {
    const ws = path.join(tmp.root, 'ws');
    write('ws/.hooks/start.sh', 'echo hi');
    write('ws/tools/server.js', 'serve()');
    write('ws/scripts/x.py', 'print(1)');
    write(
      'ws/.claude/settings.json',
      JSON.stringify({
        hooks: {
          SessionStart: [
            { hooks: [{ type: 'command', command: './.hooks/start.sh && python3 "$CLAUDE_PROJECT_DIR"/scripts/x.py | jq .' }] },
          ],
        },
      }),
    );
    write(
      'ws/.mcp.json',
      JSON.stringify({
        mcpServers: {
          s: { command: 'node', args: ['./tools/server.js', '--tmp.root=${CLAUDE_PROJECT_DIR}'] },
          t: { command: 'npx', args: ['-y', 'some-server', '../outside.js'] },
        },
      }),
    );
    write('outside.js', 'x');
    expect(executedProjectFiles(ws)).toEqual(['.hooks/start.sh', 'scripts/x.py', 'tools/server.js']);
    const home = path.join(tmp.root, 'st');
    const before = projectExtras(ws, home, path.join(tmp.root, 'home'));
    expect(before.files.filter((f) => f.kind === 'code').map((f) => f.rel)).toEqual(['.hooks/start.sh', 'scripts/x.py', 'tools/server.js']);
    fs.writeFileSync(path.join(ws, 'tools', 'server.js'), 'steal()');
    expect(projectExtras(ws, home, path.join(tmp.root, 'home')).hash).not.toBe(before.hash);
    fs.writeFileSync(path.join(tmp.root, 'outside.js'), 'y');
    fs.writeFileSync(path.join(ws, 'tools', 'server.js'), 'serve()');
    expect(projectExtras(ws, home, path.join(tmp.root, 'home')).hash).toBe(before.hash);
  });
});

describe('commands', () => {
  test("Claude Code's folders: the project's wins over the user's, ours over Claude Code's; skills are commands", () => {
    const home = path.join(tmp.root, 'home');
    const ws = path.join(tmp.root, 'ws');
    write('home/.claude/commands/review.md', 'user claude');
    write('home/.claude/commands/fix.md', 'user fix');
    write('ws/.claude/commands/review.md', 'project claude');
    write('ws/.slothtool/commands/review.md', 'project ours');
    const roots = extensionRoots('commands', path.join(home, '.slothtool'), ws, home, false);
    const skill = { name: 'pdf', description: 'PDF work', file: path.join(home, '.claude/skills/pdf/SKILL.md'), scope: 'user' as const };
    const { commands } = discoverCommands(roots, new Set(['help']), [skill, { ...skill, name: 'fix' }]);
    expect(commands.map((c) => [c.name, c.template, c.origin])).toEqual([
      ['fix', 'user fix', '~/.claude/commands'],
      ['pdf', '', 'skill'],
      ['review', 'project ours', '.slothtool/commands'],
    ]);
    // The skill's body goes with the message (#45); a skill whose file is gone is loaded by the model instead.
    expect(commandTurn(commands[1], 'split a.pdf', { workspace: ws, cwd: ws, profiles: [] }).message).toContain(
      '{"tool":"skill.load","name":"pdf"}',
    );
    write('home/.claude/skills/pdf/SKILL.md', '---\nname: pdf\ndescription: PDF work\n---\nSplit with qpdf.\n');
    const message = commandTurn(commands[1], 'split a.pdf', { workspace: ws, cwd: ws, profiles: [] }).message;
    expect(message).toContain('<skill name="pdf">\nSplit with qpdf.\n</skill>');
    expect(message).toContain('Input: split a.pdf');
  });

  test.each([
    ['haiku', [], { mode: 'low' }],
    ['claude-3-5-haiku-20241022', [], { mode: 'low' }],
    ['sonnet', [], { mode: 'high' }],
    ['opus', [], { mode: 'high' }],
    ['fast', ['fast'], { profile: 'fast' }],
    ['gpt-9', ['fast'], undefined],
  ] as const)('model %s → %j', (model, profiles, choice) => expect(modelChoice(model, profiles)).toEqual(choice));

  test('model that names nothing here is a note; allowed-tools become the turn allowances; !`cmd` and @file make a prepare step', () => {
    const c = command({ template: 'Look at @a.md: !`ls`', model: 'gpt-9', allowedTools: ['Bash(ls:*)'] });
    const turn = commandTurn(c, '', inWorkspace());
    expect(turn.notes).toEqual([{ key: 'commandModelUnmapped', vars: { model: 'gpt-9', name: 'x' } }]);
    expect(turn.options.allow).toEqual(['Bash(ls:*)']);
    expect(typeof turn.options.prepare).toBe('function');
    expect(commandTurn({ ...c, template: 'plain $ARGUMENTS', model: undefined }, 'a@b.c', inWorkspace()).options.prepare).toBeUndefined();
  });

  test('prepare runs each !`cmd` and @file through the given runner, in order, and says what did not run', async () => {
    const c = command({ template: 'A @a.md B !`git status` C !`ls | wc` D @../up.md E !`rm x`' });
    const ran: object[] = [];
    const text = await commandTurn(c, '', inWorkspace()).options.prepare!(async (step) => {
      ran.push(step);
      if ((step as { program?: string }).program === 'rm')
        return {
          _event: 'tool_result',
          id: 'c',
          status: 'blocked',
          reason: '`rm` asks first',
          decision: { level: 'L1', rules: [] },
        } as never;
      if (step.tool === 'fs.read')
        return { _event: 'tool_result', id: 'c', content: '1\tline one\n2\tline two', decision: { level: 'L0', rules: [] } } as never;
      return { _event: 'tool_result', id: 'c', exitCode: 0, stdoutTail: 'clean\n', decision: { level: 'L0', rules: [] } } as never;
    });
    expect(ran).toEqual([
      { tool: 'fs.read', path: 'a.md' },
      { tool: 'exec', program: 'git', args: ['status'] },
      { tool: 'exec', program: 'rm', args: ['x'] },
    ]);
    expect(text).toBe(
      'A <file path="a.md">\nline one\nline two\n</file> B clean C [`ls | wc` was not run: it needs a shell ("|"); commands here run without one — write a plain command, one per !`…`] D @../up.md [not included: only files inside the workspace] E [`rm x` was not run: `rm` asks first]',
    );
  });
});

describe('hooks in a turn (agent)', () => {
  test('settings env reaches hooks; PostToolUse additionalContext and a block reason reach the model with the result', async () => {
    const seen = path.join(tmp.root, 'env.txt');
    const { hooks } = readHooks(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `printf '%s %s' "$TEAM" "$CLAUDE_PROJECT_DIR" > ${JSON.stringify(seen)}` }],
          },
        ],
        PostToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: `echo '{"decision":"block","reason":"lint failed","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 warnings"}}'`,
              },
            ],
          },
        ],
      },
      'settings.json',
    );
    const llm = fakeLlm([cmd({ program: 'ls', args: [] }), chat('ok')]);
    const agent = new Agent(
      { config: config(), systemPrompt: 'sys', cwd: tmp.root, lang: 'en' },
      { llm, createRunner: fakeRunner().create, hooks, projectDir: '/the/project', hookEnv: { ...process.env, TEAM: 'blue' } },
    );
    await agent.send('list');
    expect(fs.readFileSync(seen, 'utf8')).toBe('blue /the/project');
    const second = JSON.stringify(llm.calls[1]);
    expect(second).toContain('lint failed');
    expect(second).toContain('3 warnings');
  });
});

test("a project command's allowed-tools wait for trust; a user command's apply", () => {
  const c = command({ name: 'ship', template: 'go', scope: 'project', origin: '.claude/commands', allowedTools: ['Bash'] });
  const ctx = inWorkspace();
  expect(commandTurn(c, '', ctx)).toMatchObject({ options: {}, notes: [{ key: 'commandAllowUntrusted', vars: { name: 'ship' } }] });
  expect(commandTurn(c, '', { ...ctx, projectTrusted: true }).options.allow).toEqual(['Bash']);
  expect(commandTurn({ ...c, scope: 'user' }, '', ctx).options.allow).toEqual(['Bash']);
});

test('SessionStart says startup, then clear after /clear (matchers see it)', async () => {
  const log = path.join(tmp.root, 'sources.txt');
  const script = write(
    'source.js',
    `let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => require('fs').appendFileSync(${JSON.stringify(log)}, JSON.parse(s).source + '\\n'));`,
  );
  const { hooks } = readHooks(
    { SessionStart: [{ matcher: 'startup|clear', hooks: [{ type: 'command', command: `node ${JSON.stringify(script)}` }] }] },
    'f',
  );
  const agent = new Agent(
    { config: config(), systemPrompt: 'sys', cwd: tmp.root, lang: 'en' },
    { llm: fakeLlm([chat('a'), chat('b'), chat('c')]), createRunner: fakeRunner().create, hooks },
  );
  await agent.send('one');
  await agent.send('two');
  agent.clear();
  await agent.send('three');
  expect(fs.readFileSync(log, 'utf8')).toBe('startup\nclear\n');
});

test('/hooks names each hook with its event, matcher and file', () => {
  const { hooksText } = require('../src/interactive/trust-view') as typeof import('../src/interactive/trust-view');
  const { hooks } = readHooks(
    {
      PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'node check.js' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'npm test' }] }],
    },
    '/p/.claude/settings.json',
  );
  expect(hooksText(hooks, 'en').split('\n')).toEqual([
    expect.stringContaining('Hooks'),
    '  PreToolUse  Edit|Write  node check.js  · /p/.claude/settings.json',
    '  Stop  *  npm test  · /p/.claude/settings.json',
  ]);
  expect(hooksText([], 'en')).toContain('No hooks');
});

test("PostToolUse gets Claude Code's stdout / stderr beside our tails", async () => {
  const seen = path.join(tmp.root, 'resp.json');
  const { hooks } = readHooks(
    { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seen)}` }] }] },
    'f',
  );
  const agent = new Agent(
    { config: config(), systemPrompt: 'sys', cwd: tmp.root, lang: 'en' },
    { llm: fakeLlm([cmd({ program: 'ls', args: ['-a'] }), chat('ok')]), createRunner: fakeRunner({}, () => 'a.txt\n').create, hooks },
  );
  await agent.send('list');
  const input = JSON.parse(fs.readFileSync(seen, 'utf8'));
  expect(input).toMatchObject({
    hook_event_name: 'PostToolUse',
    tool_name: 'exec',
    tool_input: { command: 'ls -a' },
    tool_response: { stdout: 'a.txt\n' },
    tool_use_id: 'cmd_001',
    permission_mode: 'default',
  });
});

test("the trust question names Claude Code's hooks, the files they run, and commands with allowed-tools", () => {
  const { describeExtras } = require('../src/extensions/trust-describe') as typeof import('../src/extensions/trust-describe');
  const ws = path.join(tmp.root, 'ws');
  write('ws/.hooks/start.sh', 'echo hi');
  write(
    'ws/.claude/settings.json',
    JSON.stringify({
      permissions: { allow: ['Bash(ls:*)'], deny: ['Read(.env)'] },
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: './.hooks/start.sh' }] }] },
    }),
  );
  write('ws/.claude/settings.local.json', JSON.stringify({ permissions: { ask: ['Bash(git push:*)'] } }));
  write('ws/.claude/commands/ship.md', '---\nallowed-tools: Bash(git push:*)\n---\nship it');
  write('ws/.claude/commands/plain.md', '---\ndescription: no tools\n---\nhello');
  const d = describeExtras(projectExtras(ws, path.join(tmp.root, 'st'), path.join(tmp.root, 'home')));
  expect(d).toMatchObject({
    settings: [
      { file: '.claude/settings.json', hooks: ['SessionStart: ./.hooks/start.sh'], rules: { allow: 1, ask: 0 }, env: [] },
      { file: '.claude/settings.local.json', hooks: [], rules: { allow: 0, ask: 1 }, env: [] },
    ],
    code: ['.hooks/start.sh'],
    commands: ['.claude/commands/ship.md'],
    ignored: [],
  });
});
