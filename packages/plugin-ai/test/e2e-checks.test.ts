import { execFileSync } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { useAiFixture, type RecordedRequest } from '@holic512/testkit';
import { projectExtras, TrustStore } from '../src/extensions/trust';
import { runAi } from './run-bin';

// Checks after edits (issue #46) through the real `ai -p --json` against the scripted model: a check
// runs after a reply's steps for the files it matches only, once per reply however many edits,
// judged and sandboxed like any step (L0 for a read-only program, else asked once per session),
// and the first errors it printed, redacted, join the last matching edit's result.
const fx = useAiFixture({ git: true });

const cmd = (...commands: object[]) => ({ json: { type: 'cmd', message: 'edit', data: { cwd: null, commands } } });
const chat = (message: string) => ({ json: { type: 'chat', message } });
const write = (p: string, content: string) => ({ tool: 'fs.write', path: p, content });
const resultsSent = (r: RecordedRequest): Array<Record<string, any>> =>
  (r.body.messages as Array<{ role: string; content: string }>)
    .filter((m) => m.role === 'user' && m.content.startsWith('{'))
    .map((m) => JSON.parse(m.content))
    .filter((v) => v._event === 'tool_result');
const git = (...args: string[]) => execFileSync('git', args, { cwd: fx.cwd, encoding: 'utf8' });

// A check in node: it fails on "BUG" in a .js file and prints where (and a token it should not leak).
const CHECK = `const fs = require('fs');
let bad = 0;
for (const f of fs.readdirSync('.').filter((f) => f.endsWith('.js') && f !== 'check.js')) {
  fs.readFileSync(f, 'utf8').split('\\n').forEach((l, i) => { if (l.includes('BUG')) { bad++; console.error(f + ':' + (i + 1) + ':1: error: BUG here (token ghp_${'a1B2'.repeat(9)})'); } });
}
process.exit(bad ? 1 : 0);
`;

beforeEach(async () => {
  await fs.writeFile(path.join(fx.cwd, 'check.js'), CHECK);
  await fs.writeFile(path.join(fx.cwd, 'a.js'), 'module.exports = 1;\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
});

test('two matching edits in one reply run the check once, on the last one; its errors reach the model, redacted; a .md edit runs none', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { allowedPrograms: ['node'], checks: [{ match: '*.js', run: ['node', 'check.js'] }] });
  fx.server.enqueue(
    cmd(write('a.js', 'module.exports = BUG;\n'), write('b.js', 'module.exports = 2;\n'), write('NOTES.md', 'notes\n')),
    cmd(write('NOTES.md', 'more notes\n')),
    chat('done'),
  );
  const r = await runAi(['-p', 'edit', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const steps = r.events.filter((e) => e.type === 'step').map((e) => e.label);
  expect(steps).toEqual(['write a.js', 'write b.js', 'write NOTES.md', 'node check.js', 'write NOTES.md']);
  const sent = resultsSent(fx.server.requests[1]);
  expect(sent.map((x) => x.tool)).toEqual(['fs.write', 'fs.write', 'fs.write']);
  expect(sent[0].checks).toBeUndefined();
  expect(sent[2].checks).toBeUndefined();
  expect(sent[1].checks).toEqual([
    { run: 'node check.js', status: 'failed', exitCode: 1, errors: [expect.stringMatching(/^a\.js:1:1: error: BUG here \(token /)] },
  ]);
  expect(JSON.stringify(fx.server.requests[1].body)).not.toContain(`ghp_${'a1B2'.repeat(9)}`);
  // --json says which edit's result the digest joined.
  const wroteB = r.events.filter((e) => e.type === 'step')[1].id;
  expect(r.events.filter((e) => e.type === 'checks')).toEqual([{ type: 'checks', id: wroteB, checks: sent[1].checks }]);
  expect(r.stdout).not.toContain(`ghp_${'a1B2'.repeat(9)}`);
  // The second reply changed no .js file: no check ran.
  expect(resultsSent(fx.server.requests[2]).at(-1)!.checks).toBeUndefined();
});

test('a read-only check (git diff --check) runs at L0 without a question', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { checks: [{ match: '**/*.js', run: ['git', 'diff', '--check'] }] });
  fx.server.enqueue(cmd(write('a.js', 'module.exports = 1;   \n')), chat('done'));
  const r = await runAi(['-p', 'edit', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  const check = r.events.filter((e) => e.type === 'step')[1];
  expect(check).toMatchObject({ label: 'git diff --check', decision: { level: 'L0' } });
  expect(r.events.filter((e) => e.type === 'confirm').map((e) => e.request.step.tool)).toEqual(['fs.write']);
  expect(resultsSent(fx.server.requests[1])[0].checks).toEqual([
    { run: 'git diff --check', status: 'failed', exitCode: 2, errors: ['a.js:1: trailing whitespace.'] },
  ]);
});

test('an L1 check is asked once per session: declined, it stays off, and the model is told', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { allowedPrograms: ['node'], checks: [{ match: '*.js', run: ['node', 'check.js'] }] });
  const edit = (from: string, to: string) => ({ tool: 'fs.edit', path: 'a.js', old_string: from, new_string: to });
  fx.server.enqueue(cmd(edit('= 1', '= BUG')), cmd(edit('= BUG', '= 3')), chat('done'));
  // No --approve-l1, so nobody answers the check's one question; in auto-edit mode the edits need none.
  const r = await runAi(['-p', 'edit', '--json', '--mode', 'auto-edit'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const questions = r.events.filter((e) => e.type === 'confirm').map((e) => e.request.sessionKey);
  expect(questions).toEqual(['exec node check.js']);
  expect(resultsSent(fx.server.requests[1])[0].checks).toEqual([{ run: 'node check.js', status: 'not_run', note: expect.any(String) }]);
  expect(resultsSent(fx.server.requests[2]).at(-1)!.checks).toEqual([
    { run: 'node check.js', status: 'not_run', note: 'declined earlier this session; not asked again' },
  ]);
});

test("a project's checks run only once the folder is trusted", async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { allowedPrograms: ['node'] });
  await fs.mkdir(path.join(fx.cwd, '.slothtool'), { recursive: true });
  await fs.writeFile(
    path.join(fx.cwd, '.slothtool', 'settings.json'),
    JSON.stringify({ checks: [{ match: '*.js', run: ['node', 'check.js'] }] }),
  );
  fx.server.enqueue(cmd(write('a.js', 'module.exports = BUG;\n')), chat('done'));
  const untrusted = await runAi(['-p', 'edit', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(untrusted.events.filter((e) => e.type === 'step')).toHaveLength(1);
  expect(untrusted.stderr).toContain('.slothtool/settings.json');

  new TrustStore(path.join(fx.temp.slothtoolHome, 'ai', 'trust.json')).trust(projectExtras(fx.cwd, fx.temp.slothtoolHome, fx.temp.home));
  fx.server.enqueue(cmd(write('a.js', 'module.exports = BUG + 1;\n')), chat('done'));
  const trusted = await runAi(['-p', 'edit', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(trusted.events.filter((e) => e.type === 'step').map((e) => e.label)).toEqual(['write a.js', 'node check.js']);
  // Its program is project code: changing check.js asks for trust again.
  expect(projectExtras(fx.cwd, fx.temp.slothtoolHome, fx.temp.home).files.map((f) => f.rel)).toEqual(
    expect.arrayContaining(['.slothtool/settings.json', 'check.js']),
  );
});

test('an L1 check allowed once runs unasked for the rest of the session', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { allowedPrograms: ['node'], checks: [{ match: '*.js', run: ['node', 'check.js'] }] });
  const edit = (from: string, to: string) => ({ tool: 'fs.edit', path: 'a.js', old_string: from, new_string: to });
  fx.server.enqueue(cmd(edit('= 1', '= BUG')), cmd(edit('= BUG', '= 3')), chat('done'));
  const r = await runAi(['-p', 'edit', '--json', '--mode', 'auto-edit', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.events.filter((e) => e.type === 'confirm').map((e) => e.request.sessionKey)).toEqual(['exec node check.js']);
  expect(r.events.filter((e) => e.type === 'step').map((e) => e.label)).toEqual([
    'edit a.js',
    'node check.js',
    'edit a.js',
    'node check.js',
  ]);
  expect(resultsSent(fx.server.requests[1])[0].checks[0]).toMatchObject({ status: 'failed', exitCode: 1 });
  expect(resultsSent(fx.server.requests[2]).at(-1)!.checks).toEqual([{ run: 'node check.js', status: 'passed', exitCode: 0 }]);
});
