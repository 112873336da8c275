import { fakeToken, useAiFixture } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { runAi } from './run-bin';

// The runner judges without language; each edge words the verdict itself (issue #38). Over the
// real `ai` bin and tool-runner: a step whose reasons quote its argument, a secret in that
// argument, and every edge that shows the decision — the --json step and question events, the
// tool_result the model reads, the audit line, the session file, `ai risk` — says the rule ids
// and levels without prose to parse, words the reasons in the user's language, and never
// shows the secret.
const fx = useAiFixture({ language: 'zh' });
const SECRET = `ghp_${fakeToken('verdict-edges', 36)}`;
const cmd = (...commands: Array<Record<string, unknown>>) => ({ json: { type: 'cmd', message: 'look', data: { cwd: null, commands } } });
const HAN = /[\u4e00-\u9fff]/;

async function readAll(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    parts.push(e.isDirectory() ? await readAll(p) : await fs.readFile(p, 'utf8'));
  }
  return parts.join('\n');
}

test("ai -p --json: the decision as ids, levels and adjustments plus reasons in the user's language; the secret in the argument reaches no edge", async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { sandbox: 'off' });
  // An L1 read outside the workspace (asked: no person, so declined) and an L2 unknown program, both quoting the secret.
  fx.server.enqueue(cmd({ tool: 'exec', program: 'cat', args: [`/etc/${SECRET}`] }, { tool: 'exec', program: `./${SECRET}`, args: [] }), {
    json: { type: 'chat', message: 'ok' },
  });
  const r = await runAi(['-p', 'look', '--json'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r.code).toBe(0);

  const steps = r.events.filter((e) => e.type === 'step');
  expect(steps).toHaveLength(2);
  expect(steps[0]).toMatchObject({
    decision: { level: 'L1', rules: [{ id: 'read.outside', level: 'L1', reason: expect.stringMatching(HAN) }], adjustments: [] },
  });
  expect(steps[0].decision.rules[0].reason).toContain('[redacted');
  expect(steps[0]).not.toHaveProperty('verdict');
  const asked = r.events.find((e) => e.type === 'confirm');
  expect(asked).toMatchObject({
    request: {
      decision: { level: 'L1', rules: [{ id: 'read.outside', level: 'L1', reason: expect.stringMatching(HAN) }], adjustments: [] },
    },
  });
  expect(asked!.request).not.toHaveProperty('verdict');
  // The second step was not run (the first was declined): the model is told so, with the runner's verdict worded for it.
  const results = r.events.filter((e) => e.type === 'tool_result').map((e) => e.result);
  expect(results.map((x) => x.decision.level)).toEqual(['L1', 'L2']);
  expect(results[1].decision.rules.map((x: { id: string }) => x.id)).toContain('program.path');

  const home = fx.temp.slothtoolHome;
  const audit = await fx.temp.readJsonLines('ai/audit.jsonl');
  expect(audit[0]).toMatchObject({ level: 'L1', rules: ['read.outside'], reasons: [expect.stringMatching(HAN)], outcome: 'declined' });
  expect(audit[0].reasons[0]).toContain('[redacted');

  const places: Array<[string, string]> = [
    ['--json events', r.stdout],
    ['stderr', r.stderr],
    // What the model is sent, but its own replies (which named the step) sent back to it.
    [
      'model requests',
      JSON.stringify(
        fx.server.requests.map((q) => (q.body as { messages: Array<{ role: string }> }).messages.filter((m) => m.role !== 'assistant')),
      ),
    ],
    ['audit log', await fs.readFile(path.join(home, 'ai', 'audit.jsonl'), 'utf8')],
    ['sessions', await readAll(path.join(home, 'ai', 'sessions'))],
  ];
  expect(places[2][1]).toContain('read.outside');
  expect(places.filter(([, text]) => text.includes(SECRET)).map(([where]) => where)).toEqual([]);
});

test("ai risk: worded at its edge in the user's language, the secret left out, in JSON and in text", async () => {
  const json = await runAi(['risk', '--json', '--', 'cat', `/etc/${SECRET}`], { env: fx.temp.env, cwd: fx.cwd });
  expect(json.code).toBe(0);
  const out = JSON.parse(json.stdout);
  expect(out).toMatchObject({ level: 'L1', rules: [{ id: 'read.outside', level: 'L1', reason: expect.stringMatching(HAN) }] });
  const text = await runAi(['risk', '--', 'cat', `/etc/${SECRET}`], { env: { ...fx.temp.env }, cwd: fx.cwd });
  expect(text.stdout).toContain('read.outside');
  for (const o of [json.stdout, text.stdout]) expect(o).not.toContain(SECRET);
});
