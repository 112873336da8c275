import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, type TempHome } from '@holic512/testkit';
import { cli, makePlugin, offlineEnv, startCli } from './helpers';

let temp: TempHome;
let env: NodeJS.ProcessEnv;
let work: string;

beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
  env = offlineEnv(temp.env);
  work = path.join(temp.home, 'work');
  await fs.mkdir(work);
});
afterEach(() => temp.cleanup());

async function register(alias: string, options: Parameters<typeof makePlugin>[2]): Promise<string> {
  const dir = await makePlugin(work, alias, options);
  await temp.registerPlugin(alias, dir);
  return dir;
}

describe('run', () => {
  test('passes arguments verbatim and forwards the exit code (run and shorthand)', async () => {
    await register('echo', { name: '@acme/plugin-echo' });
    const viaRun = cli(['run', 'echo', '--exit', '3', 'two words', '-i'], env);
    expect(JSON.parse(viaRun.stdout)).toEqual({ args: ['--exit', '3', 'two words', '-i'] });
    expect(viaRun.status).toBe(3);
    const short = cli(['echo', '--help'], env);
    expect(JSON.parse(short.stdout)).toEqual({ args: ['--help'] });
    expect(short.status).toBe(0);
    expect(cli(['echo', '--exit', '0'], env).status).toBe(0);
  });

  test('a plugin that declares slothtool.inProcess runs in the host process (no second node start); others are spawned', async () => {
    const bin = 'console.log(JSON.stringify({ pid: process.pid, ppid: process.ppid, argv: process.argv.slice(2) })); process.exitCode = 7;';
    await register('inproc', { name: 'plugin-inproc', extra: { slothtool: { inProcess: true } }, files: { 'bin/cli.js': bin } });
    await register('spawned', { name: 'plugin-spawned', files: { 'bin/cli.js': bin } });
    await register('liar', { name: 'plugin-liar', extra: { slothtool: { inProcess: 'yes' } }, files: { 'bin/cli.js': bin } });
    const { spawnSync } = await import('child_process');
    const host = (alias: string) => {
      const r = spawnSync(
        process.execPath,
        [
          '-e',
          `const c = require('child_process').spawn(process.execPath, [${JSON.stringify(path.resolve(__dirname, '../bin/slothtool.js'))}, ${JSON.stringify(alias)}, 'a b', '--x'], { stdio: ['ignore', 'pipe', 'inherit'] }); let o = ''; c.stdout.on('data', (d) => (o += d)); c.on('exit', (code) => console.log(JSON.stringify({ host: c.pid, code, out: JSON.parse(o) })));`,
        ],
        { env, encoding: 'utf8' },
      );
      return JSON.parse(r.stdout) as { host: number; code: number; out: { pid: number; ppid: number; argv: string[] } };
    };
    const inproc = host('inproc');
    expect(inproc.out.pid).toBe(inproc.host);
    expect(inproc.out.argv).toEqual(['a b', '--x']);
    expect(inproc.code).toBe(7);
    for (const alias of ['spawned', 'liar']) {
      const spawned = host(alias);
      expect(spawned.out.ppid).toBe(spawned.host);
      expect(spawned.code).toBe(7);
    }
  });

  test('stdin is inherited', async () => {
    await register('cat', { name: 'plugin-cat', files: { 'bin/cli.js': 'process.stdin.pipe(process.stdout)' } });
    const { spawnSync } = await import('child_process');
    const r = spawnSync(process.execPath, [path.resolve(__dirname, '../bin/slothtool.js'), 'cat'], {
      env,
      input: 'hello through stdin',
      encoding: 'utf8',
    });
    expect(r.stdout).toBe('hello through stdin');
  });

  test.each(['SIGTERM', 'SIGINT'] as const)('%s sent to the host reaches the plugin; its exit code comes back', async (signal) => {
    await register('waiter', {
      name: 'plugin-waiter',
      files: {
        'bin/cli.js': `
          process.on('SIGTERM', () => { console.log('got SIGTERM'); process.exit(42); });
          process.on('SIGINT', () => { console.log('got SIGINT'); process.exit(43); });
          console.log('ready');
          setInterval(() => {}, 1000);`,
      },
    });
    const run = startCli(['waiter'], env, 'ready');
    await run.ready;
    run.child.kill(signal);
    const r = await run.exited;
    expect(r.stdout).toContain(`got ${signal}`);
    expect(r.status).toBe(signal === 'SIGTERM' ? 42 : 43);
  });

  test('a plugin killed by a signal ends the host with the same signal', async () => {
    await register('suicide', { name: 'plugin-suicide', files: { 'bin/cli.js': "process.kill(process.pid, 'SIGTERM')" } });
    const r = cli(['suicide'], env);
    expect(r.signal).toBe('SIGTERM');
  });

  test('an alias that is not installed names the install command', async () => {
    const r = cli(['ai', '-i'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Plugin "ai" is not installed');
    expect(r.stderr).toContain('slothtool install @holic512/plugin-ai');
  });

  test('a registry entry whose bin is gone explains how to fix it', async () => {
    const dir = await register('gone', { name: '@acme/plugin-gone' });
    await fs.rm(path.join(dir, 'bin'), { recursive: true });
    const r = cli(['gone'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(path.join(dir, 'bin', 'cli.js'));
    expect(r.stderr).toContain('slothtool install @acme/plugin-gone');
    expect(r.stderr).toContain('npm run setup'); // linked from a folder outside the home
  });

  test('run without an alias and unknown options are usage errors (exit 2)', () => {
    expect(cli(['run'], env).status).toBe(2);
    const r = cli(['--frobnicate'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('Invalid usage: unknown option "--frobnicate". Run `slothtool --help` for the options.\n');
    const near = cli(['list', '--jsn'], env);
    expect(near.status).toBe(2);
    expect(near.stderr).toBe('Invalid usage: unknown option "--jsn". Did you mean --json? Run `slothtool --help` for the options.\n');
    const menu = cli(['-i'], env);
    expect(menu.status).toBe(2);
    expect(menu.stderr).toContain('slothtool ai -i');
  });

  test("a command's options are read the way getopt reads them", () => {
    // An option a command does not take, a value given to a flag, and one inside a short cluster.
    for (const [args, shown] of [
      [['list', '--verbose'], '--verbose'],
      [['list', '--json=yes'], '--json=yes'],
      [['uninstall', 'x', '-yq'], '-q'],
    ] as const) {
      const r = cli([...args], env);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`unknown option "${shown}"`);
    }
    // `--` ends the options: what follows is an argument, here one too many.
    const extra = cli(['list', '--', '--json'], env);
    expect(extra.status).toBe(2);
    expect(extra.stderr).toContain('Unexpected arguments: "--json"');
    expect(cli(['list', '--json'], env).status).toBe(0);
  });
});

describe('list', () => {
  test('empty', () => {
    const r = cli(['list'], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('No plugins installed.');
    expect(JSON.parse(cli(['list', '--json'], env).stdout)).toEqual([]);
  });

  test('table and --json, sorted, with linked and missing bins marked', async () => {
    await register('zeta', { name: '@acme/plugin-zeta', version: '2.0.0' });
    const alpha = await register('alpha', { name: 'plugin-alpha', version: '0.1.0' });
    await fs.rm(path.join(alpha, 'bin', 'cli.js'));
    const table = cli(['list'], env);
    expect(table.status).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^alias\s+package\s+version\s+installed\s+status$/);
    expect(lines[1]).toMatch(/^alpha\s+plugin-alpha\s+0\.1\.0\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+bin missing$/);
    expect(lines[2]).toMatch(/^zeta\s+@acme\/plugin-zeta\s+2\.0\.0\s+.*linked /);

    const json = JSON.parse(cli(['list', '--json'], env).stdout) as Array<Record<string, unknown>>;
    expect(json.map((p) => [p.alias, p.name, p.version, p.source, p.binExists])).toEqual([
      ['alpha', 'plugin-alpha', '0.1.0', 'linked', false],
      ['zeta', '@acme/plugin-zeta', '2.0.0', 'linked', true],
    ]);
    expect(json[1].binPath).toBe(path.join(work, 'zeta', 'bin', 'cli.js'));
  });
});

describe('uninstall', () => {
  test('removes the folder and the entry, and keeps the config files (profiles, keys), saying how to remove them', async () => {
    await makePlugin(work, 'greet', { name: '@acme/plugin-greet' });
    expect(cli(['install', './greet'], env, work).status).toBe(0);
    await register('other', { name: 'plugin-other' });
    const config = await temp.writeJson('plugin-configs/greet.json', { api_key: 'sk-keep-me' });
    const logs = await temp.writeJson('plugin-configs/greet.logs.json', []);
    const neighbour = await temp.writeJson('plugin-configs/greeting.json', { x: 1 });
    const r = cli(['uninstall', 'greet'], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(path.join(temp.slothtoolHome, 'plugins', 'greet'));
    expect(r.stdout).toContain(`Keeping the config file: ${config} (remove it too: slothtool uninstall greet --purge)`);
    expect(await fs.readFile(config, 'utf8')).toContain('sk-keep-me');
    await expect(fs.access(logs)).resolves.toBeUndefined();
    await expect(fs.access(neighbour)).resolves.toBeUndefined();
    await expect(fs.access(path.join(temp.slothtoolHome, 'plugins', 'greet'))).rejects.toThrow();
    const reg = await temp.readJson<{ plugins: Record<string, unknown> }>('registry.json');
    expect(Object.keys(reg.plugins)).toEqual(['other']);
  });

  test('--purge without a terminal needs --yes: it says so and removes nothing; with --yes the config files go too', async () => {
    await register('greet', { name: '@acme/plugin-greet' });
    const config = await temp.writeJson('plugin-configs/greet.json', { x: 1 });
    const logs = await temp.writeJson('plugin-configs/greet.logs.json', []);
    const neighbour = await temp.writeJson('plugin-configs/greeting.json', { x: 1 });
    const refused = cli(['uninstall', 'greet', '--purge'], env);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('add --yes: slothtool uninstall greet --purge --yes');
    await expect(fs.access(config)).resolves.toBeUndefined();
    expect(Object.keys((await temp.readJson<{ plugins: Record<string, unknown> }>('registry.json')).plugins)).toContain('greet');
    const r = cli(['uninstall', 'greet', '--purge', '--yes'], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`config file: ${config}`);
    expect(r.stdout).toContain(`config file: ${logs}`);
    await expect(fs.access(config)).rejects.toThrow();
    await expect(fs.access(logs)).rejects.toThrow();
    await expect(fs.access(neighbour)).resolves.toBeUndefined();
  });

  test('--keep-config (the old flag) is still accepted and keeps the config file', async () => {
    await register('greet', { name: '@acme/plugin-greet' });
    const config = await temp.writeJson('plugin-configs/greet.json', { x: 1 });
    const r = cli(['uninstall', 'greet', '--keep-config'], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Keeping the config file: ${config}`);
    await expect(fs.access(config)).resolves.toBeUndefined();
  });

  test('a plugin linked from a folder: only the entry goes, the folder stays', async () => {
    const dir = await register('linked', { name: 'plugin-linked' });
    const r = cli(['uninstall', 'linked'], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Not removing');
    await expect(fs.access(path.join(dir, 'bin', 'cli.js'))).resolves.toBeUndefined();
  });

  test('an unknown alias is an error', () => {
    const r = cli(['uninstall', 'nope'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Plugin "nope" is not installed');
  });
});

describe('update', () => {
  test('a plugin linked from a folder is not updated', async () => {
    await register('linked', { name: 'plugin-linked' });
    const r = cli(['update', 'linked'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('update leaves it alone');
  });
});

describe('a corrupt registry.json', () => {
  test.each([[['list']], [['list', '--json']], [['install', './p']], [['uninstall', 'x']], [['update', 'x']], [['x', '--help']]])(
    'slothtool %j fails naming the file and leaves it untouched',
    async (args) => {
      await makePlugin(work, 'p', { name: 'plugin-p' });
      const file = path.join(temp.slothtoolHome, 'registry.json');
      await fs.writeFile(file, '{"plugins": {"x": ');
      const r = cli(args, env, work);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`The registry file is corrupt: ${file}`);
      expect(await fs.readFile(file, 'utf8')).toBe('{"plugins": {"x": ');
      expect(await fs.readdir(temp.slothtoolHome)).not.toContain('plugins');
    },
  );
});

describe('language', () => {
  test('no setting: the locale decides (zh_CN → zh, en_US or C → en); settings.json language switches; config language writes it atomically', async () => {
    await fs.rm(path.join(temp.slothtoolHome, 'settings.json'));
    expect(cli(['nope'], { ...env, LC_ALL: 'zh_CN.UTF-8' }).stderr).toContain('插件 "nope" 未安装');
    expect(cli(['nope'], { ...env, LC_ALL: '', LC_MESSAGES: '', LANG: 'en_US.UTF-8' }).stderr).toContain('Plugin "nope" is not installed');
    expect(cli(['nope'], { ...env, LC_ALL: 'C' }).stderr).toContain('Plugin "nope" is not installed');
    await temp.writeJson('settings.json', { language: 'en', other: 'kept' });
    expect(cli(['nope'], env).stderr).toContain('Plugin "nope" is not installed');
    const set = cli(['config', 'language', 'zh'], env);
    expect(set.status).toBe(0);
    expect(set.stdout).toContain('语言已设置为：zh');
    expect(await temp.readJson('settings.json')).toEqual({ language: 'zh', other: 'kept' });
    expect(cli(['config', 'language', 'fr'], env).status).toBe(2);
  });

  test('an unreadable settings.json is reported, not silently ignored', async () => {
    await fs.writeFile(path.join(temp.slothtoolHome, 'settings.json'), '{oops');
    const r = cli(['nope'], { ...env, LC_ALL: 'zh_CN.UTF-8' });
    expect(r.stderr).toContain(path.join(temp.slothtoolHome, 'settings.json'));
    expect(r.stderr).toContain('插件 "nope" 未安装');
    expect(cli(['config', 'language', 'en'], env).status).toBe(1);
  });

  test('--help and --version', () => {
    const help = cli(['--help'], env);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('slothtool install <name|folder|.tgz>');
    expect(help.stdout).toContain(temp.slothtoolHome);
    expect(cli(['--version'], env).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
