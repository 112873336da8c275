import { execFileSync } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, type TempHome } from '@holic512/testkit';
import { createToolRunner } from '../src/runner';

// A real temporary git repository, as a user's workspace would be.
describe('runner against a real git repository', () => {
  let temp: TempHome;
  let repo: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: temp.env, stdio: 'pipe' }).toString();

  beforeAll(async () => {
    temp = await createTempHome();
    repo = path.join(temp.home, 'repo');
    await fs.mkdir(repo);
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 'T');
    await fs.writeFile(path.join(repo, 'a.txt'), 'one\n');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'first commit');
    await fs.writeFile(path.join(repo, 'a.txt'), 'two\n');
    await fs.writeFile(path.join(repo, 'new.txt'), 'x\n');
  });
  afterAll(() => temp.cleanup());

  const runner = () => createToolRunner({ cwd: repo, env: temp.env, lang: 'en', confirm: () => ({ action: 'decline' }) });

  test('git status is L0 and parsed', async () => {
    const r = await runner().run({ tool: 'exec', program: 'git', args: ['status', '--porcelain', '-b'] });
    expect(r).toMatchObject({
      exitCode: 0,
      decision: { level: 'L0', by: 'policy' },
      parsed: {
        kind: 'git_status',
        branch: 'main',
        clean: false,
        total: 2,
        items: [
          { status: ' M', path: 'a.txt' },
          { status: '??', path: 'new.txt' },
        ],
      },
    });
  });

  test('git log is parsed', async () => {
    const r = await runner().run({ tool: 'exec', program: 'git', args: ['log', '--oneline'] });
    expect(r).toMatchObject({ parsed: { kind: 'git_log', total: 1, items: [{ subject: 'first commit' }] } });
  });

  test("a repository's own core.fsmonitor cannot run a program during an L0 git status", async () => {
    const marker = path.join(temp.home, 'pwned');
    const hook = path.join(temp.home, 'fsmonitor.sh');
    await fs.writeFile(hook, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    git('config', 'core.fsmonitor', hook);
    try {
      const r = await runner().run({ tool: 'exec', program: 'git', args: ['status'] });
      expect(r).toMatchObject({ exitCode: 0, decision: { level: 'L0' } });
      await expect(fs.access(marker)).rejects.toThrow();
    } finally {
      git('config', '--unset', 'core.fsmonitor');
    }
  });

  test('a program in the workspace cannot stand in for git through a relative PATH entry', async () => {
    const fake = path.join(repo, 'git');
    await fs.writeFile(fake, '#!/bin/sh\necho FAKE\n', { mode: 0o755 });
    try {
      const env = { ...temp.env, PATH: `.:${temp.env.PATH}` };
      const r = await createToolRunner({ cwd: repo, env, confirm: () => ({ action: 'decline' }) }).run({
        tool: 'exec',
        program: 'git',
        args: ['status', '--porcelain'],
      });
      expect(r).toMatchObject({ exitCode: 0 });
      expect('stdoutTail' in r && r.stdoutTail).not.toContain('FAKE');
    } finally {
      await fs.rm(fake);
    }
  });

  test('L1 git commit is declined without running; L2 reset --hard is blocked', async () => {
    const r1 = await runner().run({ tool: 'exec', program: 'git', args: ['commit', '-am', 'x'] });
    expect(r1).toMatchObject({ status: 'declined' });
    const r2 = await runner().run({ tool: 'exec', program: 'git', args: ['reset', '--hard'] });
    expect(r2).toMatchObject({ status: 'blocked' });
    expect(git('status', '--porcelain')).toContain(' M a.txt');
  });
});
