import { promises as fs } from 'fs';
import * as path from 'path';
import { useAiFixture, type RecordedRequest, type ScriptedReply } from '@holic512/testkit';
import { projectExtras, TrustStore } from '../src/extensions/trust';
import { runAi } from './run-bin';

// Agent files (issue #46) through the real `ai -p --json` against the scripted model: listed to
// the parent like skills (names and descriptions, never a body); agent.run with `agent` starts a
// child whose requests carry that agent's body and no other; the child may use only the tools its
// file lists, never more than its parent; an untrusted project's agents are never used.
const fx = useAiFixture({ git: true, profile: { low_model: 'test-low', high_model: 'test-high' } });

type Msg = { role: string; content: string };
const messages = (r: RecordedRequest): Msg[] => r.body.messages as Msg[];
const system = (r: RecordedRequest): string =>
  messages(r)
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
const isChild = (r: RecordedRequest): boolean => system(r).includes('You are a helper agent started by another agent');
const lastUser = (r: RecordedRequest): string =>
  messages(r)
    .filter((m) => m.role === 'user')
    .at(-1)?.content ?? '';
const chat = (message: string): ScriptedReply => ({ json: { type: 'chat', message } });
const cmd = (...commands: object[]): ScriptedReply => ({ json: { type: 'cmd', message: 'steps', data: { cwd: null, commands } } });

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}
const agentFile = (name: string, description: string, body: string, more = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${more}---\n${body}\n`;

beforeEach(async () => {
  await fs.writeFile(path.join(fx.cwd, 'a.txt'), 'alpha\n');
  await write(
    path.join(fx.temp.slothtoolHome, 'agents', 'reviewer.md'),
    agentFile(
      'reviewer',
      'Reviews a change for bugs',
      'REVIEWER-BODY: read the code and list problems by file and line.',
      'tools: Read, Grep\nmodel: high\n',
    ),
  );
  await write(
    path.join(fx.temp.home, '.claude', 'agents', 'writer.md'),
    agentFile('writer', 'Writes release notes', 'WRITER-BODY: write notes.', 'tools:\n  - Read\n  - Write\n'),
  );
  await write(
    path.join(fx.cwd, '.claude', 'agents', 'sneaky.md'),
    agentFile('sneaky', 'Does what the repository wants', 'SNEAKY-BODY: run everything.'),
  );
});

/** Parent: one agent.run step, then an answer naming what came back; a child: `child(request)`. */
function script(run: object, child: (r: RecordedRequest) => ScriptedReply): void {
  let parent = 0;
  fx.server.setHandler((r) => {
    if (isChild(r)) return child(r);
    parent++;
    return parent === 1 ? cmd({ tool: 'agent.run', ...run }) : chat(`back: ${lastUser(r).slice(0, 400)}`);
  });
}

test('the agents are listed to the parent by name and description; the child of a named agent carries its body only, its tools only, its model', async () => {
  script({ agent: 'reviewer', task: 'Review a.txt' }, (r) => {
    // The child tries a tool its file does not list: the reply does not validate; told why, it answers.
    if (!lastUser(r).includes('not available here')) return cmd({ tool: 'fs.write', path: 'a.txt', content: 'changed' });
    return chat('a.txt:1 [low] says alpha');
  });
  const res = await runAi(['-p', 'review my change', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(res.code).toBe(0);
  const parent = fx.server.requests.find((r) => !isChild(r))!;
  const index = system(parent);
  expect(index).toContain('- reviewer: Reviews a change for bugs');
  expect(index).toContain('- writer: Writes release notes');
  expect(index).not.toMatch(/REVIEWER-BODY|WRITER-BODY|SNEAKY-BODY|sneaky/);
  const children = fx.server.requests.filter(isChild);
  expect(children.length).toBe(2);
  for (const c of children) {
    expect(system(c)).toContain('REVIEWER-BODY: read the code');
    expect(JSON.stringify(c.body.messages)).not.toMatch(/WRITER-BODY|SNEAKY-BODY|review my change/);
    // Its prompt offers the tools it lists, and no agent index (a child starts no agents).
    expect(system(c)).toContain('"tool":"fs.read"');
    expect(system(c)).toContain('"tool":"fs.grep"');
    expect(system(c)).not.toMatch(/- \{"tool":"(fs\.write|exec|fs\.edit|agent\.run)"/);
    expect(system(c)).not.toContain('- writer:');
    expect(c.body.model).toBe('test-high');
  }
  expect(lastUser(children[1])).toContain('tool "fs.write" is not available here (agent "reviewer" may use only the tools its file lists');
  expect(await fs.readFile(path.join(fx.cwd, 'a.txt'), 'utf8')).toBe('alpha\n');
  const result = res.events.find((e) => e.type === 'tool_result')!.result;
  expect(result).toMatchObject({
    tool: 'agent.run',
    agent: 'reviewer 1',
    name: 'reviewer',
    outcome: 'answered',
    answer: 'a.txt:1 [low] says alpha',
  });
  expect(parent.body.model).toBe('test-low');
});

test('a tool the parent may not use is refused to the child even when its file lists it', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { permissions: { deny: ['fs.write'] } });
  script({ agent: 'writer', task: 'Write NOTES.md', mode: 'default' }, (r) =>
    lastUser(r).includes('_event') ? chat('could not write') : cmd({ tool: 'fs.write', path: 'NOTES.md', content: 'notes' }),
  );
  const res = await runAi(['-p', 'write notes', '--json', '--approve-l1'], { env: fx.env, cwd: fx.cwd });
  expect(res.code).toBe(0);
  const childResults = fx.server.requests.filter(isChild).map(lastUser).join('\n');
  expect(childResults).toContain('"status":"blocked"');
  expect(childResults).toContain('permission.deny');
  await expect(fs.stat(path.join(fx.cwd, 'NOTES.md'))).rejects.toThrow();
});

test("an untrusted project's agent is never used, even when named; trusted, it is, and wins over the user's of that name", async () => {
  script({ agent: 'sneaky', task: 'do it' }, () => chat('should not run'));
  const res = await runAi(['-p', 'use sneaky', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(res.code).toBe(0);
  expect(fx.server.requests.filter(isChild)).toHaveLength(0);
  expect(res.events.find((e) => e.type === 'tool_result')!.result).toMatchObject({
    status: 'error',
    error: { code: 'UNKNOWN_AGENT', message: 'no agent named "sneaky" here; the agents of the index: reviewer, writer' },
  });
  expect(res.stderr).toContain('.claude/agents/sneaky.md');
  expect(JSON.stringify(fx.server.requests.map((r) => r.body.messages))).not.toContain('SNEAKY-BODY');

  // Trusted (as the trust question would): listed, and the project's reviewer replaces the user's.
  await write(
    path.join(fx.cwd, '.slothtool', 'agents', 'reviewer.md'),
    agentFile('reviewer', 'The project reviewer', 'PROJECT-REVIEWER-BODY'),
  );
  new TrustStore(path.join(fx.temp.slothtoolHome, 'ai', 'trust.json')).trust(projectExtras(fx.cwd, fx.temp.slothtoolHome, fx.temp.home));
  fx.server.requests.length = 0;
  script({ agent: 'reviewer', task: 'review' }, () => chat('reviewed'));
  const trusted = await runAi(['-p', 'review', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(trusted.code).toBe(0);
  const parent = fx.server.requests.find((r) => !isChild(r))!;
  expect(system(parent)).toContain('- sneaky: Does what the repository wants');
  expect(system(parent)).toContain('- reviewer: The project reviewer');
  const child = fx.server.requests.find(isChild)!;
  expect(system(child)).toContain('PROJECT-REVIEWER-BODY');
  expect(system(child)).not.toContain('REVIEWER-BODY: read the code');
});

test('changing an agent file of a trusted project turns its agents off until trusted again', async () => {
  new TrustStore(path.join(fx.temp.slothtoolHome, 'ai', 'trust.json')).trust(projectExtras(fx.cwd, fx.temp.slothtoolHome, fx.temp.home));
  await write(path.join(fx.cwd, '.claude', 'agents', 'sneaky.md'), agentFile('sneaky', 'Changed', 'SNEAKY-BODY v2'));
  fx.server.enqueue(chat('ok'));
  const res = await runAi(['-p', 'hi'], { env: fx.env, cwd: fx.cwd });
  expect(res.stderr).toMatch(/changed/i);
  expect(system(fx.server.requests[0])).not.toContain('sneaky');
});

test('bad front matter is said on stderr naming the file; the other agents still work', async () => {
  await write(path.join(fx.temp.slothtoolHome, 'agents', 'broken.md'), '---\nname: Broken Name\ndescription: x\n---\nbody\n');
  await write(path.join(fx.temp.slothtoolHome, 'agents', 'nofront.md'), 'just text\n');
  await write(
    path.join(fx.temp.slothtoolHome, 'agents', 'odd-tools.md'),
    agentFile('odd-tools', 'Odd tools', 'ODD', 'tools: Read, NotebookEdit\n'),
  );
  fx.server.enqueue(chat('ok'));
  const res = await runAi(['-p', 'hi'], { env: fx.env, cwd: fx.cwd });
  expect(res.code).toBe(0);
  const broken = path.join(fx.temp.slothtoolHome, 'agents', 'broken.md');
  expect(res.stderr).toContain(
    `Agent file ${broken} is not used: front matter "name" must be lower-case letters, digits, "-" and "_" (at most 64); found "Broken Name"`,
  );
  expect(res.stderr).toContain(`${path.join(fx.temp.slothtoolHome, 'agents', 'nofront.md')} is not used: it has no front matter`);
  expect(res.stderr).toContain('tools lists "NotebookEdit", which is not a tool here');
  expect(system(fx.server.requests[0])).toContain('- odd-tools: Odd tools');
  expect(system(fx.server.requests[0])).toContain('- reviewer:');
});
