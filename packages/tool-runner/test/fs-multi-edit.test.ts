import { promises as fsp } from 'fs';
import * as path from 'path';
import {
  claudeToolFields,
  createToolRunner,
  getTool,
  stepFromClaude,
  tools,
  validateStep,
  type ConfirmAnswer,
  type ConfirmRequest,
  type Step,
} from '../src';
import { tempWorld } from './tools-session';

// fs.edit with `edits`: several replacements in one file, in order, all or nothing, one diff and
// one question; a replacement that cannot be made names itself and nothing is written (issue #46).

let world: Awaited<ReturnType<typeof tempWorld>>;
const FILE = 'const a = 1;\nconst b = 2;\nfunction f() {\n  return a + b;\n}\nconst b2 = 2;\n';
beforeEach(async () => {
  world = await tempWorld();
  await fsp.writeFile(path.join(world.ws, 'm.js'), FILE);
});
afterEach(() => world.cleanup());

function make(answers: ConfirmAnswer[] = []) {
  const asked: ConfirmRequest[] = [];
  const runner = createToolRunner({
    cwd: world.ws,
    workspace: world.ws,
    lang: 'en',
    env: { ...process.env, HOME: world.home, SLOTHTOOL_HOME: path.join(world.home, '.slothtool') },
    confirm: async (req) => {
      asked.push(req);
      return answers.shift() ?? { action: 'decline' };
    },
  });
  return { runner, asked };
}

const multi = (...edits: Array<[string, string, boolean?]>): Step =>
  ({
    tool: 'fs.edit',
    path: 'm.js',
    edits: edits.map(([o, n, all]) => ({ old_string: o, new_string: n, ...(all === undefined ? {} : { replace_all: all }) })),
  }) as Step;
const content = () => fsp.readFile(path.join(world.ws, 'm.js'), 'utf8');

test('two places of one file change with one question showing one diff of both', async () => {
  const { runner, asked } = make([{ action: 'run' }]);
  const r = await runner.run(multi(['const a = 1;', 'const a = 10;'], ['  return a + b;', '  return a * b;']));
  expect(asked).toHaveLength(1);
  expect(asked[0].preview).toContain('-const a = 1;\n+const a = 10;');
  expect(asked[0].preview).toContain('-  return a + b;\n+  return a * b;');
  expect(asked[0].sessionKey).toBe('fs.edit m.js');
  expect(r).toMatchObject({ tool: 'fs.edit', status: 'applied', replacements: 2, edits: 2, added: 2, removed: 2 });
  expect(await content()).toBe(FILE.replace('const a = 1;', 'const a = 10;').replace('return a + b', 'return a * b'));
});

test('each replacement works on the text the previous one left, and replace_all counts every place', async () => {
  const { runner } = make([{ action: 'run' }]);
  const r = await runner.run(multi(['const b', 'let b', true], ['let b2 = 2;', 'let b2 = 3;'], ['let b =', 'var b =']));
  expect(r).toMatchObject({ status: 'applied', replacements: 4, edits: 3 });
  expect(await content()).toBe('const a = 1;\nvar b = 2;\nfunction f() {\n  return a + b;\n}\nlet b2 = 3;\n');
});

test.each<[string, Step, string, RegExp]>([
  [
    'a missing old_string',
    multi(['const a = 1;', 'const a = 10;'], ['return a - b', 'return 0']),
    'NOT_FOUND_IN_FILE',
    /^edits\[1\] of 2 \(old_string "return a - b"\): old_string was not found in `m\.js`/,
  ],
  [
    'an ambiguous one',
    multi(['= 2;', '= 3;'], ['const a', 'let a']),
    'AMBIGUOUS',
    /^edits\[0\] of 2 \(old_string "= 2;"\): old_string occurs 2 times/,
  ],
  [
    'one made missing by an earlier one',
    multi(['const a = 1;', 'const z = 1;'], ['const a = 1;', 'x']),
    'NOT_FOUND_IN_FILE',
    /^edits\[1\] of 2/,
  ],
  ['an empty one', multi(['const a', 'let a'], ['', 'x']), 'EMPTY_OLD_STRING', /^edits\[1\] of 2 \(old_string ""\): old_string is empty/],
  ['one that changes nothing', multi(['const a', 'const a']), 'NO_CHANGE', /^edits\[0\] of 1/],
])('%s names which edit failed, asks nothing and writes nothing', async (_name, step, code, message) => {
  const { runner, asked } = make([{ action: 'run' }]);
  const r = await runner.run(step);
  expect(r).toMatchObject({ status: 'error', error: { code, message: expect.stringMatching(message) } });
  expect((r as { error?: { message: string } }).error!.message).toMatch(/Nothing was changed/);
  expect(asked).toHaveLength(0);
  expect(await content()).toBe(FILE);
});

test('a long old_string is quoted by its start only, on one line', async () => {
  const { runner } = make();
  const long = `${'x'.repeat(30)}\n${'y'.repeat(30)}`;
  const r = await runner.run(multi([long, 'z']));
  expect((r as { error?: { message: string } }).error!.message).toContain(`(old_string "${'x'.repeat(30)} ${'y'.repeat(8)}…")`);
  expect((r as { edit?: number }).edit).toBe(0);
});

test('declined: nothing is written; undo restores a multi-edit whole', async () => {
  const declined = make([{ action: 'decline', reason: 'no' }]);
  expect(await declined.runner.run(multi(['const a = 1;', 'const a = 10;'], ['const b = 2;', 'const b = 20;']))).toMatchObject({
    status: 'declined',
  });
  expect(await content()).toBe(FILE);
  const { runner } = make([{ action: 'run' }]);
  const mark = runner.mark();
  await runner.run(multi(['const a = 1;', 'const a = 10;'], ['const b = 2;', 'const b = 20;']));
  expect(runner.changes(mark)).toHaveLength(1);
  runner.undo(mark);
  expect(await content()).toBe(FILE);
});

test.each<[string, Record<string, unknown>, RegExp]>([
  [
    'both forms',
    { path: 'm.js', old_string: 'a', new_string: 'b', edits: [{ old_string: 'c', new_string: 'd' }] },
    /either old_string \/ new_string .* or edits/,
  ],
  ['neither', { path: 'm.js' }, /old_string and new_string are required/],
  ['an empty list', { path: 'm.js', edits: [] }, /edits/],
  ['too many', { path: 'm.js', edits: Array.from({ length: 101 }, (_, i) => ({ old_string: `a${i}`, new_string: 'b' })) }, /edits/],
  ['an edit without new_string', { path: 'm.js', edits: [{ old_string: 'c' }] }, /edits\.0\.new_string/],
])('the schema refuses %s', (_name, input, why) => {
  expect(validateStep({ tool: 'fs.edit', ...input })).toMatch(why);
});

test('the one edit form is unchanged, and is still valid', () => {
  expect(validateStep({ tool: 'fs.edit', path: 'm.js', old_string: 'a', new_string: 'b' })).toBeUndefined();
  expect(validateStep({ tool: 'fs.edit', path: 'm.js', edits: [{ old_string: 'a', new_string: 'b', replace_all: true }] })).toBeUndefined();
});

describe("Claude Code's MultiEdit", () => {
  const ctx = { cwd: '/w' };
  test('MultiEdit of several edits is one fs.edit with edits; of one, the plain form', () => {
    const edits = [
      { old_string: 'a', new_string: 'b' },
      { old_string: 'c', new_string: 'd', replace_all: true },
    ];
    expect(stepFromClaude('MultiEdit', { file_path: '/w/m.js', edits }, tools)).toEqual({
      step: { tool: 'fs.edit', path: '/w/m.js', edits },
    });
    expect(
      stepFromClaude('MultiEdit', { file_path: 'm.js', edits: [{ old_string: 'a', new_string: 'b', replace_all: 'yes' }] }, tools),
    ).toEqual({ step: { tool: 'fs.edit', path: 'm.js', old_string: 'a', new_string: 'b', replace_all: 'yes' } });
    expect(
      stepFromClaude('MultiEdit', { file_path: 'm.js', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c' }] }, tools),
    ).toEqual({ error: 'edits[1].new_string must be a string' });
    expect(stepFromClaude('MultiEdit', { file_path: 'm.js', edits: [] }, tools)).toEqual({
      error: expect.stringContaining('edits must be a list'),
    });
  });

  test("a hook reads a multi-edit as MultiEdit with Claude Code's fields, one edit as Edit", () => {
    const def = getTool('fs.edit');
    const step = {
      tool: 'fs.edit',
      path: 'm.js',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd', replace_all: true },
      ],
    };
    expect(claudeToolFields(def, step, ctx)).toEqual({
      tool_name: 'MultiEdit',
      tool_input: {
        file_path: '/w/m.js',
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c', new_string: 'd', replace_all: true },
        ],
      },
    });
    expect(claudeToolFields(def, { tool: 'fs.edit', path: 'm.js', old_string: 'a', new_string: 'b' }, ctx).tool_name).toBe('Edit');
    expect(def!.claude!.response!(step as never, {}, ctx)).toMatchObject({
      filePath: '/w/m.js',
      edits: [{ replace_all: false }, { replace_all: true }],
    });
  });

  test('the question lists each edit by its place in the list', () => {
    const def = getTool('fs.edit')!;
    const s = {
      tool: 'fs.edit',
      path: 'm.js',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd', replace_all: true },
      ],
    };
    expect(def.summary!(s as never).fields.map((f) => f.name)).toEqual([
      'path',
      'edits[0].old_string',
      'edits[0].new_string',
      'edits[1].old_string (all)',
      'edits[1].new_string',
    ]);
    expect(def.digest(s as never)).toBe('edit m.js (2 edits)');
  });
});
