import { promises as fsp } from 'fs';
import * as path from 'path';
import { classify, createToolRunner, type ConfirmAnswer, type ConfirmRequest, type Step, type ToolRunnerOptions } from '../src';
import { tempWorld } from './tools-session';

// The runner with the issue-#10 tools over real temp folders: levels by where a path really
// points, confirmation with the diff, session allowances, the undo journal, dispose.

let world: Awaited<ReturnType<typeof tempWorld>>;
beforeEach(async () => {
  world = await tempWorld();
  await fsp.writeFile(path.join(world.ws, 'a.txt'), 'alpha\nbeta\n');
  await fsp.writeFile(path.join(world.outside, 'o.txt'), 'outside\n');
  await fsp.mkdir(path.join(world.home, '.ssh'));
  await fsp.writeFile(
    path.join(world.home, '.ssh', 'id_ed25519'),
    '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n',
  );
  await fsp.writeFile(path.join(world.outside, '.env'), 'TOKEN=1\n');
  await fsp.writeFile(path.join(world.ws, '.env'), 'TOKEN=2\n');
  await fsp.symlink(path.join(world.outside, 'o.txt'), path.join(world.ws, 'escape.txt'));
  await fsp.symlink(path.join(world.home, '.ssh', 'id_ed25519'), path.join(world.ws, 'innocent.txt'));
  await fsp.mkdir(path.join(world.ws, '.git', 'hooks'), { recursive: true });
  await fsp.symlink(path.join(world.ws, '.git', 'hooks'), path.join(world.ws, 'hooks-link'));
});
afterEach(async () => {
  await world.cleanup();
});

function make(answers: ConfirmAnswer[] = [], opts: Partial<ToolRunnerOptions> = {}) {
  const asked: ConfirmRequest[] = [];
  const runner = createToolRunner({
    cwd: world.ws,
    workspace: world.ws,
    lang: 'en',
    env: { ...process.env, HOME: world.home, SLOTHTOOL_HOME: path.join(world.home, '.slothtool') },
    confirm: async (req) => {
      asked.push(req);
      return answers.shift() ?? { action: 'decline' };
    },
    ...opts,
  });
  return { runner, asked };
}

const ids = (d: { rules: { id: string }[] }) => d.rules.map((r) => r.id);

describe('judging fs steps by where the path really points', () => {
  test.each<[string, Step, string, string]>([
    ['read inside', { tool: 'fs.read', path: 'a.txt' }, 'L0', 'fs.read'],
    ['read outside', { tool: 'fs.read', path: '../outside/o.txt' }, 'L1', 'fs.outside'],
    ['read through a symlink that escapes', { tool: 'fs.read', path: 'escape.txt' }, 'L1', 'fs.symlink_escape'],
    ['read a private key through an innocent name', { tool: 'fs.read', path: 'innocent.txt' }, 'L2', 'secret.private_key'],
    ['read ~/.ssh', { tool: 'fs.read', path: '~/.ssh/id_ed25519' }, 'L2', 'secret.private_key'],
    ['read ~/.SSH in capitals', { tool: 'fs.read', path: '~/.SSH/ID_ED25519' }, 'L2', 'secret.private_key'],
    ['read .env outside the workspace', { tool: 'fs.read', path: '../outside/.env' }, 'L2', 'fs.secret_outside'],
    ['read .env inside the workspace', { tool: 'fs.read', path: '.env' }, 'L1', 'secret.read'],
    ['edit inside', { tool: 'fs.edit', path: 'a.txt', old_string: 'alpha', new_string: 'x' }, 'L1', 'fs.edit'],
    ['create inside', { tool: 'fs.write', path: 'new.txt', content: 'x' }, 'L1', 'fs.create'],
    ['overwrite unread', { tool: 'fs.write', path: 'a.txt', content: 'x' }, 'L1', 'fs.unread_overwrite'],
    ['write outside', { tool: 'fs.write', path: '../outside/n.txt', content: 'x' }, 'L1', 'fs.outside_write'],
    ['write a git hook', { tool: 'fs.write', path: '.git/hooks/pre-commit', content: 'x' }, 'L2', 'write.persistence'],
    ['write ~/.bashrc', { tool: 'fs.write', path: '~/.bashrc', content: 'x' }, 'L2', 'write.persistence'],
    ['write a git hook spelled in capitals', { tool: 'fs.write', path: '.GIT/hooks/pre-commit', content: 'x' }, 'L2', 'write.persistence'],
    ['write a hook through a symlinked folder', { tool: 'fs.write', path: 'hooks-link/pre-push', content: 'x' }, 'L2', 'write.persistence'],
    ['write /etc', { tool: 'fs.write', path: '/etc/hosts', content: 'x' }, 'L2', 'write.system_path'],
    ['write the ai config', { tool: 'fs.write', path: '~/.slothtool/plugin-configs/ai.json', content: '{}' }, 'L2', 'fs.slothtool_home'],
    ['http.get', { tool: 'http.get', url: 'https://example.com/x' }, 'L1', 'http.get'],
    ['http.get loopback', { tool: 'http.get', url: 'http://127.0.0.1:8080/' }, 'L2', 'http.private'],
    ['http.get file:', { tool: 'http.get', url: 'file:///etc/passwd' }, 'L2', 'http.scheme'],
    ['proc.start like exec (L0)', { tool: 'proc.start', program: 'ls', args: [] }, 'L0', 'read.only'],
    ['proc.start like exec (L1)', { tool: 'proc.start', program: 'npm', args: ['test'] }, 'L1', 'project.script'],
    ['proc.start like exec (L2)', { tool: 'proc.start', program: 'rm', args: ['-rf', '/'] }, 'L2', 'delete.recursive'],
    ['proc.status', { tool: 'proc.status', proc_id: 'proc_1' }, 'L0', 'proc.status'],
    ['proc.kill', { tool: 'proc.kill', proc_id: 'proc_1' }, 'L0', 'proc.kill'],
  ])('%s', (_name, step, level, rule) => {
    const d = make().runner.judge(step);
    expect([d.level, ids(d)]).toEqual([level, expect.arrayContaining([rule])]);
  });

  test('malformed steps are blocked with what was expected', async () => {
    const r = await make().runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'x' } as unknown as Step);
    expect(r).toMatchObject({ status: 'blocked', decision: { level: 'L2', rules: [{ id: 'step.invalid' }] } });
    expect((r as { reason?: string }).reason).toMatch(/new_string/);
  });

  test('pure classify judges lexically and agrees on the plain cases', () => {
    expect(classify({ tool: 'fs.read', path: 'a.txt' }, {}, { cwd: world.ws }).level).toBe('L0');
    expect(classify({ tool: 'fs.read', path: '/etc/shadow' }, {}, { cwd: world.ws }).level).toBe('L2');
    expect(classify({ tool: 'http.get', url: 'http://localhost:3000' }, { allowPrivateNetwork: ['localhost:3000'] }, {}).level).toBe('L1');
  });
});

test('a workspace that is the home folder (or /) makes nothing inside it', () => {
  const { runner } = make([], { cwd: world.home, workspace: world.home });
  const d = runner.judge({ tool: 'fs.read', path: 'notes.txt' });
  expect([d.level, ids(d)]).toEqual(['L1', expect.arrayContaining(['fs.broad_workspace', 'fs.outside'])]);
  expect(make([], { cwd: '/', workspace: '/' }).runner.judge({ tool: 'fs.read', path: 'etc/hostname' }).level).toBe('L1');
});

describe('running fs steps', () => {
  test('fs.edit asks with the diff as preview, then writes; the result goes back without the preview', async () => {
    const { runner, asked } = make([{ action: 'run' }]);
    const r = await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'beta', new_string: 'gamma' });
    expect(asked[0].preview).toContain('-beta\n+gamma');
    expect(asked[0].sessionKey).toBe('fs.edit a.txt');
    expect(r).toMatchObject({ tool: 'fs.edit', status: 'applied', decision: { level: 'L1', by: 'user' } });
    expect(JSON.stringify(r)).not.toContain('+gamma');
    expect(await fsp.readFile(path.join(world.ws, 'a.txt'), 'utf8')).toBe('alpha\ngamma\n');
  });

  test('declined edits write nothing and are reported as declined', async () => {
    const { runner } = make([{ action: 'decline', reason: 'no' }]);
    const r = await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'beta', new_string: 'gamma' });
    expect(r).toMatchObject({ status: 'declined', reason: 'no' });
    expect(await fsp.readFile(path.join(world.ws, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
  });

  test('an edit that cannot apply is an error before anyone is asked', async () => {
    const { runner, asked } = make([{ action: 'run' }]);
    const r = await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'nope', new_string: 'x' });
    expect(r).toMatchObject({ status: 'error', error: { code: 'NOT_FOUND_IN_FILE' } });
    expect(asked).toHaveLength(0);
  });

  test('after fs.read, overwriting is a plain write; allowWrite then runs it without asking', async () => {
    const { runner, asked } = make([], { policy: { allowWrite: true } });
    expect(runner.judge({ tool: 'fs.write', path: 'a.txt', content: 'x' })).toMatchObject({ level: 'L1' });
    await runner.run({ tool: 'fs.read', path: 'a.txt' });
    expect(runner.judge({ tool: 'fs.write', path: 'a.txt', content: 'x' }).level).toBe('L0');
    expect(await runner.run({ tool: 'fs.write', path: 'a.txt', content: 'x\n' })).toMatchObject({
      status: 'applied',
      decision: { by: 'policy' },
    });
    expect(asked).toHaveLength(0);
    // Changed behind the session's back: asked again.
    await fsp.writeFile(path.join(world.ws, 'a.txt'), 'someone else wrote this, longer\n');
    expect(ids(runner.judge({ tool: 'fs.write', path: 'a.txt', content: 'y' }))).toContain('fs.stale_overwrite');
  });

  test('allow-session for a file allows later edits of that file only; never outside the workspace', async () => {
    const { runner, asked } = make([{ action: 'allow-session' }, { action: 'allow-session' }, { action: 'decline' }]);
    await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'alpha', new_string: 'one' });
    expect(await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'one', new_string: 'two' })).toMatchObject({
      status: 'applied',
      decision: { level: 'L0' },
    });
    expect(asked).toHaveLength(1);
    await runner.run({ tool: 'fs.write', path: '../outside/n.txt', content: 'x' });
    expect(await runner.run({ tool: 'fs.write', path: '../outside/n.txt', content: 'y' })).toMatchObject({ status: 'declined' });
    expect(asked).toHaveLength(3);
  });

  test('L2 targets are never written', async () => {
    const { runner, asked } = make([{ action: 'run' }]);
    const r = await runner.run({ tool: 'fs.write', path: '.git/hooks/pre-commit', content: 'rm -rf ~' });
    expect(r).toMatchObject({ status: 'blocked' });
    expect(asked).toHaveLength(0);
    await expect(fsp.access(path.join(world.ws, '.git/hooks/pre-commit'))).rejects.toThrow();
  });
});

describe('undo and dispose', () => {
  test('undo(mark) restores what was changed after the mark', async () => {
    const { runner } = make([{ action: 'run' }, { action: 'run' }]);
    const mark = runner.mark();
    await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' });
    await runner.run({ tool: 'fs.write', path: 'made.txt', content: 'new\n' });
    expect(runner.changes(mark).map((c) => [path.basename(c.path), c.tool])).toEqual([
      ['a.txt', 'fs.edit'],
      ['made.txt', 'fs.write'],
    ]);
    const r = runner.undo(mark);
    expect(r.restored).toHaveLength(2);
    expect(await fsp.readFile(path.join(world.ws, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
    await expect(fsp.access(path.join(world.ws, 'made.txt'))).rejects.toThrow();
    expect(runner.changes(mark)).toEqual([]);
  });

  test('dispose ends background processes', async () => {
    const { runner } = make([], { policy: { allowedPrograms: ['node'] } });
    const script = path.join(world.ws, 'loop.js');
    await fsp.writeFile(script, 'setInterval(() => {}, 1000); console.log("up");');
    const { runner: r2 } = make([{ action: 'run' }], { policy: { allowedPrograms: ['node'] } });
    void runner;
    const started = (await r2.run({ tool: 'proc.start', program: 'node', args: ['loop.js'] })) as Record<string, any>;
    expect(started).toMatchObject({ tool: 'proc.start', proc_id: 'proc_1', state: 'running' });
    r2.dispose();
    const after = (await r2.run({ tool: 'proc.status', proc_id: 'proc_1', wait_ms: 30000 })) as Record<string, any>;
    expect(after).toMatchObject({ state: 'exited', killed: true });
  });
});
