import { z } from 'zod';
import { GIT_PROGRAM_KEYS, OTHER_WORKSPACE_PROGRAMS } from '../src/policy/workspace-programs';

// workspace-programs.json is data: its rows are checked here against the types of
// workspace-programs.ts (the module casts them, to load without a check of its own).

const Neutraliser = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('git-config'), key: z.string().min(1), value: z.string(), for: z.enum(['all', 'local', 'unsigned']) }),
  z.strictObject({ kind: z.literal('flag'), flag: z.string().min(1) }),
  z.strictObject({ kind: z.literal('env'), name: z.string().min(1), value: z.string() }),
  z.strictObject({ kind: z.literal('judged'), level: z.enum(['L1', 'L2']), forms: z.string().min(1) }),
]);
const Row = z.strictObject({
  program: z.string().min(1),
  source: z.string().min(1),
  reach: z.string().min(1),
  off: z.array(Neutraliser).min(1),
});

test.each([
  ['git', GIT_PROGRAM_KEYS],
  ['other programs', OTHER_WORKSPACE_PROGRAMS],
])('every row of the %s table has the documented shape', (_name, rows) => {
  const problems = rows.flatMap((row, i) => {
    const r = Row.safeParse(row);
    return r.success
      ? []
      : [
          `row ${i} (${String((row as { source?: unknown }).source)}): ${r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
        ];
  });
  expect(problems).toEqual([]);
  expect(rows.length).toBeGreaterThan(0);
});

test('the check finds a row that is not of the types', () => {
  expect(Row.safeParse({ program: 'git', source: 'x', reach: 'y', off: [{ kind: 'judged', level: 'L3', forms: 'z' }] }).success).toBe(
    false,
  );
  expect(Row.safeParse({ program: 'git', source: 'x', reach: 'y', off: [] }).success).toBe(false);
});

test('git rows are git', () => {
  expect(GIT_PROGRAM_KEYS.filter((r) => r.program !== 'git').map((r) => r.source)).toEqual([]);
});
