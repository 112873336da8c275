import * as fs from 'fs';
import * as path from 'path';
import { readClaudeSettings } from '../src/extensions/claude-settings';
import { readHooks, runHooks } from '../src/extensions/hooks';
import { hookShell } from '../src/extensions/hook-process';
import { projectExtras } from '../src/extensions/trust';
import { trustQuestionLines } from '../src/interactive/trust-question';
import { Agent } from '../src/agent/agent';
import { config } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';
import { useTempFolder } from './helpers/temp-folder';

const tmp = useTempFolder('ai-claude-hooks-');
const base = () => ({ cwd: tmp.root, env: process.env, redact: (s: string) => s });

describe('the shell hooks run with', () => {
  test('bash where it is on PATH (Claude Code runs hooks with bash), so bash-only syntax works', async () => {
    expect(hookShell(process.env)).toMatchObject({ name: 'bash', file: expect.stringMatching(/\/bash$/) });
    const { hooks } = readHooks(
      {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: `words=(a b c); [[ \${#words[@]} == 3 && $(cat) == *'"prompt"'* ]] && echo "bash: \${words[1]}"`,
              },
            ],
          },
        ],
      },
      'f',
      'claude',
    );
    expect((await runHooks('UserPromptSubmit', { prompt: 'hi' }, hooks, base())).context).toBe('bash: b');
  });

  test('sh where there is no bash on PATH', () => {
    expect(hookShell({ PATH: path.join(tmp.root, 'nothing-here') })).toEqual({ file: '/bin/sh', name: 'sh' });
    expect(hookShell({ PATH: 'relative/bin' })).toEqual({ file: '/bin/sh', name: 'sh' });
  });
});

describe('each hook reads its own dialect', () => {
  test("a Claude Code file's hook gets Claude Code's fields, ours ours; one event, one run each", async () => {
    const dump = (name: string) => `cat > ${JSON.stringify(path.join(tmp.root, name))}`;
    const claude = readHooks(
      { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: dump('claude.json') }] }] },
      '.claude/settings.json',
      'claude',
    ).hooks;
    const ours = readHooks(
      { PreToolUse: [{ matcher: 'exec', hooks: [{ type: 'command', command: dump('ours.json') }] }] },
      'ai.json',
    ).hooks;
    const payload = (d: 'claude' | 'slothtool') =>
      d === 'claude'
        ? { tool_name: 'Bash', tool_input: { command: 'ls' } }
        : { tool_name: 'exec', tool_input: { program: 'ls', command: 'ls' } };
    await runHooks('PreToolUse', payload, [...claude, ...ours], { ...base(), names: ['exec', 'Bash'] });
    expect(JSON.parse(fs.readFileSync(path.join(tmp.root, 'claude.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(JSON.parse(fs.readFileSync(path.join(tmp.root, 'ours.json'), 'utf8'))).toMatchObject({
      tool_name: 'exec',
      tool_input: { program: 'ls' },
    });
  });

  test('updatedInput is taken with the dialect it was written in; two hooks that change it differently block the step', async () => {
    const answer = (o: object) => ({
      type: 'command',
      command: `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } })}'`,
    });
    const one = readHooks({ PreToolUse: [{ hooks: [answer({ updatedInput: { command: 'ls -a' } })] }] }, 'f', 'claude').hooks;
    expect(await runHooks('PreToolUse', {}, one, base())).toMatchObject({
      block: false,
      updated: { input: { command: 'ls -a' }, dialect: 'claude' },
    });
    const two = readHooks(
      { PreToolUse: [{ hooks: [answer({ updatedInput: { command: 'ls -a' } }), answer({ updatedInput: { command: 'ls -l' } })] }] },
      'f',
      'claude',
    ).hooks;
    expect(await runHooks('PreToolUse', {}, two, base())).toMatchObject({
      block: true,
      reason: expect.stringContaining('changed this step'),
    });
    // An allow's reason is for the user, never the model.
    const allow = readHooks(
      { PreToolUse: [{ hooks: [answer({ permissionDecision: 'allow', permissionDecisionReason: 'ls is always fine' })] }] },
      'f',
      'claude',
    ).hooks;
    expect(await runHooks('PreToolUse', {}, allow, base())).toMatchObject({ allow: true, notices: ['ls is always fine'] });
    expect((await runHooks('PreToolUse', {}, allow, base())).reason).toBeUndefined();
  });
});

describe('in a turn', () => {
  test("PreToolUse additionalContext reaches the model with the step's result; an ask's reason is said to the user", async () => {
    const { hooks } = readHooks(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"this repo uses pnpm"}}'`,
              },
            ],
          },
          {
            matcher: 'Write',
            hooks: [
              {
                type: 'command',
                command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"writes need a look"}}'`,
              },
            ],
          },
        ],
      },
      '.claude/settings.json',
      'claude',
    );
    const llm = fakeLlm([cmd({ program: 'ls', args: [] }, { tool: 'fs.write', path: 'a.txt', content: 'x' }), chat('ok')]);
    const logs: string[] = [];
    const agent = new Agent(
      { config: config(), systemPrompt: 'sys', cwd: tmp.root, lang: 'en' },
      { llm, createRunner: fakeRunner().create, hooks },
    );
    agent.on((e) => {
      if (e.type === 'log' && e.code === 'hook') logs.push(e.message);
    });
    await agent.send('go');
    expect(JSON.stringify(llm.calls[1])).toContain('this repo uses pnpm');
    expect(JSON.stringify(llm.calls[1])).not.toContain('writes need a look');
    expect(logs).toEqual(['writes need a look']);
  });
});

describe('Claude Code settings', () => {
  test("Claude Code's own environment (ANTHROPIC_*, CLAUDE_CODE_*) is never passed on, the user's or a project's", () => {
    const home = path.join(tmp.root, 'home');
    const ws = path.join(tmp.root, 'ws');
    tmp.write(
      'home/.claude/settings.json',
      JSON.stringify({
        env: { ANTHROPIC_API_KEY: 'sk-ant-x', ANTHROPIC_BASE_URL: 'https://proxy', CLAUDE_CODE_USE_BEDROCK: '1', TEAM: 'blue' },
      }),
    );
    tmp.write('ws/.claude/settings.json', JSON.stringify({ env: { ANTHROPIC_MODEL: 'opus', REGION: 'eu' } }));
    const s = readClaudeSettings(home, ws, true);
    expect(s.env).toEqual({ TEAM: 'blue', REGION: 'eu' });
    expect(s.problems).toEqual([]);
  });

  test('the trust question names each file as it is, lists only what it turns on, and names once what it ignores', () => {
    const ws = path.join(tmp.root, 'ws');
    tmp.write(
      'ws/.claude/settings.json',
      JSON.stringify({
        $schema: 'https://json.schemastore.org/claude-code-settings.json',
        statusLine: { type: 'command', command: '~/.claude/statusline.sh' },
        outputStyle: 'Explanatory',
        sandbox: { enabled: true },
        model: 'opus',
        env: { TEAM: 'blue', ANTHROPIC_API_KEY: 'sk-ant-x', PATH: '/evil' },
        permissions: { allow: ['Bash(npm test:*)', 'NotebookEdit'], deny: ['Read(./.env)'], defaultMode: 'acceptEdits' },
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' },
                { type: 'prompt', prompt: 'safe?' },
              ],
            },
          ],
          PreCompact: [{ hooks: [{ type: 'command', command: 'true' }] }],
          Notification: [{ matcher: 'permission_prompt', hooks: [{ type: 'command', command: 'notify-send hi' }] }],
        },
      }),
    );
    tmp.write('ws/.claude/settings.local.json', JSON.stringify({ outputStyle: 'Learning', permissions: { ask: ['Bash(git push:*)'] } }));
    const extras = projectExtras(ws, path.join(tmp.root, 'st'), path.join(tmp.root, 'home'));
    const lines = trustQuestionLines(ws, false, 'en', extras);
    expect(lines[0]).toContain('brings things that run code');
    expect(lines.slice(1)).toEqual([
      '  .claude/settings.json:',
      `    hooks, run by ${hookShell().name}:`,
      '      PreToolUse (Bash): "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh',
      '      Notification (permission_prompt): notify-send hi',
      '    permission rules: 1 allow, 0 ask (its deny rules apply already)',
      '    environment variables it sets: TEAM',
      '  .claude/settings.local.json:',
      '    permission rules: 0 allow, 1 ask (its deny rules apply already)',
      '  not used here (ignored): statusLine, outputStyle, sandbox, model, hooks "type": "prompt", hooks.PreCompact, permissions.defaultMode, permissions.allow NotebookEdit, env.ANTHROPIC_API_KEY, env.PATH',
    ]);
    const zh = trustQuestionLines(ws, false, 'zh', extras);
    expect(zh).toContain(
      '  此处不使用(忽略): statusLine, outputStyle, sandbox, model, hooks "type": "prompt", hooks.PreCompact, permissions.defaultMode, permissions.allow NotebookEdit, env.ANTHROPIC_API_KEY, env.PATH',
    );
    expect(zh).toContain(`    钩子(由 ${hookShell().name} 运行):`);
  });
});
