import { promises as fs } from 'fs';
import * as path from 'path';
import { llmBaseConfig, llmProfile, useAiFixture } from '@holic512/testkit';
import { readSession } from './helpers/session';
import { runAi } from './run-bin';

// Skills: the prompt carries the index only; the body comes in when the model loads the skill
// with skill.load (L0), and that result reaches the next request.
const fx = useAiFixture({ profile: { low_model: 'test-low', high_model: 'test-high' } });

beforeEach(async () => {
  const skill = path.join(fx.temp.slothtoolHome, 'skills', 'release-notes');
  await fs.mkdir(skill, { recursive: true });
  await fs.writeFile(
    path.join(skill, 'SKILL.md'),
    '---\nname: release-notes\ndescription: Write release notes from git log\n---\nBODY-MARKER: run git log --oneline since the last tag, group by type.\n',
  );
});

test('the index is in the system prompt, the body only after skill.load', async () => {
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'load the skill', data: { cwd: null, commands: [{ tool: 'skill.load', name: 'release-notes' }] } } },
    { json: { type: 'chat', message: 'ok' } },
  );
  const r = await runAi(['-p', 'write release notes', '--json'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const first = JSON.stringify(fx.server.requests[0].body.messages);
  expect(first).toContain('- release-notes: Write release notes from git log');
  expect(first).toContain('skill.load');
  expect(first).not.toContain('BODY-MARKER');
  const step = r.events.find((e) => e.type === 'step');
  expect(step).toMatchObject({ decision: { level: 'L0' } });
  const second = fx.server.requests[1].body.messages.at(-1).content as string;
  expect(second).toContain('BODY-MARKER');
  expect(second).toContain(path.join(fx.temp.slothtoolHome, 'skills', 'release-notes').split(path.sep).join('/').split('/').pop());
});

test('without skills nothing about them is in the prompt', async () => {
  await fs.rm(path.join(fx.temp.slothtoolHome, 'skills'), { recursive: true });
  fx.server.enqueue({ json: { type: 'chat', message: 'ok' } });
  await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
  expect(JSON.stringify(fx.server.requests[0].body.messages)).not.toContain('skill.load');
});

describe('hooks', () => {
  /** ai.json whose PreToolUse hook blocks any `touch` with `why` (exit 2), beside the `more` hooks. */
  const blockTouch = (why: string, more: Record<string, unknown> = {}) =>
    fx.temp.writeJson('plugin-configs/ai.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'exec',
            hooks: [{ type: 'command', command: `grep -q '"touch"' && { echo "${why}" >&2; exit 2; } || exit 0` }],
          },
        ],
        ...more,
      },
    });
  /** The model looks at a.txt, then makes made.txt; its chat replies after that follow. */
  const lookThenTouch = async (...replies: string[]) => {
    await fs.writeFile(path.join(fx.cwd, 'a.txt'), 'x\n');
    fx.server.enqueue(
      {
        json: {
          type: 'cmd',
          message: 'look, then make a file',
          data: {
            cwd: null,
            commands: [
              { program: 'cat', args: ['a.txt'] },
              { program: 'touch', args: ['made.txt'] },
            ],
          },
        },
      },
      ...replies.map((message) => ({ json: { type: 'chat', message } })),
    );
  };

  test('a PreToolUse hook that exits 2 blocks the step and the model sees why; PostToolUse sees what ran', async () => {
    const seen = path.join(fx.temp.home, 'post.log');
    await blockTouch('no new files in this repo', {
      PostToolUse: [{ hooks: [{ type: 'command', command: `cat >> ${JSON.stringify(seen)}` }] }],
    });
    await lookThenTouch('I could not create it');
    const r = await runAi(['-p', 'make a file', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    await expect(fs.stat(path.join(fx.cwd, 'made.txt'))).rejects.toThrow();
    const results = fx.server.requests[1].body.messages.at(-1).content as string;
    expect(results).toContain('blocked by a PreToolUse hook: no new files in this repo');
    const post = await fs.readFile(seen, 'utf8');
    expect(post).toContain('"hook_event_name":"PostToolUse"');
    expect(post).toContain('"tool_name":"exec"');
    expect(post).not.toContain('made.txt'); // the blocked step never reached PostToolUse
  });

  test('a step a hook blocked is recorded as blocked by the hook, never as ran: the model, the session file and the audit say the same', async () => {
    await blockTouch('no new files');
    await lookThenTouch('blocked', 'ok');
    // Two messages: the second request carries the first turn as the session keeps it.
    const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.cwd, input: 'make a file\nwhat happened?\n' });
    expect(r.code).toBe(0);
    await expect(fs.stat(path.join(fx.cwd, 'made.txt'))).rejects.toThrow();
    expect(r.stdout).toContain('blocked by a PreToolUse hook (not run) — no new files');
    const records = await readSession(fx.temp);
    // The reply as the model sent it; each result as the model read it, and the one-line form a fold would leave.
    const assistant = records.find((x) => x.t === 'assistant');
    expect(JSON.parse(assistant.content)).toMatchObject({ type: 'cmd', message: 'look, then make a file' });
    const tools = records.filter((x) => x.t === 'tool');
    expect(tools.map((x) => JSON.parse(x.content))).toEqual([
      expect.objectContaining({ id: 'cmd_001', program: 'cat', exitCode: 0 }),
      expect.objectContaining({ id: 'cmd_002', program: 'touch', status: 'blocked', blockedBy: 'hook' }),
    ]);
    expect(tools.map((x) => JSON.parse(x.short))).toEqual([
      expect.objectContaining({ id: 'cmd_001', step: 'cat a.txt', outcome: 'ran', exitCode: 0 }),
      expect.objectContaining({ id: 'cmd_002', step: 'touch made.txt', status: 'blocked', outcome: 'blocked_by_hook' }),
    ]);
    // What the model reads of that turn later is the session's own record of it.
    const later = fx.server.requests[2].body.messages.map((m: { content: string }) => m.content);
    for (const x of [assistant, ...records.filter((x) => x.t === 'tool')]) expect(later).toContain(x.content);
    const audit = await fx.temp.readJsonLines('ai/audit.jsonl');
    expect(audit.map((a) => [a.id, a.outcome, a.approvedBy])).toEqual([
      ['cmd_001', 'exit 0', 'policy'],
      ['cmd_002', 'blocked_by_hook', 'none'],
    ]);
  });

  test('SessionStart and UserPromptSubmit add context for the model (once per session / every message)', async () => {
    await fx.temp.writeJson('plugin-configs/ai.json', {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo "branch is release-7"' }] }],
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: 'echo \'{"hookSpecificOutput":{"additionalContext":"ticket ABC-42"}}\'' }] },
        ],
      },
    });
    fx.server.enqueue({ json: { type: 'chat', message: 'one' } }, { json: { type: 'chat', message: 'two' } });
    const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.cwd, input: 'first\nsecond\n' });
    expect(r.code).toBe(0);
    const first = JSON.stringify(fx.server.requests[0].body.messages);
    expect(first).toContain('branch is release-7');
    expect(first).toContain('ticket ABC-42');
    const secondTail = JSON.stringify(fx.server.requests[1].body.messages.slice(-2));
    expect(secondTail).toContain('ticket ABC-42');
    expect(secondTail).not.toContain('branch is release-7'); // SessionStart ran once
  });

  test('a UserPromptSubmit hook that exits 2 keeps the message from the model, and says why', async () => {
    await fx.temp.writeJson('plugin-configs/ai.json', {
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: 'grep -q password && { echo "do not paste passwords" >&2; exit 2; } || exit 0' }] },
        ],
      },
    });
    const r = await runAi(['-p', 'my password is hunter2'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('do not paste passwords');
    expect(fx.server.requests).toHaveLength(0);
  });

  test('a Stop hook that exits 2 sends the answer back once with its reason; stop_hook_active is set the second time', async () => {
    const log = path.join(fx.temp.home, 'stop.log');
    await fx.temp.writeJson('plugin-configs/ai.json', {
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                command: `cat >> ${JSON.stringify(log)}; echo >> ${JSON.stringify(log)}; grep -q '"stop_hook_active":false' ${JSON.stringify(log)} && [ "$(wc -l < ${JSON.stringify(log)})" -lt 2 ] && { echo "run the tests first" >&2; exit 2; } || exit 0`,
              },
            ],
          },
        ],
      },
    });
    fx.server.enqueue({ json: { type: 'chat', message: 'done already' } }, { json: { type: 'chat', message: 'tests pass now' } });
    const r = await runAi(['-p', 'fix it'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('tests pass now');
    expect(fx.server.requests).toHaveLength(2);
    expect(JSON.stringify(fx.server.requests[1].body.messages.at(-1))).toContain('run the tests first');
    const lines = (await fs.readFile(log, 'utf8')).trim().split('\n');
    expect(lines[0]).toContain('"stop_hook_active":false');
    expect(lines[1]).toContain('"stop_hook_active":true');
  });

  test('a Stop hook that always blocks cannot keep the turn going forever', async () => {
    await fx.temp.writeJson('plugin-configs/ai.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo never done >&2; exit 2' }] }] },
    });
    fx.server.setHandler(() => ({ json: { type: 'chat', message: 'answer' } }));
    const r = await runAi(['-p', 'go'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    expect(fx.server.requests).toHaveLength(4); // the answer, and three times sent back
  });
});

test("a custom command's front matter picks the model tier and profile for its turn only", async () => {
  const dir = path.join(fx.temp.slothtoolHome, 'commands');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'deep.md'), '---\ndescription: think hard\nmode: high\n---\nReview $ARGUMENTS carefully.\n');
  await fs.writeFile(path.join(dir, 'other.md'), '---\nprofile: second\n---\nAsk the other profile about $1.\n');
  await fx.temp.writeJson(
    'plugin-configs/llm-base.json',
    llmBaseConfig({
      local: llmProfile(fx.server.baseURL),
      second: llmProfile(fx.server.baseURL, { low_model: 'second-low', high_model: 'second-high' }),
    }),
  );
  fx.server.setHandler(() => ({ json: { type: 'chat', message: 'ok' } }));
  const r = await runAi(['-i'], { env: fx.temp.env, cwd: fx.cwd, input: '/deep src/app.ts\nplain question\n/other x.ts\n' });
  expect(r.code).toBe(0);
  expect(fx.server.requests.map((q) => q.body.model)).toEqual(['test-high', 'test-low', 'second-low']);
  expect(JSON.stringify(fx.server.requests[0].body.messages.at(-1))).toContain('Review src/app.ts carefully.');
  expect(JSON.stringify(fx.server.requests[2].body.messages.at(-1))).toContain('Ask the other profile about x.ts.');
});

test('a PreToolUse hook answering "ask" makes an L0 step ask (declined in -p), never lets an L2 one run', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'exec',
          hooks: [
            {
              type: 'command',
              command: 'echo \'{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check first"}}\'',
            },
          ],
        },
      ],
    },
  });
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ program: 'ls', args: [] }] } } },
    { json: { type: 'chat', message: 'ok' } },
    { json: { type: 'cmd', message: 'wipe', data: { cwd: null, commands: [{ program: 'rm', args: ['-rf', '/'] }] } } },
    { json: { type: 'chat', message: 'ok' } },
  );
  const r = await runAi(['-p', 'list', '--json'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { status: 'declined' } });
  const approved = await runAi(['-p', 'wipe', '--json', '--approve-l1'], { env: fx.temp.env, cwd: fx.cwd });
  expect(approved.events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { status: 'blocked', decision: { level: 'L2' } } });
});
