import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner } from '@holic512/tool-runner';
import { policyOf } from '../src/cli/app';
import { loadConfig } from '../src/config/config';
import type { ConfirmRequest } from '../src/agent/runner-types';
import { verdict } from './helpers/fake-runner';
import { fakeApp, fakeScreen } from './helpers/screen';

// "Yes, and don't ask again": the rule shown in the question is written to ai.json, survives a
// restart (a new runner built from the file) and stops the question; /permissions lists and removes it.
let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ai-perm-')));
  file = path.join(dir, 'plugin-configs', 'ai.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ maxAutoStepsPerTurn: 5, permissions: { deny: ['exec(rm *)'] } }, null, 2));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function screenWith() {
  const { screen, printed, submit } = fakeScreen({ cwd: dir, now: () => 1_000_000, columns: 100, rows: 30 });
  screen.attach(fakeApp({}, { home: dir, sessionsDir: dir, config: file }));
  return { screen, printed, submit };
}
/** A runner built as after a restart: ai.json read again (with a project's own rules, if given) for a working folder. */
function runnerFromFile({
  cwd = dir,
  project,
  ...more
}: Partial<Parameters<typeof createToolRunner>[0]> & { project?: Parameters<typeof policyOf>[2] } = {}) {
  return createToolRunner({
    cwd,
    lang: 'en',
    // `dir` is the SlothTool home (its plugin-configs/ai.json): the runner's too.
    env: { ...process.env, HOME: dir, SLOTHTOOL_HOME: dir },
    sandbox: 'off',
    policy: policyOf(loadConfig(file), file, project, cwd),
    confirm: () => ({ action: 'decline' }),
    ...more,
  });
}
const step = { tool: 'exec' as const, program: 'npm', args: ['run', 'test'] };
/** The question for `step`, offering `rule` for "don't ask again" when given. */
const question = (id: string, rule?: string): ConfirmRequest => ({
  id,
  step,
  verdict: verdict('L1'),
  decision: { level: 'L1', rules: [] },
  sessionKey: 'npm run test',
  ...(rule ? { rule } : {}),
});

test('the dialog offers the exact rule, writes it to ai.json (keeping the rest), and a runner built after a restart does not ask', async () => {
  const { screen, printed } = screenWith();
  const answer = screen.confirm(question('cmd_001', 'exec(npm run test)'));
  screen.onKeys([{ kind: 'text', text: 'd' }]);
  await expect(answer).resolves.toEqual({ action: 'allow-rule' });
  expect(printed.join('\n')).toContain('Allowed from now on: exec(npm run test)');
  const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(saved).toEqual({ maxAutoStepsPerTurn: 5, permissions: { deny: ['exec(rm *)'], allow: ['exec(npm run test)'] } });
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  // A restart: the config is read again and a new runner judges the same step.
  const asked: string[] = [];
  const runner = runnerFromFile({ confirm: (r) => (asked.push(r.sessionKey), { action: 'decline' }) });
  const d = runner.judge(step);
  expect(d.level).toBe('L0');
  expect(d.rules.find((r) => r.id === 'permission.allow')?.reason).toContain(file);
  expect(runner.judge({ tool: 'exec', program: 'rm', args: ['-rf', 'x'] }).level).toBe('L2');
});

test('without a rule in the request the choice is not there; numbers pick by position', async () => {
  const { screen } = screenWith();
  const answer = screen.confirm(question('cmd_002'));
  screen.onKeys([{ kind: 'text', text: '3' }]); // run, allow-session, decline
  await expect(answer).resolves.toMatchObject({ action: 'decline' });
});

test('/permissions lists every rule by effect and removes one; a broken ai.json is left alone with why', () => {
  const { submit } = screenWith();
  fs.writeFileSync(file, JSON.stringify({ permissions: { allow: ['exec(git log *)'], ask: ['fs.edit(src/**)'], deny: ['exec(rm *)'] } }));
  expect(submit('/permissions').split('\n').slice(1, 4)).toEqual([
    '  deny   exec(rm *)',
    '  ask    fs.edit(src/**)',
    '  allow  exec(git log *)',
  ]);
  expect(submit('/permissions remove exec(git log *)')).toMatch(/^Removed exec\(git log \*\)/);
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).permissions.allow).toEqual([]);
  fs.writeFileSync(file, '{ broken');
  expect(submit('/permissions')).toMatch(/Cannot read the rules of/);
  expect(fs.readFileSync(file, 'utf8')).toBe('{ broken');
});

test('trustedPlugins (the original SlothTool setting) is accepted and reaches the runner: their plugin.run steps need no question', () => {
  fs.writeFileSync(file, JSON.stringify({ trustedPlugins: ['weather'], permissions: { allow: ['exec(ls)'] } }));
  const runner = runnerFromFile({
    registry: {
      plugins: {
        weather: { name: '@x/plugin-weather', binPath: '/nonexistent/bin.js' },
        news: { name: '@x/plugin-news', binPath: '/nonexistent/n.js' },
      },
    },
  });
  expect(runner.judge({ tool: 'plugin.run', plugin: 'weather', args: [] })).toMatchObject({ level: 'L0' });
  expect(runner.judge({ tool: 'plugin.run', plugin: 'news', args: [] }).level).toBe('L1');
});

describe("a project's own rules (.slothtool/settings.json)", () => {
  const { readProjectRules } = require('../src/config/project-rules') as typeof import('../src/config/project-rules');
  const { trustCommand } = require('../src/interactive/trust-view') as typeof import('../src/interactive/trust-view');
  let project: string;
  let trustFile: string;
  beforeEach(() => {
    project = path.join(dir, 'repo');
    fs.mkdirSync(path.join(project, '.git'), { recursive: true });
    fs.mkdirSync(path.join(project, '.slothtool'));
    fs.writeFileSync(
      path.join(project, '.slothtool', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['exec(npm run test)'], deny: ['exec(git push *)'] } }),
    );
    trustFile = path.join(dir, 'ai', 'trust.json');
  });
  const runnerFor = () => runnerFromFile({ cwd: project, project: readProjectRules(project, trustFile).set });

  test('untrusted: its deny rules apply, its allow rules do not', () => {
    expect(readProjectRules(project, trustFile).trust).toBe('untrusted');
    const r = runnerFor();
    const push = r.judge({ tool: 'exec', program: 'git', args: ['push', 'origin', 'main'] });
    expect(push.level).toBe('L2');
    expect(push.rules.find((x) => x.id === 'permission.deny')?.reason).toContain('.slothtool/settings.json');
    expect(r.judge(step).level).toBe('L1');
  });

  test('/trust yes trusts the folder as it is: its allow rules apply; a change to the file turns them off again', () => {
    expect(trustCommand('', project, trustFile, 'en')).toMatch(/is not trusted[\s\S]*\.slothtool\/settings\.json/);
    expect(trustCommand('yes', project, trustFile, 'en')).toMatch(/^Trusted /);
    expect(readProjectRules(project, trustFile).trust).toBe('trusted');
    expect(runnerFor().judge(step).level).toBe('L0');
    fs.writeFileSync(path.join(project, '.slothtool', 'settings.json'), JSON.stringify({ permissions: { allow: ['exec(curl *)'] } }));
    expect(readProjectRules(project, trustFile).trust).toBe('changed');
    expect(runnerFor().judge({ tool: 'exec', program: 'curl', args: ['http://x'] }).level).toBe('L1');
  });
});

test('"don\'t ask again in this project" keeps the rule in ai.json for this folder only', async () => {
  const { screen, submit } = screenWith();
  const answer = screen.confirm(question('cmd_003', 'exec(npm run test)'));
  screen.onKeys([{ kind: 'text', text: 'p' }]);
  await expect(answer).resolves.toEqual({ action: 'allow-rule' });
  const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(saved.projectPermissions).toEqual({ [dir]: { allow: ['exec(npm run test)'] } });
  expect(saved.permissions).toEqual({ deny: ['exec(rm *)'] });
  const judgeIn = (folder: string) => runnerFromFile({ cwd: folder }).judge(step).level;
  expect(judgeIn(dir)).toBe('L0');
  expect(judgeIn(path.join(dir, 'elsewhere'))).toBe('L1');
  expect(submit('/permissions')).toContain('  allow  exec(npm run test)  (this project)');
});

test('/permissions remove takes a project rule out too', () => {
  const { submit } = screenWith();
  fs.writeFileSync(file, JSON.stringify({ projectPermissions: { [dir]: { allow: ['exec(make)'] }, '/other': { allow: ['exec(make)'] } } }));
  expect(submit('/permissions remove exec(make)')).toMatch(/^Removed exec\(make\)/);
  const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(saved.projectPermissions[dir].allow).toEqual([]);
  expect(saved.projectPermissions['/other'].allow).toEqual(['exec(make)']);
});
