import {
  decideByRules,
  exactRuleFor,
  isRuleProblem,
  parseRule,
  ruleMatches,
  type ArgKind,
  type PermissionEffect,
  type PermissionRule,
  type PermissionSubject,
} from '../src/permission-rules';

const kinds: Record<string, ArgKind> = {
  'fs.read': 'path',
  'fs.edit': 'path',
  'fs.write': 'path',
  'http.get': 'domain',
  'plugin.run': 'name',
};
const argKind = (tool: string): ArgKind => kinds[tool] ?? 'words';

function rule(text: string, effect: PermissionEffect = 'allow'): PermissionRule {
  const r = parseRule(text, effect, '/home/u/.slothtool/plugin-configs/ai.json', argKind);
  if (isRuleProblem(r)) throw new Error(`${text}: ${r.error}`);
  return r;
}
const cmd = (line: string): PermissionSubject => ({ kind: 'command', words: line.split(' ') });
const file = (p: string): PermissionSubject => ({ kind: 'path', path: p });
const host = (h: string): PermissionSubject => ({ kind: 'url', host: h });

describe('parseRule', () => {
  test.each([
    ['exec(git log *)', { tool: 'exec', arg: { kind: 'words', words: ['git', 'log', '*'] } }],
    ['  exec( npm run test )  ', { tool: 'exec', arg: { kind: 'words', words: ['npm', 'run', 'test'] } }],
    ['fs.edit(./src/**)', { tool: 'fs.edit', arg: { kind: 'path', pattern: 'src/**' } }],
    ['http.get(domain:API.GitHub.com)', { tool: 'http.get', arg: { kind: 'domain', pattern: 'api.github.com' } }],
    ['http.get(domain:*.github.com)', { tool: 'http.get', arg: { kind: 'domain', pattern: '*.github.com' } }],
    ['mcp.github.*', { tool: 'mcp.github.*' }],
    ['plugin.run(weather)', { tool: 'plugin.run', arg: { kind: 'words', words: ['weather'] } }],
  ])('%j', (text, expected) => {
    const r = parseRule(text, 'allow', 'f', argKind);
    expect(r).toMatchObject(expected);
    if (!('arg' in expected)) expect((r as PermissionRule).arg).toBeUndefined();
  });

  test.each([
    ['exec()', 'empty'],
    ['exec(git log', 'must end with'],
    ['rm -rf /', 'not a tool name'],
    ['', 'not a tool name'],
    ['http.get(api.github.com)', 'domain:'],
    ['http.get(domain:exa mple.com)', 'domain:'],
    ['fs.edit(../outside/**)', '".."'],
    ['fs.read(src/../../etc/passwd)', '".."'],
  ])('%j is refused with a reason', (text, why) => {
    const r = parseRule(text, 'deny', 'f', argKind);
    expect(isRuleProblem(r)).toBe(true);
    expect((r as { error: string }).error).toContain(why);
  });
});

describe('ruleMatches', () => {
  test.each([
    ['exec(git log *)', 'exec', cmd('git log'), true],
    ['exec(git log *)', 'exec', cmd('git log --oneline -5'), true],
    ['exec(git log *)', 'exec', cmd('git logx'), false],
    ['exec(git log *)', 'exec', cmd('git status'), false],
    ['exec(npm run test)', 'exec', cmd('npm run test'), true],
    ['exec(npm run test)', 'exec', cmd('npm run test --watch'), false],
    ['exec(npm run test:*)', 'exec', cmd('npm run test:unit'), true],
    ['exec(npm run test:*)', 'exec', cmd('npm run build'), false],
    ['exec(* --version)', 'exec', cmd('node --version'), true],
    ['exec(* --version)', 'exec', cmd('node --version --eval x'), false],
    ['exec(git * main)', 'exec', cmd('git diff HEAD main'), true],
    ['exec(git log *)', 'proc.start', cmd('git log'), false],
    ['proc.start(npm run dev)', 'proc.start', cmd('npm run dev'), true],
    ['fs.edit(src/**)', 'fs.edit', file('src/a.ts'), true],
    ['fs.edit(src/**)', 'fs.edit', file('src/deep/er/a.ts'), true],
    ['fs.edit(src/**)', 'fs.edit', file('srcx/a.ts'), false],
    ['fs.edit(src/*.ts)', 'fs.edit', file('src/deep/a.ts'), false],
    ['fs.edit(**/*.md)', 'fs.edit', file('docs/a/README.md'), true],
    ['fs.edit(**/*.md)', 'fs.edit', file('README.md'), true],
    ['fs.edit(src/**)', 'fs.write', file('src/a.ts'), false],
    ['fs.edit(src/**)', 'fs.edit', file('src/../../etc/passwd'), false],
    ['http.get(domain:api.github.com)', 'http.get', host('api.github.com'), true],
    ['http.get(domain:api.github.com)', 'http.get', host('API.GITHUB.COM.'), true],
    ['http.get(domain:api.github.com)', 'http.get', host('evil-api.github.com'), false],
    ['http.get(domain:*.github.com)', 'http.get', host('raw.github.com'), true],
    ['http.get(domain:*.github.com)', 'http.get', host('github.com.evil.io'), false],
    ['http.get(domain:*.github.com)', 'http.get', host('notgithub.com'), false],
    ['plugin.run(weather)', 'plugin.run', { kind: 'name', name: 'weather' }, true],
    ['plugin.run(weather)', 'plugin.run', { kind: 'name', name: 'weather2' }, false],
    ['mcp.github.*', 'mcp.github.create_issue', { kind: 'none' }, true],
    ['mcp.github.*', 'mcp.gitlab.create_issue', { kind: 'none' }, false],
    ['mcp.*', 'mcp.github.list', { kind: 'none' }, true],
    ['exec', 'exec', cmd('anything at all'), true],
    ['exec(git log *)', 'exec', { kind: 'none' }, false],
  ] as const)('%s on %s %j → %s', (text, tool, subject, expected) => {
    expect(ruleMatches(rule(text), tool, subject as PermissionSubject)).toBe(expected);
  });

  test('hostile input (many stars, a long command) is answered, without exponential backtracking', () => {
    const r = rule(`exec(${Array(30).fill('*').join(' ')} z)`);
    expect(ruleMatches(r, 'exec', { kind: 'command', words: Array(5000).fill('a') })).toBe(false);
    expect(ruleMatches(r, 'exec', { kind: 'command', words: [...Array(5000).fill('a'), 'z'] })).toBe(true);
    const p = rule(`fs.edit(${Array(20).fill('**').join('/')}/x)`);
    expect(ruleMatches(p, 'fs.edit', { kind: 'path', path: Array(200).fill('d').join('/') })).toBe(false);
  });
});

describe('decideByRules: deny > ask > allow', () => {
  const rules = [rule('exec(git *)', 'allow'), rule('exec(git push *)', 'ask'), rule('exec(git push --force *)', 'deny')];
  test.each([
    ['git status', 'allow'],
    ['git push origin main', 'ask'],
    ['git push --force origin main', 'deny'],
    ['npm test', undefined],
  ])('%s → %s', (line, effect) => {
    expect(decideByRules(rules, 'exec', cmd(line))?.effect).toBe(effect);
  });
});

describe('exactRuleFor: what the dialog offers is never wider than the step', () => {
  test.each([
    ['exec', cmd('npm run test'), 'exec(npm run test)'],
    ['exec', cmd('git commit -m wip'), 'exec(git commit -m wip)'],
    ['exec', { kind: 'command', words: ['git', 'commit', '-m', 'two words'] }, undefined],
    ['exec', cmd('echo *'), undefined],
    ['fs.edit', file('src/a.ts'), 'fs.edit(src/a.ts)'],
    ['fs.edit', file('../x'), undefined],
    ['http.get', host('API.example.com'), 'http.get(domain:api.example.com)'],
    ['plugin.run', { kind: 'name', name: 'weather' }, 'plugin.run(weather)'],
  ] as const)('%s %j → %s', (tool, subject, expected) => {
    const text = exactRuleFor(tool, subject as PermissionSubject);
    expect(text).toBe(expected);
    if (text) expect(ruleMatches(rule(text), tool, subject as PermissionSubject)).toBe(true);
  });
});

describe("permission rules in the runner: deny > ask > allow > the rules' level", () => {
  const { createToolRunner } = require('../src') as typeof import('../src');
  const runnerWith = (permissions: { allow?: string[]; ask?: string[]; deny?: string[] }, answers: string[] = []) => {
    const asked: string[] = [];
    const runner = createToolRunner({
      cwd: '/work/proj',
      lang: 'en',
      sandbox: 'off',
      policy: { permissions: { ...permissions, source: '/home/u/.slothtool/plugin-configs/ai.json' } },
      confirm: (r) => {
        asked.push(r.sessionKey);
        return { action: (answers.shift() as 'run') ?? 'decline' };
      },
      deps: {
        exec: async () => ({
          exitCode: 0,
          signal: null,
          timedOut: false,
          aborted: false,
          durationMs: 1,
          stdoutTail: '',
          stderrTail: '',
          truncated: false,
          stdoutBytes: 0,
          stderrBytes: 0,
        }),
      },
    });
    return { runner, asked };
  };
  const ex = (line: string) => ({ tool: 'exec' as const, program: line.split(' ')[0], args: line.split(' ').slice(1) });

  test('an allow rule stops the question for what it names, and only that', async () => {
    const { runner, asked } = runnerWith({ allow: ['exec(npm run test)'] });
    const d = runner.judge(ex('npm run test'));
    expect([d.level, d.rules.map((r) => r.id)]).toEqual(['L0', expect.arrayContaining(['permission.allow'])]);
    expect(d.rules.find((r) => r.id === 'permission.allow')!.reason).toContain('/home/u/.slothtool/plugin-configs/ai.json');
    expect(await runner.run(ex('npm run test'))).toMatchObject({ exitCode: 0, decision: { level: 'L0' } });
    expect(asked).toEqual([]);
    expect(runner.judge(ex('npm run build')).level).toBe('L1');
  });

  test('an allow rule never runs an L2 step, nor lowers a finding about that exact step', () => {
    const { runner } = runnerWith({ allow: ['exec(rm *)', 'exec(sudo *)', 'exec(cat *)'] });
    expect(runner.judge(ex('rm -rf /')).level).toBe('L2');
    expect(runner.judge(ex('sudo ls')).level).toBe('L2');
    expect(runner.judge(ex('cat /home/u/.ssh/id_rsa')).level).toBe('L2');
  });

  test('a deny rule refuses a step the rules would only have asked about (or run)', async () => {
    const { runner, asked } = runnerWith({ deny: ['exec(git push *)', 'exec(ls *)'], allow: ['exec(git push *)'] });
    expect(runner.judge(ex('git push origin main'))).toMatchObject({
      level: 'L2',
      rules: expect.arrayContaining([expect.objectContaining({ id: 'permission.deny' })]),
    });
    expect(runner.judge(ex('ls -l')).level).toBe('L2');
    expect(await runner.run(ex('git push origin main'))).toMatchObject({ status: 'blocked' });
    expect(asked).toEqual([]);
  });

  test('an ask rule asks every time, even for an L0 step and after "allow for this session"', async () => {
    const { runner, asked } = runnerWith({ ask: ['exec(git status)', 'exec(npm test)'] }, ['allow-session', 'run', 'run']);
    expect(runner.judge(ex('git status')).level).toBe('L1');
    await runner.run(ex('npm test'));
    await runner.run(ex('npm test'));
    await runner.run(ex('git status'));
    expect(asked).toEqual(['exec npm test', 'exec npm test', 'exec git status']);
  });

  test('malformed rules are not applied and are reported', () => {
    const { runner } = runnerWith({ allow: ['exec(', 'not a tool(x)', 'exec(ls)'] });
    expect(runner.ruleProblems.map((p) => p.text)).toEqual(['exec(', 'not a tool(x)']);
    expect(runner.judge(ex('ls')).rules.map((r) => r.id)).toContain('read.only');
  });
});

describe('"yes, and don\'t ask again": an allow rule from the answer', () => {
  const { createToolRunner } = require('../src') as typeof import('../src');
  const okExec = async () => ({
    exitCode: 0,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: 1,
    stdoutTail: '',
    stderrTail: '',
    truncated: false,
    stdoutBytes: 0,
    stderrBytes: 0,
  });
  test('the question names the exact rule; answering allow-rule runs it and stops the question for what the rule names', async () => {
    const seen: Array<string | undefined> = [];
    const runner = createToolRunner({
      cwd: '/work/proj',
      lang: 'en',
      sandbox: 'off',
      confirm: (r) => (seen.push(r.rule), { action: 'allow-rule' }),
      deps: { exec: okExec },
    });
    const step = { tool: 'exec' as const, program: 'npm', args: ['run', 'test'] };
    expect(await runner.run(step)).toMatchObject({ exitCode: 0 });
    expect(seen).toEqual(['exec(npm run test)']);
    expect(runner.judge(step)).toMatchObject({ level: 'L0' });
    expect(runner.judge(step).rules.map((r) => r.id)).toContain('permission.allow');
    expect(runner.judge({ tool: 'exec', program: 'npm', args: ['run', 'build'] }).level).toBe('L1');
  });
  test('no rule is offered for a step whose finding is about that exact step, and allow-rule without one is a decline', async () => {
    const seen: Array<string | undefined> = [];
    const runner = createToolRunner({
      cwd: '/work/proj',
      lang: 'en',
      sandbox: 'off',
      confirm: (r) => (seen.push(r.rule), { action: 'allow-rule' }),
      deps: { exec: okExec },
    });
    const r = await runner.run({ tool: 'exec', program: 'cat', args: ['/home/u/.npmrc'] });
    expect(seen).toEqual([undefined]);
    expect(r).toMatchObject({ status: 'declined' });
  });
});
