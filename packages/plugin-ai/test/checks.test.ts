import { checkDigest, checkLine, checkMatches, checksFor, firstErrors, readChecks } from '../src/extensions/checks';
import { checksText } from '../src/interactive/checks-view';
import { createTheme } from '../src/interactive/theme';
import type { ToolResult } from '../src/agent/runner-types';

// Checks after edits (issue #46): which checks a reply's changes call for, and the digest of what
// a check printed — its exit code and first errors, cut and redacted.

test.each<[string, unknown, object]>([
  [
    'a good list',
    [{ match: '**/*.ts', run: ['npx', 'tsc', '--noEmit'] }],
    { checks: [{ match: '**/*.ts', run: ['npx', 'tsc', '--noEmit'], source: 'f' }], problems: [] },
  ],
  ['none', undefined, { checks: [], problems: [] }],
  [
    'a run that is a string',
    [{ match: '*.py', run: 'ruff check' }],
    { checks: [], problems: [{ source: 'f', error: expect.stringContaining('checks.0.run') }] },
  ],
  [
    'an empty run',
    [{ match: '*.py', run: [] }],
    { checks: [], problems: [{ source: 'f', error: expect.stringContaining('run must be the program and its arguments') }] },
  ],
  ['no match', [{ run: ['go', 'vet'] }], { checks: [], problems: [{ source: 'f', error: expect.stringContaining('checks.0.match') }] }],
  [
    'a stray key',
    [{ match: '*', run: ['x'], shell: true }],
    { checks: [], problems: [{ source: 'f', error: expect.stringContaining('shell') }] },
  ],
  ['not a list', { match: '*' }, { checks: [], problems: [{ source: 'f', error: expect.stringContaining('checks') }] }],
])('readChecks: %s', (_name, value, expected) => expect(readChecks(value, 'f')).toEqual(expected));

test.each<[string, string, boolean]>([
  ['**/*.ts', 'src/a.ts', true],
  ['**/*.ts', 'a.ts', true],
  ['*.ts', 'src/deep/a.ts', true],
  ['src/**/*.py', 'src/x/a.py', true],
  ['src/**/*.py', 'tests/a.py', false],
  ['*.ts', 'src/a.tsx', false],
  ['**/*.go', '.hidden/a.go', true],
])('checkMatches(%s, %s) is %s', (glob, rel, expected) => expect(checkMatches(glob, rel)).toBe(expected));

test('each check once per reply, attached to its last matching edit; other files and files outside the workspace call for none', () => {
  const checks = [
    { match: '*.ts', run: ['npx', 'tsc', '--noEmit'], source: 'ai.json' },
    { match: '*.py', run: ['ruff', 'check'], source: 'ai.json' },
    { match: 'docs/**', run: ['vale', 'docs'], source: 'ai.json' },
  ];
  const changes = [
    { stepId: 'cmd_001', path: '/w/src/a.ts' },
    { stepId: 'cmd_002', path: '/w/README.md' },
    { stepId: 'cmd_003', path: '/w/src/b.ts' },
    { stepId: 'cmd_004', path: '/elsewhere/c.py' },
  ];
  expect(checksFor(changes, checks, '/w')).toEqual([{ check: checks[0], stepId: 'cmd_003', files: ['src/a.ts', 'src/b.ts'] }]);
  expect(checksFor([], checks, '/w')).toEqual([]);
});

test.each<[string, string, string[]]>([
  [
    'tsc',
    "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\nsrc/b.ts(9,1): error TS2304: Cannot find name 'x'.\n\nFound 2 errors in 2 files.\n",
    [
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/b.ts(9,1): error TS2304: Cannot find name 'x'.",
    ],
  ],
  [
    'eslint -f unix',
    "/w/src/a.js:1:7: 'x' is assigned a value but never used. [Error/no-unused-vars]\n\n1 problem\n",
    ["/w/src/a.js:1:7: 'x' is assigned a value but never used. [Error/no-unused-vars]"],
  ],
  [
    'ruff',
    'a.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.\n',
    ['a.py:1:8: F401 [*] `os` imported but unused', 'Found 1 error.'],
  ],
  [
    'cargo check',
    '    Checking demo v0.1.0\nerror[E0308]: mismatched types\n --> src/main.rs:2:18\n  |\n2 |     let x: i32 = "a";\n',
    ['error[E0308]: mismatched types', ' --> src/main.rs:2:18'],
  ],
  [
    'go vet',
    '# demo\n./main.go:5:2: fmt.Printf format %d has arg s of wrong type string\n',
    ['./main.go:5:2: fmt.Printf format %d has arg s of wrong type string'],
  ],
  ['anything else: its first lines', 'something went wrong\nbadly\n', ['something went wrong', 'badly']],
])('the first errors of %s', (_name, output, errors) => expect(firstErrors(output).errors).toEqual(errors));

test('the first errors are capped in lines and characters, and say how many more', () => {
  const many = Array.from({ length: 40 }, (_, i) => `src/a.ts(${i + 1},1): error TS1: ${'x'.repeat(500)}`).join('\n');
  const { errors, more } = firstErrors(many);
  expect(errors.length).toBeLessThanOrEqual(12);
  expect(errors.join('').length).toBeLessThanOrEqual(2000);
  expect(errors[0].endsWith('…')).toBe(true);
  expect(more).toBe(40 - errors.length);
});

const result = (over: Partial<ToolResult>): ToolResult => ({
  _event: 'tool_result',
  id: 'cmd_009',
  tool: 'exec',
  decision: { level: 'L0', rules: [], by: 'policy' },
  ...over,
});

test('a digest per outcome; the head of the output is redacted here', () => {
  const check = { run: ['npx', 'tsc', '--noEmit'] };
  expect(checkDigest(check, result({ exitCode: 0, stdoutTail: '' }))).toEqual({ run: 'npx tsc --noEmit', status: 'passed', exitCode: 0 });
  expect(checkDigest(check, result({ exitCode: 2, stdoutTail: 'a.ts(1,1): error TS1: x\n' }))).toEqual({
    run: 'npx tsc --noEmit',
    status: 'failed',
    exitCode: 2,
    errors: ['a.ts(1,1): error TS1: x'],
  });
  const token = `ghp_${'a1B2'.repeat(9)}`;
  const digest = checkDigest(check, result({ exitCode: 1, stdoutTail: 'tail only' }), `a.ts:1:1: error: leaked ${token}\n`);
  expect(JSON.stringify(digest)).not.toContain(token);
  expect(digest.errors![0]).toMatch(/^a\.ts:1:1: error: leaked /);
  expect(checkDigest(check, result({ status: 'declined', reason: 'declined (no one to ask)' }))).toEqual({
    run: 'npx tsc --noEmit',
    status: 'not_run',
    note: 'declined (no one to ask)',
  });
  expect(checkDigest(check, result({ exitCode: null, timedOut: true, stdoutTail: '' }))).toMatchObject({
    status: 'error',
    note: 'it ran out of time',
  });
  expect(checkLine({ run: ['eslint', 'src/**/*.ts', "it's"] })).toBe(`eslint 'src/**/*.ts' 'it'\\''s'`);
});

test('/checks lists each check with its file and this session’s answer, or how to add one', () => {
  const theme = createTheme(false);
  const checks = [{ match: '**/*.ts', run: ['npx', 'tsc', '--noEmit'], source: '/h/ai.json' }];
  const text = checksText(
    checks,
    [{ source: '/w/.slothtool/settings.json', error: 'checks.0.run: bad' }],
    new Map([['npx tsc --noEmit', 'no']]),
    '/h/ai.json',
    theme,
    'en',
  );
  expect(text).toContain('**/*.ts  →  npx tsc --noEmit  · /h/ai.json  (declined this session: not run)');
  expect(text).toContain('/w/.slothtool/settings.json: checks.0.run: bad');
  expect(checksText([], [], undefined, '/h/ai.json', theme, 'zh')).toContain('没有检查');
});
