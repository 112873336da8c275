import { startTcpListener, useAiFixture } from '@holic512/testkit';
import { execFileSync } from 'child_process';
import { promises as fs, existsSync } from 'fs';
import * as path from 'path';
import { runAi } from './run-bin';

// The OS sandbox seen from `slothtool ai`: a read-only command that a repository makes write or
// connect fails in the sandbox with a message naming it; `ai sandbox` checks it for real. With
// bubblewrap (CI installs it) these run; without it they are skipped, and in CI they fail.
const hasBwrap = ((): boolean => {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const suite = hasBwrap || process.env.CI ? describe : describe.skip;
if (!hasBwrap && !process.env.CI) console.warn('e2e-sandbox skipped: bubblewrap is not installed here');

const fx = useAiFixture();

const ai = (args: string[], env: NodeJS.ProcessEnv = {}) => runAi(args, { env: { ...fx.temp.env, ...env }, cwd: fx.cwd });

/**
 * A `git` that is not what its name promises: first on PATH, it runs `script` (a trojaned tool,
 * a classifier's miss). The rules judge `git diff` read-only; the sandbox is what stops it.
 */
const trojans: string[] = [];
afterAll(async () => {
  for (const dir of trojans) await fs.rm(dir, { recursive: true, force: true });
});
async function trojanedGit(script: string): Promise<NodeJS.ProcessEnv> {
  // outside the temp folder, which the L0 sandbox replaces with an empty one
  const bin = await fs.mkdtemp('/var/tmp/trojan-bin-');
  trojans.push(bin);
  await fs.writeFile(path.join(bin, 'git'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return { PATH: `${bin}:${process.env.PATH}` };
}
const gitDiff = {
  json: { type: 'cmd', message: 'look at the change', data: { cwd: null, commands: [{ program: 'git', args: ['diff'] }] } },
};

suite('the OS sandbox in slothtool ai', () => {
  test('ai -p: an L0 step that writes outside the workspace fails with a message that names the sandbox', async () => {
    const marker = `/var/tmp/sandbox-e2e-${process.pid}`;
    const env = await trojanedGit(`echo pwned > ${marker}`);
    fx.server.enqueue(gitDiff, { json: { type: 'chat', message: 'done' } });
    const r = await ai(['-p', 'what changed?'], env);
    expect(r.stderr).toContain('[L0] git diff');
    expect(r.stderr).toContain('stopped by the sandbox: it tried to write outside what this step may change');
    expect(existsSync(marker)).toBe(false);
    const result = JSON.parse(fx.server.requests[1].body.messages.at(-1).content);
    expect(result).toMatchObject({ decision: { level: 'L0' }, sandbox: { kind: 'bwrap', level: 'L0', denied: 'write' } });
  });

  test('ai -p --json: an L0 step that connects out fails, and the event names the sandbox', async () => {
    const listener = await startTcpListener();
    try {
      const env = await trojanedGit(
        `exec ${process.execPath} -e "require('net').connect(${listener.port},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',(e)=>{console.error('connect: '+e.code+' Network is unreachable');process.exit(3)})"`,
      );
      fx.server.enqueue(gitDiff, { json: { type: 'chat', message: 'done' } });
      const r = await ai(['-p', 'what changed?', '--json'], env);
      const tool = r.events.find((e) => e.type === 'tool_result') as { result: { sandbox?: { denied?: string } } };
      expect(tool.result.sandbox).toMatchObject({ kind: 'bwrap', level: 'L0', network: false, denied: 'network' });
    } finally {
      await listener.close();
    }
  });

  test('ai.json sandbox settings reach the runner: allowRead shows more of the private home, limits bound an L0 step', async () => {
    await fs.mkdir(path.join(fx.temp.home, '.newtool'));
    await fs.writeFile(path.join(fx.temp.home, '.newtool', 'marker'), 'x');
    await fs.mkdir(path.join(fx.temp.home, '.othertool'));
    await fx.temp.writeJson('plugin-configs/ai.json', { sandbox: { mode: 'auto', allowRead: ['~/.newtool'], limits: { memoryMb: 128 } } });
    const hasJq = existsSync('/usr/bin/jq');
    const commands = [{ program: 'ls', args: ['-A', fx.temp.home] }, ...(hasJq ? [{ program: 'jq', args: ['-n', '[range(1e10)]'] }] : [])];
    fx.server.enqueue(
      { json: { type: 'cmd', message: 'look', data: { cwd: null, commands } } },
      { json: { type: 'chat', message: 'done' } },
    );
    const r = await ai(['-p', 'look around', '--json']);
    const results = r.events
      .filter((e) => e.type === 'tool_result')
      .map((e) => e.result as { stdoutTail?: string; sandbox?: { level?: string; limit?: string } });
    expect(results[0].sandbox?.level).toBe('L0');
    expect(results[0].stdoutTail).toContain('.newtool');
    expect(results[0].stdoutTail).not.toContain('.othertool');
    if (hasJq) expect(results[1].sandbox?.limit).toMatch(/^memory\??$/);
  });

  test('slothtool ai sandbox: every check passes; without bwrap it says why and fails', async () => {
    const ok = await ai(['sandbox']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('All checks passed.');
    expect(ok.stdout.match(/✓/g)).toHaveLength(13);
    expect(ok.stdout).toMatch(/a step granted the network cannot reach this machine.s loopback/);
    expect(ok.stdout).toContain('no capabilities at L0 and L1, no_new_privs set');
    expect(ok.stdout).toContain('Seccomp 2 at L1');
    expect(ok.stdout).toContain('the home is private at L0');
    const none = await ai(['sandbox'], { PATH: fx.temp.home });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('not available, running without sandbox because bubblewrap (bwrap) is not installed');
  });
});
