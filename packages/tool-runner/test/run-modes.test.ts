import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner, type Sandbox } from '../src';

// Modes: plan runs only L0 (a write is refused with a reason the model sees, nothing changes),
// auto-edit lets workspace edits through, yolo every L1 but only inside an OS sandbox; L2 always refused.
let ws: string;
let asked: string[];
beforeEach(() => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'modes-')));
  fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
  asked = [];
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

/** A result's status (an http.get result has none). */
const statusOf = (result: object): string | undefined => (result as { status?: string }).status;
const runner = (sandbox: 'off' | Sandbox = 'off') =>
  createToolRunner({ cwd: ws, workspace: ws, lang: 'en', sandbox, confirm: (r) => (asked.push(r.sessionKey), { action: 'decline' }) });
const read = { tool: 'fs.read' as const, path: 'a.txt' };
const edit = { tool: 'fs.edit' as const, path: 'a.txt', old_string: 'one', new_string: 'two' };
const write = { tool: 'fs.write' as const, path: 'b.txt', content: 'new\n' };
const touch = { tool: 'exec' as const, program: 'touch', args: ['c.txt'] };
const rm = { tool: 'exec' as const, program: 'rm', args: ['-rf', '/'] };

test('default: L0 runs, L1 asks', async () => {
  const r = runner();
  expect(r.mode).toBe('default');
  expect(r.judge(read).level).toBe('L0');
  expect(r.judge(touch).level).toBe('L1');
});

test('plan: reading runs; a write or a command that changes something is refused with why, and nothing on disk changes', async () => {
  const r = runner();
  expect(r.setMode('plan')).toEqual({ ok: true });
  expect(statusOf(await r.run(read))).not.toBe('blocked');
  await r.run(read); // fs.write/edit need a read first: the refusal below is the mode's, not that rule's
  for (const step of [edit, write, touch]) {
    const result = await r.run(step);
    expect(statusOf(result)).toBe('blocked');
    const rule = result.decision.rules.find((x) => x.id === 'mode.plan');
    expect(rule?.reason).toMatch(/plan mode: only read-only steps run/);
    expect(rule?.hint).toMatch(/end with a plan/);
  }
  expect(asked).toEqual([]);
  expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  expect(fs.existsSync(path.join(ws, 'b.txt'))).toBe(false);
  expect(fs.existsSync(path.join(ws, 'c.txt'))).toBe(false);
});

test('auto-edit: edits and writes inside the workspace run without a question; commands still ask; L2 refused', async () => {
  const r = runner();
  r.setMode('auto-edit');
  await r.run(read);
  const shown: string[] = [];
  expect(await r.run(edit, { onOutput: (chunk) => shown.push(chunk) })).toMatchObject({ decision: { level: 'L0' } });
  expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('two\n');
  // No question, but the diff is still shown.
  expect(shown.join('')).toMatch(/-one[\s\S]*\+two/);
  expect((await r.run(write)).decision.rules.map((x) => x.id)).toContain('mode.auto_edit');
  expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('new\n');
  expect(r.judge(touch).level).toBe('L1');
  expect(r.judge({ tool: 'fs.write', path: '../outside.txt', content: 'x' }).level).not.toBe('L0');
  expect(r.judge(rm).level).toBe('L2');
  expect(asked).toEqual([]);
});

test('yolo needs the OS sandbox: refused without it, with why', () => {
  const r = runner('off');
  const res = r.setMode('yolo');
  expect(res.ok).toBe(false);
  expect(!res.ok && res.reason).toMatch(/yolo mode needs the OS sandbox/);
  expect(r.mode).toBe('default');
});

test('yolo inside a sandbox: L1 runs without a question, L2 is still refused', () => {
  const sandbox: Sandbox = {
    status: () => ({ mode: 'auto', kind: 'bwrap' }),
    wrap: (_level: unknown, _network: unknown, _cwd: unknown, program: string, args: string[]) => ({ program, args }),
  } as unknown as Sandbox;
  const r = runner(sandbox);
  expect(r.setMode('yolo')).toEqual({ ok: true });
  const d = r.judge(touch);
  expect(d.level).toBe('L0');
  expect(d.rules.map((x) => x.id)).toContain('mode.yolo');
  expect(r.judge(rm).level).toBe('L2');
});

describe('config.json_patch changes can be undone like file edits', () => {
  test('a patch inside the workspace goes into the journal; undo brings the file back byte for byte', async () => {
    const file = path.join(ws, 'tsconfig.json');
    const original = '{\n  "compilerOptions": { "strict": false },\n  "x": [1, 2]\n}\n';
    fs.writeFileSync(file, original);
    // The patch's backup goes to the SlothTool home: a temporary one, never the real ~/.slothtool.
    const env = { ...process.env, SLOTHTOOL_HOME: path.join(ws, '.home') };
    const r = createToolRunner({ cwd: ws, workspace: ws, lang: 'en', sandbox: 'off', env, confirm: () => ({ action: 'run' }) });
    const mark = r.mark();
    const result = await r.run({
      tool: 'config.json_patch',
      file: 'tsconfig.json',
      patch: [{ op: 'replace', path: '/compilerOptions/strict', value: true }],
    });
    expect(result).toMatchObject({ status: 'applied' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).compilerOptions.strict).toBe(true);
    expect(r.changes(mark)).toEqual([expect.objectContaining({ tool: 'config.json_patch', path: file })]);
    const undone = r.undo(mark);
    expect(undone.restored).toEqual([expect.objectContaining({ path: file })]);
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });
});
