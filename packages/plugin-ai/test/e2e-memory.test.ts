import { promises as fs } from 'fs';
import * as path from 'path';
import { useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// Memory and typed references through the real `ai -p` against the scripted model (issue #45):
// the user's and the project's memory files with @imports in the system prompt, a cut said on
// stderr, `@path` in the prompt, `ai -p /init`.

const fx = useAiFixture({ git: true, profile: { low_model: 'test-low', high_model: 'test-high' } });
const system = (n = 0): string =>
  fx.server.requests[n].body.messages
    .filter((m: { role: string }) => m.role === 'system')
    .map((m: { content: string }) => m.content)
    .join('\n');
const last = (n = 0): string => fx.server.requests[n].body.messages.at(-1).content;
const write = async (file: string, text: string) => {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
};

test("the user's memory (~/.slothtool/AGENTS.md, ~/.claude/CLAUDE.md) comes before the project's; AGENTS.md and CLAUDE.md both, imports once each", async () => {
  await write(path.join(fx.temp.slothtoolHome, 'AGENTS.md'), 'USER-SLOTHTOOL-MEMORY');
  await write(path.join(fx.temp.home, '.claude', 'CLAUDE.md'), 'USER-CLAUDE-MEMORY');
  await write(path.join(fx.cwd, 'AGENTS.md'), 'PROJECT-AGENTS\n@docs/conventions.md\n@CLAUDE.md');
  await write(path.join(fx.cwd, 'docs', 'conventions.md'), 'IMPORTED-CONVENTIONS\n@../AGENTS.md');
  await write(path.join(fx.cwd, 'CLAUDE.md'), 'PROJECT-CLAUDE');
  fx.server.enqueue({ json: { type: 'chat', message: 'ok' } });
  const r = await runAi(['-p', 'hi'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const prompt = system();
  const order = ['USER-SLOTHTOOL-MEMORY', 'USER-CLAUDE-MEMORY', 'PROJECT-AGENTS', 'IMPORTED-CONVENTIONS', 'PROJECT-CLAUDE'].map((m) =>
    prompt.indexOf(m),
  );
  expect(order.every((at) => at >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  for (const once of ['PROJECT-AGENTS', 'PROJECT-CLAUDE', 'IMPORTED-CONVENTIONS']) expect(prompt.split(once)).toHaveLength(2);
  expect(r.stderr).not.toMatch(/Memory:/);
});

test('a memory file cut to fit the budget says so on stderr; an import that is not read says why', async () => {
  await write(path.join(fx.temp.slothtoolHome, 'plugin-configs', 'ai.json'), JSON.stringify({ context: { projectContextMaxTokens: 300 } }));
  await write(path.join(fx.cwd, 'AGENTS.md'), '@id_rsa\n@../outside.md\n' + 'rules '.repeat(2000));
  await write(path.join(fx.cwd, 'id_rsa'), 'PRIVATE-KEY-BODY');
  await write(path.join(fx.temp.home, 'outside.md'), 'OUTSIDE-BODY');
  await write(path.join(fx.cwd, 'CLAUDE.md'), 'SHORT-CLAUDE-POINT');
  fx.server.enqueue({ json: { type: 'chat', message: 'ok' } });
  const r = await runAi(['-p', 'hi'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(
    /Memory: AGENTS\.md was cut to \d+ of \d+ tokens to fit the memory budget \(300 tokens in all\); raise context\.projectContextMaxTokens/,
  );
  expect(r.stderr).toMatch(/Memory: the import of id_rsa in AGENTS\.md was not read: .*private key/);
  expect(r.stderr).toMatch(/Memory: the import of ~\/outside\.md in AGENTS\.md was not read: it is outside the workspace/);
  expect(system()).toContain('SHORT-CLAUDE-POINT');
  expect(system()).not.toContain('PRIVATE-KEY-BODY');
  expect(system()).not.toContain('OUTSIDE-BODY');
});

test('the default budget holds a 4 KB CLAUDE.md and a 4 KB AGENTS.md whole', async () => {
  await write(path.join(fx.cwd, 'AGENTS.md'), 'Run make test before a commit. '.repeat(130) + 'END-OF-AGENTS');
  await write(path.join(fx.cwd, 'CLAUDE.md'), 'Prefer small pure functions. '.repeat(140) + 'END-OF-CLAUDE');
  fx.server.enqueue({ json: { type: 'chat', message: 'ok' } });
  const r = await runAi(['-p', 'hi'], { env: fx.env, cwd: fx.cwd });
  expect(r.stderr).not.toMatch(/Memory:/);
  expect(system()).toContain('END-OF-AGENTS');
  expect(system()).toContain('END-OF-CLAUDE');
});

test('@path in -p brings the file in through an fs.read step; piped text is never scanned for @refs', async () => {
  await write(path.join(fx.cwd, 'src', 'app.ts'), 'export const APP = 1;\n');
  await write(path.join(fx.cwd, 'other.ts'), 'OTHER-FILE');
  fx.server.enqueue({ json: { type: 'chat', message: 'read it' } });
  const r = await runAi(['-p', 'explain @src/app.ts', '--json'], { env: fx.env, cwd: fx.cwd, input: 'log line mentioning @other.ts\n' });
  expect(r.code).toBe(0);
  expect(r.events.find((e) => e.type === 'step')).toMatchObject({
    step: { tool: 'fs.read', path: 'src/app.ts' },
    decision: { level: 'L0' },
  });
  expect(last()).toContain('<file path="src/app.ts">\nexport const APP = 1;\n</file>');
  expect(last()).not.toContain('OTHER-FILE');
});

test('a secret file named with @ in -p is left out, and said on stderr', async () => {
  await write(path.join(fx.cwd, '.env'), 'API_TOKEN=very-secret-value');
  fx.server.enqueue({ json: { type: 'chat', message: 'fine' } });
  const r = await runAi(['-p', 'check @.env'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/@\.env is not included: .*\.env/);
  expect(JSON.stringify(fx.server.requests)).not.toContain('very-secret-value');
});

test('ai -p /init sends the survey request; the write needs --approve-l1 and goes through fs.write', async () => {
  fx.server.enqueue(
    {
      json: {
        type: 'cmd',
        message: 'write',
        data: { cwd: null, commands: [{ tool: 'fs.write', path: 'AGENTS.md', content: '# Agents\n' }] },
      },
    },
    { json: { type: 'chat', message: 'written' } },
  );
  const r = await runAi(['-p', '/init', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  expect(last()).toMatch(/write a concise AGENTS\.md/);
  expect(await fs.readFile(path.join(fx.cwd, 'AGENTS.md'), 'utf8')).toBe('# Agents\n');
});
