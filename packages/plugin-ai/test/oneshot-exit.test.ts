import * as fs from 'fs';
import * as path from 'path';
import { useAiFixture } from '@holic512/testkit';
import { readSession } from './helpers/session';
import { runAi } from './run-bin';

// `ai -p` leaves as soon as its output is written when the turn left nothing running (no runner,
// no MCP server): node would otherwise first wait for V8's background work (cli.ts
// exitWhenWritten, docs/architecture.md §6). A preloaded probe tells which way the process
// ended: 'beforeExit' is emitted only when the event loop ran dry.

const fx = useAiFixture();

/** A NODE_OPTIONS preload that appends `beforeExit` / `exit <code>` of the `ai` process to a file
 * (the spawn helper, a node process of its own, gets the preload too and is left out). */
function probe(): { env: NodeJS.ProcessEnv; seen: () => string[] } {
  const log = path.join(fx.cwd, 'exit-probe.log');
  const script = path.join(fx.cwd, 'exit-probe.js');
  fs.writeFileSync(
    script,
    `const fs = require('fs');
if (/[\\\\/]bin[\\\\/]ai\\.js$/.test(process.argv[1] || '')) {
  process.on('beforeExit', () => fs.appendFileSync(${JSON.stringify(log)}, 'beforeExit\\n'));
  process.on('exit', (code) => fs.appendFileSync(${JSON.stringify(log)}, 'exit ' + code + '\\n'));
}
`,
  );
  return {
    env: { ...fx.temp.env, NODE_OPTIONS: `--require ${script}` },
    seen: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []),
  };
}

test('a turn that only talks exits once its answer is written, with its session and call log complete', async () => {
  const p = probe();
  // A long answer: every byte reaches the reader before the process leaves.
  const answer = 'x'.repeat(300_000);
  fx.server.enqueue({ json: { type: 'chat', message: answer } });
  const r = await runAi(['-p', 'hi'], { env: p.env, cwd: fx.cwd });
  expect(r).toMatchObject({ code: 0, stdout: answer + '\n', stderr: '' });
  expect(p.seen()).toEqual(['exit 0']);
  // The lines queued for the exit were written: the session has the answer, the call log the call.
  const records = await readSession<{ t: string; content?: string }>(fx.temp);
  expect(records.map((x) => x.t)).toEqual(expect.arrayContaining(['meta', 'user', 'assistant']));
  expect(records.find((x) => x.t === 'assistant')?.content).toContain('xxxx'); // kept shortened, as always
  const logs = path.join(fx.temp.slothtoolHome, 'plugin-configs');
  const calls = fs.readdirSync(logs).filter((f) => f.includes('calls'));
  expect(calls.map((f) => fs.readFileSync(path.join(logs, f), 'utf8')).join('')).toContain('"success":true');
});

test('its exit code is the turn’s: the model’s error reply 5, a failed call 1', async () => {
  const p = probe();
  fx.server.enqueue({ json: { type: 'error', message: 'cannot do that' } });
  const refused = await runAi(['-p', 'hi'], { env: p.env, cwd: fx.cwd });
  expect(refused.code).toBe(5);
  expect(refused.stderr).toContain('cannot do that');
  fx.server.enqueue({ status: 500 }, { status: 500 });
  expect((await runAi(['-p', 'hi'], { env: p.env, cwd: fx.cwd })).code).toBe(1);
  expect(p.seen()).toEqual(['exit 5', 'exit 1']);
});

test('a turn that ran a step waits for the event loop as before (its runner may hold processes)', async () => {
  const p = probe();
  fs.writeFileSync(path.join(fx.cwd, 'marker.txt'), 'x');
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ program: 'ls', args: [] }] } } },
    { json: { type: 'chat', message: 'done' } },
  );
  const r = await runAi(['-p', 'look'], { env: p.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('done');
  expect(p.seen()).toEqual(['beforeExit', 'exit 0']);
});
