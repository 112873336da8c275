import { promises as fs } from 'fs';
import * as path from 'path';
import { useAiFixture, writeFiles } from '@holic512/testkit';
import { runAi } from './run-bin';

// fs.edit with `edits` through the real `ai -p --json` against the scripted model (issue #46):
// several places of one file in one step, all or nothing; a Claude Code hook reads it as MultiEdit.
const fx = useAiFixture({ git: true });

const FILE = 'export const a = 1;\nexport const b = 2;\n';
const edit = (...edits: Array<[string, string]>) => ({
  tool: 'fs.edit',
  path: 'v.ts',
  edits: edits.map(([old_string, new_string]) => ({ old_string, new_string })),
});
const cmd = (...commands: object[]) => ({ json: { type: 'cmd', message: 'edit', data: { cwd: null, commands } } });

beforeEach(() => fs.writeFile(path.join(fx.cwd, 'v.ts'), FILE));

test('a multi-edit with one bad place changes nothing and says which; the fixed one changes both places', async () => {
  fx.server.enqueue(cmd(edit(['a = 1', 'a = 10'], ['c = 3', 'c = 30'])), cmd(edit(['a = 1', 'a = 10'], ['b = 2', 'b = 20'])), {
    json: { type: 'chat', message: 'done' },
  });
  const r = await runAi(['-p', 'change a and b', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const results = r.events.filter((e) => e.type === 'tool_result').map((e) => e.result);
  expect(results[0]).toMatchObject({
    tool: 'fs.edit',
    status: 'error',
    edit: 1,
    error: { code: 'NOT_FOUND_IN_FILE', message: expect.stringMatching(/^edits\[1\] of 2 \(old_string "c = 3"\)/) },
  });
  // The model read which edit failed; the file was not touched by the first step.
  expect(fx.server.requests[1].body.messages.at(-1).content).toContain('edits[1] of 2');
  expect(results[1]).toMatchObject({ tool: 'fs.edit', status: 'applied', replacements: 2, edits: 2 });
  expect(await fs.readFile(path.join(fx.cwd, 'v.ts'), 'utf8')).toBe('export const a = 10;\nexport const b = 20;\n');
  // One question for the step (approved by the flag), one step event each.
  expect(r.events.filter((e) => e.type === 'step').map((e) => e.label)).toEqual(['edit v.ts (2 edits)', 'edit v.ts (2 edits)']);
});

test("a Claude Code PreToolUse hook on MultiEdit sees Claude Code's fields and can block it", async () => {
  const seen = path.join(fx.temp.home, 'seen.json');
  await writeFiles(fx.temp.home, {
    '.claude/settings.json': {
      hooks: {
        PreToolUse: [
          {
            matcher: 'MultiEdit',
            hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seen)}; echo "no multi-edits here" >&2; exit 2` }],
          },
        ],
      },
    },
  });
  fx.server.enqueue(cmd(edit(['a = 1', 'a = 10'], ['b = 2', 'b = 20'])), { json: { type: 'chat', message: 'blocked' } });
  const r = await runAi(['-p', 'change a and b', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const stdin = JSON.parse(await fs.readFile(seen, 'utf8'));
  expect(stdin.tool_name).toBe('MultiEdit');
  expect(stdin.tool_input).toEqual({
    file_path: path.join(fx.cwd, 'v.ts'),
    edits: [
      { old_string: 'a = 1', new_string: 'a = 10' },
      { old_string: 'b = 2', new_string: 'b = 20' },
    ],
  });
  expect(await fs.readFile(path.join(fx.cwd, 'v.ts'), 'utf8')).toBe(FILE);
  // The audit keeps each edit's size and hash, never its text.
  const audit = await fs.readFile(path.join(fx.temp.slothtoolHome, 'ai', 'audit.jsonl'), 'utf8');
  expect(audit).toContain('"edits":[{"old_string":{"chars":5');
  expect(audit).not.toContain('a = 10');
});
