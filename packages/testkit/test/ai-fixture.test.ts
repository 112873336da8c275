import { execFileSync } from 'child_process';
import { existsSync } from 'fs';
import * as path from 'path';
import { createAiFixture, packageDir, startPty } from '../src/index';

test('the AI fixture: llm-base registered, a profile on the scripted server, a git workspace, all gone after cleanup', async () => {
  const fx = await createAiFixture({ language: 'zh', git: true, profile: { low_model: 'low' }, aiConfig: { allowedPrograms: ['ls'] } });
  let stopped = false;
  try {
    expect(fx.cwd).toBe(path.join(fx.temp.home, 'project'));
    expect(execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: fx.cwd, env: fx.env, encoding: 'utf8' }).trim()).toBe('true');
    const registry = await fx.temp.readJson<{ plugins: Record<string, { binPath: string }> }>('registry.json');
    expect(registry.plugins['llm-base'].binPath.startsWith(packageDir('plugin-llm-base'))).toBe(true);
    const llm = await fx.temp.readJson<{ default_profile: string; profiles: Record<string, Record<string, unknown>> }>('plugin-configs/llm-base.json');
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

test('startPty: what is typed reaches the program, waitFor reads its screen, the exit code comes back', async () => {
  const script = "process.stdout.write('\\x1b[1mready\\x1b[0m\\n'); process.stdin.setRawMode(true); process.stdin.once('data', (d) => { process.stdout.write('got ' + d + '\\n'); process.exit(3); });";
  const term = startPty(process.execPath, ['-e', script], { env: process.env });
  await term.waitFor('ready'); // escape sequences removed: "ready" is whole in text()
  term.write('x');
  await term.waitFor(/got x/);
  expect(await term.exited).toBe(3);
  expect(term.raw()).toContain('\x1b[1m');
  await expect(term.waitFor('never')).rejects.toThrow(/exited before never appeared/);
});
