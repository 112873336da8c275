import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createTempHome, writeFiles, type TempHome } from '@holic512/testkit';
import type { ExecOptions, ExecResult } from '../src/exec';
import { createToolRunner, type ConfirmAnswer, type ConfirmRequest, type ToolRunnerOptions } from '../src/runner';
import type { Step } from '../src/types';
import { okResult as execResult } from './helpers/exec-result';

const okResult = (stdout = '', extra: Partial<ExecResult> = {}): ExecResult => execResult(stdout, { durationMs: 5, ...extra });

function fakeRunner(answers: Array<ConfirmAnswer | Error> = [], opts: Partial<ToolRunnerOptions> = {}, stdout = 'out\n') {
  const calls: ExecOptions[] = [];
  const asked: ConfirmRequest[] = [];
  const runner = createToolRunner({
    cwd: '/work/proj',
    lang: 'en',
    env: { HOME: '/home/u', PATH: '/usr/bin' },
    // the runner's own logic with a fake exec; the OS sandbox has tests of its own
    sandbox: 'off',
    confirm: async (req) => {
      asked.push(req);
      const a = answers.shift();
      if (a instanceof Error) throw a;
      return a ?? { action: 'decline' };
    },
    deps: {
      exec: async (o) => {
        calls.push(o);
        return okResult(stdout);
      },
    },
    ...opts,
  });
  return { runner, calls, asked };
}

const ex = (line: string, extra: Partial<Step> = {}): Step => {
  const [program, ...args] = line.split(' ');
  return { tool: 'exec', program, args, ...extra } as Step;
};

describe('createToolRunner: exec', () => {
  test('L0 runs without asking and returns the DESIGN §4 tool_result', async () => {
    const { runner, calls, asked } = fakeRunner([], {}, 'src/a.ts:3:TODO x\n');
    const r = await runner.run(ex('rg -n TODO src'));
    expect(asked).toHaveLength(0);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ program: 'rg', args: ['-n', 'TODO', 'src'], cwd: '/work/proj', timeoutMs: 120000 });
    expect(calls[0].env).toMatchObject({ GIT_TERMINAL_PROMPT: '0', PAGER: 'cat' });
    expect(r).toMatchObject({
      _event: 'tool_result',
      id: 'cmd_001',
      tool: 'exec',
      cwd: '/work/proj',
      program: 'rg',
      args: ['-n', 'TODO', 'src'],
      exitCode: 0,
      durationMs: 5,
      stdoutTail: 'src/a.ts:3:TODO x\n',
      stderrTail: '',
      truncated: false,
      parsed: { kind: 'search_matches', total: 1, items: [{ file: 'src/a.ts', line: 3, text: 'TODO x' }] },
      decision: { level: 'L0', by: 'policy' },
    });
    expect((await runner.run(ex('ls'))).id).toBe('cmd_002');
  });

  test('a step tool defaults to exec and cwd resolves against the workspace', async () => {
    const { runner, calls } = fakeRunner();
    const r = await runner.run({ program: 'ls', args: [], cwd: 'src' } as unknown as Step);
    expect(r).toMatchObject({ tool: 'exec', cwd: '/work/proj/src' });
    expect(calls[0].cwd).toBe('/work/proj/src');
  });

  test('L2 never runs and never asks', async () => {
    const { runner, calls, asked } = fakeRunner([{ action: 'run' }]);
    const r = await runner.run(ex('rm -rf /'), { id: 'x1' });
    expect(calls).toHaveLength(0);
    expect(asked).toHaveLength(0);
    expect(r).toMatchObject({ _event: 'tool_result', id: 'x1', tool: 'exec', status: 'blocked', decision: { level: 'L2', by: 'policy' } });
    expect('reason' in r && r.reason).toMatch(/recursive/);
  });

  test('L1 asks; decline does not run', async () => {
    const { runner, calls, asked } = fakeRunner([{ action: 'decline', reason: 'not now' }]);
    const r = await runner.run(ex('npm install'));
    expect(asked[0]).toMatchObject({ id: 'cmd_001', sessionKey: 'exec npm install', decision: { level: 'L1' } });
    expect(calls).toHaveLength(0);
    expect(r).toMatchObject({ status: 'declined', reason: 'not now', decision: { level: 'L1', by: 'user' } });
  });

  test('L1 run once: runs, decided by the user, asks again next time', async () => {
    const { runner, calls, asked } = fakeRunner([{ action: 'run' }, { action: 'decline' }]);
    expect(await runner.run(ex('git commit -m x'))).toMatchObject({ exitCode: 0, decision: { level: 'L1', by: 'user' } });
    expect(await runner.run(ex('git commit -m y'))).toMatchObject({ status: 'declined' });
    expect(asked).toHaveLength(2);
    expect(calls).toHaveLength(1);
  });

  test('allow-session allows exactly program + subcommand, never an L2 variant', async () => {
    const { runner, calls, asked } = fakeRunner([{ action: 'allow-session' }, { action: 'decline' }]);
    await runner.run(ex('git commit -m x'));
    expect(runner.sessionAllowances).toEqual(['exec git commit']);
    const again = await runner.run(ex('git commit -m y'));
    expect(again).toMatchObject({ exitCode: 0, decision: { level: 'L0', by: 'user' } });
    expect(runner.judge(ex('git commit -m z')).rules.map((r) => r.id)).toContain('session.allowed');
    expect(await runner.run(ex('git commit --amend'))).toMatchObject({ status: 'blocked' });
    expect(await runner.run(ex('git push'))).toMatchObject({ status: 'declined' });
    expect(asked).toHaveLength(2);
    expect(calls).toHaveLength(2);
  });

  test('a session allowance never silences a secret read or another repository', async () => {
    const { runner, asked } = fakeRunner([{ action: 'allow-session' }, { action: 'decline' }, { action: 'decline' }]);
    await runner.run(ex('git show HEAD:.env'));
    expect(await runner.run(ex('git show HEAD:.env.production'))).toMatchObject({ status: 'declined' });
    await runner.run(ex('git -C /tmp/other commit -m x'));
    expect(asked).toHaveLength(3);
  });

  test('allowances live on the runner, not the module', async () => {
    const a = fakeRunner([{ action: 'allow-session' }]);
    await a.runner.run(ex('npm test'));
    const b = fakeRunner([]);
    expect(b.runner.judge(ex('npm test')).level).toBe('L1');
    expect(a.runner.judge(ex('npm test')).level).toBe('L0');
  });

  test('an edited step is judged again from scratch', async () => {
    const { runner, calls, asked } = fakeRunner([{ action: 'edit', step: ex('rm -rf build') }]);
    expect(await runner.run(ex('npm install'))).toMatchObject({ status: 'blocked', decision: { level: 'L2' } });
    expect(calls).toHaveLength(0);
    const second = fakeRunner([{ action: 'edit', step: ex('npm ci') }, { action: 'run' }]);
    expect(await second.runner.run(ex('npm install'))).toMatchObject({ program: 'npm', args: ['ci'], exitCode: 0 });
    expect(second.asked.map((q) => q.sessionKey)).toEqual(['exec npm install', 'exec npm ci']);
    const third = fakeRunner([{ action: 'edit', step: ex('ls') }]);
    expect(await third.runner.run(ex('npm install'))).toMatchObject({ program: 'ls', decision: { level: 'L0', by: 'policy' } });
    expect(third.asked).toHaveLength(1);
    expect(asked).toHaveLength(1);
  });

  test('a confirm callback that throws or answers nonsense declines', async () => {
    const { runner, calls } = fakeRunner([new Error('ui gone')]);
    expect(await runner.run(ex('npm test'))).toMatchObject({ status: 'declined', reason: expect.stringContaining('ui gone') });
    const weird = createToolRunner({
      cwd: '/w',
      confirm: () => ({ action: 'yes please' }) as unknown as ConfirmAnswer,
      deps: { exec: async () => okResult() },
    });
    expect(await weird.run(ex('npm test'))).toMatchObject({ status: 'declined' });
    expect(calls).toHaveLength(0);
  });

  test('malformed steps are blocked', async () => {
    const { runner, calls } = fakeRunner();
    expect(await runner.run({ tool: 'exec', program: 'ls', args: 'x' } as unknown as Step)).toMatchObject({
      status: 'blocked',
      decision: { level: 'L2' },
    });
    expect(await runner.run({ tool: 'fs.nuke' } as unknown as Step)).toMatchObject({ status: 'blocked' });
    expect(calls).toHaveLength(0);
  });

  test('run never rejects, even when a dependency throws', async () => {
    const runner = createToolRunner({
      cwd: '/w',
      env: { HOME: '/home/u', PATH: '/usr/bin' },
      sandbox: 'off',
      confirm: () => ({ action: 'run' }),
      deps: {
        exec: async () => {
          throw new Error('boom token=abc123secret');
        },
      },
    });
    const r = await runner.run(ex('ls'));
    expect(r).toMatchObject({ status: 'blocked', decision: { rules: [{ id: 'runner.error' }] } });
    expect(JSON.stringify(r)).not.toContain('abc123secret');
  });

  test('junk policy settings from a config file are ignored, judge survives junk steps', () => {
    const runner = createToolRunner({
      cwd: '/w',
      confirm: () => ({ action: 'run' }),
      policy: { allowedPrograms: 'rm' as unknown as string[], allowNetwork: 'yes' as unknown as boolean },
    });
    expect(runner.judge(ex('curl https://x')).level).toBe('L1');
    expect(runner.judge(ex('terraform plan')).level).toBe('L2');
    expect(runner.judge(null as unknown as Step).level).toBe('L2');
  });

  test('output is redacted before it is returned', async () => {
    const { runner } = fakeRunner([], {}, 'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz\n');
    const r = await runner.run(ex('cat README.md'));
    expect(JSON.stringify(r)).not.toContain('abcdefghijklmnop');
  });

  test('rule reasons and echoed arguments are redacted too', async () => {
    const { runner, calls } = fakeRunner([{ action: 'run' }]);
    const blocked = await runner.run(ex('ssh host export TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789'));
    expect(JSON.stringify(blocked)).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    const ran = await runner.run(ex('curl -H Authorization:Bearer_x https://x/?token=secretvalue123'));
    expect(JSON.stringify(ran)).not.toContain('secretvalue123');
    // ...but the program itself gets the real arguments.
    expect(calls[0].args).toEqual(['-H', 'Authorization:Bearer_x', 'https://x/?token=secretvalue123']);
  });

  test('policy settings come from the caller', async () => {
    const { runner, asked } = fakeRunner([], { policy: { allowNetwork: true } });
    expect(await runner.run(ex('curl https://example.com'))).toMatchObject({ exitCode: 0, decision: { level: 'L0' } });
    expect(asked).toHaveLength(0);
  });

  test('a step timeout is passed on, capped at ten times the runner default', async () => {
    const { runner, calls } = fakeRunner([], { timeoutMs: 1000 });
    await runner.run(ex('ls', { timeoutMs: 500 } as Partial<Step>));
    await runner.run(ex('ls', { timeoutMs: 10_000_000 } as Partial<Step>));
    expect(calls.map((c) => c.timeoutMs)).toEqual([500, 10000]);
  });

  test('real exec end to end, with live output', async () => {
    // A home of its own: the sandboxed step's runner makes its pipe folder in the SlothTool home.
    const temp = await createTempHome();
    try {
      const chunks: string[] = [];
      const runner = createToolRunner({ cwd: os.tmpdir(), env: temp.env, confirm: () => ({ action: 'decline' }) });
      const r = await runner.run(ex('echo hello'), { onOutput: (c) => chunks.push(c) });
      expect(r).toMatchObject({ exitCode: 0, stdoutTail: 'hello\n' });
      expect(chunks.join('')).toBe('hello\n');
      const missing = await createToolRunner({
        cwd: os.tmpdir(),
        env: temp.env,
        confirm: () => ({ action: 'run' }),
        policy: { allowedPrograms: ['no-such-program-zz'] },
      }).run(ex('no-such-program-zz'));
      expect(missing).toMatchObject({ exitCode: 127, error: { code: 'ENOENT' } });
    } finally {
      await temp.cleanup();
    }
  });
});

describe('createToolRunner: plugin.run', () => {
  let temp: TempHome;
  let pluginDir: string;
  let interactiveDir: string;

  beforeAll(async () => {
    temp = await createTempHome();
    pluginDir = await writeFiles(path.join(temp.home, 'loc'), {
      'package.json': { name: '@x/plugin-loc', version: '1.0.0', bin: { loc: 'bin/loc.js' } },
      'bin/loc.js': 'console.log(JSON.stringify({args: process.argv.slice(2), stdin: process.stdin.isTTY ?? null}))\n',
    });
    interactiveDir = await writeFiles(path.join(temp.home, 'wiz'), {
      'package.json': {
        name: '@x/plugin-wiz',
        version: '1.0.0',
        bin: 'bin/wiz.js',
        slothtool: { interactive: true, interactiveFlag: '-i' },
      },
      'bin/wiz.js': 'process.exit(0)\n',
    });
    await temp.registerPlugin('loc', pluginDir);
    await temp.registerPlugin('wiz', interactiveDir);
    await temp.registerPlugin('ai', pluginDir);
  });
  afterAll(() => temp.cleanup());

  const make = async (answers: ConfirmAnswer[] = [], extra: { terminal?: boolean } = {}) => {
    const registry = await temp.readJson<{ plugins: Record<string, { name: string; binPath: string }> }>('registry.json');
    const asked: ConfirmRequest[] = [];
    const inherited: string[][] = [];
    const runner = createToolRunner({
      cwd: temp.home,
      env: temp.env,
      lang: 'en',
      registry,
      confirm: (req) => {
        asked.push(req);
        return answers.shift() ?? { action: 'decline' };
      },
      deps: {
        execInherit: async (o) => {
          inherited.push(o.args);
          return { exitCode: 0, signal: null, durationMs: 1 };
        },
      },
      ...extra,
    });
    return { runner, asked, inherited };
  };

  test('--help is L0 and runs node <binPath> with captured output', async () => {
    const { runner, asked } = await make();
    const r = await runner.run({ tool: 'plugin.run', plugin: 'loc', args: ['--help'] });
    expect(asked).toHaveLength(0);
    expect(r).toMatchObject({
      tool: 'plugin.run',
      plugin: 'loc',
      exitCode: 0,
      decision: { level: 'L0' },
      parsed: { kind: 'json', value: { args: ['--help'] } },
    });
  });

  test('other arguments ask first (L1)', async () => {
    const { runner, asked } = await make([{ action: 'run' }]);
    const r = await runner.run({ tool: 'plugin.run', plugin: 'loc', args: ['./src'] });
    expect(asked[0].sessionKey).toBe('plugin.run loc');
    expect(r).toMatchObject({ exitCode: 0, decision: { level: 'L1', by: 'user' } });
  });

  test('running ai is refused, unknown plugins are blocked', async () => {
    const { runner, asked } = await make([{ action: 'run' }]);
    expect(await runner.run({ tool: 'plugin.run', plugin: 'ai', args: ['--help'] })).toMatchObject({ status: 'blocked' });
    expect(await runner.run({ tool: 'plugin.run', plugin: 'nope', args: [] })).toMatchObject({ status: 'blocked' });
    expect(await runner.run({ tool: 'plugin.run', plugin: 'constructor', args: [] })).toMatchObject({ status: 'blocked' });
    expect(asked).toHaveLength(0);
  });

  test('interactive plugins always ask, even after allow-session, and get the terminal', async () => {
    const { runner, asked, inherited } = await make([{ action: 'allow-session' }, { action: 'run' }]);
    const r = await runner.run({ tool: 'plugin.run', plugin: 'wiz', args: ['-i'] });
    expect(r).toMatchObject({ interactive: true, exitCode: 0, decision: { by: 'user' } });
    await runner.run({ tool: 'plugin.run', plugin: 'wiz', args: ['-i'] });
    expect(asked).toHaveLength(2);
    expect(inherited[0]).toEqual([path.join(interactiveDir, 'bin/wiz.js'), '-i']);
  });

  test('without a terminal to hand over (terminal: false), an interactive plugin still asks and runs captured', async () => {
    await fs.writeFile(path.join(interactiveDir, 'bin/wiz.js'), 'console.log("wizard says hi"); process.exit(0)\n');
    const { runner, asked, inherited } = await make([{ action: 'run' }], { terminal: false });
    const r = await runner.run({ tool: 'plugin.run', plugin: 'wiz', args: ['-i'] });
    expect(asked).toHaveLength(1);
    expect(inherited).toEqual([]);
    expect(r).toMatchObject({ exitCode: 0, stdoutTail: 'wizard says hi\n' });
    expect(r).not.toHaveProperty('interactive');
    await fs.writeFile(path.join(interactiveDir, 'bin/wiz.js'), 'process.exit(0)\n');
  });
});

describe('createToolRunner: config.json_patch', () => {
  let temp: TempHome;
  let ws: string;
  beforeEach(async () => {
    temp = await createTempHome();
    ws = path.join(temp.home, 'project');
    await fs.mkdir(ws, { recursive: true });
    await fs.writeFile(path.join(ws, 'settings.json'), JSON.stringify({ language: 'zh' }));
    await fs.writeFile(
      path.join(ws, 'service.json'),
      JSON.stringify({ profiles: { local: { api_key: 'sk-secret-value-123456789', low_model: 'a' } } }),
    );
    await temp.writeJson('settings.json', { language: 'zh' });
    await temp.writeJson('plugin-configs/llm-base.json', { base_url: 'https://api.example.com/v1', api_key: 'sk-secret-value-123456789' });
  });
  afterEach(() => temp.cleanup());

  const make = (answers: ConfirmAnswer[], lang: 'en' | 'zh' = 'en') => {
    const asked: ConfirmRequest[] = [];
    const runner = createToolRunner({
      cwd: ws,
      env: temp.env,
      lang,
      confirm: (req) => {
        asked.push(req);
        return answers.shift() ?? { action: 'decline' };
      },
    });
    return { runner, asked };
  };
  const step = (
    file: string,
    patch: Step extends infer S ? (S extends { tool: 'config.json_patch'; patch: infer P } ? P : never) : never,
  ): Step => ({ tool: 'config.json_patch', file, patch });
  const readWs = async (name: string) => JSON.parse(await fs.readFile(path.join(ws, name), 'utf8'));

  test('asks with the masked diff as preview, then applies with a backup', async () => {
    const { runner, asked } = make([{ action: 'run' }]);
    const r = await runner.run(step('settings.json', [{ op: 'replace', path: '/language', value: 'en' }]));
    expect(asked[0].preview).toContain('/language');
    expect(r).toMatchObject({ tool: 'config.json_patch', status: 'applied', decision: { level: 'L1', by: 'user' } });
    expect('backupPath' in r && r.backupPath).toBeTruthy();
    expect(await readWs('settings.json')).toEqual({ language: 'en' });
  });

  test('secrets stay masked in the preview and the result', async () => {
    const { runner, asked } = make([{ action: 'run' }]);
    const r = await runner.run(
      step('service.json', [{ op: 'replace', path: '/profiles/local/api_key', value: 'sk-new-secret-987654321' }]),
    );
    expect(asked[0].preview).not.toContain('secret-value');
    expect(asked[0].preview).not.toContain('987654321');
    expect(JSON.stringify(r)).not.toContain('987654321');
    expect(r).toMatchObject({ status: 'applied' });
  });

  test('decline leaves the file alone', async () => {
    const { runner } = make([{ action: 'decline' }]);
    expect(await runner.run(step('settings.json', [{ op: 'replace', path: '/language', value: 'en' }]))).toMatchObject({
      status: 'declined',
    });
    expect(await readWs('settings.json')).toEqual({ language: 'zh' });
  });

  test('files outside the workspace are blocked before asking', async () => {
    const { runner, asked } = make([{ action: 'run' }]);
    expect(await runner.run(step('~/.bashrc', [{ op: 'add', path: '/x', value: 1 }]))).toMatchObject({ status: 'blocked' });
    expect(await runner.run(step('../elsewhere.json', [{ op: 'add', path: '/x', value: 1 }]))).toMatchObject({ status: 'blocked' });
    expect(asked).toHaveLength(0);
  });

  test("the assistant's own config is never patched by the model (a new base_url would send the key elsewhere), whatever the roots say", async () => {
    const { runner, asked } = make([{ action: 'run' }]);
    const runnerWithHomeRoots = createToolRunner({
      cwd: ws,
      env: temp.env,
      lang: 'en',
      allowedRoots: [temp.slothtoolHome],
      confirm: () => ({ action: 'run' }),
    });
    for (const r of [runner, runnerWithHomeRoots]) {
      for (const file of [
        '~/.slothtool/plugin-configs/llm-base.json',
        '~/.slothtool/settings.json',
        '~/.slothtool/registry.json',
        path.join(temp.slothtoolHome, 'plugin-configs', 'ai.json'),
      ]) {
        const result = await r.run(step(file, [{ op: 'replace', path: '/base_url', value: 'https://evil.example/v1' }]));
        expect(result).toMatchObject({ status: 'blocked', decision: { level: 'L2', rules: [{ id: 'write.slothtool' }] } });
      }
    }
    expect(asked).toHaveLength(0);
    expect(await temp.readJson('plugin-configs/llm-base.json')).toMatchObject({ base_url: 'https://api.example.com/v1' });
  });

  test('operation errors come back as status error', async () => {
    const { runner } = make([{ action: 'run' }]);
    const r = await runner.run(step('settings.json', [{ op: 'remove', path: '/missing' }]));
    expect(r).toMatchObject({
      status: 'error',
      error: {
        code: 'PATH_NOT_FOUND',
        message: expect.stringMatching(/^Patch not applied: the path does not exist \(operation 1, \/missing/),
      },
    });
  });

  test('operation errors are told in the user language, with the detail after', async () => {
    const { runner } = make([{ action: 'run' }], 'zh');
    const r = await runner.run(step('settings.json', [{ op: 'remove', path: '/missing' }]));
    expect(r).toMatchObject({
      status: 'error',
      error: { code: 'PATH_NOT_FOUND', message: expect.stringMatching(/^补丁未应用：路径不存在（第 1 项操作，\/missing）。\n\S/) },
    });
  });

  test('allow-session patches the same file again without asking', async () => {
    const { runner, asked } = make([{ action: 'allow-session' }]);
    await runner.run(step('settings.json', [{ op: 'replace', path: '/language', value: 'en' }]));
    const r = await runner.run(step('settings.json', [{ op: 'replace', path: '/language', value: 'zh' }]));
    expect(asked).toHaveLength(1);
    expect(r).toMatchObject({ status: 'applied', decision: { level: 'L0', by: 'user' } });
  });
});
