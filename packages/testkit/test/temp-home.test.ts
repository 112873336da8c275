import { existsSync, promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createTempHome, packageDir, processesIn, until } from '../src/index';

test('creates an isolated home with SLOTHTOOL_HOME inside it and removes it', async () => {
  const t = await createTempHome({ language: 'en' });
  expect(t.home.startsWith(os.tmpdir()) || t.home.startsWith(await fs.realpath(os.tmpdir()))).toBe(true);
  expect(t.env.HOME).toBe(t.home);
  expect(t.env.SLOTHTOOL_HOME).toBe(path.join(t.home, '.slothtool'));
  // no real server is ever met: the setup probes no usual port, the Ollama preset ignores the machine's OLLAMA_HOST
  expect(t.env.SLOTHTOOL_AI_PROBE_PORTS).toBe('');
  expect('OLLAMA_HOST' in t.env).toBe(false);
  expect(await t.readJson('settings.json')).toEqual({ language: 'en' });
  await t.cleanup();
  expect(existsSync(t.home)).toBe(false);
  await t.cleanup();
});

test('registerPlugin writes an entry in the original registry shape', async () => {
  const t = await createTempHome();
  try {
    await t.registerPlugin('slothtool', packageDir('slothtool'));
    const reg = await t.readJson<{ plugins: Record<string, Record<string, string>> }>('registry.json');
    const entry = reg.plugins.slothtool;
    expect(Object.keys(entry).sort()).toEqual(['binPath', 'installedAt', 'name', 'version']);
    expect(entry.name).toBe('@holic512/slothtool');
    expect(entry.binPath).toBe(path.join(packageDir('slothtool'), 'bin', 'slothtool.js'));
  } finally {
    await t.cleanup();
  }
});

describe('cleanup waits for the processes started in the home', () => {
  const linux = process.platform === 'linux' ? test : test.skip;

  linux('a grandchild that outlives its parent and writes into the home is waited for, then the home goes', async () => {
    const t = await createTempHome();
    const project = path.join(t.home, 'project');
    await fs.mkdir(project);
    // The parent starts a detached child and exits at once; the child writes into the project a
    // moment later (as ai's spawn helper does when it ends): removing meanwhile would race it.
    const grandchild = `setTimeout(() => { for (let i = 0; i < 50; i++) require('fs').writeFileSync('late-' + i + '.txt', 'x'); }, 300)`;
    const parent = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { detached: true, stdio: 'ignore' }).unref()`;
    await new Promise<void>((resolve, reject) => {
      const { spawn } = require('child_process') as typeof import('child_process');
      spawn(process.execPath, ['-e', parent], { cwd: project, env: t.env, stdio: 'ignore' })
        .on('exit', () => resolve())
        .on('error', reject);
    });
    const running = await processesIn(t.home);
    expect(running.length).toBe(1);
    await t.cleanup();
    expect(existsSync(t.home)).toBe(false);
    expect(await processesIn(t.home)).toEqual([]);
  });

  linux('processes of another home are not counted', async () => {
    const a = await createTempHome();
    const b = await createTempHome();
    try {
      const { spawn } = require('child_process') as typeof import('child_process');
      const child = spawn(process.execPath, ['-e', 'process.stdin.resume()'], {
        cwd: a.home,
        env: a.env,
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      await until(async () => (await processesIn(a.home)).includes(child.pid!));
      expect(await processesIn(b.home)).toEqual([]);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.stdin!.end();
      await exited;
    } finally {
      await a.cleanup();
      await b.cleanup();
    }
  });
});
