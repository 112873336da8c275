import { promises as fs } from 'fs';
import * as path from 'path';
import { chat, cmd, usePtyFixture } from './pty/pty-session';
import { runAi } from './run-bin';
import { until } from '@holic512/testkit';

// End-to-end over the real bin, this repo's llm-base and the real tool-runner: the model reads
// a file, edits it, runs the project's tests in the background and watches them; /undo
// restores what a turn changed; background processes end with the session.

const fx = usePtyFixture();
beforeEach(async () => {
  await fs.writeFile(
    path.join(fx.cwd, 'package.json'),
    JSON.stringify({ name: 'calc', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }),
  );
  await fs.writeFile(path.join(fx.cwd, 'calc.js'), 'exports.add = (a, b) => a - b;\n');
  await fs.writeFile(
    path.join(fx.cwd, 'test.js'),
    "const { add } = require('./calc');\nif (add(2, 3) !== 5) { console.error('FAIL add(2, 3) = ' + add(2, 3)); process.exit(1); }\nconsole.log('ok 1 add');\n",
  );
});

/** The tool results the model received in request `i` (user messages that are tool_result JSON). */
function resultsOf(i: number): Array<Record<string, any>> {
  const messages = fx.server.requests[i].body.messages as Array<{ role: string; content: string }>;
  const out: Array<Record<string, any>> = [];
  for (const m of messages) {
    if (m.role !== 'user') continue;
    try {
      const v = JSON.parse(m.content);
      if (v && v._event === 'tool_result') out.push(v);
    } catch {
      // plain user text
    }
  }
  return out;
}

test('read → edit (confirmed) → proc.start the tests → proc.status → report', async () => {
  fx.server.enqueue(
    cmd('look at the code', { tool: 'fs.read', path: 'calc.js' }),
    cmd('fix the operator', { tool: 'fs.edit', path: 'calc.js', old_string: 'a - b', new_string: 'a + b' }),
    cmd(
      'run the tests',
      { tool: 'proc.start', program: 'npm', args: ['test'] },
      { tool: 'proc.status', proc_id: 'proc_1', wait_ms: 60000 },
    ),
    chat('Fixed `add` (it subtracted); `npm test` passes.'),
  );
  const r = await runAi(['-p', 'fix the failing test', '--approve-l1', '--max-steps', '5', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);

  const read = resultsOf(1).at(-1)!;
  expect(read).toMatchObject({
    tool: 'fs.read',
    path: 'calc.js',
    content: '     1\texports.add = (a, b) => a - b;',
    totalLines: 1,
    decision: { level: 'L0', by: 'policy' },
  });

  const edit = resultsOf(2).at(-1)!;
  expect(edit).toMatchObject({ tool: 'fs.edit', status: 'applied', replacements: 1, undoable: true, decision: { level: 'L1' } });
  expect(await fs.readFile(path.join(fx.cwd, 'calc.js'), 'utf8')).toBe('exports.add = (a, b) => a + b;\n');
  // The user (here: the flag) was asked with the diff as preview.
  const confirm = r.events.find((e) => e.type === 'confirm' && e.request.step.tool === 'fs.edit');
  expect(confirm?.request.preview).toContain('-exports.add = (a, b) => a - b;\n+exports.add = (a, b) => a + b;');

  const [started, status] = resultsOf(3).slice(-2);
  expect(started).toMatchObject({ tool: 'proc.start', proc_id: 'proc_1', state: 'running', decision: { level: 'L1' } });
  expect(status).toMatchObject({ tool: 'proc.status', proc_id: 'proc_1', state: 'exited', exitCode: 0, decision: { level: 'L0' } });
  expect(status.stdoutTail).toContain('ok 1 add');

  expect(r.events.at(-1)).toMatchObject({ type: 'final', outcome: 'answered', message: 'Fixed `add` (it subtracted); `npm test` passes.' });
});

test('/undo in ai -i restores the files the last turn changed', async () => {
  fx.server.enqueue(
    cmd(
      'fix',
      { tool: 'fs.edit', path: 'calc.js', old_string: 'a - b', new_string: 'a + b' },
      { tool: 'fs.write', path: 'NOTES.md', content: '# fixed add\n' },
    ),
    chat('done'),
  );
  // Each L1 step is answered by the next line ("y"); then /undo.
  const r = await runAi(['-i'], { env: fx.env, cwd: fx.cwd, input: 'fix add\ny\ny\n/undo\n' });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('done');
  expect(await fs.readFile(path.join(fx.cwd, 'calc.js'), 'utf8')).toBe('exports.add = (a, b) => a - b;\n');
  await expect(fs.access(path.join(fx.cwd, 'NOTES.md'))).rejects.toThrow();
  expect(r.stdout).toMatch(/calc\.js/);
});

/** Whether a `node server.js` runs in `cwd` (by /proc: the pid the server sees of itself is the
 * sandbox's own PID namespace, not this machine's). */
async function serverRunningIn(cwd: string): Promise<boolean> {
  for (const pid of await fs.readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const [dir, cmd] = await Promise.all([
      fs.readlink(`/proc/${pid}/cwd`).catch(() => ''),
      fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
    ]);
    if (dir === cwd && cmd.includes('server.js')) return true;
  }
  return false;
}

/** The model starts server.js, then answers only once the server wrote its pid (it is up). */
function startThenWaitForPid(): { seenRunning: boolean } {
  let calls = 0;
  const seen = { seenRunning: false };
  fx.server.setHandler(async () => {
    if (++calls === 1) return cmd('start', { tool: 'proc.start', program: 'node', args: ['server.js'] });
    await until(async () => Boolean(await fs.readFile(path.join(fx.cwd, 'pid'), 'utf8').catch(() => '')));
    seen.seenRunning = await serverRunningIn(fx.cwd);
    return chat('started');
  });
  return seen;
}

test.each([
  ['ai -p', ['-p', 'start the server', '--approve-l1', '--json'], ''],
  ['ai -i', ['-i'], 'start the server\ny\n'],
])('a background process ends when %s ends', async (_mode, args, input) => {
  await fx.temp.writeJson('plugin-configs/ai.json', { allowedPrograms: ['node'] });
  await fs.writeFile(
    path.join(fx.cwd, 'server.js'),
    "require('fs').writeFileSync('pid', String(process.pid)); setInterval(() => {}, 1000);\n",
  );
  const seen = startThenWaitForPid();
  const r = await runAi(args, { env: fx.env, cwd: fx.cwd, input });
  expect(r.code).toBe(0);
  expect(seen.seenRunning).toBe(true);
  expect(resultsOf(1).at(-1)).toMatchObject({ tool: 'proc.start', state: 'running' });
  await until(async () => !(await serverRunningIn(fx.cwd)));
});
