import { testMcpStdioCommand } from '@holic512/testkit';
import { spawnSync } from 'child_process';
import { promises as fs, readFileSync } from 'fs';
import * as path from 'path';
import { projectExtras, TrustStore } from '../src/extensions/trust';
import { useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// A Claude Code user's setup copied as it is — ~/.claude/settings.json, the project's
// .claude/settings.json with hooks on `Bash` and `Edit|Write`, .claude/commands, ~/.claude/skills,
// a .mcp.json using ${CLAUDE_PROJECT_DIR} with an MCP server installed from npm, ~/.claude.json
// servers — through the real `ai -p`, in a temp HOME.
const fx = useAiFixture({ profile: { low_model: 'test-low', high_model: 'test-high' } });
const cmd = (...commands: object[]) => ({ json: { type: 'cmd', message: 'go', data: { cwd: null, commands } } });
const chat = (message: string) => ({ json: { type: 'chat', message } });
const FS_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const CLAUDE_API = path.join(__dirname, 'fixtures', 'anthropic-skills', 'claude-api', 'SKILL.md');
const HAS_JQ = spawnSync('jq', ['--version']).status === 0;

/** A hook that blocks `rm` by reading Claude Code's `tool_input.command` (node, so it runs where jq is absent). */
const NODE_NO_RM = `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{if(/^rm /.test(JSON.parse(s).tool_input.command)){console.error('rm is not allowed here');process.exit(2)}})"`;
/** The same hook as Claude Code's documentation writes it, with jq. */
const JQ_NO_RM = `jq -r .tool_input.command | grep -q '^rm ' && { echo 'rm is not allowed here' >&2; exit 2; } || exit 0`;

const LOG_EDIT = `const fs = require('fs');
let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const e = JSON.parse(s);
  const lines = fs.readFileSync(e.transcript_path, 'utf8').trim().split('\\n').map((l) => JSON.parse(l));
  const line = [e.hook_event_name, e.tool_name, e.tool_input.file_path, e.tool_use_id, e.permission_mode, 'transcript:' + lines[0].t, process.env.CLAUDE_PROJECT_DIR].join(' ');
  fs.appendFileSync(process.env.CLAUDE_PROJECT_DIR + '/edits.log', line + '\\n');
});
`;

function systemOf(request: { body: { messages: Array<{ role: string; content: string }> } }): string {
  return request.body.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
}

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

/** The user's and the project's Claude Code files, as a Claude Code user has them. */
async function claudeSetup(bashHook: string = NODE_NO_RM): Promise<void> {
  const home = fx.temp.home;
  await write(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({
      permissions: { deny: ['Bash(git push:*)'], allow: ['WebFetch(domain:docs.anthropic.com)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: bashHook }] }] },
    }),
  );
  await write(
    path.join(fx.cwd, '.claude', 'settings.json'),
    JSON.stringify({
      permissions: { allow: ['Bash(npm run test:*)'] },
      hooks: {
        SessionStart: [
          { matcher: 'startup', hooks: [{ type: 'command', command: "echo 'release branch is r7'" }] },
          { matcher: 'resume|compact', hooks: [{ type: 'command', command: "echo 'RESUMED-CONTEXT'" }] },
        ],
        UserPromptSubmit: [
          {
            hooks: [
              { type: 'prompt', prompt: 'Is this prompt fine?' },
              { type: 'command', command: 'true' },
            ],
          },
        ],
        PreToolUse: [
          { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/log-edit.js' }] },
        ],
        PreCompact: [{ hooks: [{ type: 'command', command: 'true' }] }],
      },
    }),
  );
  await write(path.join(fx.cwd, '.claude', 'hooks', 'log-edit.js'), LOG_EDIT);
  await write(
    path.join(fx.cwd, '.mcp.json'),
    JSON.stringify({ mcpServers: { 'files.local': { command: process.execPath, args: [FS_SERVER, '${CLAUDE_PROJECT_DIR}'] } } }),
  );
  await write(
    path.join(home, '.claude.json'),
    JSON.stringify({
      numStartups: 12,
      mcpServers: { notes: testMcpStdioCommand() },
      projects: { [fx.cwd]: { mcpServers: { 'local.kit': testMcpStdioCommand() } } },
    }),
  );
  await write(path.join(fx.cwd, 'notes.md'), 'NOTES-CONTENT: ship on Friday\n');
}

function trustProject(): void {
  new TrustStore(path.join(fx.temp.slothtoolHome, 'ai', 'trust.json')).trust(projectExtras(fx.cwd, fx.temp.slothtoolHome, fx.temp.home));
}

test('a trusted project: hooks on Bash and Edit|Write, SessionStart matchers, .mcp.json with ${CLAUDE_PROJECT_DIR} (an npm server), ~/.claude.json servers', async () => {
  await claudeSetup();
  trustProject();
  fx.server.enqueue(
    cmd({ program: 'rm', args: ['notes.md'] }),
    cmd({ tool: 'fs.write', path: 'plan.md', content: 'step one\n' }),
    cmd({ tool: 'mcp.files_local.read_text_file', arguments: { path: path.join(fx.cwd, 'notes.md') } }),
    cmd(
      { tool: 'mcp.notes.echo', arguments: { text: 'from the user scope' } },
      { tool: 'mcp.local_kit.echo', arguments: { text: 'from the local scope' } },
    ),
    chat('done'),
  );
  const r = await runAi(['-p', 'tidy up', '--json', '--approve-l1', '--max-steps', '8'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const system = systemOf(fx.server.requests[0]);
  expect(system).toMatch(/- files_local: .*read_text_file/);
  expect(system).toMatch(/- notes: .*echo/);
  expect(system).toMatch(/- local_kit: .*echo/);
  const first = JSON.stringify(fx.server.requests[0].body.messages);
  expect(first).toContain('release branch is r7');
  expect(first).not.toContain('RESUMED-CONTEXT');
  // The user's `Bash` hook read tool_input.command and blocked rm.
  expect(JSON.stringify(fx.server.requests[1].body.messages.at(-1))).toContain('blocked by a PreToolUse hook: rm is not allowed here');
  // The project's `Edit|Write` hook saw Claude Code's fields, a readable transcript and CLAUDE_PROJECT_DIR.
  const log = readFileSync(path.join(fx.cwd, 'edits.log'), 'utf8').trim().split('\n');
  expect(log).toEqual([`PreToolUse Write ${path.join(fx.cwd, 'plan.md')} cmd_002 default transcript:meta ${fx.cwd}`]);
  expect(readFileSync(path.join(fx.cwd, 'plan.md'), 'utf8')).toBe('step one\n');
  expect(JSON.stringify(fx.server.requests[3].body.messages.at(-1))).toContain('NOTES-CONTENT: ship on Friday');
  const last = JSON.stringify(fx.server.requests[4].body.messages.slice(-2));
  expect(last).toContain('from the user scope');
  expect(last).toContain('from the local scope');
  // What is not run here is named once each; the rest of the block works.
  expect(r.stderr.match(/"type": "prompt"/g)).toHaveLength(1);
  expect(r.stderr).toContain('hooks.PreCompact: is not run here');
});

(HAS_JQ ? test : test.skip)(
  `a jq hook from Claude Code's documentation blocks rm (${HAS_JQ ? 'jq found' : 'SKIPPED: jq is not installed'})`,
  async () => {
    await claudeSetup(JQ_NO_RM);
    fx.server.enqueue(cmd({ program: 'rm', args: ['notes.md'] }), cmd({ program: 'ls', args: [] }), chat('done'));
    const r = await runAi(['-p', 'clean', '--json'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    expect(JSON.stringify(fx.server.requests[1].body.messages.at(-1))).toContain('rm is not allowed here');
    expect(r.events.filter((e) => e.type === 'tool_result').map((e) => e.result.status ?? 'ran')).toEqual(['blocked', 'ran']);
  },
);

test('untrusted: nothing of the project runs (no hook, no server); the user-level setup works; stderr names the files', async () => {
  await claudeSetup();
  fx.server.enqueue(cmd({ tool: 'fs.write', path: 'plan.md', content: 'x\n' }), cmd({ program: 'rm', args: ['x'] }), chat('done'));
  const r = await runAi(['-p', 'go', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/\.claude\/settings\.json.*stays off until you trust it|stays off until you trust it/);
  expect(r.stderr).toContain('.claude/settings.json');
  expect(r.stderr).toContain('.mcp.json');
  await expect(fs.stat(path.join(fx.cwd, 'edits.log'))).rejects.toThrow();
  const system = systemOf(fx.server.requests[0]);
  expect(system).not.toMatch(/files_local/);
  expect(system).toMatch(/- notes: /); // ~/.claude.json is the user's own
  expect(JSON.stringify(fx.server.requests[0].body.messages)).not.toContain('release branch is r7');
  expect(JSON.stringify(fx.server.requests[2].body.messages.at(-1))).toContain('rm is not allowed here'); // the user's hook runs
});

test('trust covers what runs: a hook script changed after the trust question asks again and does not run', async () => {
  const marker = path.join(fx.temp.home, 'ran.txt');
  await write(path.join(fx.cwd, '.hooks', 'start.sh'), `#!/bin/sh\necho started >> ${JSON.stringify(marker)}\n`);
  await fs.chmod(path.join(fx.cwd, '.hooks', 'start.sh'), 0o755);
  await write(
    path.join(fx.cwd, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: './.hooks/start.sh' }] }] } }),
  );
  expect(projectExtras(fx.cwd, fx.temp.slothtoolHome, fx.temp.home).files).toContainEqual({ rel: '.hooks/start.sh', kind: 'code' });
  trustProject();
  fx.server.setHandler(() => chat('ok'));
  await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
  expect(readFileSync(marker, 'utf8')).toBe('started\n');
  await write(path.join(fx.cwd, '.hooks', 'start.sh'), `#!/bin/sh\necho pwned >> ${JSON.stringify(marker)}\n`);
  const r = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.stderr).toMatch(/changed .*\.hooks\/start\.sh/);
  expect(readFileSync(marker, 'utf8')).toBe('started\n');
});

test('a command as Claude Code has it: $ARGUMENTS, @file, !`cmd` judged like steps, model and allowed-tools', async () => {
  await write(
    path.join(fx.cwd, '.claude', 'commands', 'review.md'),
    [
      '---',
      'description: Review with context',
      'model: claude-3-5-haiku-20241022',
      'allowed-tools: Bash(touch:*), Read',
      '---',
      'Review $ARGUMENTS using @notes.md and @../secret.txt.',
      'Files: !`ls`',
      'Made: !`touch made.txt`',
      'Piped: !`ls | wc -l`',
      'Pushed: !`git push origin main`',
    ].join('\n'),
  );
  await write(path.join(fx.cwd, 'notes.md'), 'NOTES-CONTENT: ship on Friday\n');
  await write(path.join(fx.temp.home, 'secret.txt'), 'OUTSIDE\n');
  // A project command with allowed-tools is asked about by the trust question; trusted here.
  expect(projectExtras(fx.cwd, fx.temp.slothtoolHome, fx.temp.home).files).toEqual([
    { rel: '.claude/commands/review.md', kind: 'command' },
  ]);
  trustProject();
  fx.server.enqueue(chat('reviewed'));
  const r = await runAi(['-p', '/review the parser'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(fx.server.requests[0].body.model).toBe('test-low'); // haiku → the low tier
  const sent = JSON.stringify(fx.server.requests[0].body.messages.at(-1));
  expect(sent).toContain('Review the parser using');
  expect(sent).toContain('NOTES-CONTENT: ship on Friday');
  expect(sent).toContain('@../secret.txt [not included: only files inside the workspace]');
  expect(sent).not.toContain('OUTSIDE');
  expect(sent).toContain('notes.md'); // the ls output
  // touch is L1: allowed-tools answered it for this turn, without --approve-l1.
  await expect(fs.stat(path.join(fx.cwd, 'made.txt'))).resolves.toBeTruthy();
  expect(sent).toMatch(/`ls \| wc -l` was not run: it needs a shell/);
  expect(sent).toMatch(/`git push origin main` was not run/);
});

test("Anthropic's claude-api skill (74 KB) from ~/.claude/skills loads in pages, and /claude-api calls it", async () => {
  await write(path.join(fx.temp.home, '.claude', 'skills', 'claude-api', 'SKILL.md'), readFileSync(CLAUDE_API, 'utf8'));
  fx.server.enqueue(cmd({ tool: 'skill.load', name: 'claude-api' }), chat('ok'));
  const r = await runAi(['-p', '/claude-api which model for summaries?', '--json'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const ask = JSON.stringify(fx.server.requests[0].body.messages.at(-1));
  expect(ask).toContain('skill.load');
  expect(ask).toContain('which model for summaries?');
  expect(systemOf(fx.server.requests[0])).toContain('- claude-api: Reference for the Claude API');
  const result = fx.server.requests[1].body.messages.at(-1).content as string;
  expect(result).toContain('Building LLM-Powered Applications with Claude');
  expect(result).toMatch(/"nextOffset":\d+/);
  expect(result).toMatch(/read on with/);
});

test("a trusted skill's own script is asked about (L1 project code), not refused", async () => {
  const dir = path.join(fx.temp.home, '.claude', 'skills', 'counter');
  await write(
    path.join(dir, 'SKILL.md'),
    '---\nname: counter\ndescription: Count lines with scripts/count.sh\n---\nRun scripts/count.sh <file>.\n',
  );
  await write(path.join(dir, 'scripts', 'count.sh'), '#!/bin/sh\nwc -l < "$1"\n');
  await fs.chmod(path.join(dir, 'scripts', 'count.sh'), 0o755);
  await write(path.join(fx.cwd, 'a.txt'), 'one\ntwo\n');
  fx.server.enqueue(
    cmd({ program: path.join(dir, 'scripts', 'count.sh'), args: ['a.txt'] }),
    chat('ok'),
    cmd({ program: path.join(fx.cwd, 'evil.sh'), args: [] }),
    chat('ok'),
  );
  const r = await runAi(['-p', 'count', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  const step = r.events.find((e) => e.type === 'step')!;
  expect(step.decision.level).toBe('L1');
  expect(step.decision.rules.map((x: { id: string }) => x.id)).toContain('program.trusted_code');
  expect(JSON.stringify(fx.server.requests[1].body.messages.at(-1))).toMatch(/2/);
  await write(path.join(fx.cwd, 'evil.sh'), '#!/bin/sh\ntrue\n');
  const r2 = await runAi(['-p', 'again', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r2.events.find((e) => e.type === 'step')!.decision.level).toBe('L2'); // outside the skill folder: as before
});

test('a PreToolUse hook answering allow answers the question of an L1 step; never one a rule asks about, never an L2 one', async () => {
  await write(
    path.join(fx.temp.home, '.claude', 'settings.json'),
    JSON.stringify({
      permissions: { ask: ['Bash(touch asked.txt)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'` },
            ],
          },
        ],
      },
    }),
  );
  fx.server.enqueue(
    cmd({ program: 'touch', args: ['allowed.txt'] }),
    cmd({ program: 'touch', args: ['asked.txt'] }),
    cmd({ program: 'rm', args: ['-rf', '/'] }),
    chat('done'),
  );
  const r = await runAi(['-p', 'go', '--json', '--max-steps', '5'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const statuses = r.events.filter((e) => e.type === 'tool_result').map((e) => e.result.status ?? 'ran');
  expect(statuses).toEqual(['ran', 'declined', 'blocked']);
  await expect(fs.stat(path.join(fx.cwd, 'allowed.txt'))).resolves.toBeTruthy();
  await expect(fs.stat(path.join(fx.cwd, 'asked.txt'))).rejects.toThrow();
  const audit = readFileSync(path.join(fx.temp.slothtoolHome, 'ai', 'audit.jsonl'), 'utf8');
  expect(audit).toContain('"approvedBy":"hook"');
});

test('a deny rule of ~/.claude/settings.json refuses the command as a step and as a background process', async () => {
  await claudeSetup();
  fx.server.enqueue(
    cmd({ program: 'git', args: ['push', 'origin', 'main'] }),
    chat('no'),
    cmd({ tool: 'proc.start', program: 'git', args: ['push'] }),
    chat('no'),
  );
  const r = await runAi(['-p', 'push', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  const r2 = await runAi(['-p', 'push again', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  for (const run of [r, r2]) {
    const step = run.events.find((e) => e.type === 'step')!;
    expect(step.decision.level).toBe('L2');
    expect(JSON.stringify(step.decision.rules)).toContain('permission.deny');
  }
  expect(r.stderr + r2.stderr).not.toContain('Ignoring the permission rule'); // every mapped rule parses
});
