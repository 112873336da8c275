import { testMcpStdioCommand, useAiFixture, runProcess } from '@holic512/testkit';
import { spawnSync } from 'child_process';
import { promises as fs, readFileSync, statSync } from 'fs';
import type * as os from 'os';
import * as path from 'path';
import { projectExtras, TrustStore } from '../src/extensions/trust';
import { AI_BIN, type BinResult } from './run-bin';

// Guard hooks as Claude Code's documentation writes them — a bash/jq guard on `Bash`, a Python
// guard on `.env` for Read/Edit/Write, a formatter on `Edit|MultiEdit|Write`, an `mcp__.*` guard —
// in a project's .claude/settings.json, through the real `ai -p` against the scripted model: each
// blocks what it should and lets the rest run. As the user running the tests (root in CI) and,
// where the machine allows it, as an unprivileged user too.

const has = (program: string, args: string[] = ['--version']) => spawnSync(program, args, { stdio: 'ignore' }).status === 0;
const HAS_JQ = has('jq');
const HAS_PYTHON = has('python3');
const skipping = (what: string, ok: boolean) => (ok ? '' : ` — SKIPPED: ${what} is not installed`);

/** Where an unprivileged user (nobody) can reach a temp home: the system's temp folder, else /var/tmp. */
function traversableTmp(): string | undefined {
  for (const dir of [process.env.TMPDIR, '/tmp', '/var/tmp'].filter((d): d is string => !!d)) {
    try {
      if ((statSync(dir).mode & 0o001) !== 0) return dir;
    } catch {
      // not there
    }
  }
  return undefined;
}

/** An unprivileged user to run `ai` as, when the tests run as root and can switch to one. */
function normalUser(): { uid: number; setpriv: string; tmp: string } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'the tests already run as a normal user' };
  const setpriv = spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).stdout.trim();
  if (!setpriv) return { skip: 'setpriv is not installed' };
  const tmp = traversableTmp();
  if (!tmp) return { skip: 'no temp folder an unprivileged user can enter' };
  const repo = path.resolve(__dirname, '..', '..', '..');
  const probe = spawnSync(
    setpriv,
    [
      '--reuid',
      '65534',
      '--regid',
      '65534',
      '--clear-groups',
      process.execPath,
      '-e',
      `require(${JSON.stringify(AI_BIN)}.replace(/bin.ai.js$/, 'package.json'))`,
    ],
    { cwd: '/' },
  );
  if (probe.status !== 0) return { skip: `an unprivileged user cannot read this checkout (${repo})` };
  return { uid: 65534, setpriv, tmp };
}

const USER = normalUser();
if ('skip' in USER && process.getuid?.() === 0) process.stderr.write(`e2e-claude-guards: the unprivileged run is SKIPPED: ${USER.skip}\n`);
const RUNS: Array<[string, { uid: number; setpriv: string; tmp: string } | undefined]> = [
  [process.getuid?.() === 0 ? 'as root' : 'as this user', undefined],
  ...('uid' in USER ? [['as an unprivileged user', USER] as [string, typeof USER]] : []),
];

const cmd = (...commands: object[]) => ({ json: { type: 'cmd', message: 'go', data: { cwd: null, commands } } });
const chat = (message: string) => ({ json: { type: 'chat', message } });

const BASH_GUARD = `#!/usr/bin/env bash
# A PreToolUse guard as Claude Code's documentation writes one: pass what is not Bash, block by exit 2.
input=$(cat)
tool_name=$(jq -r '.tool_name' <<< "$input")
if [[ "$tool_name" != "Bash" ]]; then
  exit 0
fi
command=$(jq -r '.tool_input.command' <<< "$input")
if [[ "$command" =~ ^rm[[:space:]] || "$command" == *"git push"* ]]; then
  echo "Blocked by the project guard: $command" >&2
  exit 2
fi
echo "$command" >> "$CLAUDE_PROJECT_DIR/guard-passed.log"
exit 0
`;

const ENV_GUARD = `import json
import os
import sys

# Claude Code's file-protection example: block .env files on Read, Edit and Write.
data = json.load(sys.stdin)
if data.get("tool_name") not in ("Read", "Edit", "MultiEdit", "Write"):
    sys.exit(0)
file_path = data.get("tool_input", {}).get("file_path", "")
name = os.path.basename(file_path)
if name == ".env" or name.startswith(".env."):
    print(f"Blocked: {file_path} holds secrets", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
`;

const FORMATTER = `jq -r '.tool_input.file_path' | { read -r f; sed -i -e 's/[[:space:]]*$//' "$f"; printf '%s\\n' "$f" >> "$CLAUDE_PROJECT_DIR/formatted.log"; }`;

const MCP_GUARD = `input=$(cat); jq -c '{tool_name, tool_input}' <<< "$input" >> "$CLAUDE_PROJECT_DIR/mcp.log"; if jq -e '.tool_input.text | test("secret")' <<< "$input" > /dev/null; then echo "no secrets to MCP servers" >&2; exit 2; fi`;

describe.each(RUNS)('Claude Code guard hooks %s', (_label, user) => {
  // The unprivileged user must be able to enter the temp home: the fixture makes it where they can.
  let tmpdir: jest.SpyInstance | undefined;
  const fx = useAiFixture(() => {
    if (user) tmpdir = jest.spyOn(require('os') as typeof os, 'tmpdir').mockReturnValue(user.tmp);
    return {};
  });
  beforeEach(() => tmpdir?.mockRestore());

  async function write(rel: string, text: string, mode?: number): Promise<string> {
    const file = path.join(fx.cwd, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
    if (mode) await fs.chmod(file, mode);
    return file;
  }

  /** The project's .claude/settings.json with these hooks, trusted as the trust question would. */
  async function projectHooks(hooks: object): Promise<void> {
    await write('.claude/settings.json', JSON.stringify({ hooks }, null, 2));
    new TrustStore(path.join(fx.temp.slothtoolHome, 'ai', 'trust.json')).trust(projectExtras(fx.cwd, fx.temp.slothtoolHome, fx.temp.home));
  }

  /** `ai -p` as the test's user, or as the unprivileged one (the home handed over to them first). */
  async function ai(args: string[]): Promise<BinResult> {
    let result;
    if (user) {
      spawnSync('chown', ['-R', `${user.uid}:${user.uid}`, fx.temp.home]);
      result = await runProcess(
        user.setpriv,
        ['--reuid', String(user.uid), '--regid', String(user.uid), '--clear-groups', process.execPath, AI_BIN, ...args],
        { env: fx.temp.env, cwd: fx.cwd, input: '' },
      );
    } else {
      result = await runProcess(process.execPath, [AI_BIN, ...args], { env: fx.temp.env, cwd: fx.cwd, input: '' });
    }
    const events = result.stdout.split('\n').flatMap((l) => {
      try {
        return l.trim() ? [JSON.parse(l)] : [];
      } catch {
        return [];
      }
    });
    return { ...result, events };
  }

  /** The run ended well, or the failure says what `ai` said. */
  const ok = (r: BinResult) => {
    if (r.code !== 0) throw new Error(`ai exited ${String(r.code)}:\n${r.stderr}\n${r.stdout.slice(-2000)}`);
  };
  const results = (r: BinResult) => r.events.filter((e) => e.type === 'tool_result').map((e) => e.result as Record<string, any>);
  const outcome = (x: Record<string, any>) =>
    x.blockedBy === 'hook' ? 'hook' : ['blocked', 'declined', 'error'].includes(x.status) ? x.status : 'ran';
  const told = (i: number) => JSON.stringify(fx.server.requests[i].body.messages.at(-1));

  (HAS_JQ ? test : test.skip)(
    `a bash/jq guard (tool_name != "Bash" → exit 0) blocks rm and git push, as a step and in the background; the rest runs${skipping('jq', HAS_JQ)}`,
    async () => {
      await write('.claude/hooks/bash-guard.sh', BASH_GUARD, 0o755);
      await write('notes.md', 'keep me\n');
      await write('README.md', '# readme\n');
      await projectHooks({
        PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/bash-guard.sh' }] }],
      });
      fx.server.enqueue(
        cmd({ program: 'rm', args: ['notes.md'] }),
        cmd({ program: 'git', args: ['push', 'origin', 'main'] }),
        cmd({ tool: 'proc.start', program: 'rm', args: ['notes.md'] }),
        cmd({ program: 'ls', args: ['-a'] }, { tool: 'fs.read', path: 'README.md' }, { program: 'touch', args: ['made.txt'] }),
        chat('done'),
      );
      const r = await ai(['-p', 'tidy', '--json', '--approve-l1', '--max-steps', '8']);
      ok(r);
      expect(results(r).map(outcome)).toEqual(['hook', 'hook', 'hook', 'ran', 'ran', 'ran']);
      expect(told(1)).toContain('Blocked by the project guard: rm notes.md');
      expect(told(2)).toContain('Blocked by the project guard: git push origin main');
      expect(readFileSync(path.join(fx.cwd, 'notes.md'), 'utf8')).toBe('keep me\n');
      // Only Bash steps reached the guard's check; the Read step passed it at `tool_name != "Bash"`.
      expect(readFileSync(path.join(fx.cwd, 'guard-passed.log'), 'utf8')).toBe('ls -a\ntouch made.txt\n');
      await expect(fs.stat(path.join(fx.cwd, 'made.txt'))).resolves.toBeTruthy();
    },
  );

  (HAS_PYTHON ? test : test.skip)(
    `a Python guard reading tool_input.file_path blocks .env on Read, Edit and Write, however the path is spelled${skipping('python3', HAS_PYTHON)}`,
    async () => {
      await write('.claude/hooks/protect_env.py', ENV_GUARD);
      await write('.env', 'API_TOKEN=abc\n');
      await write('README.md', '# readme\n');
      await projectHooks({
        PreToolUse: [
          {
            matcher: 'Read|Edit|MultiEdit|Write',
            hooks: [{ type: 'command', command: 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/protect_env.py"' }],
          },
        ],
      });
      fx.server.enqueue(
        cmd({ tool: 'fs.read', path: '.env' }),
        cmd({ tool: 'fs.read', path: 'docs/../.env' }),
        cmd({ tool: 'fs.edit', path: '.env', old_string: 'abc', new_string: 'xyz' }),
        cmd({ tool: 'fs.write', path: '.env.local', content: 'K=v\n' }),
        cmd({ tool: 'fs.read', path: 'README.md' }, { tool: 'fs.write', path: 'notes.txt', content: 'ok\n' }),
        chat('done'),
      );
      const r = await ai(['-p', 'look', '--json', '--approve-l1', '--max-steps', '8']);
      ok(r);
      expect(results(r).map(outcome)).toEqual(['hook', 'hook', 'hook', 'hook', 'ran', 'ran']);
      expect(told(1)).toContain(`Blocked: ${path.join(fx.cwd, '.env')} holds secrets`);
      expect(told(4)).toContain(`Blocked: ${path.join(fx.cwd, '.env.local')} holds secrets`);
      expect(readFileSync(path.join(fx.cwd, '.env'), 'utf8')).toBe('API_TOKEN=abc\n');
      await expect(fs.stat(path.join(fx.cwd, '.env.local'))).rejects.toThrow();
      expect(readFileSync(path.join(fx.cwd, 'notes.txt'), 'utf8')).toBe('ok\n');
      expect(JSON.stringify(fx.server.requests[5].body.messages.slice(-2))).toContain('# readme');
    },
  );

  (HAS_JQ ? test : test.skip)(
    `a formatter on Edit|MultiEdit|Write runs after each change, and only then${skipping('jq', HAS_JQ)}`,
    async () => {
      await projectHooks({ PostToolUse: [{ matcher: 'Edit|MultiEdit|Write', hooks: [{ type: 'command', command: FORMATTER }] }] });
      fx.server.enqueue(
        cmd({ tool: 'fs.write', path: 'src/a.js', content: 'let a = 1;   \nlet b = 2;\t\n' }),
        cmd({ tool: 'fs.edit', path: 'src/a.js', old_string: 'let b = 2;', new_string: 'let b = 3;  ' }),
        cmd({ program: 'ls', args: ['src'] }, { tool: 'fs.read', path: 'src/a.js' }),
        chat('done'),
      );
      const r = await ai(['-p', 'write', '--json', '--approve-l1', '--max-steps', '6']);
      ok(r);
      const file = path.join(fx.cwd, 'src', 'a.js');
      expect(readFileSync(file, 'utf8')).toBe('let a = 1;\nlet b = 3;\n');
      expect(readFileSync(path.join(fx.cwd, 'formatted.log'), 'utf8')).toBe(`${file}\n${file}\n`);
    },
  );

  (HAS_JQ ? test : test.skip)(
    `an mcp__.* guard sees mcp__<server>__<tool> with the tool's own arguments, blocks what it should, and no other tool${skipping('jq', HAS_JQ)}`,
    async () => {
      await fs.writeFile(path.join(fx.temp.home, '.claude.json'), JSON.stringify({ mcpServers: { kit: testMcpStdioCommand() } }));
      await projectHooks({ PreToolUse: [{ matcher: 'mcp__.*', hooks: [{ type: 'command', command: MCP_GUARD }] }] });
      fx.server.enqueue(
        cmd({ tool: 'mcp.kit.echo', arguments: { text: 'hello there' } }),
        cmd({ tool: 'mcp.kit.echo', arguments: { text: 'my secret plan' } }),
        cmd({ program: 'ls', args: [] }),
        chat('done'),
      );
      const r = await ai(['-p', 'echo', '--json', '--approve-l1', '--max-steps', '6']);
      ok(r);
      expect(results(r).map(outcome)).toEqual(['ran', 'hook', 'ran']);
      expect(told(1)).toContain('hello there');
      expect(told(2)).toContain('no secrets to MCP servers');
      const seen = readFileSync(path.join(fx.cwd, 'mcp.log'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(seen).toEqual([
        { tool_name: 'mcp__kit__echo', tool_input: { text: 'hello there' } },
        { tool_name: 'mcp__kit__echo', tool_input: { text: 'my secret plan' } },
      ]);
    },
  );

  test("stdin is Claude Code's exactly (ours in `slothtool`); bash-only syntax works; a failing hook's error reaches the user only", async () => {
    const log = '"$CLAUDE_PROJECT_DIR/events.jsonl"';
    await write('README.md', '# readme\n');
    await projectHooks({
      PreToolUse: [
        { matcher: 'Bash|Read', hooks: [{ type: 'command', command: `{ cat; echo; } >> ${log}` }] },
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: `input=$(cat); if [[ $input == *'"tool_name":"Bash"'* ]]; then echo bash-only-ok >> "$CLAUDE_PROJECT_DIR/bash-only.log"; fi`,
            },
          ],
        },
        { matcher: 'Read', hooks: [{ type: 'command', command: 'echo "boom: the linter crashed" >&2; exit 1' }] },
      ],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `{ cat; echo; } >> ${log}` }] }],
    });
    fx.server.enqueue(
      cmd({ program: 'ls', args: ['-a'], timeoutMs: 20000 }, { tool: 'fs.read', path: 'README.md', offset: 1, limit: 5 }),
      chat('done'),
    );
    const r = await ai(['-p', 'look', '--json', '--max-steps', '4']);
    ok(r);
    const events = readFileSync(path.join(fx.cwd, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const common = {
      session_id: expect.any(String),
      transcript_path: expect.stringMatching(/\.jsonl$/),
      cwd: fx.cwd,
      permission_mode: 'default',
    };
    expect(events).toEqual([
      {
        ...common,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls -a', timeout: 20000 },
        tool_use_id: 'cmd_001',
        slothtool: { tool: 'exec', input: { program: 'ls', args: ['-a'], timeoutMs: 20000 } },
      },
      {
        ...common,
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls -a', timeout: 20000 },
        tool_response: { stdout: expect.stringContaining('README.md'), stderr: '', interrupted: false, isImage: false },
        tool_use_id: 'cmd_001',
        slothtool: expect.any(Object),
      },
      {
        ...common,
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path: path.join(fx.cwd, 'README.md'), offset: 1, limit: 5 },
        tool_use_id: 'cmd_002',
        slothtool: { tool: 'fs.read', input: { path: 'README.md', offset: 1, limit: 5 } },
      },
    ]);
    expect(Object.keys(events[0])).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'permission_mode',
      'hook_event_name',
      'tool_name',
      'tool_input',
      'tool_use_id',
      'slothtool',
    ]);
    expect(readFileSync(path.join(fx.cwd, 'bash-only.log'), 'utf8')).toBe('bash-only-ok\n');
    // Exit 1 is a non-blocking error: the user is told, the model is not, and the step ran.
    expect(r.events.filter((e) => e.type === 'log' && e.code === 'hook').map((e) => e.message)).toEqual([
      expect.stringContaining('failed (exit 1): boom: the linter crashed'),
    ]);
    expect(JSON.stringify(fx.server.requests[1].body.messages)).not.toContain('boom');
    expect(told(1)).toContain('# readme');
  });

  test('updatedInput is judged as a new step: the model gets the changed step, and an L2 one stays refused', async () => {
    const answer = (input: object) =>
      `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: input } })}'`;
    await projectHooks({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: `input=$(cat); if [[ $input == *'"command":"ls"'* ]]; then ${answer({ command: 'ls -a' })}; elif [[ $input == *'"command":"pwd"'* ]]; then ${answer({ command: 'rm -rf /' })}; fi`,
            },
          ],
        },
      ],
    });
    fx.server.enqueue(
      cmd({ program: 'ls', args: [] }),
      cmd({ program: 'ls', args: ['-a'] }),
      cmd({ program: 'pwd', args: [] }),
      cmd({ program: 'rm', args: ['-rf', '/'] }),
      chat('done'),
    );
    const r = await ai(['-p', 'list', '--json', '--approve-l1', '--max-steps', '6']);
    ok(r);
    const seen = results(r);
    expect(seen.map(outcome)).toEqual(['hook', 'ran', 'hook', 'blocked']);
    expect(seen[0].proposedStep).toEqual({ tool: 'exec', program: 'ls', args: ['-a'] });
    expect(told(1)).toContain('send it as a new step');
    expect(seen[3].decision.level).toBe('L2');
  });
});
