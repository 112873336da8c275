import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// The task-success harness against the scripted model server: a model that solves every task
// passes them all, one that claims success at once (or runs the destructive command) fails them
// all — the harness, each task's setup and each checker are proven without a network.
const { runEval, writeReport, ALL_TASKS } = require('../eval/harness') as {
  runEval(
    o: Record<string, unknown>,
  ): Promise<{ profile: string; transport: string; rows: Array<{ task: string; ok: boolean; why: string; steps: number; input: number }> }>;
  writeReport(file: string, result: unknown): void;
  ALL_TASKS: Array<{ id: string }>;
};

jest.setTimeout(240_000);

test('at least 20 tasks; a scripted good model passes every one, a bad one fails every one', async () => {
  expect(ALL_TASKS.length).toBeGreaterThanOrEqual(20);
  const good = await runEval({ scripted: 'good' });
  expect(good.rows.filter((r) => !r.ok)).toEqual([]);
  expect(good.rows.every((r) => r.input > 0)).toBe(true);
  const bad = await runEval({ scripted: 'bad' });
  expect(bad.rows.filter((r) => r.ok).map((r) => r.task)).toEqual([]);
  expect(bad.rows.every((r) => r.why.length > 0)).toBe(true);

  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eval-report-')), 'results.md');
  writeReport(file, good);
  writeReport(file, bad);
  writeReport(file, { ...good, date: 'again' });
  const text = fs.readFileSync(file, 'utf8');
  expect(text.match(/^## scripted-good · auto$/gm)).toHaveLength(1);
  expect(text).toContain('## scripted-bad · auto');
  expect(text).toContain(`again · ${ALL_TASKS.length}/${ALL_TASKS.length} tasks passed`);
  expect(text).toContain('| fix-failing-test | 1 | pass |');
});

test('a subset and an unknown task id', async () => {
  const r = await runEval({ scripted: 'good', tasks: ['count-lines'], runs: 2 });
  expect(r.rows.map((x) => [x.task, x.ok])).toEqual([
    ['count-lines', true],
    ['count-lines', true],
  ]);
  await expect(runEval({ scripted: 'good', tasks: ['no-such-task'] })).rejects.toThrow(/unknown task no-such-task/);
});
