import { Agent } from '../src/agent/agent';
import { fitToolResult } from '../src/context/fit';
import { parseReply } from '../src/context/protocol';
import type { ConfirmFn, StepRunner, ToolResult, UndoResult } from '../src/agent/runner-types';
import { config } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { verdict } from './helpers/fake-runner';

// The core side of /undo and of ending a session: the agent remembers, per turn, where the
// runner's file journal stood, and hands undo/dispose to the runner.

/** A runner whose fs.edit steps "change" a file in a journal it keeps. */
function journalRunner() {
  const journal: Array<{ seq: number; stepId: string; tool: string; path: string }> = [];
  const undone: number[] = [];
  let disposed = 0;
  const create = (_confirm: ConfirmFn): StepRunner => ({
    verdict: () => verdict('L0'),
    async run(step, options = {}): Promise<ToolResult> {
      const s = step as { tool: string; path?: string };
      if (s.tool === 'fs.edit') journal.push({ seq: journal.length, stepId: options.id ?? '?', tool: s.tool, path: `/work/${s.path}` });
      return {
        _event: 'tool_result',
        id: options.id ?? '?',
        tool: s.tool,
        status: 'applied',
        summary: String(s.path),
        decision: { level: 'L0', by: 'policy', rules: [] },
      };
    },
    mark: () => journal.length,
    changes: (mark = 0) => journal.filter((c) => c.seq >= mark),
    undo(mark): UndoResult {
      undone.push(mark);
      const gone = journal.splice(mark);
      return { restored: gone.map((c) => ({ path: c.path, action: 'restored' as const })), skipped: [] };
    },
    dispose: () => void disposed++,
  });
  return { create, journal, undone, disposed: () => disposed };
}

const edit = (file: string) => ({ tool: 'fs.edit', path: file, old_string: 'a', new_string: 'b' });

test('undo restores the last turn that changed files, then the one before; the model is told', async () => {
  const runner = journalRunner();
  const llm = fakeLlm([
    cmd(edit('a.ts'), edit('b.ts')),
    chat('edited'),
    chat('just talk'),
    cmd(edit('c.ts')),
    chat('edited c'),
    chat('ok'),
  ]);
  const agent = new Agent({ config: config(), systemPrompt: 'S', cwd: '/work', lang: 'en' }, { llm, createRunner: runner.create });
  expect(agent.undo()).toBeNull();
  await agent.send('edit a and b');
  await agent.send('say something');
  await agent.send('edit c');
  expect(agent.undoableChanges()).toEqual(['/work/c.ts']);
  expect(agent.undo()).toEqual({ restored: [{ path: '/work/c.ts', action: 'restored' }], skipped: [] });
  expect(agent.undoableChanges()).toEqual(['/work/a.ts', '/work/b.ts']);
  expect(agent.undo()?.restored.map((r) => r.path)).toEqual(['/work/a.ts', '/work/b.ts']);
  expect(agent.undo()).toBeNull();
  expect(runner.undone).toEqual([2, 0]);
  await agent.send('what happened?');
  const events = llm.calls.at(-1)!.filter((m) => m.role === 'user' && m.content.includes('"_event":"undo"'));
  expect(events.map((m) => JSON.parse(m.content))).toEqual([
    { _event: 'undo', restored: [{ path: 'c.ts', action: 'restored' }], skipped: [] },
    {
      _event: 'undo',
      restored: [
        { path: 'a.ts', action: 'restored' },
        { path: 'b.ts', action: 'restored' },
      ],
      skipped: [],
    },
  ]);
});

test('dispose hands the end of the session to the runner (once it exists)', async () => {
  const runner = journalRunner();
  const agent = new Agent(
    { config: config(), systemPrompt: 'S', cwd: '/work', lang: 'en' },
    { llm: fakeLlm([cmd(edit('a.ts')), chat('x')]), createRunner: runner.create },
  );
  agent.dispose();
  expect(runner.disposed()).toBe(0);
  await agent.send('go');
  agent.dispose();
  expect(runner.disposed()).toBe(1);
});

test('every new step shape validates; malformed ones say what is wrong', () => {
  const ok = parseReply({
    type: 'cmd',
    message: 'x',
    data: {
      commands: [
        { tool: 'fs.read', path: 'a.ts', offset: 10, limit: 5 },
        edit('a.ts'),
        { tool: 'fs.write', path: 'n.md', content: '# n\n' },
        { tool: 'http.get', url: 'https://example.com' },
        { tool: 'proc.start', program: 'npm', args: ['test'] },
        { tool: 'proc.status', proc_id: 'proc_1', wait_ms: 30000 },
        { tool: 'proc.kill', proc_id: 'proc_1' },
      ],
    },
  });
  expect(ok.success).toBe(true);
  const bad = parseReply({ type: 'cmd', message: 'x', data: { commands: [{ tool: 'fs.edit', path: 'a.ts', old_string: 'a' }] } });
  expect(bad.success).toBe(false);
  expect(!bad.success && bad.error).toMatch(/new_string/);
});

test('an fs.read result cut to the input budget keeps whole lines and says where to read on', () => {
  const content = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(6)}\tconst line${i + 1} = ${i + 1};`).join('\n');
  const result: ToolResult = {
    _event: 'tool_result',
    id: 'cmd_001',
    tool: 'fs.read',
    path: 'big.ts',
    content,
    startLine: 1,
    endLine: 400,
    totalLines: 900,
    truncated: true,
    nextOffset: 401,
    decision: { level: 'L0', by: 'policy', rules: [] },
  };
  const fitted = JSON.parse(fitToolResult(result, 600));
  const lines = (fitted.content as string).split('\n');
  expect(lines.length).toBeLessThan(400);
  expect(lines.at(-1)).toMatch(/^\s+\d+\tconst line\d+ = \d+;$/);
  const last = Number(/^\s*(\d+)\t/.exec(lines.at(-1)!)![1]);
  expect(fitted).toMatchObject({ endLine: last, nextOffset: last + 1, truncated: true });
  expect(fitted.note).toContain(`"offset": ${last + 1}`);
});

test('the audit log records what ran, never file contents (size and hash), and redacts arguments', async () => {
  const fs = await import('fs');
  const os = await import('os');
  const path = await import('path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-audit-'));
  const auditFile = path.join(dir, 'audit.jsonl');
  const runner = journalRunner();
  const big = 'x'.repeat(5000);
  const llm = fakeLlm([
    cmd(
      { tool: 'fs.write', path: 'big.txt', content: big },
      { tool: 'exec', program: 'curl', args: ['-H', 'Authorization: Bearer abcdefghijklmnop123456'] },
    ),
    chat('written'),
  ]);
  const agent = new Agent(
    { config: config(), systemPrompt: 'S', cwd: '/work', lang: 'en' },
    { llm, createRunner: runner.create, auditFile },
  );
  await agent.send('write it');
  const [entry, curl] = fs
    .readFileSync(auditFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const { createHash } = await import('crypto');
  expect(entry.step.content).toEqual({ chars: 5000, sha256: createHash('sha256').update(big).digest('hex') });
  expect(JSON.stringify(entry)).not.toContain('xxxxxxxxxx');
  expect(JSON.stringify(curl)).not.toContain('abcdefghijklmnop123456');
  fs.rmSync(dir, { recursive: true });
});

test('the reply cwd is the default of proc.start steps too', async () => {
  const seen: unknown[] = [];
  const create = (): StepRunner => ({
    verdict: () => verdict('L0'),
    async run(step, options = {}) {
      seen.push(step);
      return { _event: 'tool_result', id: options.id ?? '?', tool: step.tool, decision: { level: 'L0', by: 'policy', rules: [] } };
    },
  });
  const llm = fakeLlm([
    {
      ok: true,
      data: {
        type: 'cmd',
        message: 'x',
        data: {
          cwd: 'sub',
          commands: [
            { tool: 'proc.start', program: 'ls', args: [] },
            { tool: 'proc.start', program: 'ls', args: [], cwd: 'other' },
          ],
        },
      },
      usage: { input_tokens: 1, output_tokens: 1 },
    },
    chat('ok'),
  ]);
  const agent = new Agent({ config: config(), systemPrompt: 'S', cwd: '/work', lang: 'en' }, { llm, createRunner: create });
  await agent.send('go');
  expect(seen).toEqual([expect.objectContaining({ cwd: 'sub' }), expect.objectContaining({ cwd: 'other' })]);
});
