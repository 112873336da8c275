import { execFileSync } from 'child_process';
import { existsSync, promises as fs } from 'fs';
import * as path from 'path';
import * as net from 'net';
import { closedPort, createAiFixture, packageDir, startPty, startTcpListener } from '../src/index';

test('the AI fixture: llm-base registered, a profile on the scripted server, a git workspace, all gone after cleanup', async () => {
  const fx = await createAiFixture({ language: 'zh', git: true, profile: { low_model: 'low' }, aiConfig: { allowedPrograms: ['ls'] } });
  let stopped = false;
  try {
    expect(fx.cwd).toBe(path.join(fx.temp.home, 'project'));
    expect(execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: fx.cwd, env: fx.env, encoding: 'utf8' }).trim()).toBe('true');
    const registry = await fx.temp.readJson<{ plugins: Record<string, { binPath: string }> }>('registry.json');
    expect(registry.plugins['llm-base'].binPath.startsWith(packageDir('plugin-llm-base'))).toBe(true);
    const llm = await fx.temp.readJson<{ default_profile: string; profiles: Record<string, Record<string, unknown>> }>(
      'plugin-configs/llm-base.json',
    );
    expect(llm.default_profile).toBe('local');
    expect(llm.profiles.local).toMatchObject({ base_url: fx.server.baseURL, low_model: 'low', high_model: 'm', max_retries: 0 });
    expect(await fx.temp.readJson('plugin-configs/ai.json')).toEqual({ allowedPrograms: ['ls'] });
    expect(await fx.temp.readJson('settings.json')).toEqual({ language: 'zh' });
    expect(fx.env.SLOTHTOOL_HOME).toBe(fx.temp.slothtoolHome);
    fx.onCleanup(() => {
      stopped = true;
    });
  } finally {
    await fx.cleanup();
  }
  expect(stopped).toBe(true);
  expect(existsSync(fx.temp.home)).toBe(false);
});

test('the AI fixture on the scripted Ollama, with a second profile, another llm-base, ai registered, and this process pointed at its home', async () => {
  const before = process.env.SLOTHTOOL_HOME;
  const gone = `http://127.0.0.1:${await closedPort()}/v1`;
  const fx = await createAiFixture({
    ollama: { models: [{ name: 'q:1b' }] },
    profile: { low_model: 'q:1b' },
    profiles: { gone: { base_url: gone } },
    llmBase: async (temp) => {
      const dir = path.join(temp.home, 'other-llm-base');
      await fs.mkdir(dir);
      await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'other', version: '1.0.0', bin: 'cli.js' }));
      return dir;
    },
    registerAi: true,
    inProcess: true,
    language: null,
  });
  try {
    expect(fx.server.models.has('q:1b')).toBe(true); // the Ollama's own API
    const llm = await fx.temp.readJson<{ default_profile: string; profiles: Record<string, Record<string, unknown>> }>(
      'plugin-configs/llm-base.json',
    );
    expect(llm.default_profile).toBe('local');
    expect(llm.profiles.local).toEqual({
      base_url: `${fx.server.baseURL}/v1`,
      provider: 'ollama',
      api_key: '',
      low_model: 'q:1b',
      high_model: 'm',
      timeout: 10000,
      max_retries: 0,
    });
    expect(llm.profiles.gone).toMatchObject({ base_url: gone, provider: 'ollama', low_model: 'm' });
    const registry = await fx.temp.readJson<{ plugins: Record<string, { name: string; binPath: string }> }>('registry.json');
    expect(registry.plugins['llm-base']).toMatchObject({ name: 'other', binPath: path.join(fx.temp.home, 'other-llm-base', 'cli.js') });
    expect(registry.plugins.ai.binPath.startsWith(packageDir('plugin-ai'))).toBe(true);
    expect(existsSync(path.join(fx.temp.slothtoolHome, 'settings.json'))).toBe(false);
    expect(process.env.SLOTHTOOL_HOME).toBe(fx.temp.slothtoolHome);
  } finally {
    await fx.cleanup();
  }
  expect(process.env.SLOTHTOOL_HOME).toBe(before);
});

test("a fixture without llm-base or a profile; its env carries none of the machine's API keys or SLOTHTOOL_AI_ settings", async () => {
  const saved = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, SLOTHTOOL_AI_HOST_BIN: process.env.SLOTHTOOL_AI_HOST_BIN };
  process.env.OPENAI_API_KEY = 'sk-machine';
  process.env.SLOTHTOOL_AI_HOST_BIN = '/opt/host.js';
  const fx = await createAiFixture({ llmBase: false, profile: false });
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    expect(fx.env.OPENAI_API_KEY).toBeUndefined();
    expect(fx.env.SLOTHTOOL_AI_HOST_BIN).toBeUndefined();
    expect(fx.env.SLOTHTOOL_AI_PROBE_PORTS).toBe(''); // the temp home's: no probing of real ports
    expect(existsSync(path.join(fx.temp.slothtoolHome, 'registry.json'))).toBe(false);
    expect(existsSync(path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.json'))).toBe(false);
  } finally {
    await fx.cleanup();
  }
});

test('startTcpListener: a connection is greeted and closed; after close the port refuses', async () => {
  const listener = await startTcpListener('hi');
  const read = () =>
    new Promise<string>((resolve, reject) => {
      let got = '';
      net
        .connect(listener.port, '127.0.0.1')
        .on('data', (d) => (got += d))
        .on('end', () => resolve(got))
        .on('error', reject);
    });
  expect(await read()).toBe('hi');
  await listener.close();
  await expect(read()).rejects.toThrow(/ECONNREFUSED/);
});

test('startPty: what is typed reaches the program, waitFor reads its screen, the exit code comes back', async () => {
  const script =
    "process.stdout.write('\\x1b[1mready\\x1b[0m\\n'); process.stdin.setRawMode(true); process.stdin.once('data', (d) => { process.stdout.write('got ' + d + '\\n'); process.exit(3); });";
  const term = startPty(process.execPath, ['-e', script], { env: process.env });
  await term.answer('ready', 'x'); // escape sequences removed: "ready" is whole in text()
  await term.waitForAll([/got/, 'x']);
  expect(await term.exited).toBe(3);
  expect(term.raw()).toContain('\x1b[1m');
  await expect(term.waitFor('never')).rejects.toThrow(/exited before never appeared/);
});
